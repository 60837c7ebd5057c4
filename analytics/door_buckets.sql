-- The door buckets of one hand_players file (the view `bucket_source` over it, set up by
-- hhparse.reports.derived): its dealt-in Courchevel rows (exposed_card known) summed per player,
-- unit, the keys of the --game and --stakes filters, the time key of buckets.sql, and the door-card
-- report's finest grain (door rank, pairs and suits codes: door_card.sql), so that the report adds
-- up these rows instead of the file's (docs/performance.md, "door30"). Run in a UTC session.
--
-- Every sum is of integers (net in minor units, flags counted); bb/100 is derived per bucket from
-- the integer net sum and its big_blind key, as door_card.sql does for the raw rows. The time key
-- and the pairs and suits codes are the macros door_card.sql's raw path uses (analytics/rows.sql).
SELECT
    $source                                                             AS source_file,
    player,
    unit,
    unit_scale,
    small_blind,
    big_blind,
    buyin_label,
    game,
    hilo,
    game_label,
    utc_month,
    utc_slot,
    door_rank,
    door_code(hole, door_rank)                                          AS pairs_code,
    door_code(hole, door_suit)                                          AS suits_code,
    count(*)                                                            AS hands,
    count(*) FILTER (WHERE vpip)                                        AS vpip,
    count(*) FILTER (WHERE pfr)                                         AS pfr,
    count(*) FILTER (WHERE is_walk(position, vpip, pfr, saw_flop, collected)) AS walks,
    CAST(sum(net) AS BIGINT)                                            AS net
FROM (
    SELECT
        *,
        exposed_card[1]                                                 AS door_rank,
        exposed_card[2]                                                 AS door_suit,
        hole_text(hole_cards)                                           AS hole,
        bucket_month(start_utc)                                         AS utc_month,
        bucket_slot(start_utc)                                          AS utc_slot
    FROM bucket_source
    WHERE dealt_in AND exposed_card IS NOT NULL
)
GROUP BY ALL
-- (in no order: hhparse.reports.derived sorts a result of more than one Parquet row group by its
-- record's `order`, so that a --since/--until skips row groups by their statistics)
