-- summary: per player and unit — hands, net won, bb/100, all-in EV, VPIP, PFR, 3-bet, fold to
-- 3-bet, steal, fold to steal, AF, AFq, flop c-bet and fold to it, WTSD, W$SD, WWSF, showdown and
-- non-showdown winnings — split by $by (a list of: stakes, game, structure, month, position,
-- table-size; the columns of the splits not asked for are NULL, and hhparse drops them). Every stat
-- is computed once in stats.sql (player_stats).
WITH stats AS (
    SELECT *
    FROM player_stats($player, $since, $until, $game, $stakes, CAST(coalesce($by, []) AS VARCHAR[]))
),

final AS (
    SELECT * EXCLUDE (sort_bb, sort_seats)
    FROM stats
    ORDER BY
        unit,
        player,
        month,
        game,
        structure,
        sort_bb,
        stakes,
        sort_seats,
        coalesce(list_position(['UTG', 'UTG+1', 'UTG+2', 'MP', 'MP+1', 'HJ', 'CO', 'BTN', 'SB', 'BB'], position), 99),
        hands DESC
)

SELECT * FROM final
