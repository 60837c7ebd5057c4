-- sessions: a player's consecutive hands in one unit; a gap of more than 30 minutes between two
-- hand starts begins a new session. duration_min is first to last hand start (hands carry no end
-- time), so a one-hand session lasts 0 minutes. The player is --player; without it, the hero (the
-- account whose hole cards the histories show), as in `graph`: the histories hold the hero's
-- sessions, while an opponent's "sessions" are only the stretches they sat at the hero's tables
-- (and listing those for every opponent of a million hands is millions of rows).
WITH scope AS (
    SELECT player, unit, hand_id, start_utc, net, net_bb
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE CAST($player AS VARCHAR) IS NOT NULL OR is_hero
),

marked AS (
    SELECT
        *,
        CASE WHEN lag(start_utc) OVER w IS NULL
                  OR start_utc - lag(start_utc) OVER w > INTERVAL 30 MINUTE
             THEN 1 ELSE 0 END                                                AS starts_session
    FROM scope
    WINDOW w AS (PARTITION BY player, unit ORDER BY start_utc, hand_id)
),

numbered AS (
    SELECT
        *,
        sum(starts_session) OVER (
            PARTITION BY player, unit ORDER BY start_utc, hand_id ROWS UNBOUNDED PRECEDING
        )                                                                     AS session
    FROM marked
),

final AS (
    SELECT
        player,
        unit,
        session,
        min(start_utc)                                                        AS start,
        round(date_diff('second', min(start_utc), max(start_utc)) / 60.0, 1)  AS duration_min,
        count(*)                                                              AS hands,
        sum(net)                                                              AS net,
        round(100 * sum(net_bb) / count(*), 2)                                AS bb_per_100
    FROM numbered
    GROUP BY ALL
    ORDER BY player, unit, session
)

SELECT * FROM final
