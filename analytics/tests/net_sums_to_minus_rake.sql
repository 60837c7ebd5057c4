-- Chip conservation: the players' nets in a hand add up to minus the rake (the only money that
-- leaves the table).
WITH nets AS (
    SELECT site, hand_id, sum(net) AS net
    FROM stg_hand_players
    GROUP BY site, hand_id
)

SELECT h.hand_id, n.net, h.rake
FROM stg_hands AS h
JOIN nets AS n USING (site, hand_id)
WHERE n.net <> -coalesce(h.rake, 0)
