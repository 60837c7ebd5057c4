-- hands: the hand list. One row per hand in scope, with the player's seat, cards and result
-- (--player; without it, the hero's: the account whose hole cards the histories show — a hand
-- without a hero is listed with those columns empty). The filters of every report, plus (each
-- NULL for no filter; with --player they are about that player, without it about anyone):
--   $min_pot     total pot (before rake) at least this much, in the hand's unit
--   $min_pot_bb  total pot at least this many big blinds
--   $showdown    went to showdown (true) or not (false)
--   $all_in      was all-in at some point
--   $scooped     scooped (won every chip of every pot contested at showdown, hi/lo games)
--   $quartered   shared a low half with another player
--   $door_card   Courchevel's exposed card: a card ('Ah'), a rank ('A') or 'low' (A-8) / 'high'
--   $limit       only the last N hands of the list
-- Every flag is the referee's (hand_players); nothing is re-derived. Oldest hand first.
--
-- The list is built in two steps so that a long history costs its scan, not its size: first the
-- keys of the hands listed (site, hand_id, start_utc), newest first and at most $limit of them (a
-- LIMIT after an ORDER BY is DuckDB's top-N: it keeps $limit rows while it scans), then every
-- other column for those hands only. The second step joins on start_utc too (the hand_players
-- rows carry their hand's start_utc): the hash join hands the kept keys' range to the Parquet
-- scans, which skip every row group outside it. Three ways to find the keys, one per case (the
-- parameters are constants to DuckDB's planner, so the two other ways are pruned before running):
--   with --player: the player's own rows (every filter is about the player's row or its hand's
--     copies of pot, big blind and exposed card), which also give the player's columns;
--   without --player and without a flag filter: the hands table alone;
--   without --player but with a flag filter (about anyone): each hand's flags, grouped.
-- tests/test_reports_reference.py checks the list against the straightforward formulation kept
-- in tests/data/report_reference/hands.sql.
WITH mine_keys AS (
    SELECT site, hand_id, start_utc
    FROM stg_hand_players
    WHERE CAST($player AS VARCHAR) IS NOT NULL
      AND player = $player
      AND dealt_in
      AND in_scope($since, $until, $game, $stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label)
      AND pot_and_door_card($min_pot, $min_pot_bb, $door_card, total_pot, big_blind, exposed_card)
      AND (CAST($showdown AS BOOLEAN) IS NULL OR went_to_showdown = CAST($showdown AS BOOLEAN))
      AND (CAST($all_in AS BOOLEAN) IS NULL OR (all_in_street IS NOT NULL) = CAST($all_in AS BOOLEAN))
      AND (CAST($scooped AS BOOLEAN) IS NULL OR scooped = CAST($scooped AS BOOLEAN))
      AND (CAST($quartered AS BOOLEAN) IS NULL OR quartered = CAST($quartered AS BOOLEAN))
    ORDER BY start_utc DESC, hand_id DESC
    LIMIT CAST($limit AS BIGINT)
),

-- the player's columns, read for the kept hands only
mine AS (
    SELECT
        site,
        hand_id,
        start_utc,
        player,
        position,
        hole_cards,
        net,
        went_to_showdown                                                      AS showdown,
        all_in_street IS NOT NULL                                             AS all_in,
        scooped,
        quartered
    FROM stg_hand_players
    SEMI JOIN mine_keys USING (site, hand_id, start_utc)
    WHERE player = $player
),

by_hand AS (
    SELECT site, hand_id, start_utc
    FROM stg_hands
    WHERE CAST($player AS VARCHAR) IS NULL
      AND CAST($showdown AS BOOLEAN) IS NULL AND CAST($all_in AS BOOLEAN) IS NULL
      AND CAST($scooped AS BOOLEAN) IS NULL AND CAST($quartered AS BOOLEAN) IS NULL
      AND in_scope($since, $until, $game, $stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label)
      AND pot_and_door_card($min_pot, $min_pot_bb, $door_card, total_pot, big_blind, exposed_card)
    ORDER BY start_utc DESC, hand_id DESC
    LIMIT CAST($limit AS BIGINT)
),

-- (the pot and the door card are the hand's, copied on each of its rows: tested row by row,
-- before the grouping)
by_flags AS (
    SELECT site, hand_id, start_utc
    FROM (
        SELECT
            site,
            hand_id,
            start_utc,
            bool_or(went_to_showdown)                                         AS showdown,
            bool_or(all_in_street IS NOT NULL)                                AS all_in,
            bool_or(scooped)                                                  AS scooped,
            bool_or(quartered)                                                AS quartered
        FROM stg_hand_players
        WHERE CAST($player AS VARCHAR) IS NULL
          AND NOT (CAST($showdown AS BOOLEAN) IS NULL AND CAST($all_in AS BOOLEAN) IS NULL
                   AND CAST($scooped AS BOOLEAN) IS NULL AND CAST($quartered AS BOOLEAN) IS NULL)
          AND dealt_in
          AND in_scope($since, $until, $game, $stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label)
          AND pot_and_door_card($min_pot, $min_pot_bb, $door_card, total_pot, big_blind, exposed_card)
          -- when every flag asked for is true, only the rows holding one of them can make a hand
          -- match (a hand without such a row fails them all): the others are not grouped
          AND (coalesce(NOT CAST($showdown AS BOOLEAN), false) OR coalesce(NOT CAST($all_in AS BOOLEAN), false)
               OR coalesce(NOT CAST($scooped AS BOOLEAN), false) OR coalesce(NOT CAST($quartered AS BOOLEAN), false)
               OR (CAST($showdown AS BOOLEAN) AND went_to_showdown)
               OR (CAST($all_in AS BOOLEAN) AND all_in_street IS NOT NULL)
               OR (CAST($scooped AS BOOLEAN) AND scooped)
               OR (CAST($quartered AS BOOLEAN) AND quartered))
        GROUP BY site, hand_id, start_utc
    )
    WHERE (CAST($showdown AS BOOLEAN) IS NULL OR showdown = CAST($showdown AS BOOLEAN))
      AND (CAST($all_in AS BOOLEAN) IS NULL OR all_in = CAST($all_in AS BOOLEAN))
      AND (CAST($scooped AS BOOLEAN) IS NULL OR scooped = CAST($scooped AS BOOLEAN))
      AND (CAST($quartered AS BOOLEAN) IS NULL OR quartered = CAST($quartered AS BOOLEAN))
    ORDER BY start_utc DESC, hand_id DESC
    LIMIT CAST($limit AS BIGINT)
),

-- the hands listed without --player
kept AS (
    SELECT * FROM by_hand
    UNION ALL
    SELECT * FROM by_flags
),

-- their rows: every dealt-in player's flags (the list shows whether anyone went to showdown...)
-- and the hero's seat, cards and result
kept_rows AS MATERIALIZED (
    SELECT site, hand_id, player, is_hero, position, hole_cards, net, went_to_showdown,
           all_in_street IS NOT NULL AS all_in, scooped, quartered
    FROM stg_hand_players
    SEMI JOIN kept USING (site, hand_id, start_utc)
    WHERE dealt_in
),

per_hand AS (
    SELECT
        site,
        hand_id,
        bool_or(went_to_showdown)                                             AS showdown,
        bool_or(all_in)                                                       AS all_in,
        bool_or(scooped)                                                      AS scooped,
        bool_or(quartered)                                                    AS quartered
    FROM kept_rows
    GROUP BY site, hand_id
),

heroes AS (
    SELECT site, hand_id, player, position, hole_cards, net
    FROM kept_rows
    WHERE is_hero
),

-- one row per hand listed: its key, the focus player's columns (NULL for a hand without a hero)
-- and the flags shown
listed AS (
    SELECT site, hand_id, start_utc, player, position, hole_cards, net, showdown, all_in, scooped, quartered
    FROM mine
    UNION ALL
    SELECT k.site, k.hand_id, k.start_utc, f.player, f.position, f.hole_cards, f.net,
           ph.showdown, ph.all_in, ph.scooped, ph.quartered
    FROM kept AS k
    JOIN per_hand AS ph USING (site, hand_id)
    LEFT JOIN heroes AS f USING (site, hand_id)
),

final AS (
    SELECT
        h.start_utc,
        h.hand_id,
        h.game_label                                                          AS game,
        h.stakes,
        h.table_name,
        h.tournament_id,
        CAST(h.n_players AS BIGINT)                                           AS players,
        l.player,
        l.position,
        l.hole_cards,
        h.exposed_card                                                        AS door_card,
        h.board,
        h.board_run2,
        h.total_pot,
        h.rake,
        l.net,
        l.showdown,
        l.all_in,
        l.scooped,
        l.quartered,
        h.unit,
        h.site
    FROM listed AS l
    JOIN stg_hands AS h USING (site, hand_id, start_utc)
    ORDER BY h.start_utc, h.hand_id
)

SELECT * FROM final
