-- The door buckets of one hand_players file (the view `bucket_source` over it, set up by
-- hhparse.reports.derived): its dealt-in Courchevel rows (exposed_card known) summed per player,
-- unit, the keys of the --game and --stakes filters, the time key of buckets.sql, and the door-card
-- report's finest grain (door rank, pairs and suits codes: door_card.sql), so that the report adds
-- up these rows instead of the file's (docs/performance.md, "door30"). Run in a UTC session.
--
-- Every sum is of integers (net in minor units, flags counted); bb/100 is derived per bucket from
-- the integer net sum and its big_blind key, as door_card.sql does for the raw rows. The time key
-- is buckets.sql's (a hand more than 14 hours from a UTC month boundary keyed by its UTC month
-- alone, a nearer one by its 15-minute UTC slot as well); the pairs and suits codes are
-- door_card.sql's substring tests (0 unknown, 1 yes, 2 no).
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
    CAST(CASE WHEN hole = '' THEN 0 WHEN contains(hole, door_rank) THEN 1 ELSE 2 END AS TINYINT) AS pairs_code,
    CAST(CASE WHEN hole = '' THEN 0 WHEN contains(hole, door_suit) THEN 1 ELSE 2 END AS TINYINT) AS suits_code,
    count(*)                                                            AS hands,
    count_if(vpip)                                                      AS vpip,
    count_if(pfr)                                                       AS pfr,
    count_if(position = 'BB' AND NOT vpip AND NOT pfr AND NOT saw_flop AND collected > 0) AS walks,
    CAST(sum(net) AS BIGINT)                                            AS net
FROM (
    SELECT
        *,
        exposed_card[1]                                                 AS door_rank,
        exposed_card[2]                                                 AS door_suit,
        CASE WHEN hole_cards IS NULL THEN '' ELSE array_to_string(hole_cards, '') END AS hole,
        CAST(date_trunc('month', start_utc) AS DATE)                    AS utc_month,
        CASE WHEN start_utc >= date_trunc('month', start_utc) + INTERVAL 14 HOUR
                  AND start_utc < date_trunc('month', start_utc) + INTERVAL 1 MONTH - INTERVAL 14 HOUR
             THEN NULL
             ELSE time_bucket(INTERVAL 15 MINUTE, start_utc) END        AS utc_slot
    FROM bucket_source
    WHERE dealt_in AND exposed_card IS NOT NULL
)
GROUP BY ALL
-- in time order: the Parquet statistics of utc_month then let a --since/--until skip row groups
ORDER BY utc_month, player
