-- The main pot and the side pots add up to the total pot.
WITH pots AS (
    SELECT site, hand_id, sum(amount) AS pots
    FROM stg_pots
    GROUP BY site, hand_id
)

SELECT h.hand_id, h.total_pot, p.pots
FROM stg_hands AS h
JOIN pots AS p USING (site, hand_id)
WHERE p.pots <> h.total_pot
