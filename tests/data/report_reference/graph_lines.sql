-- Reference formulation (tests/test_reports_reference.py): pages/graph_lines.sql as it was before the
-- #18 rewrite, every hand of a line ordered and cumulated.
-- pages/graph_lines: the lines of the HTML pages' net-won graph, for one player (--player;
-- without it, the hero, as in `graph`). A line is one cash unit (USD, EUR, play money) or one
-- tournament: chips of different tournaments are never added together, each tournament starts
-- again at zero. Cash lines come in three (net won, showdown, non-showdown), per tournament
-- only net won. Per point: the hand's number within its line, its start (epoch seconds), and
-- the cumulative amounts in the unit and in big blinds (each hand in its own big blind). Long
-- lines keep about 1,000 points (every k-th hand, always the first and the last).
WITH scope AS (
    SELECT
        ph.unit,
        ph.hand_id,
        ph.start_utc,
        ph.net,
        ph.net_bb,
        ph.showdown_net,
        CASE WHEN ph.wtsd = 1 THEN ph.net_bb ELSE 0 END                       AS showdown_bb,
        ph.tournament_id
    FROM player_hands_in($player, $since, $until, $game, $stakes) AS ph
    WHERE CAST($player AS VARCHAR) IS NOT NULL OR ph.is_hero
),

running AS (
    SELECT
        unit,
        tournament_id,
        coalesce('T' || tournament_id, unit)                                  AS line,
        hand_id,
        epoch(start_utc)                                                      AS t,
        row_number() OVER w                                                   AS hand_no,
        count(*) OVER (PARTITION BY unit, tournament_id)                      AS line_hands,
        sum(net) OVER w                                                       AS cum_net,
        sum(net_bb) OVER w                                                    AS cum_net_bb,
        sum(showdown_net) OVER w                                              AS cum_showdown,
        sum(showdown_bb) OVER w                                               AS cum_showdown_bb
    FROM scope
    WINDOW w AS (PARTITION BY unit, tournament_id ORDER BY start_utc, hand_id ROWS UNBOUNDED PRECEDING)
),

final AS (
    SELECT
        unit,
        tournament_id,
        line,
        hand_no,
        hand_id,
        CAST(t AS BIGINT)                                                     AS t,
        cum_net,
        round(cum_net_bb, 2)                                                  AS cum_net_bb,
        cum_showdown,
        round(cum_showdown_bb, 2)                                             AS cum_showdown_bb,
        cum_net - cum_showdown                                                AS cum_nonshowdown,
        round(cum_net_bb - cum_showdown_bb, 2)                                AS cum_nonshowdown_bb
    FROM running
    WHERE hand_no = 1
       OR hand_no = line_hands
       OR hand_no % greatest(1, line_hands // 1000) = 0
    ORDER BY unit, min(t) OVER (PARTITION BY line), line, hand_no
)

SELECT * FROM final
