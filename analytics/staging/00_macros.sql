-- Staging macros shared by every stg_* view.
--
-- to_money(x, unit): an integer amount in the hand's smallest unit (cents of a currency, one chip
-- for tournament or play chips) as DECIMAL(18,2) in the hand's unit: x / 100 for a currency, x / 1
-- for chips. Done by exact decimal multiplication (DuckDB's "/" on decimals yields DOUBLE). Used
-- for the columns the raw views give no `_dec` companion for (lists of amounts).
CREATE OR REPLACE MACRO to_money(x, unit) AS
    CAST(CAST(x AS DECIMAL(18, 0))
         * CASE WHEN unit IN ('chips', 'play') THEN 1.00 ELSE 0.01 END AS DECIMAL(18, 2));

-- money(x_dec): the raw views' `<money>_dec` companion (a DOUBLE holding cents / 100) back to an
-- exact DECIMAL(18,2). Exact: every amount below 2^53 cents is within half a cent of its double.
CREATE OR REPLACE MACRO money(x) AS CAST(x AS DECIMAL(18, 2));

-- money_text(x, unit): an amount as a user reads it: "0.10" for a currency, "1500" for chips.
CREATE OR REPLACE MACRO money_text(x, unit) AS
    CASE WHEN unit IN ('chips', 'play') THEN CAST(CAST(x AS BIGINT) AS VARCHAR)
         ELSE CAST(CAST(x AS DECIMAL(18, 2)) AS VARCHAR) END;
