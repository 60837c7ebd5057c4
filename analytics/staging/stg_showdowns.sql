-- stg_showdowns: every hand at showdown, per run, with the evaluator's verdict (raw
-- `showdowns`): shown, or mucked with its cards revealed in the summary (`mucked`: it could not
-- win). `low` is NULL when the player had no qualifying 8-or-better low.
CREATE OR REPLACE VIEW stg_showdowns AS
SELECT
    site,
    hand_id,
    player,
    run,
    cards,
    high,
    high_rank,
    low,
    low_rank,
    mucked,
    unit
FROM showdowns;
