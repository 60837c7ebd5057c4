-- The player buckets of one hand_players file (the view `bucket_source` over it, set up by
-- hhparse.reports.buckets): its dealt-in rows summed per player and per every key that a summary
-- report filters or splits by, so that player_stats (stats.sql) can add up these rows instead of
-- the file's (docs/performance.md, "rollup18"). Run in a UTC session: the time keys are UTC.
--
-- Every sum is of integers (money in minor units, flags counted), so a bucket holds exactly what
-- its rows add up to; net_bb is not stored but derived per bucket from the integer net sum and its
-- big_blind key. Time: bucket_month and bucket_slot (analytics/rows.sql: a month, and within 14
-- hours of a month's boundary a 15-minute slot as well).
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
    count(*) FILTER (WHERE vpip)                                        AS vpip,
    count(*) FILTER (WHERE is_walk(position, vpip, pfr, saw_flop, collected)) AS walks,
    count(*) FILTER (WHERE pfr)                                         AS pfr,
    count(*) FILTER (WHERE three_bet_opportunity)                       AS three_bet_opp,
    count(*) FILTER (WHERE three_bet)                                   AS three_bet,
    count(*) FILTER (WHERE fold_to_three_bet_opportunity)               AS fold_to_three_bet_opp,
    count(*) FILTER (WHERE fold_to_three_bet)                           AS fold_to_three_bet,
    count(*) FILTER (WHERE steal_opportunity)                           AS steal_opp,
    count(*) FILTER (WHERE steal)                                       AS steal,
    count(*) FILTER (WHERE fold_to_steal_opportunity)                   AS fold_to_steal_opp,
    count(*) FILTER (WHERE fold_to_steal)                               AS fold_to_steal,
    count(*) FILTER (WHERE cbet_opportunity)                            AS cbet_opp,
    count(*) FILTER (WHERE cbet)                                        AS cbet,
    count(*) FILTER (WHERE fold_to_cbet_opportunity)                    AS fold_to_cbet_opp,
    count(*) FILTER (WHERE fold_to_cbet)                                AS fold_to_cbet,
    count(*) FILTER (WHERE saw_flop)                                    AS saw_flop,
    count(*) FILTER (WHERE went_to_showdown)                            AS wtsd,
    count(*) FILTER (WHERE won_at_showdown)                             AS wsd,
    count(*) FILTER (WHERE saw_flop AND collected > 0)                  AS wwsf,
    -- the hilo report's (analytics/reports/hilo.sql, which defines them on the raw rows alike)
    count(*) FILTER (WHERE scooped)                                     AS scoops,
    count(*) FILTER (WHERE won_at_showdown AND won_high AND NOT won_low AND NOT scooped) AS high_only,
    count(*) FILTER (WHERE won_at_showdown AND won_low AND NOT won_high) AS low_only,
    count(*) FILTER (WHERE quartered)                                   AS quartered,
    count(pot_share)                                                    AS pot_shares,
    coalesce(sum(pot_share), 0)                                         AS pot_share_sum,
    CAST(sum(high_won) AS BIGINT)                                       AS high_won,
    CAST(sum(low_won) AS BIGINT)                                        AS low_won
FROM (
    SELECT
        *,
        bucket_month(start_utc)                                         AS utc_month,
        bucket_slot(start_utc)                                          AS utc_slot,
        -- a pot share as hilo.sql's raw path rounds it (rows.sql)
        pot_share_of(collected, total_pot, rake)                        AS pot_share
    FROM bucket_source
    WHERE dealt_in
)
GROUP BY player, unit, unit_scale, tournament_id IS NULL, small_blind, big_blind, buyin_label, game, hilo,
         game_label, structure, position, max_seats, utc_month, utc_slot
-- (in no order: hhparse.reports.derived sorts a result of more than one Parquet row group by its
-- record's `order`, so that a --since/--until skips row groups by their statistics)
