-- replay/awards: every half (or whole) of every pot of every run of the hands in $ids: winners,
-- amounts and the evaluator's descriptions, as the referee awarded them.
SELECT site, hand_id, pot, run, half, amount, eligible, winners, amounts, descriptions
FROM awards
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id, pot, run, list_position(['whole', 'high', 'low'], half)
