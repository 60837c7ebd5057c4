-- sessions: a player's consecutive hands in one unit; a gap of more than 30 minutes between two
-- hand starts begins a new session. duration_min is first to last hand start (hands carry no end
-- time), so a one-hand session lasts 0 minutes. The player is --player; without it, the hero (the
-- account whose hole cards the histories show), as in `graph`: the histories hold the hero's
-- sessions, while an opponent's "sessions" are only the stretches they sat at the hero's tables
-- (and listing those for every opponent of a million hands is millions of rows).
--
-- Two hands in the same 30-minute slice of time (slices counted from the epoch) start less than
-- 30 minutes apart, so no session starts inside a slice: the hands are first added up per slice
-- (a parallel hash aggregation), and only the slices are ordered to find the gaps, between one
-- slice's last hand and the next slice's first. Ordering every hand (a sort as long as the
-- player's history) is what the report cost before.
WITH scope AS (
    SELECT player, unit, start_utc, net, net_bb
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE CAST($player AS VARCHAR) IS NOT NULL OR is_hero
),

slices AS (
    SELECT
        player,
        unit,
        epoch_us(start_utc) // 1800000000                                     AS slice,
        min(start_utc)                                                        AS first_start,
        max(start_utc)                                                        AS last_start,
        count(*)                                                              AS hands,
        sum(net)                                                              AS net,
        sum(net_bb)                                                           AS net_bb
    FROM scope
    GROUP BY ALL
),

marked AS (
    SELECT
        *,
        CASE WHEN lag(last_start) OVER w IS NULL
                  OR first_start - lag(last_start) OVER w > INTERVAL 30 MINUTE
             THEN 1 ELSE 0 END                                                AS starts_session
    FROM slices
    WINDOW w AS (PARTITION BY player, unit ORDER BY slice)
),

numbered AS (
    SELECT
        *,
        sum(starts_session) OVER (
            PARTITION BY player, unit ORDER BY slice ROWS UNBOUNDED PRECEDING
        )                                                                     AS session
    FROM marked
),

final AS (
    SELECT
        player,
        unit,
        session,
        min(first_start)                                                      AS start,
        round(date_diff('second', min(first_start), max(last_start)) / 60.0, 1) AS duration_min,
        CAST(sum(hands) AS BIGINT)                                            AS hands,
        sum(net)                                                              AS net,
        round(100 * sum(net_bb) / sum(hands), 2)                              AS bb_per_100
    FROM numbered
    GROUP BY ALL
    ORDER BY player, unit, session
)

SELECT * FROM final
