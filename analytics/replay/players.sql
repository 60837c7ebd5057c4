-- replay/players: every seated player of the hands in $ids (see hands.sql), by seat.
SELECT
    site, hand_id, seat, player, is_hero, position, dealt_in, starting_stack, hole_cards, net,
    collected, returned, all_in_street, cash_out
FROM hand_players
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id, seat
