-- door-card (Courchevel): VPIP, PFR and win rate by the exposed first flop card, per player and
-- unit, in four independent breakdowns (column `breakdown`):
--   rank   the door card's rank (A K Q ... 2)
--   low    'low' if it is an 8-or-better low card (A-8), else 'high'
--   pairs  whether one of the player's hole cards has its rank ('unknown' when their hole cards
--          are not known: neither hero nor shown)
--   suits  whether one of the player's hole cards has its suit (same 'unknown' rule)
-- VPIP and PFR follow stats.sql (walks excluded from the denominator).
WITH scope AS (
    SELECT *
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE exposed_card IS NOT NULL
),

cards AS (
    SELECT
        player,
        unit,
        exposed_card[1]                                                       AS door_rank,
        CASE WHEN coalesce(len(hole_cards), 0) = 0 THEN 'unknown'
             WHEN len(list_filter(hole_cards, lambda c: c[1] = exposed_card[1])) > 0 THEN 'yes'
             ELSE 'no' END                                                    AS door_pairs,
        CASE WHEN coalesce(len(hole_cards), 0) = 0 THEN 'unknown'
             WHEN len(list_filter(hole_cards, lambda c: c[2] = exposed_card[2])) > 0 THEN 'yes'
             ELSE 'no' END                                                    AS door_suits,
        vpip, pfr, walk, net, net_bb
    FROM scope
),

-- One pass over the player-hands to the finest grain of the four breakdowns (door_low is a
-- function of door_rank); the breakdowns then re-add these partial counts and sums, which is
-- exact for counts and decimals and is much cheaper than four passes over every row.
partial AS (
    SELECT
        player,
        unit,
        door_rank,
        CASE WHEN door_rank IN ('A', '2', '3', '4', '5', '6', '7', '8')
             THEN 'low' ELSE 'high' END                                       AS door_low,
        door_pairs,
        door_suits,
        count(*)                                                              AS hands,
        cnt(vpip)                                                             AS vpip,
        cnt(pfr)                                                              AS pfr,
        cnt(walk)                                                             AS walks,
        sum(net)                                                              AS net,
        sum(net_bb)                                                           AS net_bb
    FROM cards
    GROUP BY ALL
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
        sum(net)                                                              AS net,
        round(100 * sum(net_bb) / sum(hands), 2)                              AS bb_per_100
    FROM partial
    GROUP BY GROUPING SETS (
        (player, unit, door_rank),
        (player, unit, door_low),
        (player, unit, door_pairs),
        (player, unit, door_suits)
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
