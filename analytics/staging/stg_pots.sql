-- stg_pots: main pot (0) and side pots (1..) of each hand, before rake (raw `pots`).
CREATE OR REPLACE VIEW stg_pots AS
SELECT
    site,
    hand_id,
    pot,
    amount_dec                                                  AS amount,
    eligible,
    unit
FROM pots;
