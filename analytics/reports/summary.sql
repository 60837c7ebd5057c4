-- summary: per player and unit — hands, net won, bb/100, VPIP, PFR, 3-bet, fold to 3-bet, steal,
-- fold to steal, AF, AFq, flop c-bet and fold to it, WTSD, W$SD, WWSF, showdown and non-showdown
-- winnings. Every stat is defined once in stats.sql (player_stats).
WITH stats AS (
    SELECT * EXCLUDE (position)
    FROM player_stats($player, $since, $until, $game, $stakes, false)
),

final AS (
    SELECT *
    FROM stats
    ORDER BY unit, hands DESC, player
)

SELECT * FROM final
