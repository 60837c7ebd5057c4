-- Chip conservation: the players' nets in a hand add up to minus the rake (the only money that
-- leaves the table), plus, when a player cashed out (all-in cash out), what the room paid them
-- (cash_out) minus what their hand then won (high_won + low_won: the room kept it).
WITH nets AS (
    SELECT site, hand_id, sum(net) AS net,
           sum(CASE WHEN cash_out <> 0 THEN cash_out - high_won - low_won ELSE 0 END) AS room
    FROM stg_hand_players
    GROUP BY site, hand_id
)

SELECT h.hand_id, n.net, h.rake
FROM stg_hands AS h
JOIN nets AS n USING (site, hand_id)
WHERE n.net <> n.room - coalesce(h.rake, 0)
