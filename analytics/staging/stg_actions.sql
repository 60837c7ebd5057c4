-- stg_actions: every forced bet, voluntary action and uncalled return, in order (raw `actions`).
-- `amount` moved from the stack into the pot (for "uncalled": returned from the pot to the stack).
CREATE OR REPLACE VIEW stg_actions AS
SELECT
    site,
    hand_id,
    seq,
    street,
    player,
    seat,
    action,
    amount_dec                                                  AS amount,
    to_amount_dec                                               AS to_amount,
    all_in,
    pot_before_dec                                              AS pot_before,
    stack_before_dec                                            AS stack_before,
    faced_dec                                                   AS faced,
    line,
    unit
FROM actions;
