-- stg_hands: one row per accepted hand (raw view `hands`), money in the hand's unit.
-- `unit` is a currency code ("USD", "EUR"), "chips" (tournaments) or "play"; amounts of different
-- units are never added together downstream. `stakes` is the label the --stakes filter matches
-- ("0.10/0.25 USD", "15/30 chips").
CREATE OR REPLACE VIEW stg_hands AS
SELECT
    site,
    hand_id,
    source,
    line,
    start_utc,
    CAST(start_utc AS DATE)                                   AS hand_date,
    game,
    hilo,
    game_slug(game, hilo)                                       AS game_slug,
    structure,
    game_label,
    unit,
    small_blind_dec                                             AS small_blind,
    big_blind_dec                                               AS big_blind,
    stakes_label(small_blind_dec, big_blind_dec, unit)          AS stakes,
    tournament_id,
    buyin_label,
    table_name,
    max_seats,
    button_seat,
    n_players,
    total_pot_dec                                               AS total_pot,
    rake_dec                                                    AS rake,
    runs,
    exposed_card,
    board,
    board_run2,
    cancelled
FROM hands;
