-- Every hand is stored once: no (site, hand_id) appears twice in stg_hands.
SELECT site, hand_id, count(*) AS copies
FROM stg_hands
GROUP BY site, hand_id
HAVING count(*) > 1
