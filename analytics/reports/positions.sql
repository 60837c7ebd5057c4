-- positions: the summary stats per player, unit and table position (the referee's labels:
-- SB, BB, UTG, UTG+1, MP, HJ, CO, BTN), in the order the positions act pre-flop.
WITH stats AS (
    SELECT player, unit, position, * EXCLUDE (player, unit, stakes, game, structure, month, position, table_size,
                                             sort_bb, sort_seats)
    FROM player_stats($player, $since, $until, $game, $stakes, ['position'])
),

final AS (
    SELECT *
    FROM stats
    ORDER BY
        player,
        unit,
        coalesce(list_position(['UTG', 'UTG+1', 'UTG+2', 'MP', 'MP+1', 'HJ', 'CO', 'BTN', 'SB', 'BB'], position), 99),
        position
)

SELECT * FROM final
