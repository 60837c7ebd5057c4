-- hilo: split-pot results per player and unit, hi/lo games only.
--   showdowns        hands the player went to showdown (referee's went_to_showdown)
--   won_at_showdown  hands they won any part of any pot at showdown
--   scoop_pct        scooped (won every chip of every pot they were eligible for) / won_at_showdown
--   high_only_pct    won a high half or whole pot but no low half, not a scoop / won_at_showdown
--   low_only_pct     won a low half but no high half / won_at_showdown
--   quartered_pct    shared a low half with another player / won_at_showdown
--   low_made_pct     shown hands (any run) holding a qualifying 8-or-better low / hands shown
--   avg_pot_share    average over hands they collected anything of collected / (total pot - rake), %
--   won_high, won_low  amounts collected from high halves (and whole pots) and from low halves
--
-- The player-hands' counts come from the player buckets (analytics/buckets.sql, which sums the
-- same flags per bucket: scoops, high_only, low_only, quartered, pot_shares, pot_share_sum,
-- high_won, low_won) for the hand_players files they cover, and from the raw rows of the others
-- and of the edge months of a --since/--until range (stats_rows_in and bucket_rows_in: the split
-- player_stats reads, stats.sql); both are added up per player and unit, and the rates and exact
-- decimals made once after. The average pot share is a sum of per-row quotients: each quotient is
-- rounded to a DECIMAL(38, 20) (pot_share_of, analytics/rows.sql: buckets.sql's too), whose sums are
-- exact, so the buckets and the raw rows give the same average to the last bit.
--
-- The lows are counted apart from the player-hands and joined per player and unit (below).
WITH raw_counts AS (
    SELECT
        player,
        unit,
        unit_scale,
        count(*)                                                              AS hands,
        count_if(went_to_showdown)                                            AS showdowns,
        count_if(won_at_showdown)                                             AS won_at_showdown,
        count_if(scooped)                                                     AS scoops,
        count_if(won_at_showdown AND won_high AND NOT won_low AND NOT scooped) AS high_only,
        count_if(won_at_showdown AND won_low AND NOT won_high)                AS low_only,
        count_if(quartered)                                                   AS quartered,
        count(pot_share)                                                      AS pot_shares,
        sum(pot_share)                                                        AS pot_share_sum,
        sum(high_won)                                                         AS high_won,
        sum(low_won)                                                          AS low_won
    FROM (
        SELECT
            *,
            pot_share_of(collected, total_pot, rake)                          AS pot_share
        FROM stats_rows_in($player, $since, $until, $game, $stakes)
        WHERE hilo
    )
    GROUP BY player, unit, unit_scale
),

bucket_counts AS (
    SELECT
        player,
        unit,
        unit_scale,
        sum(hands)                                                            AS hands,
        sum(wtsd)                                                             AS showdowns,
        sum(wsd)                                                              AS won_at_showdown,
        sum(scoops)                                                           AS scoops,
        sum(high_only)                                                        AS high_only,
        sum(low_only)                                                         AS low_only,
        sum(quartered)                                                        AS quartered,
        sum(pot_shares)                                                       AS pot_shares,
        sum(pot_share_sum)                                                    AS pot_share_sum,
        sum(high_won)                                                         AS high_won,
        sum(low_won)                                                          AS low_won
    FROM bucket_rows_in($player, $since, $until, $game, $stakes)
    WHERE hilo
    GROUP BY player, unit, unit_scale
),

counts AS (
    SELECT
        player,
        unit,
        unit_scale,
        CAST(sum(hands) AS BIGINT)                                            AS hands,
        CAST(sum(showdowns) AS HUGEINT)                                        AS showdowns,
        CAST(sum(won_at_showdown) AS HUGEINT)                                  AS won_at_showdown,
        CAST(sum(scoops) AS HUGEINT)                                           AS scoops,
        CAST(sum(high_only) AS HUGEINT)                                        AS high_only,
        CAST(sum(low_only) AS HUGEINT)                                         AS low_only,
        CAST(sum(quartered) AS HUGEINT)                                        AS quartered,
        CAST(sum(pot_shares) AS BIGINT)                                       AS pot_shares,
        sum(pot_share_sum)                                                    AS pot_share_sum,
        sum(high_won)                                                         AS high_won,
        sum(low_won)                                                          AS low_won
    FROM (SELECT * FROM raw_counts UNION ALL SELECT * FROM bucket_counts)
    GROUP BY player, unit, unit_scale
),

-- (the counts are HUGEINT, the type of count_if, which the raw formulation gives them; hands a
-- count(*), BIGINT)
stats AS (
    SELECT
        player,
        unit,
        hands,
        showdowns,
        won_at_showdown,
        scoops,
        pct(scoops, won_at_showdown)                                          AS scoop_pct,
        high_only,
        pct(high_only, won_at_showdown)                                       AS high_only_pct,
        low_only,
        pct(low_only, won_at_showdown)                                        AS low_only_pct,
        quartered,
        pct(quartered, won_at_showdown)                                       AS quartered_pct,
        round(100 * CAST(pot_share_sum AS DOUBLE) / NULLIF(pot_shares, 0), 2) AS avg_pot_share,
        to_money_sum(high_won, unit_scale)                                    AS won_high,
        to_money_sum(low_won, unit_scale)                                     AS won_low
    FROM counts
),

-- The lows: the shown hands counted per player and hand key in the derived table shown_lows
-- (analytics/shown_lows.sql: one file per showdowns file), for the showdowns files it covers, and
-- the raw rows of the others and of the edge months of a --since/--until range (their hands'
-- start_utc tested after the join), as player_stats splits the player-hands. The raw rows are the
-- shown hands joined with their hand (stg_hands: one row per hand) and filtered by its attributes:
-- a shown hand is one of its player's dealt-in hands (the referee seats whoever shows), so that
-- counts the same hands as joining every player-hand in scope with them, without a join as wide as
-- the player-hands.
shown AS (
    SELECT site, hand_id, player, bool_or(low IS NOT NULL) AS low_made, bool_or(covered) AS covered
    FROM (
        SELECT site, hand_id, player, low, mucked, false AS covered
        FROM showdowns_uncovered
        UNION ALL
        SELECT site, hand_id, player, low, mucked, true AS covered
        FROM showdowns_covered
        WHERE since_edge($since) IS NOT NULL OR until_edge($since, $until) IS NOT NULL
    )
    WHERE NOT mucked
      AND (CAST($player AS VARCHAR) IS NULL OR player = $player)
    GROUP BY site, hand_id, player
),

raw_lows AS (
    SELECT
        shown.player,
        h.unit,
        count_if(shown.low_made)                                              AS lows_made,
        count(*)                                                              AS hands_shown
    FROM shown
    JOIN stg_hands AS h USING (site, hand_id)
    WHERE h.hilo
      AND in_scope($since, $until, $game, $stakes, h.start_utc, h.hand_date, h.game_slug, h.game_label, h.stakes, h.buyin_label)
      AND (NOT shown.covered
           OR (h.start_utc >= utc_instant(since_edge($since))
               AND h.start_utc < utc_instant(since_edge($since) + INTERVAL 1 MONTH))
           OR (h.start_utc >= utc_instant(until_edge($since, $until))
               AND h.start_utc < utc_instant(until_edge($since, $until) + INTERVAL 1 MONTH)))
    GROUP BY ALL
),

derived_lows AS (
    SELECT
        player,
        unit,
        sum(lows_made)                                                        AS lows_made,
        sum(hands_shown)                                                      AS hands_shown
    FROM shown_lows AS l
    WHERE (CAST($player AS VARCHAR) IS NULL OR l.player = $player)
      AND in_bucket_days($since, $until, l.utc_month, l.utc_slot)
      AND (CAST($game AS VARCHAR) IS NULL OR held_game($game, l.game, l.hilo, l.game_label))
      AND (CAST($stakes AS VARCHAR[]) IS NULL
           OR held_stake($stakes, l.buyin_label, l.unit, l.small_blind, l.big_blind))
    GROUP BY player, unit
),

lows AS (
    SELECT
        player,
        unit,
        CAST(sum(lows_made) AS BIGINT)                                        AS lows_made,
        CAST(sum(hands_shown) AS BIGINT)                                      AS hands_shown
    FROM (SELECT * FROM raw_lows UNION ALL SELECT * FROM derived_lows)
    GROUP BY player, unit
),

final AS (
    SELECT
        stats.* EXCLUDE (avg_pot_share, won_high, won_low),
        pct(lows.lows_made, lows.hands_shown)                                 AS low_made_pct,
        stats.avg_pot_share,
        stats.won_high,
        stats.won_low
    FROM stats
    LEFT JOIN lows USING (player, unit)
    ORDER BY unit, hands DESC, player
)

SELECT * FROM final
