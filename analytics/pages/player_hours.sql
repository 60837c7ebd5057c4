-- player_hours: the hands of one player (p_player; without it, the hero, as in the graphs) added
-- up per hour of play, per unit and tournament: the first pass of both graphs, the `graph`
-- report's (reports/graph.sql, which adds the tournaments of a unit together) and the HTML
-- pages' net-won lines (pages/graph_lines.sql). Read on its own by each; a page that shows the
-- `graph` report with its lines makes these rows once, as a temporary table both read
-- (hhparse.reports.html.shared_hours), so the player's hands are added up once instead of twice.
-- Money stays in minor units (player_rows_in), added as integers: any sum of the hours is the
-- sum of their hands. Per hour: the hands, the showdown and non-showdown gains and losses apart
-- (the graph's bounds), the all-in EV and its gains, the last start, the net won and the showdown
-- net (the lines': read alone, each query's aggregate computes only the sums it reads), and both
-- in big blinds (each hand in its own big blind: float sums).
-- player_hour_hands: the hands of that player (player_rows_in's raw rows: money in minor units),
-- the columns both graphs read, with the hour each falls in. Each graph's second pass reads the
-- hands of a few hours (those holding a point or a line's extreme) from here; a page showing the
-- `graph` report with its lines reads the hands of those hours of both once, into a temporary
-- table (hhparse.reports.html.shared_hours).
CREATE OR REPLACE MACRO player_hour_hands(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT unit, unit_scale, tournament_id, hand_id, start_utc, net, big_blind, went_to_showdown, allin_ev,
           epoch_us(start_utc) // 3600000000                                                 AS hour
    FROM player_rows_in(p_player, p_since, p_until, p_game, p_stakes)
    WHERE CAST(p_player AS VARCHAR) IS NOT NULL OR is_hero;

CREATE OR REPLACE MACRO player_hours(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT
        unit,
        tournament_id,
        hour,
        any_value(unit_scale)                                                              AS unit_scale,
        count(*)                                                                           AS n,
        coalesce(sum(net) FILTER (WHERE went_to_showdown AND net > 0), 0)                  AS sd_up,
        coalesce(sum(net) FILTER (WHERE went_to_showdown AND net < 0), 0)                  AS sd_down,
        coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net > 0), 0)              AS nsd_up,
        coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net < 0), 0)              AS nsd_down,
        sum(allin_ev)                                                                      AS ev,
        coalesce(sum(allin_ev) FILTER (WHERE allin_ev > 0), 0)                             AS ev_up,
        max(start_utc)                                                                     AS last_start,
        sum(net)                                                                           AS net,
        sum(CASE WHEN went_to_showdown THEN net ELSE 0 END)                                AS showdown_net,
        sum(CAST(net AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0))                    AS net_bb,
        sum(CASE WHEN went_to_showdown THEN CAST(net AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0)
                 ELSE 0 END)                                                               AS showdown_bb
    FROM player_hour_hands(p_player, p_since, p_until, p_game, p_stakes)
    GROUP BY unit, tournament_id, hour;
