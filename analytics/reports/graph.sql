-- graph: cumulative net won over the hands of one player (--player; without it, the hero's hands,
-- i.e. the account whose hole cards the histories show), per unit, with the showdown and
-- non-showdown parts and the all-in adjusted line (allin_ev: what every all-in before the river
-- would have won at its equity; stats.sql). Hands are ordered by start time (then hand number);
-- hand_no counts them from 1 per unit. Every row is one hand with its exact cumulative amounts.
--
-- A unit of at most 10,000 hands keeps every k-th hand (k = hands // 2,000, at least 1: every
-- hand below 4,000), the first and the last (the parameters graph_detail and graph_points, NULL
-- in reports, change the 10,000 and the 2,000: the tests' way into the long-history path). A longer one is never sorted hand by hand: its hands
-- are added up per hour of play (a hash aggregate, whose size is the hours played, not the
-- hands), the hours are cumulated in order, and a point is kept at the end of each hour in which
-- the count passes a multiple of k (about 2,000 points, evenly spaced in hands down to one hour),
-- plus the first and the last hand. So that no swing is lost between two points, the highest and
-- the lowest point of each of the four lines are kept too, exactly: an hour can hold a line's
-- extreme only if the line at its start plus every gain (or loss) in it reaches past the
-- extremes seen at the hours' ends, and only those hours (and the first) are ordered hand by hand.
-- A point at an hour's end names the hour's last hand, which player_hours keeps (last_id, from the
-- hero's slots): the second pass reads the hands of those few hours alone, and
-- hhparse.reports.hours.graph_hours lets the scan skip the row groups of other times.
-- tests/test_reports_reference.py checks the points, the totals and the extremes against the
-- full per-hand series (tests/data/report_reference/graph.sql, every hand unthinned).
-- The hands are the raw hand_players rows (player_rows_in): money stays in minor units, added
-- and compared as integers (a unit has one unit_scale, so the order and the ties are the
-- decimals'), and becomes the exact decimal only for the points kept.
WITH scope AS NOT MATERIALIZED (
    SELECT unit, unit_scale, hand_id, start_utc, net,
           CASE WHEN went_to_showdown THEN net ELSE 0 END                     AS showdown_net,
           CASE WHEN went_to_showdown THEN 0 ELSE net END                     AS nonshowdown_net,
           allin_ev,
           hour
    FROM player_hour_hands($player, $since, $until, $game, $stakes)
),

-- per hour: the hands, and the gains and losses of each line apart (showdown and non-showdown
-- hands are net's two parts, so four sums give three lines and their bounds): player_hours'
-- rows (pages/player_hours.sql, per unit, tournament and hour), a unit's tournaments added up (as
-- BIGINT: see player_hours)
hour_sums AS (
    SELECT
        unit,
        hour,
        any_value(unit_scale)                                                 AS unit_scale,
        CAST(sum(n) AS BIGINT)                                                AS n,
        CAST(sum(sd_up) AS BIGINT)                                            AS sd_up,
        CAST(sum(sd_down) AS BIGINT)                                          AS sd_down,
        CAST(sum(nsd_up) AS BIGINT)                                           AS nsd_up,
        CAST(sum(nsd_down) AS BIGINT)                                         AS nsd_down,
        CAST(sum(ev) AS BIGINT)                                               AS ev,
        CAST(sum(ev_up) AS BIGINT)                                            AS ev_up,
        max(last_start)                                                       AS last_start,
        arg_max(last_id, (last_start, last_id))                               AS last_id
    FROM player_hours($player, $since, $until, $game, $stakes)
    GROUP BY unit, hour
),

hours AS (
    SELECT
        unit, hour, unit_scale, n, last_start, last_id,
        sd_up + sd_down + nsd_up + nsd_down                                   AS net,
        sd_up + nsd_up                                                        AS net_up,
        sd_down + nsd_down                                                    AS net_down,
        sd_up + sd_down                                                       AS sd,
        sd_up,
        sd_down,
        nsd_up + nsd_down                                                     AS nsd,
        nsd_up,
        nsd_down,
        ev,
        ev_up,
        ev - ev_up                                                            AS ev_down
    FROM hour_sums
),

units AS (
    SELECT unit, sum(n) AS unit_hands, min(hour) AS first_hour
    FROM hours
    GROUP BY unit
),

-- each hour's end: the hand number and the four lines there (exact: minor units, as integers)
ends AS (
    SELECT
        *,
        CAST(sum(n) OVER w AS BIGINT)                                         AS hand_no,
        sum(net) OVER w                                                       AS cum_net,
        sum(sd) OVER w                                                        AS cum_showdown,
        sum(nsd) OVER w                                                       AS cum_nonshowdown,
        sum(ev) OVER w                                                        AS cum_allin_ev
    FROM hours
    WINDOW w AS (PARTITION BY unit ORDER BY hour ROWS UNBOUNDED PRECEDING)
),

-- each line's highest and lowest value at the hours' ends
end_extremes AS (
    SELECT unit,
           max(cum_net) AS net_hi, min(cum_net) AS net_lo,
           max(cum_showdown) AS sd_hi, min(cum_showdown) AS sd_lo,
           max(cum_nonshowdown) AS nsd_hi, min(cum_nonshowdown) AS nsd_lo,
           max(cum_allin_ev) AS ev_hi, min(cum_allin_ev) AS ev_lo
    FROM ends
    GROUP BY unit
),

bounds AS (
    SELECT
        ends.*,
        CAST(u.unit_hands AS BIGINT)                                          AS unit_hands,
        u.first_hour,
        greatest(1, u.unit_hands // coalesce(CAST($graph_points AS BIGINT), 2000)) AS k,
        x.* EXCLUDE (unit)
    FROM ends
    JOIN units AS u USING (unit)
    JOIN end_extremes AS x USING (unit)
),

-- the hours ordered hand by hand: every hour of a short unit; of a long one the first and those
-- that may hold an extreme (a tie with an hour's end included, so that the first hand reaching
-- the extreme is the one kept)
detail_hours AS (
    SELECT
        unit, hour, unit_scale, k, unit_hands,
        hand_no - n                                                           AS no0,
        cum_net - net                                                         AS net0,
        cum_showdown - sd                                                     AS sd0,
        cum_nonshowdown - nsd                                                 AS nsd0,
        cum_allin_ev - ev                                                     AS ev0
    FROM bounds
    WHERE unit_hands <= coalesce(CAST($graph_detail AS BIGINT), 10000)
       OR hour = first_hour
       OR cum_net - net + net_up >= net_hi OR cum_net - net + net_down <= net_lo
       OR cum_showdown - sd + sd_up >= sd_hi OR cum_showdown - sd + sd_down <= sd_lo
       OR cum_nonshowdown - nsd + nsd_up >= nsd_hi OR cum_nonshowdown - nsd + nsd_down <= nsd_lo
       OR cum_allin_ev - ev + ev_up >= ev_hi OR cum_allin_ev - ev + ev_down <= ev_lo
),

-- the hours whose end is a point (of a long unit): their last hand is the hour's (player_hours:
-- last_start, last_id), so no hand of theirs is read
point_hours AS (
    SELECT unit, hour, hand_no // k > (hand_no - n) // k OR hand_no = unit_hands AS regular
    FROM bounds
    WHERE unit_hands > coalesce(CAST($graph_detail AS BIGINT), 10000)
),

-- the hours whose hands the second pass reads (hhparse.reports.hours.graph_hours reads them
-- alone, to read the player's rows of their time only)
needed_hours AS (
    SELECT DISTINCT unit, hour FROM detail_hours
),

-- the second and last pass over the player's hands: only the rows of the hours above go on
rows_needed AS (
    SELECT s.*
    FROM scope AS s
    SEMI JOIN needed_hours AS n USING (unit, hour)
),

detail AS (
    SELECT
        s.unit,
        d.unit_scale,
        d.k,
        d.unit_hands,
        s.hand_id,
        s.start_utc,
        CAST(d.no0 + row_number() OVER w AS BIGINT)                           AS hand_no,
        d.net0 + sum(s.net) OVER w                                            AS cum_net,
        d.sd0 + sum(s.showdown_net) OVER w                                    AS cum_showdown,
        d.nsd0 + sum(s.nonshowdown_net) OVER w                                AS cum_nonshowdown,
        d.ev0 + sum(s.allin_ev) OVER w                                        AS cum_allin_ev
    FROM rows_needed AS s
    JOIN detail_hours AS d USING (unit, hour)
    WINDOW w AS (PARTITION BY s.unit, s.hour ORDER BY s.start_utc, s.hand_id ROWS UNBOUNDED PRECEDING)
),

-- every hand whose exact values are known: the points at hours' ends, the detailed hands (an
-- hour's end that reaches a line's extreme is in a detailed hour: see detail_hours)
known AS (
    SELECT b.unit, b.unit_scale, b.k, b.unit_hands, b.hand_no, b.last_id AS hand_id, b.last_start AS start_utc,
           b.cum_net, b.cum_showdown, b.cum_nonshowdown, b.cum_allin_ev,
           p.regular
    FROM bounds AS b
    JOIN point_hours AS p USING (unit, hour)
    ANTI JOIN detail_hours AS d USING (unit, hour)
    WHERE p.regular
    UNION ALL
    SELECT unit, unit_scale, k, unit_hands, hand_no, hand_id, start_utc,
           cum_net, cum_showdown, cum_nonshowdown, cum_allin_ev,
           hand_no = 1 OR hand_no % k = 0 OR hand_no = unit_hands             AS regular
    FROM detail
),

-- each line's highest and lowest value, and the first hand reaching each
extremes AS (
    SELECT unit,
           max(cum_net) AS net_hi, min(cum_net) AS net_lo,
           max(cum_showdown) AS sd_hi, min(cum_showdown) AS sd_lo,
           max(cum_nonshowdown) AS nsd_hi, min(cum_nonshowdown) AS nsd_lo,
           max(cum_allin_ev) AS ev_hi, min(cum_allin_ev) AS ev_lo
    FROM known
    GROUP BY unit
),

extreme_hands AS (
    SELECT unit, unnest([
        min(hand_no) FILTER (WHERE cum_net = net_hi), min(hand_no) FILTER (WHERE cum_net = net_lo),
        min(hand_no) FILTER (WHERE cum_showdown = sd_hi), min(hand_no) FILTER (WHERE cum_showdown = sd_lo),
        min(hand_no) FILTER (WHERE cum_nonshowdown = nsd_hi), min(hand_no) FILTER (WHERE cum_nonshowdown = nsd_lo),
        min(hand_no) FILTER (WHERE cum_allin_ev = ev_hi), min(hand_no) FILTER (WHERE cum_allin_ev = ev_lo)
    ])                                                                        AS hand_no
    FROM known
    JOIN extremes USING (unit)
    GROUP BY unit
),

marked AS (
    SELECT *
    FROM known
    WHERE regular OR (unit, hand_no) IN (SELECT (unit, hand_no) FROM extreme_hands)
),

final AS (
    SELECT DISTINCT unit, hand_no, hand_id, start_utc,
        to_money_sum(cum_net, unit_scale)                                     AS cum_net,
        to_money_sum(cum_showdown, unit_scale)                                AS cum_showdown,
        to_money_sum(cum_nonshowdown, unit_scale)                             AS cum_nonshowdown,
        to_money_sum(cum_allin_ev, unit_scale)                                AS cum_allin_ev
    FROM marked
    ORDER BY unit, hand_no
)

SELECT * FROM final
