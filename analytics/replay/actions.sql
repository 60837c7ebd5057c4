-- replay/actions: every forced bet, action and uncalled return of the hands in $ids, in order,
-- with the referee's pot and stack before each.
SELECT
    site, hand_id, seq, street, player, seat, action, amount, to_amount, all_in, pot_before,
    stack_before, faced
FROM actions
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id, seq
