-- The report filters' tests of a row, each written once (loaded before analytics/stats.sql; the
-- macros that apply them to each source of rows, <name>_within and <name>_in, are written from
-- one declaration between the two: hhparse.reports.scoped).

-- The report filters, each NULL for "no filter". User input arrives here only as bound
-- parameters, checked first against what the warehouse holds (hhparse.reports.filters: a filter
-- that matches nothing is an error there, never an empty table here). since/until are inclusive
-- dates (UTC); game matches the slug ("courchevel-hilo", "courchevel" = high only) or the header
-- label, case-insensitively; stakes is a list of stakes labels ("0.10/0.25 USD", "15/30 chips")
-- and tournament buy-ins ("$3.41+$3.41+$0.68 USD"), any of which the hand must have.
-- The dates are also compared with h_start, the stored start_utc column itself, a day wider on
-- each side (a margin: never narrower than the date test, whatever the session's time zone;
-- tests/test_reports_stats.py checks it from UTC+14 to UTC-12): a condition on a stored column
-- reaches the Parquet scan, which skips every row group whose start_utc range lies outside it
-- (files are written in import order, which follows the histories' dates), where the computed
-- hand_date must be read row by row: what partitioning the tables by month would have bought
-- (bench/reports.py, the --since cases; docs/reading-the-warehouse.md).
CREATE OR REPLACE MACRO in_scope(p_since, p_until, p_game, p_stakes, h_start, h_date, h_slug, h_label, h_stakes, h_buyin) AS
    (p_since IS NULL OR (h_start >= CAST(CAST(p_since AS DATE) - INTERVAL 1 DAY AS TIMESTAMPTZ)
                         AND h_date >= CAST(p_since AS DATE)))
    AND (p_until IS NULL OR (h_start < CAST(CAST(p_until AS DATE) + INTERVAL 2 DAY AS TIMESTAMPTZ)
                             AND h_date <= CAST(p_until AS DATE)))
    AND (p_game IS NULL OR lower(p_game) IN (lower(h_slug), lower(h_label)))
    AND (p_stakes IS NULL OR list_contains(CAST(p_stakes AS VARCHAR[]), h_stakes)
         OR list_contains(CAST(p_stakes AS VARCHAR[]), h_buyin));

-- The hand list's pot and door-card filters (hands.sql), each NULL for "no filter": the pot at
-- least p_min_pot, or p_min_pot_bb big blinds; the door card low (A-8), high (9-K), a rank, or
-- one card. A hand's values, copied on each of its player rows: one test for either table.
CREATE OR REPLACE MACRO pot_and_door_card(p_min_pot, p_min_pot_bb, p_door_card, h_pot, h_big_blind, h_door_card) AS
    (CAST(p_min_pot AS DECIMAL(18, 2)) IS NULL OR h_pot >= CAST(p_min_pot AS DECIMAL(18, 2)))
    AND (CAST(p_min_pot_bb AS DECIMAL(18, 2)) IS NULL
         OR h_pot >= CAST(p_min_pot_bb AS DECIMAL(18, 2)) * h_big_blind)
    AND (CAST(p_door_card AS VARCHAR) IS NULL
         OR CASE WHEN p_door_card = 'low' THEN h_door_card[1] IN ('A', '2', '3', '4', '5', '6', '7', '8')
                 WHEN p_door_card = 'high' THEN h_door_card[1] IN ('9', 'T', 'J', 'Q', 'K')
                 WHEN length(p_door_card) = 1 THEN h_door_card[1] = p_door_card
                 ELSE h_door_card = p_door_card END);

-- hand_day(ts): CAST(ts AS DATE), the hand's date in the session's time zone, as every report
-- dates hands (hand_date). In a UTC session it is the UTC day of the epoch microseconds: integer
-- arithmetic, where the cast converts each row through the time zone library; any other zone
-- takes the cast itself. (current_setting is a constant of the query: one branch runs.)
CREATE OR REPLACE MACRO hand_day(ts) AS
    CASE WHEN current_setting('TimeZone') IN ('UTC', 'Etc/UTC', 'Etc/UCT', 'UCT', 'Etc/Universal', 'Universal',
                                             'Etc/Zulu', 'Zulu', 'GMT', 'Etc/GMT', 'Etc/GMT0', 'GMT0',
                                             'Etc/GMT+0', 'Etc/GMT-0', 'GMT+0', 'GMT-0', 'Etc/Greenwich', 'Greenwich')
         THEN DATE '1970-01-01' + CAST(epoch_us(ts) // 86400000000
                                       - CASE WHEN epoch_us(ts) % 86400000000 < 0 THEN 1 ELSE 0 END AS INTEGER)
         ELSE CAST(ts AS DATE) END;

-- The stakes and the games the warehouse holds, one row each (from `hands`, whose rows the
-- player-hands copy): the --stakes and --game filters test these few rows, and the player-hands
-- are matched to them by their stored columns, where testing the labels row by row would format a
-- stakes label for each of tens of millions of player-hands.
CREATE OR REPLACE VIEW held_stakes AS
SELECT unit, small_blind, big_blind, stakes_label(small_blind_dec, big_blind_dec, unit) AS stakes
FROM (SELECT DISTINCT unit, small_blind, big_blind, small_blind_dec, big_blind_dec FROM hands);

CREATE OR REPLACE VIEW held_games AS
SELECT DISTINCT game, hilo, game_label, game_slug(game, hilo) AS game_slug
FROM hands;

-- held_game / held_stake / in_days: the --game, --stakes and --since/--until tests of a row's
-- stored columns, written once for every source of rows (hhparse.reports.scoped: player_rows_in,
-- stats_rows_in, bucket_rows_in...). --game and --stakes match the rows to the held games and
-- stakes the filter names (`held_games`, `held_stakes`) by their stored columns, a hash join of the
-- few held rows (hhparse.reports.scoped says why each combination is its own branch).
CREATE OR REPLACE MACRO held_game(p_game, g, h, l) AS
    (g, h, l) IN (SELECT game, hilo, game_label FROM held_games
                  WHERE lower(p_game) IN (lower(game_slug), lower(game_label)));

CREATE OR REPLACE MACRO held_stake(p_stakes, buyin, u, sb, bb) AS
    (list_contains(CAST(p_stakes AS VARCHAR[]), buyin)
     OR (u, sb, bb) IN (SELECT unit, small_blind, big_blind FROM held_stakes
                        WHERE list_contains(CAST(p_stakes AS VARCHAR[]), stakes)));

CREATE OR REPLACE MACRO in_days(p_since, p_until, ts) AS
    (p_since IS NULL OR (ts >= CAST(CAST(p_since AS DATE) - INTERVAL 1 DAY AS TIMESTAMPTZ)
                         AND hand_day(ts) >= CAST(p_since AS DATE)))
    AND (p_until IS NULL OR (ts < CAST(CAST(p_until AS DATE) + INTERVAL 2 DAY AS TIMESTAMPTZ)
                             AND hand_day(ts) <= CAST(p_until AS DATE)));

-- The player buckets (hhparse.reports.buckets, analytics/buckets.sql): the rows of each covered
-- hand_players file summed per player and per every key the summary family filters or splits by.
-- hhparse.reports.buckets.create_views splits hand_players in two views: hand_players_bucketed
-- (the files the live buckets cover) and hand_players_unbucketed (the others: new batches not yet
-- bucketed, every file of a warehouse without buckets); player_stats reads the buckets and the
-- unbucketed rows, and of the bucketed rows only those of the edge months of a --since/--until
-- range. Why that is exact in every time zone: a month bucket (utc_slot NULL) holds hands more
-- than 14 hours from a UTC month boundary, whose month is its UTC month in every zone (offsets
-- run from -12 to +14 hours), so it lies wholly inside or outside any range of whole months; a
-- slot bucket holds one 15-minute UTC slot, one local day in every zone (offsets and DST shifts
-- are whole quarter-hours). The months a range cuts (edge months) are read raw instead.
-- (tests/test_reports_buckets.py compares both paths across zones.)

-- utc_instant(d): midnight UTC of the date d as a TIMESTAMPTZ, whatever the session's zone.
CREATE OR REPLACE MACRO utc_instant(d) AS
    to_timestamp(CAST(epoch_us(CAST(CAST(d AS DATE) AS TIMESTAMP)) // 1000000 AS DOUBLE));

-- edge_month(m, since, until): whether the range [since, until] (NULL: open) takes part of the
-- UTC month starting on m, but not all of it.
CREATE OR REPLACE MACRO edge_month(m, p_since, p_until) AS
    coalesce(CAST(p_since AS DATE) > m AND CAST(p_since AS DATE) <= last_day(m), false)
    OR coalesce(CAST(p_until AS DATE) >= m AND CAST(p_until AS DATE) < last_day(m), false);

-- since_edge / until_edge: the first day of the edge month of --since / --until, NULL when there is
-- none (a range from a month's first day, to its last) or when it is the same month as since's.
CREATE OR REPLACE MACRO since_edge(p_since) AS
    CASE WHEN CAST(p_since AS DATE) <> CAST(date_trunc('month', CAST(p_since AS DATE)) AS DATE)
         THEN CAST(date_trunc('month', CAST(p_since AS DATE)) AS DATE) END;

CREATE OR REPLACE MACRO until_edge(p_since, p_until) AS
    CASE WHEN CAST(p_until AS DATE) <> last_day(CAST(p_until AS DATE))
              AND since_edge(p_since) IS DISTINCT FROM CAST(date_trunc('month', CAST(p_until AS DATE)) AS DATE)
         THEN CAST(date_trunc('month', CAST(p_until AS DATE)) AS DATE) END;

-- in_bucket_days(since, until, utc_month, utc_slot): the time test of the keys of a derived table
-- keyed like the player buckets (bucket_rows_in, door_bucket_rows_in, the hilo report's
-- shown_lows): a month bucket counts when its whole month lies in the range; a slot bucket when
-- its local day does, unless its month is an edge month (then the raw rows of that month are
-- read instead: hhparse.reports.scoped.edge_months).
CREATE OR REPLACE MACRO in_bucket_days(p_since, p_until, m, slot) AS
    -- a bound on the stored utc_month, a month wider than the range on each side (the slots of
    -- a month's first and last 14 hours can fall on the neighbouring month's days): the scan
    -- skips the row groups outside it, as in_days' bound on start_utc does
    (p_since IS NULL
     OR m >= CAST(date_trunc('month', CAST(p_since AS DATE)) - INTERVAL 1 MONTH AS DATE))
    AND (p_until IS NULL
         OR m <= CAST(date_trunc('month', CAST(p_until AS DATE)) + INTERVAL 1 MONTH AS DATE))
    AND ((p_since IS NULL AND p_until IS NULL)
         OR CASE WHEN slot IS NULL
                 THEN (p_since IS NULL OR CAST(p_since AS DATE) <= m)
                      AND (p_until IS NULL OR last_day(m) <= CAST(p_until AS DATE))
                 ELSE NOT edge_month(m, p_since, p_until)
                      AND (p_since IS NULL OR hand_day(slot) >= CAST(p_since AS DATE))
                      AND (p_until IS NULL OR hand_day(slot) <= CAST(p_until AS DATE)) END);
