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
WITH hp_all AS (
    SELECT *
    FROM stg_hand_players
    WHERE dealt_in
      AND in_scope($since, $until, $game, $stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label)
),

-- With --limit and no filter that could drop a hand of the list (no --player, no per-hand
-- filter), the list is the last $limit hands in scope: those are found in stg_hands first, so
-- that only their players' rows are grouped below, not every row in scope.
only_latest AS (
    SELECT CAST($limit AS BIGINT) IS NOT NULL AND CAST($player AS VARCHAR) IS NULL
       AND CAST($min_pot AS DECIMAL(18, 2)) IS NULL AND CAST($min_pot_bb AS DECIMAL(18, 2)) IS NULL
       AND CAST($showdown AS BOOLEAN) IS NULL AND CAST($all_in AS BOOLEAN) IS NULL
       AND CAST($scooped AS BOOLEAN) IS NULL AND CAST($quartered AS BOOLEAN) IS NULL
       AND CAST($door_card AS VARCHAR) IS NULL                                AS yes
),

latest_in_scope AS (
    SELECT site, hand_id
    FROM stg_hands
    WHERE (SELECT yes FROM only_latest)
      AND in_scope($since, $until, $game, $stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label)
    ORDER BY start_utc DESC, hand_id DESC
    LIMIT CAST($limit AS BIGINT)
),

hp AS (
    SELECT * FROM hp_all WHERE NOT (SELECT yes FROM only_latest)
    UNION ALL
    SELECT hp_all.* FROM hp_all SEMI JOIN latest_in_scope USING (site, hand_id)
),

per_hand AS (
    SELECT
        site,
        hand_id,
        count(*)                                                              AS players,
        bool_or(went_to_showdown)                                             AS any_showdown,
        bool_or(all_in_street IS NOT NULL)                                    AS any_all_in,
        bool_or(scooped)                                                      AS any_scooped,
        bool_or(quartered)                                                    AS any_quartered
    FROM hp
    GROUP BY ALL
),

focus AS (
    SELECT site, hand_id, player, position, hole_cards, net, went_to_showdown,
           all_in_street IS NOT NULL AS all_in, scooped, quartered
    FROM hp
    WHERE CASE WHEN CAST($player AS VARCHAR) IS NULL THEN is_hero ELSE player = $player END
),

joined AS (
    SELECT
        h.start_utc,
        h.hand_id,
        h.game_label                                                          AS game,
        h.stakes,
        h.table_name,
        h.tournament_id,
        ph.players,
        f.player,
        f.position,
        f.hole_cards,
        h.exposed_card                                                        AS door_card,
        h.board,
        h.board_run2,
        h.total_pot,
        h.rake,
        f.net,
        CASE WHEN f.player IS NULL OR CAST($player AS VARCHAR) IS NULL
             THEN ph.any_showdown ELSE f.went_to_showdown END                 AS showdown,
        CASE WHEN f.player IS NULL OR CAST($player AS VARCHAR) IS NULL
             THEN ph.any_all_in ELSE f.all_in END                             AS all_in,
        CASE WHEN f.player IS NULL OR CAST($player AS VARCHAR) IS NULL
             THEN ph.any_scooped ELSE f.scooped END                           AS scooped,
        CASE WHEN f.player IS NULL OR CAST($player AS VARCHAR) IS NULL
             THEN ph.any_quartered ELSE f.quartered END                       AS quartered,
        h.unit,
        h.big_blind,
        h.site
    FROM per_hand AS ph
    JOIN stg_hands AS h USING (site, hand_id)
    LEFT JOIN focus AS f USING (site, hand_id)
    WHERE CAST($player AS VARCHAR) IS NULL OR f.player IS NOT NULL
),

filtered AS (
    SELECT *
    FROM joined
    WHERE (CAST($min_pot AS DECIMAL(18, 2)) IS NULL OR total_pot >= CAST($min_pot AS DECIMAL(18, 2)))
      AND (CAST($min_pot_bb AS DECIMAL(18, 2)) IS NULL
           OR total_pot >= CAST($min_pot_bb AS DECIMAL(18, 2)) * big_blind)
      AND (CAST($showdown AS BOOLEAN) IS NULL OR showdown = CAST($showdown AS BOOLEAN))
      AND (CAST($all_in AS BOOLEAN) IS NULL OR all_in = CAST($all_in AS BOOLEAN))
      AND (CAST($scooped AS BOOLEAN) IS NULL OR scooped = CAST($scooped AS BOOLEAN))
      AND (CAST($quartered AS BOOLEAN) IS NULL OR quartered = CAST($quartered AS BOOLEAN))
      AND (CAST($door_card AS VARCHAR) IS NULL
           OR CASE WHEN $door_card = 'low' THEN door_card[1] IN ('A', '2', '3', '4', '5', '6', '7', '8')
                   WHEN $door_card = 'high' THEN door_card[1] IN ('9', 'T', 'J', 'Q', 'K')
                   WHEN length($door_card) = 1 THEN door_card[1] = $door_card
                   ELSE door_card = $door_card END)
),

-- the last $limit hands (all of them when NULL): a LIMIT after an ORDER BY is DuckDB's top-N,
-- which keeps $limit rows, where a row_number() window sorts every hand in scope
latest AS (
    SELECT *
    FROM filtered
    ORDER BY start_utc DESC, hand_id DESC
    LIMIT CAST($limit AS BIGINT)
),

final AS (
    SELECT * EXCLUDE (big_blind)
    FROM latest
    ORDER BY start_utc, hand_id
)

SELECT * FROM final
