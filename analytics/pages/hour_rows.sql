-- The rows the graphs' first pass (player_hours, pages/player_hours.sql) adds up: the raw rows
-- hero_slots does not cover, and the live hero slots (analytics/hero_slots.sql, a derived table:
-- hhparse.reports.derived), each within the report's filters. Apart from player_hours so that a
-- test can give player_hours rows of its own (tests/test_reports_reference.py).
-- hour_source_rows: the raw rows player_hours reads: the files hero_slots does not cover, and
-- with p_player the covered ones too (hero_slots holds the hero's rows alone). hour_rows_within /
-- hour_rows_in: player_rows_within / player_rows_in (stats.sql: the same filters, the same
-- branches) over these rows.
CREATE OR REPLACE MACRO hour_source_rows(p_player) AS TABLE
    SELECT * FROM hand_players_unslotted
    UNION ALL
    SELECT * FROM hand_players_slotted WHERE CAST(p_player AS VARCHAR) IS NOT NULL;

CREATE OR REPLACE MACRO hour_rows_within(p_player, p_since, p_until) AS TABLE
    SELECT *
    FROM hour_source_rows(p_player) AS t
    WHERE t.dealt_in
      AND (CAST(p_player AS VARCHAR) IS NOT NULL OR t.is_hero)
      AND (p_player IS NULL OR t.player = p_player)
      AND in_days(p_since, p_until, t.start_utc);

CREATE OR REPLACE MACRO hour_rows_in(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT *
    FROM hour_rows_within(p_player, p_since, p_until)
    WHERE p_game IS NULL AND p_stakes IS NULL
    UNION ALL
    SELECT *
    FROM hour_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NOT NULL AND p_stakes IS NULL
      AND held_game(p_game, t.game, t.hilo, t.game_label)
    UNION ALL
    SELECT *
    FROM hour_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NULL AND p_stakes IS NOT NULL
      AND held_stake(p_stakes, t.buyin_label, t.unit, t.small_blind, t.big_blind)
    UNION ALL
    SELECT *
    FROM hour_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NOT NULL AND p_stakes IS NOT NULL
      AND held_game(p_game, t.game, t.hilo, t.game_label)
      AND held_stake(p_stakes, t.buyin_label, t.unit, t.small_blind, t.big_blind);

-- slot_rows_in: the live hero slots within the report's filters, none with p_player. The game
-- and stakes tests are player_rows_in's on the same stored columns (keys of the slots); the dates
-- in_days' on the slot's start (one local day per slot: exact in a session zone of whole
-- quarter-hour offsets, the only one in which hhparse.reports.derived.create_views lets the
-- slots cover anything).
CREATE OR REPLACE MACRO slot_rows_within(p_player, p_since, p_until) AS TABLE
    SELECT *
    FROM hero_slots AS s
    WHERE CAST(p_player AS VARCHAR) IS NULL
      AND in_days(p_since, p_until, s.utc_slot);

CREATE OR REPLACE MACRO slot_rows_in(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT *
    FROM slot_rows_within(p_player, p_since, p_until)
    WHERE p_game IS NULL AND p_stakes IS NULL
    UNION ALL
    SELECT *
    FROM slot_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NOT NULL AND p_stakes IS NULL
      AND held_game(p_game, t.game, t.hilo, t.game_label)
    UNION ALL
    SELECT *
    FROM slot_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NULL AND p_stakes IS NOT NULL
      AND held_stake(p_stakes, t.buyin_label, t.unit, t.small_blind, t.big_blind)
    UNION ALL
    SELECT *
    FROM slot_rows_within(p_player, p_since, p_until) AS t
    WHERE p_game IS NOT NULL AND p_stakes IS NOT NULL
      AND held_game(p_game, t.game, t.hilo, t.game_label)
      AND held_stake(p_stakes, t.buyin_label, t.unit, t.small_blind, t.big_blind);
