-- A row's derived values that the reports' raw path and the derived tables' builds both compute
-- (hhparse.reports.derived: each derived row must add up to what the raw rows give), defined
-- once: loaded on every report connection (before analytics/filters.sql) and in every build's
-- session.

-- bucket_month(ts) / bucket_slot(ts): the time key of the derived tables keyed like the player
-- buckets (buckets.sql, door_buckets.sql, shown_lows.sql; in a UTC session). A hand more than 14
-- hours from a UTC month boundary is keyed by its UTC month alone (offsets run from UTC-12 to
-- UTC+14, so its month is the same in every time zone), a hand nearer by its 15-minute UTC slot as
-- well (every zone's offset and every DST shift are whole quarter-hours, so one slot is one local
-- day in every zone): in_bucket_days (filters.sql) is exact in every zone.
CREATE OR REPLACE MACRO bucket_month(ts) AS
    CAST(date_trunc('month', ts) AS DATE);

CREATE OR REPLACE MACRO bucket_slot(ts) AS
    CASE WHEN ts >= date_trunc('month', ts) + INTERVAL 14 HOUR
              AND ts < date_trunc('month', ts) + INTERVAL 1 MONTH - INTERVAL 14 HOUR
         THEN NULL
         ELSE time_bucket(INTERVAL 15 MINUTE, ts) END;

-- is_walk(...): a walk, the big blind winning the blinds uncontested (excluded from VPIP's and
-- PFR's denominator: hhparse.reports.columns).
CREATE OR REPLACE MACRO is_walk(position, vpip, pfr, saw_flop, collected) AS
    position = 'BB' AND NOT vpip AND NOT pfr AND NOT saw_flop AND collected > 0;

-- in_big_blinds(amount, big_blind): an amount in big blinds (NULL without a big blind), rounded to
-- a DECIMAL(38, 12), whose sums are exact: bb/100 is the same in every run, whatever order
-- DuckDB's threads add the rows in (a float sum's last bits depend on it, and a total on a
-- rounding tie of the second decimal came out 0.01 apart between two runs of one report).
CREATE OR REPLACE MACRO in_big_blinds(amount, big_blind) AS
    CAST(CAST(amount AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0) AS DECIMAL(38, 12));

-- pot_share_of(...): what a row collected of the pot net of rake (NULL when it collected nothing),
-- rounded to a DECIMAL(38, 20), whose sums are exact: the hilo report's average pot share is the
-- same to the last bit from the buckets and from the raw rows, in any order.
CREATE OR REPLACE MACRO pot_share_of(collected, total_pot, rake) AS
    CASE WHEN collected > 0
         THEN CAST(CAST(collected AS DOUBLE) / NULLIF(CAST(total_pot - rake AS DOUBLE), 0)
                   AS DECIMAL(38, 20)) END;

-- hole_text(hole_cards) / door_code(hole, part): the door-card report's pairs and suits questions.
-- A card is its rank then its suit: in the hole cards written one after the other the door card's
-- rank can only match a rank and its suit only a suit, so one substring test answers each
-- (0 unknown: hole cards not known, 1 yes, 2 no).
CREATE OR REPLACE MACRO hole_text(hole_cards) AS
    CASE WHEN hole_cards IS NULL THEN '' ELSE array_to_string(hole_cards, '') END;

CREATE OR REPLACE MACRO door_code(hole, part) AS
    CAST(CASE WHEN hole = '' THEN 0 WHEN contains(hole, part) THEN 1 ELSE 2 END AS TINYINT);
