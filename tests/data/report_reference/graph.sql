-- The full per-hand series of the `graph` report: its former SQL (a window over every hand) without
-- the thinning to every k-th hand. analytics/reports/graph.sql must give exactly these values at
-- each point it keeps, the first and the last hand, and each line's extremes
-- (tests/test_reports_reference.py).
--
-- graph: cumulative net won over the hands of one player (--player; without it, the hero's hands,
-- i.e. the account whose hole cards the histories show), per unit, with the showdown and
-- non-showdown parts and the all-in adjusted line (allin_ev: what every all-in before the river
-- would have won at its equity; stats.sql). Hands are ordered by start time; long histories are thinned to
-- about 2,000 points per unit (every k-th hand, always keeping the first and the last), which a
-- line plot cannot tell apart from every hand.
WITH scope AS (
    SELECT unit, hand_id, start_utc, net, showdown_net, nonshowdown_net, allin_ev
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE CAST($player AS VARCHAR) IS NOT NULL OR is_hero
),

running AS (
    SELECT
        unit,
        hand_id,
        start_utc,
        row_number() OVER w                                                   AS hand_no,
        count(*) OVER (PARTITION BY unit)                                     AS unit_hands,
        sum(net) OVER w                                                       AS cum_net,
        sum(showdown_net) OVER w                                              AS cum_showdown,
        sum(nonshowdown_net) OVER w                                           AS cum_nonshowdown,
        sum(allin_ev) OVER w                                                  AS cum_allin_ev
    FROM scope
    WINDOW w AS (PARTITION BY unit ORDER BY start_utc, hand_id ROWS UNBOUNDED PRECEDING)
),

final AS (
    SELECT unit, hand_no, hand_id, start_utc, cum_net, cum_showdown, cum_nonshowdown, cum_allin_ev
    FROM running
    ORDER BY unit, hand_no
)

SELECT * FROM final
