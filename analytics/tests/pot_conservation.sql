-- Pot conservation: for every hand, the awards (all halves of all pots of all runs) plus the
-- rake equal the total pot, and every award's shares add up to the award.
WITH awarded AS (
    SELECT site, hand_id, sum(amount) AS awarded
    FROM stg_awards
    GROUP BY site, hand_id
),

share_mismatch AS (
    SELECT site, hand_id, pot, run, half, amount, list_sum(amounts) AS shares
    FROM stg_awards
    WHERE amount <> coalesce(list_sum(amounts), 0)
)

SELECT h.hand_id, h.total_pot, h.rake, coalesce(a.awarded, 0) AS awarded, 'awards + rake <> total pot' AS problem
FROM stg_hands AS h
LEFT JOIN awarded AS a USING (site, hand_id)
WHERE coalesce(a.awarded, 0) + coalesce(h.rake, 0) <> coalesce(h.total_pot, 0)
UNION ALL
SELECT hand_id, amount, NULL, shares, format('pot {} run {} {}: shares <> award', pot, run, half)
FROM share_mismatch
