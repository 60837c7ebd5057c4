-- The hero's slots of one hand_players file (the view `bucket_source` over it, set up by
-- hhparse.reports.derived): its dealt-in hero rows summed per line (unit, tournament), the keys
-- the graphs' filters test (stakes, game), the hour the graphs bucket hands by and the 15-minute
-- UTC slot, so that player_hours (pages/player_hours.sql: the first pass of the `graph` report
-- and of the pages' net-won lines) adds up these rows instead of the file's (docs/performance.md,
-- "month30"). Run in a UTC session: the time keys are UTC.
--
-- `hour` is the graphs' own bucket (epoch_us(start_utc) // 3600000000, the expression
-- player_hour_hands computes per hand), stored rather than derived from the slot, so that the
-- two passes put every hand in the same hour whatever its date; the slot is for --since/--until:
-- every zone's offset and every DST shift are whole quarter-hours, so one slot is one local day in
-- every zone. Every sum is of integers (money in minor units); the big-blind sums are derived per
-- row from the integer sums and the big_blind key. last_id is the slot's last hand in the graphs'
-- order (start_utc, then hand_id): the hand a graph's point at an hour's end names, so that the
-- `graph` report reads the raw rows of the few hours that may hold a line's extreme only.
SELECT
    $source                                                                   AS source_file,
    unit,
    unit_scale,
    tournament_id,
    small_blind,
    big_blind,
    buyin_label,
    game,
    hilo,
    game_label,
    epoch_us(start_utc) // 3600000000                                         AS hour,
    time_bucket(INTERVAL 15 MINUTE, start_utc)                                AS utc_slot,
    count(*)                                                                  AS hands,
    CAST(coalesce(sum(net) FILTER (WHERE went_to_showdown AND net > 0), 0) AS BIGINT)       AS sd_up,
    CAST(coalesce(sum(net) FILTER (WHERE went_to_showdown AND net < 0), 0) AS BIGINT)       AS sd_down,
    CAST(coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net > 0), 0) AS BIGINT)   AS nsd_up,
    CAST(coalesce(sum(net) FILTER (WHERE NOT went_to_showdown AND net < 0), 0) AS BIGINT)   AS nsd_down,
    CAST(sum(allin_ev) AS BIGINT)                                             AS allin_ev,
    CAST(coalesce(sum(allin_ev) FILTER (WHERE allin_ev > 0), 0) AS BIGINT)    AS ev_up,
    max(start_utc)                                                            AS last_start,
    arg_max(hand_id, (start_utc, hand_id))                                    AS last_id
FROM bucket_source
WHERE dealt_in AND is_hero
GROUP BY unit, unit_scale, tournament_id, small_blind, big_blind, buyin_label, game, hilo, game_label,
         epoch_us(start_utc) // 3600000000, time_bucket(INTERVAL 15 MINUTE, start_utc)
-- (in no order: hhparse.reports.derived sorts a result of more than one Parquet row group by its
-- record's `order`, so that a --since/--until skips row groups by their statistics)
