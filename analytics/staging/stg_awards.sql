-- stg_awards: one row per half (or whole) of each pot of each run, as the referee awarded it
-- (raw `awards`). `winners`, `amounts` and `descriptions` are parallel lists; `amounts` has no
-- `_dec` companion in the raw view, so it is scaled here with the hand's unit.
CREATE OR REPLACE VIEW stg_awards AS
SELECT
    a.site,
    a.hand_id,
    a.pot,
    a.run,
    a.half,
    money(a.amount_dec)                                         AS amount,
    a.eligible,
    a.winners,
    list_transform(a.amounts, lambda x: to_money(x, h.unit))       AS amounts,
    a.descriptions
FROM awards AS a
JOIN hands AS h ON h.site = a.site AND h.hand_id = a.hand_id;
