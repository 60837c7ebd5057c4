-- door-card (Courchevel): VPIP, PFR and win rate by the exposed first flop card, per player and
-- unit, in four independent breakdowns (column `breakdown`):
--   rank   the door card's rank (A K Q ... 2)
--   low    'low' if it is an 8-or-better low card (A-8), else 'high'
--   pairs  whether one of the player's hole cards has its rank ('unknown' when their hole cards
--          are not known: neither hero nor shown)
--   suits  whether one of the player's hole cards has its suit (same 'unknown' rule)
-- Both are one substring test of the hole cards per row (door_code, analytics/rows.sql).
-- VPIP and PFR follow stats.sql (walks excluded from the denominator).
--
-- Read for tens of millions of player-hands (issue #18): the rows come from the door buckets
-- (analytics/door_buckets.sql, a derived table: per hand_players file, player, unit, filter keys,
-- time key, door rank, pairs and suits codes, the counts and the integer net summed;
-- door_bucket_rows_in) for the files they cover, and from the raw hand_players rows for the rest
-- (door_rows_in: money in minor units, flags as booleans), both brought to the same grain with the
-- same integer sums; bb/100 divides each (player, unit, big blind, door rank, codes) group's
-- integer net by its big blind once, on either path, and the sums are made exact decimals once
-- per player and unit (to_money_sum).
WITH raw_cards AS (
    SELECT
        player,
        unit,
        unit_scale,
        big_blind,
        exposed_card[1]                                                       AS door_rank,
        exposed_card[2]                                                       AS door_suit,
        hole_text(hole_cards)                                                 AS hole,
        vpip,
        pfr,
        is_walk(position, vpip, pfr, saw_flop, collected)                     AS walk,
        net
    FROM door_rows_in($player, $since, $until, $game, $stakes)
    WHERE exposed_card IS NOT NULL
),

-- One pass over the raw player-hands to the finest grain of the four breakdowns (the door
-- buckets' grain without their filter and time keys), grouped by small codes (0 unknown, 1 yes,
-- 2 no) rather than by the labels, and without door_low (a function of door_rank, labelled after
-- the pass); the breakdowns then re-add these partial counts and sums, which is exact for counts
-- and integers and is much cheaper than four passes over every row.
raw_partial AS (
    SELECT
        player,
        unit,
        unit_scale,
        big_blind,
        door_rank,
        door_code(hole, door_rank)                                            AS pairs_code,
        door_code(hole, door_suit)                                            AS suits_code,
        count(*)                                                              AS hands,
        count_if(vpip)                                                        AS vpip,
        count_if(pfr)                                                         AS pfr,
        count_if(walk)                                                        AS walks,
        sum(net)                                                              AS net
    FROM raw_cards
    GROUP BY ALL
),

bucket_partial AS (
    SELECT
        player,
        unit,
        unit_scale,
        big_blind,
        door_rank,
        pairs_code,
        suits_code,
        sum(hands)                                                            AS hands,
        sum(vpip)                                                             AS vpip,
        sum(pfr)                                                              AS pfr,
        sum(walks)                                                            AS walks,
        sum(net)                                                              AS net
    FROM door_bucket_rows_in($player, $since, $until, $game, $stakes)
    GROUP BY ALL
),

partial AS (
    SELECT
        player,
        unit,
        unit_scale,
        door_rank,
        pairs_code,
        suits_code,
        sum(hands)                                                            AS hands,
        sum(vpip)                                                             AS vpip,
        sum(pfr)                                                              AS pfr,
        sum(walks)                                                            AS walks,
        sum(net)                                                              AS net,
        sum(in_big_blinds(net, big_blind))                                    AS net_bb
    FROM (
        SELECT player, unit, unit_scale, big_blind, door_rank, pairs_code, suits_code,
               sum(hands) AS hands, sum(vpip) AS vpip, sum(pfr) AS pfr, sum(walks) AS walks, sum(net) AS net
        FROM (SELECT * FROM raw_partial UNION ALL SELECT * FROM bucket_partial)
        GROUP BY ALL
    )
    GROUP BY ALL
),

labelled AS (
    SELECT
        player,
        unit,
        unit_scale,
        door_rank,
        CASE WHEN door_rank IN ('A', '2', '3', '4', '5', '6', '7', '8')
             THEN 'low' ELSE 'high' END                                       AS door_low,
        ['unknown', 'yes', 'no'][pairs_code + 1]                              AS door_pairs,
        ['unknown', 'yes', 'no'][suits_code + 1]                              AS door_suits,
        hands, vpip, pfr, walks, net, net_bb
    FROM partial
),

grouped AS (
    SELECT
        player,
        unit,
        CASE WHEN GROUPING(door_rank) = 0 THEN 'rank'
             WHEN GROUPING(door_low) = 0 THEN 'low'
             WHEN GROUPING(door_pairs) = 0 THEN 'pairs'
             ELSE 'suits' END                                                 AS breakdown,
        coalesce(door_rank, door_low, door_pairs, door_suits)                 AS value,
        CAST(sum(hands) AS BIGINT)                                            AS hands,
        pct(sum(vpip), sum(hands) - sum(walks))                               AS vpip,
        pct(sum(pfr), sum(hands) - sum(walks))                                AS pfr,
        to_money_sum(sum(net), unit_scale)                                    AS net,
        round(100 * sum(net_bb) / sum(hands), 2)                              AS bb_per_100
    FROM labelled
    GROUP BY GROUPING SETS (
        (player, unit, unit_scale, door_rank),
        (player, unit, unit_scale, door_low),
        (player, unit, unit_scale, door_pairs),
        (player, unit, unit_scale, door_suits)
    )
),

final AS (
    SELECT *
    FROM grouped
    ORDER BY
        player,
        unit,
        list_position(['rank', 'low', 'pairs', 'suits'], breakdown),
        coalesce(list_position(['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3', '2'], value), 99),
        value
)

SELECT * FROM final
