-- replay/pots: main pot (0) and side pots of the hands in $ids as the referee split them.
SELECT site, hand_id, pot, amount, eligible
FROM pots
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id, pot
