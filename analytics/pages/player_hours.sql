-- player_hours: the hands of one player (p_player; without it, the hero, as in the graphs) added
-- up per hour of play, per unit and tournament: the first pass of both graphs, the `graph`
-- report's (reports/graph.sql, which adds the tournaments of a unit together) and the HTML
-- pages' net-won lines (pages/graph_lines.sql). Read on its own by each; a page that shows the
-- `graph` report with its lines makes these rows once, as a temporary table both read
-- (hhparse.reports.html.shared_hours), so the player's hands are added up once instead of twice.
-- The hero's hours (no p_player) come from the derived table hero_slots (analytics/hero_slots.sql:
-- per hand_players file, the hero's rows summed per line, stakes and game keys, hour and 15-minute
-- UTC slot) for the files it covers, and from the raw rows of the others
-- (hand_players_unslotted); with p_player, from the raw rows of every file: hour_rows_in and
-- slot_rows_in (hhparse.reports.scoped).
-- Money stays in minor units (player_rows_in), added as integers: any sum of the hours is the
-- sum of their hands. Per hour: the hands, the showdown and non-showdown gains and losses apart
-- (the graph's bounds), the all-in EV and its gains, the last start and the last hand (in the
-- graphs' order, start_utc then hand_id: the hand a point at the hour's end names), the net won and the showdown
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

-- per unit, tournament and hour: the raw rows not covered by the slots added up, and the slots
-- in the same shape (the net and showdown net are the four signed sums' parts; the big-blind
-- sums one division per slot by its big_blind key, where the raw rows add one quotient per hand:
-- the two agree to the last bits of a double), then both added up (a covered and an uncovered
-- file can hold hands of the same hour). An hour's integer sums are BIGINT again (DuckDB's sum of
-- BIGINT is a HUGEINT; an hour's money is far from either bound, and a cast that overflowed would
-- fail, not wrap): the graphs' windows over the hours then add 8-byte integers.
CREATE OR REPLACE MACRO player_hours(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    WITH raw_hours AS (
        SELECT
            unit,
            tournament_id,
            epoch_us(start_utc) // 3600000000                                                  AS hour,
            any_value(unit_scale)                                                              AS unit_scale,
            count(*)                                                                           AS n,
            coalesce(sum(net) FILTER (WHERE went_to_showdown AND net > 0), 0)                  AS sd_up,
            coalesce(sum(net) FILTER (WHERE went_to_showdown AND net < 0), 0)                  AS sd_down,
            coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net > 0), 0)              AS nsd_up,
            coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net < 0), 0)              AS nsd_down,
            sum(allin_ev)                                                                      AS ev,
            coalesce(sum(allin_ev) FILTER (WHERE allin_ev > 0), 0)                             AS ev_up,
            max(start_utc)                                                                     AS last_start,
            arg_max(hand_id, (start_utc, hand_id))                                             AS last_id,
            sum(net)                                                                           AS net,
            sum(CASE WHEN went_to_showdown THEN net ELSE 0 END)                                AS showdown_net,
            sum(in_big_blinds(net, big_blind))                                                 AS net_bb,
            sum(CASE WHEN went_to_showdown THEN in_big_blinds(net, big_blind)
                     ELSE 0 END)                                                               AS showdown_bb
        FROM hour_rows_in(p_player, p_since, p_until, p_game, p_stakes)
        GROUP BY unit, tournament_id, epoch_us(start_utc) // 3600000000
    ),
    slot_hours AS (
        SELECT
            unit, tournament_id, hour, unit_scale,
            hands                                                                              AS n,
            sd_up, sd_down, nsd_up, nsd_down,
            allin_ev                                                                           AS ev,
            ev_up, last_start, last_id,
            sd_up + sd_down + nsd_up + nsd_down                                                AS net,
            sd_up + sd_down                                                                    AS showdown_net,
            in_big_blinds(sd_up + sd_down + nsd_up + nsd_down, big_blind)                      AS net_bb,
            in_big_blinds(sd_up + sd_down, big_blind)                                          AS showdown_bb
        FROM slot_rows_in(p_player, p_since, p_until, p_game, p_stakes)
    )
    SELECT
        unit,
        tournament_id,
        hour,
        any_value(unit_scale)                                                              AS unit_scale,
        CAST(sum(n) AS BIGINT)                                                             AS n,
        CAST(sum(sd_up) AS BIGINT)                                                         AS sd_up,
        CAST(sum(sd_down) AS BIGINT)                                                       AS sd_down,
        CAST(sum(nsd_up) AS BIGINT)                                                        AS nsd_up,
        CAST(sum(nsd_down) AS BIGINT)                                                      AS nsd_down,
        CAST(sum(ev) AS BIGINT)                                                            AS ev,
        CAST(sum(ev_up) AS BIGINT)                                                         AS ev_up,
        max(last_start)                                                                    AS last_start,
        arg_max(last_id, (last_start, last_id))                                            AS last_id,
        CAST(sum(net) AS BIGINT)                                                           AS net,
        CAST(sum(showdown_net) AS BIGINT)                                                  AS showdown_net,
        sum(net_bb)                                                                        AS net_bb,
        sum(showdown_bb)                                                                   AS showdown_bb
    FROM (SELECT * FROM raw_hours UNION ALL BY NAME SELECT * FROM slot_hours)
    GROUP BY unit, tournament_id, hour;
