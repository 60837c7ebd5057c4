-- Staging macros shared by every stg_* view.
--
-- to_money(x, unit_scale): an integer amount in the hand's smallest unit (cents of a currency, one
-- chip for tournament or play chips) as an exact DECIMAL(18,2) in the hand's unit: x * 0.01 when
-- the row's unit_scale is 100, x for chips (scale 1). The same formula as the raw views' `_dec`
-- companions (hhparse.tables.schema.money_dec_sql); decimal multiplication stays DECIMAL, whereas
-- DuckDB's "/" on decimals yields DOUBLE. Used for the amounts the raw views give no `_dec`
-- companion for (lists of amounts).
CREATE OR REPLACE MACRO to_money(x, unit_scale) AS
    CAST(CAST(x AS DECIMAL(18, 0))
         * CASE unit_scale WHEN 100 THEN 0.01 WHEN 1 THEN 1.00 END AS DECIMAL(18, 2));

-- money_text(x, unit): an amount as a user reads it: "0.10" for a currency, "1500" for chips.
CREATE OR REPLACE MACRO money_text(x, unit) AS
    CASE WHEN unit IN ('chips', 'play') THEN CAST(CAST(x AS BIGINT) AS VARCHAR)
         ELSE CAST(CAST(x AS DECIMAL(18, 2)) AS VARCHAR) END;

-- game_slug(game, hilo): the --game filter's short name, e.g. "courchevel-hilo", "courchevel".
CREATE OR REPLACE MACRO game_slug(game, hilo) AS game || CASE WHEN hilo THEN '-hilo' ELSE '' END;

-- stakes_label(small_blind, big_blind, unit): the --stakes filter's label, "0.10/0.25 USD",
-- "15/30 chips" (amounts already in the hand's unit).
CREATE OR REPLACE MACRO stakes_label(small_blind, big_blind, unit) AS
    money_text(small_blind, unit) || '/' || money_text(big_blind, unit) || ' ' || unit;
