-- stg_ev_shares: one row per player per pot, run and half of a hand with an all-in EV (raw
-- `ev_shares`), money in the hand's unit. `equity` is the exact expected fraction of the pot-run
-- this half brings the player: share_sum / (boards x amount), as a DOUBLE (NULL for an empty pot).
CREATE OR REPLACE VIEW stg_ev_shares AS
SELECT
    site,
    hand_id,
    pot,
    run,
    half,
    player,
    seat,
    amount_dec                                                  AS amount,
    ev_dec                                                      AS ev,
    CAST(share_sum AS DOUBLE) / NULLIF(CAST(boards AS DOUBLE) * amount, 0) AS equity,
    boards,
    std_err_dec                                                 AS std_err,
    won_dec                                                     AS won,
    street,
    method,
    unit
FROM ev_shares;
