-- positions: the summary stats per player, unit and table position (the referee's labels:
-- SB, BB, UTG, UTG+1, MP, HJ, CO, BTN), in the order the positions act pre-flop.
WITH stats AS (
    SELECT *
    FROM player_stats($player, $since, $until, $game, $stakes, true)
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
