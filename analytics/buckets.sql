-- The player buckets of one hand_players file (the view `bucket_source` over it, set up by
-- hhparse.reports.buckets): its dealt-in rows summed per player and per every key that a summary
-- report filters or splits by, so that player_stats (stats.sql) can add up these rows instead of
-- the file's (docs/performance.md, "rollup18"). Run in a UTC session: the time keys are UTC.
--
-- Every sum is of integers (money in minor units, flags counted), so a bucket holds exactly what
-- its rows add up to; net_bb is not stored but derived per bucket from the integer net sum and its
-- big_blind key. Time: a hand more than 14 hours from a UTC month boundary is keyed by its UTC month
-- alone (offsets run from UTC-12 to UTC+14, so its month is the same in every time zone), a hand
-- nearer by its 15-minute UTC slot as well (every zone's offset and every DST shift are whole
-- quarter-hours, so one slot is one local day in every zone).
SELECT
    $source                                                             AS source_file,
    player,
    unit,
    unit_scale,
    tournament_id IS NULL                                               AS cash,
    small_blind,
    big_blind,
    buyin_label,
    game,
    hilo,
    game_label,
    structure,
    position,
    max_seats,
    utc_month,
    utc_slot,
    count(*)                                                            AS hands,
    min(tournament_id)                                                  AS min_tournament,
    max(tournament_id)                                                  AS max_tournament,
    CAST(sum(net) AS BIGINT)                                            AS net,
    CAST(sum(allin_ev) AS BIGINT)                                       AS allin_ev,
    CAST(sum(CASE WHEN went_to_showdown THEN net ELSE 0 END) AS BIGINT) AS showdown_net,
    CAST(sum(postflop_bets + postflop_raises) AS BIGINT)                AS postflop_aggressive,
    CAST(sum(postflop_calls) AS BIGINT)                                 AS postflop_calls,
    CAST(sum(postflop_folds) AS BIGINT)                                 AS postflop_folds,
    count_if(vpip)                                                      AS vpip,
    count_if(position = 'BB' AND NOT vpip AND NOT pfr AND NOT saw_flop AND collected > 0) AS walks,
    count_if(pfr)                                                       AS pfr,
    count_if(three_bet_opportunity)                                     AS three_bet_opp,
    count_if(three_bet)                                                 AS three_bet,
    count_if(fold_to_three_bet_opportunity)                             AS fold_to_three_bet_opp,
    count_if(fold_to_three_bet)                                         AS fold_to_three_bet,
    count_if(steal_opportunity)                                         AS steal_opp,
    count_if(steal)                                                     AS steal,
    count_if(fold_to_steal_opportunity)                                 AS fold_to_steal_opp,
    count_if(fold_to_steal)                                             AS fold_to_steal,
    count_if(cbet_opportunity)                                          AS cbet_opp,
    count_if(cbet)                                                      AS cbet,
    count_if(fold_to_cbet_opportunity)                                  AS fold_to_cbet_opp,
    count_if(fold_to_cbet)                                              AS fold_to_cbet,
    count_if(saw_flop)                                                  AS saw_flop,
    count_if(went_to_showdown)                                          AS wtsd,
    count_if(won_at_showdown)                                           AS wsd,
    count_if(saw_flop AND collected > 0)                                AS wwsf,
    -- the hilo report's (analytics/reports/hilo.sql, which defines them on the raw rows alike)
    count_if(scooped)                                                   AS scoops,
    count_if(won_at_showdown AND won_high AND NOT won_low AND NOT scooped) AS high_only,
    count_if(won_at_showdown AND won_low AND NOT won_high)              AS low_only,
    count_if(quartered)                                                 AS quartered,
    count(pot_share)                                                    AS pot_shares,
    coalesce(sum(pot_share), 0)                                         AS pot_share_sum,
    CAST(sum(high_won) AS BIGINT)                                       AS high_won,
    CAST(sum(low_won) AS BIGINT)                                        AS low_won
FROM (
    SELECT
        *,
        CAST(date_trunc('month', start_utc) AS DATE)                    AS utc_month,
        CASE WHEN start_utc >= date_trunc('month', start_utc) + INTERVAL 14 HOUR
                  AND start_utc < date_trunc('month', start_utc) + INTERVAL 1 MONTH - INTERVAL 14 HOUR
             THEN NULL
             ELSE time_bucket(INTERVAL 15 MINUTE, start_utc) END        AS utc_slot,
        -- a pot share as hilo.sql's raw path rounds it (pot_share there): a decimal, so that the
        -- sums of the buckets and of the raw rows are the same number whatever their order
        CASE WHEN collected > 0
             THEN CAST(CAST(collected AS DOUBLE) / NULLIF(CAST(total_pot - rake AS DOUBLE), 0)
                       AS DECIMAL(38, 20)) END                          AS pot_share
    FROM bucket_source
    WHERE dealt_in
)
GROUP BY player, unit, unit_scale, tournament_id IS NULL, small_blind, big_blind, buyin_label, game, hilo,
         game_label, structure, position, max_seats, utc_month, utc_slot
-- in time order: the Parquet statistics of utc_month then let a --since/--until skip row groups
ORDER BY utc_month, player
