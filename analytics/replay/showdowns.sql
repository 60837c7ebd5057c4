-- replay/showdowns: every hand shown, per run, with the evaluator's high and low.
SELECT site, hand_id, player, run, cards, high, low
FROM showdowns
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id, run, player
