-- replay/hands: the hands a replay document is built for. $ids is a list of hand ids, $site a
-- site or NULL for any. Money stays in the hand's smallest unit (the raw views' integers): the
-- replay document carries exact integers and formats them only for display.
SELECT
    site, hand_id, game, hilo, structure, game_label, unit, unit_scale, small_blind, big_blind,
    ante, cap, tournament_id, level, table_name, max_seats, button_seat, start_utc, local_time,
    time_zone, n_players, total_pot, rake, runs, exposed_card, board, board_run2, cancelled,
    warning_codes, source, line
FROM hands
WHERE hand_id IN (SELECT unnest(CAST($ids AS VARCHAR[])))
  AND (CAST($site AS VARCHAR) IS NULL OR site = $site)
ORDER BY site, hand_id
