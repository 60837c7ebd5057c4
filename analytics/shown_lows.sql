-- The shown lows of one showdowns file (the view `bucket_source` over it, set up by
-- hhparse.reports.derived), for the hilo report's low_made_pct (analytics/reports/hilo.sql): the
-- hands it shows (rows not mucked; a hand and player once, with a low if any run held one) of
-- hi/lo games, counted per player and per every key of their hand that the report filters by,
-- with player_buckets' time key (analytics/buckets.sql). The hand's keys come from `hands` (the
-- live files: a shown hand's row is in them for as long as its showdowns file is live, both
-- written by one batch and never changed). Run in a UTC session: the time keys are UTC.
WITH shown AS (
    SELECT site, hand_id, player, bool_or(low IS NOT NULL) AS low_made
    FROM bucket_source
    WHERE NOT mucked
    GROUP BY site, hand_id, player
)

-- (the time keys made after the join: for the shown hands only, not for every hand)
SELECT
    $source                                                             AS source_file,
    shown.player,
    h.unit,
    h.unit_scale,
    h.small_blind,
    h.big_blind,
    h.buyin_label,
    h.game,
    h.hilo,
    h.game_label,
    bucket_month(h.start_utc)                                           AS utc_month,
    bucket_slot(h.start_utc)                                            AS utc_slot,
    count(*)                                                            AS hands_shown,
    count(*) FILTER (WHERE shown.low_made)                              AS lows_made
FROM shown
JOIN hands AS h USING (site, hand_id)
WHERE h.hilo
GROUP BY ALL
-- (in no order: hhparse.reports.derived sorts a result of more than one Parquet row group by its
-- record's `order`, so that a --since/--until skips row groups by their statistics)
