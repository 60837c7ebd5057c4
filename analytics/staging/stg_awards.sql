-- stg_awards: one row per half (or whole) of each pot of each run, as the referee awarded it
-- (raw `awards`). `winners`, `amounts` and `descriptions` are parallel lists; `amounts` has no
-- `_dec` companion in the raw view, so it is scaled here with the row's copy of the hand's unit.
CREATE OR REPLACE VIEW stg_awards AS
SELECT
    site,
    hand_id,
    pot,
    run,
    half,
    amount_dec                                                  AS amount,
    eligible,
    winners,
    list_transform(amounts, lambda x: to_money(x, unit_scale))  AS amounts,
    descriptions,
    unit
FROM awards;
