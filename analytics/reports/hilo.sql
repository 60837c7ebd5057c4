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
-- The lows are counted apart from the player-hands and joined per player and unit: a shown hand
-- is one of its player's dealt-in hands (the referee seats whoever shows), so filtering the shown
-- hands by their hand's attributes (the stg_hands row: one per hand) counts the same hands as
-- joining every player-hand in scope with them, without a join as wide as the player-hands.
-- The player-hands are the raw hand_players' (player_rows_in: money in minor units, flags as
-- booleans), their amounts made exact decimals once per player and unit (to_money_sum).
WITH scope AS (
    SELECT *
    FROM player_rows_in($player, $since, $until, $game, $stakes)
    WHERE hilo
),

stats AS (
    SELECT
        player,
        unit,
        unit_scale,
        count(*)                                                              AS hands,
        count_if(went_to_showdown)                                            AS showdowns,
        count_if(won_at_showdown)                                             AS won_at_showdown,
        count_if(scooped)                                                     AS scoops,
        pct(count_if(scooped), count_if(won_at_showdown))                     AS scoop_pct,
        count_if(won_at_showdown AND won_high AND NOT won_low AND NOT scooped) AS high_only,
        pct(count_if(won_at_showdown AND won_high AND NOT won_low AND NOT scooped),
            count_if(won_at_showdown))                                        AS high_only_pct,
        count_if(won_at_showdown AND won_low AND NOT won_high)                AS low_only,
        pct(count_if(won_at_showdown AND won_low AND NOT won_high), count_if(won_at_showdown)) AS low_only_pct,
        count_if(quartered)                                                   AS quartered,
        pct(count_if(quartered), count_if(won_at_showdown))                   AS quartered_pct,
        round(100 * avg(CAST(collected AS DOUBLE) / NULLIF(CAST(total_pot - rake AS DOUBLE), 0))
            FILTER (WHERE collected > 0), 2)                                  AS avg_pot_share,
        to_money_sum(sum(high_won), unit_scale)                               AS won_high,
        to_money_sum(sum(low_won), unit_scale)                                AS won_low
    FROM scope
    GROUP BY player, unit, unit_scale
),

shown AS (
    SELECT site, hand_id, player, bool_or(low IS NOT NULL) AS low_made
    FROM stg_showdowns
    WHERE NOT mucked
      AND (CAST($player AS VARCHAR) IS NULL OR player = $player)
    GROUP BY ALL
),

lows AS (
    SELECT
        shown.player,
        h.unit,
        count_if(shown.low_made)                                              AS lows_made,
        count(*)                                                              AS hands_shown
    FROM shown
    JOIN stg_hands AS h USING (site, hand_id)
    WHERE h.hilo
      AND in_scope($since, $until, $game, $stakes, h.start_utc, h.hand_date, h.game_slug, h.game_label, h.stakes, h.buyin_label)
    GROUP BY ALL
),

final AS (
    SELECT
        stats.* EXCLUDE (unit_scale, avg_pot_share, won_high, won_low),
        pct(lows.lows_made, lows.hands_shown)                                 AS low_made_pct,
        stats.avg_pot_share,
        stats.won_high,
        stats.won_low
    FROM stats
    LEFT JOIN lows USING (player, unit)
    ORDER BY unit, hands DESC, player
)

SELECT * FROM final
