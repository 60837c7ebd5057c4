-- pages/graph_lines: the lines of the HTML pages' net-won graph, for one player (--player;
-- without it, the hero, as in `graph`). A line is one cash unit (USD, EUR, play money) or one
-- tournament: chips of different tournaments are never added together, each tournament starts
-- again at zero. Cash lines come in three (net won, showdown, non-showdown), per tournament
-- only net won. Per point: the hand's number within its line, its start (epoch seconds), and
-- the cumulative amounts in the unit and in big blinds (each hand in its own big blind). Long
-- lines keep about 1,000 points (every k-th hand, k = hands // 1,000, always the first and the
-- last).
--
-- Read for millions of hands (issue #18), so the hands are never all sorted: they are added up
-- per hour of play (player_hours: a hash aggregate the size of the hours played; made once for
-- a page that also shows the `graph` report, hhparse.reports.html.shared_hours), the hours cumulated in
-- order, and only the hours that hold a kept hand (the first, the last, one where the count
-- passes a multiple of k) are ordered hand by hand, each starting from the sums at its start.
-- The hands are the raw hand_players rows (player_rows_in: money in minor units, made an exact
-- decimal only for the points), a line keyed by its unit and tournament (labelled at the end).
-- The points are the former formulation's (tests/data/report_reference/graph_lines.sql, which
-- ordered every hand): the same hands, the same exact amounts; tests/test_reports_reference.py.
WITH scope AS NOT MATERIALIZED (
    SELECT
        unit,
        unit_scale,
        tournament_id,
        hand_id,
        start_utc,
        net,
        in_big_blinds(net, big_blind)                                         AS net_bb,
        CASE WHEN went_to_showdown THEN net ELSE 0 END                        AS showdown_net,
        CASE WHEN went_to_showdown THEN in_big_blinds(net, big_blind)
             ELSE 0 END                                                       AS showdown_bb,
        hour
    FROM player_hour_hands($player, $since, $until, $game, $stakes)
),

-- per unit, tournament and hour (pages/player_hours.sql)
hour_sums AS (
    SELECT unit, tournament_id, unit_scale, hour, n, net, net_bb, showdown_net, showdown_bb
    FROM player_hours($player, $since, $until, $game, $stakes)
),

-- each hour's end: the hand number there and the sums up to it; the line's hands and its k
ends AS (
    SELECT
        *,
        CAST(sum(n) OVER w AS BIGINT)                                         AS hand_no,
        sum(net) OVER w                                                       AS cum_net,
        sum(net_bb) OVER w                                                    AS cum_net_bb,
        sum(showdown_net) OVER w                                              AS cum_showdown,
        sum(showdown_bb) OVER w                                               AS cum_showdown_bb,
        CAST(sum(n) OVER (PARTITION BY unit, tournament_id) AS BIGINT)        AS line_hands
    FROM hour_sums
    WINDOW w AS (PARTITION BY unit, tournament_id ORDER BY hour ROWS UNBOUNDED PRECEDING)
),

-- the hours holding a kept hand, with the line's values at their start
point_hours AS (
    SELECT
        unit, tournament_id, unit_scale, hour, line_hands,
        greatest(1, line_hands // 1000)                                       AS k,
        hand_no - n                                                           AS no0,
        cum_net - net                                                         AS net0,
        cum_net_bb - net_bb                                                   AS net_bb0,
        cum_showdown - showdown_net                                           AS sd0,
        cum_showdown_bb - showdown_bb                                         AS sd_bb0
    FROM ends
    WHERE hand_no - n = 0
       OR hand_no = line_hands
       OR hand_no // greatest(1, line_hands // 1000) > (hand_no - n) // greatest(1, line_hands // 1000)
),

running AS (
    SELECT
        s.unit,
        s.tournament_id,
        p.unit_scale,
        s.hand_id,
        epoch(s.start_utc)                                                    AS t,
        p.no0 + row_number() OVER w                                           AS hand_no,
        p.line_hands,
        p.k,
        p.net0 + sum(s.net) OVER w                                            AS cum_net,
        p.net_bb0 + sum(s.net_bb) OVER w                                      AS cum_net_bb,
        p.sd0 + sum(s.showdown_net) OVER w                                    AS cum_showdown,
        p.sd_bb0 + sum(s.showdown_bb) OVER w                                  AS cum_showdown_bb
    FROM scope AS s
    JOIN point_hours AS p
      ON s.unit = p.unit AND s.tournament_id IS NOT DISTINCT FROM p.tournament_id AND s.hour = p.hour
    WINDOW w AS (PARTITION BY s.unit, s.tournament_id, s.hour ORDER BY s.start_utc, s.hand_id ROWS UNBOUNDED PRECEDING)
),

final AS (
    SELECT
        unit,
        tournament_id,
        coalesce('T' || tournament_id, unit)                                  AS line,
        CAST(hand_no AS BIGINT)                                               AS hand_no,
        hand_id,
        CAST(t AS BIGINT)                                                     AS t,
        to_money_sum(cum_net, unit_scale)                                     AS cum_net,
        CAST(round(cum_net_bb, 2) AS DOUBLE)                                  AS cum_net_bb,
        to_money_sum(cum_showdown, unit_scale)                                AS cum_showdown,
        CAST(round(cum_showdown_bb, 2) AS DOUBLE)                             AS cum_showdown_bb,
        to_money_sum(cum_net - cum_showdown, unit_scale)                      AS cum_nonshowdown,
        CAST(round(cum_net_bb - cum_showdown_bb, 2) AS DOUBLE)                AS cum_nonshowdown_bb
    FROM running
    WHERE hand_no = 1
       OR hand_no = line_hands
       OR hand_no % k = 0
    ORDER BY unit, min(t) OVER (PARTITION BY coalesce('T' || tournament_id, unit)), line, hand_no
)

SELECT * FROM final
