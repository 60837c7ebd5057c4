-- The stat layer: the arithmetic of every stat, as a count of opportunities and a count of times
-- the player did it. Reports only pick and group these. The per-hand flags come from the referee
-- (hhparse.facts.PlayerFacts); nothing here re-derives a poker decision.
--
-- What each stat means (PokerTracker 4's definition where PokerTracker has the stat), its
-- numerator and its denominator are written once, in hhparse/reports/columns.py, which generates
-- docs/stats.md and every header a user sees; the SQL below implements those definitions:
--   rates are pct(did, opportunities) over the player_hands flags; VPIP and PFR exclude walks from
--   their denominator (a walk: the big blind wins the blinds uncontested); AF is (bets + raises) /
--   calls and AFq (bets + raises) / (bets + raises + calls + folds), flop to river; bb/100 is
--   100 * sum(net / that hand's big blind) / hands (fixed limit: the big bet); ev_* use allin_ev
--   (hhparse.ev) where the others use net.

-- Per player per hand: the base every report aggregates. Booleans become 0/1 so opportunities
-- and successes are plain sums. The hand's attributes (unit, date, game, stakes, pot) are the
-- hand_players row's own copies of its hand's (see stg_hand_players): no join, one table scan.
CREATE OR REPLACE VIEW player_hands AS
SELECT
    hp.site,
    hp.hand_id,
    hp.start_utc,
    hp.hand_date,
    hp.unit,
    hp.game,
    hp.game_slug,
    hp.game_label,
    hp.hilo,
    hp.stakes,
    hp.small_blind,
    hp.big_blind,
    hp.structure,
    hp.tournament_id,
    hp.buyin_label,
    hp.max_seats,
    hp.total_pot,
    hp.rake,
    hp.exposed_card,
    hp.player,
    hp.is_hero,
    hp.position,
    hp.seat,
    hp.hole_cards,
    hp.net,
    hp.collected,
    in_big_blinds(hp.net, hp.big_blind)                                      AS net_bb,
    hp.allin_ev,
    in_big_blinds(hp.allin_ev, hp.big_blind)                                 AS ev_bb,
    hp.ev_street,
    hp.ev_method,
    hp.ev_std_err,
    is_walk(hp.position, hp.vpip, hp.pfr, hp.saw_flop, hp.collected)::INT     AS walk,
    hp.vpip::INT                                                               AS vpip,
    hp.pfr::INT                                                                AS pfr,
    hp.three_bet_opportunity::INT                                              AS three_bet_opp,
    hp.three_bet::INT                                                          AS three_bet,
    hp.fold_to_three_bet_opportunity::INT                                      AS fold_to_three_bet_opp,
    hp.fold_to_three_bet::INT                                                  AS fold_to_three_bet,
    hp.steal_opportunity::INT                                                  AS steal_opp,
    hp.steal::INT                                                              AS steal,
    hp.fold_to_steal_opportunity::INT                                          AS fold_to_steal_opp,
    hp.fold_to_steal::INT                                                      AS fold_to_steal,
    hp.cbet_opportunity::INT                                                   AS cbet_opp,
    hp.cbet::INT                                                               AS cbet,
    hp.fold_to_cbet_opportunity::INT                                           AS fold_to_cbet_opp,
    hp.fold_to_cbet::INT                                                       AS fold_to_cbet,
    hp.postflop_bets + hp.postflop_raises                                      AS postflop_aggressive,
    hp.postflop_calls,
    hp.postflop_folds,
    hp.saw_flop::INT                                                           AS saw_flop,
    hp.went_to_showdown::INT                                                   AS wtsd,
    hp.won_at_showdown::INT                                                    AS wsd,
    (hp.saw_flop AND hp.collected > 0)::INT                                    AS wwsf,
    hp.won_high::INT                                                           AS won_high,
    hp.won_low::INT                                                            AS won_low,
    hp.scooped::INT                                                            AS scooped,
    hp.quartered::INT                                                          AS quartered,
    CASE WHEN hp.went_to_showdown THEN hp.net ELSE 0 END                       AS showdown_net,
    CASE WHEN hp.went_to_showdown THEN 0 ELSE hp.net END                       AS nonshowdown_net,
    hp.high_won,
    hp.low_won
FROM stg_hand_players AS hp
WHERE hp.dealt_in;

-- player_hands restricted to the report's filters.
CREATE OR REPLACE MACRO player_hands_in(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT *
    FROM player_hands
    WHERE (p_player IS NULL OR player = p_player)
      AND in_scope(p_since, p_until, p_game, p_stakes, start_utc, hand_date, game_slug, game_label, stakes, buyin_label);

-- cnt(flag): how many rows have the 0/1 flag (or a product of flags) set, as BIGINT. count_if
-- keeps an 8-byte counter per group, where sum(INT) keeps a HUGEINT: measurably cheaper when a
-- report groups millions of rows into tens of thousands of groups with twenty-odd counts each.
CREATE OR REPLACE MACRO cnt(flag) AS count_if(flag <> 0);

-- pct(did, opportunities): a percentage rounded to 2 places, NULL without opportunities.
CREATE OR REPLACE MACRO pct(did, opp) AS
    round(100.0 * did / NULLIF(opp, 0), 2);

-- to_money_sum(x, unit_scale): a sum of minor units as the exact DECIMAL(38,2) that summing the
-- rows' DECIMAL(18,2) amounts gives (to_money, summed after rather than per row).
CREATE OR REPLACE MACRO to_money_sum(x, unit_scale) AS
    CAST(CAST(x AS DECIMAL(38, 0)) * CASE unit_scale WHEN 100 THEN 0.01 WHEN 1 THEN 1.00 END AS DECIMAL(38, 2));

-- The summary stats of every player, per unit, split by what p_by lists (stakes, game, structure,
-- month, position, table-size; each split adds its column, the others stay NULL): one definition
-- for the `summary` and `positions` reports. Money is never added across units, and tournament
-- chips not across tournaments (net and its parts are NULL on a chips row spanning several);
-- bb/100 only within one stake (NULL on a row mixing stakes: a cash stake is its blinds, a
-- tournament's its buy-in). sort_* are for the reports' ORDER BY. (Non-showdown net is net minus
-- showdown net: one sum fewer per row, the same exact decimal.)
--
-- Read for tens of millions of player-hands (issue #18), so the work per row is only counting and
-- adding: the rows come from the raw hand_players view (money in minor units, flags as booleans;
-- player_rows_in), grouped in `fine` by the splits' stored columns (the blinds in minor units, the
-- buy-in, the table size, the month of hand_day); the labels (stakes, game, month, table size) and
-- the exact decimals are made once per group after, and the second pass adds the groups up by the
-- labels. `fine` groups by the keys of the splits asked for alone where it can (a split not
-- asked for is a NULL constant, but still a key hashed and compared for every row).
-- tests/test_reports_reference.py checks every column against the former formulation, which did
-- all of that per row (tests/data/report_reference/summary.sql), and against the version before
-- the per-split branches (stats_rep18d.sql).
CREATE OR REPLACE MACRO player_stats(p_player, p_since, p_until, p_game, p_stakes, p_by) AS TABLE
    WITH per_row AS NOT MATERIALIZED (
        SELECT
            player,
            unit,
            unit_scale,
            CASE WHEN list_contains(p_by, 'stakes') THEN tournament_id IS NULL END            AS k_cash,
            CASE WHEN list_contains(p_by, 'stakes') AND tournament_id IS NULL THEN small_blind END AS k_small_blind,
            CASE WHEN list_contains(p_by, 'stakes') AND tournament_id IS NULL THEN big_blind END AS k_big_blind,
            CASE WHEN list_contains(p_by, 'stakes') AND tournament_id IS NOT NULL THEN buyin_label END AS k_buyin,
            CASE WHEN list_contains(p_by, 'game') THEN game END                              AS k_game,
            CASE WHEN list_contains(p_by, 'game') THEN hilo END                              AS k_hilo,
            CASE WHEN list_contains(p_by, 'structure') THEN structure END                    AS structure,
            CASE WHEN list_contains(p_by, 'month') THEN date_trunc('month', hand_day(start_utc)) END AS k_month,
            CASE WHEN list_contains(p_by, 'position') THEN position END                      AS position,
            CASE WHEN list_contains(p_by, 'table-size') THEN max_seats END                   AS k_seats,
            tournament_id                                                                     AS min_tournament,
            tournament_id                                                                     AS max_tournament,
            buyin_label                                                                       AS min_buyin,
            buyin_label                                                                       AS max_buyin,
            small_blind                                                                       AS min_small_blind,
            small_blind                                                                       AS max_small_blind,
            big_blind                                                                         AS min_big_blind,
            big_blind                                                                         AS max_big_blind,
            max_seats                                                                         AS min_seats,
            in_big_blinds(net, big_blind)                                                     AS sum_net_bb,
            in_big_blinds(allin_ev, big_blind)                                                AS sum_ev_bb,
            net                                                                               AS sum_net,
            allin_ev                                                                          AS sum_allin_ev,
            postflop_bets + postflop_raises                                                   AS sum_postflop_aggressive,
            postflop_calls                                                                    AS sum_postflop_calls,
            postflop_folds                                                                    AS sum_postflop_folds,
            CASE WHEN went_to_showdown THEN net ELSE 0 END                                   AS sum_showdown_net,
            vpip                                                                              AS if_vpip,
            is_walk(position, vpip, pfr, saw_flop, collected)                                 AS if_walks,
            pfr                                                                               AS if_pfr,
            three_bet_opportunity                                                             AS if_three_bet_opp,
            three_bet                                                                         AS if_three_bet,
            fold_to_three_bet_opportunity                                                     AS if_fold_to_three_bet_opp,
            fold_to_three_bet                                                                 AS if_fold_to_three_bet,
            steal_opportunity                                                                 AS if_steal_opp,
            steal                                                                             AS if_steal,
            fold_to_steal_opportunity                                                         AS if_fold_to_steal_opp,
            fold_to_steal                                                                     AS if_fold_to_steal,
            cbet_opportunity                                                                  AS if_cbet_opp,
            cbet                                                                              AS if_cbet,
            fold_to_cbet_opportunity                                                          AS if_fold_to_cbet_opp,
            fold_to_cbet                                                                      AS if_fold_to_cbet,
            saw_flop                                                                          AS if_saw_flop,
            went_to_showdown                                                                  AS if_wtsd,
            won_at_showdown                                                                   AS if_wsd,
            saw_flop AND collected > 0                                                        AS if_wwsf
        FROM stats_rows_in(p_player, p_since, p_until, p_game, p_stakes)
    ),

    -- the per-row aggregate, grouped by the player, the unit and the splits' keys. A key that is
    -- a NULL constant (a split not asked for) is still hashed and compared for every row, so the
    -- common split lists (none, the month, the position, the stakes) each have their own branch
    -- grouped by their keys alone; the others group by every key. The branches test the constant
    -- p_by: all but one fold away. Each aggregates the same columns (by prefix, named without it).
    fine AS (
        SELECT
            player, unit, unit_scale,
            count(*) AS n_hands, min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_')), count_if(COLUMNS('^if_(.*)')) AS 'n_\1'
        FROM per_row
        WHERE len(p_by) = 0
        GROUP BY player, unit, unit_scale
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_month,
            count(*) AS n_hands, min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_')), count_if(COLUMNS('^if_(.*)')) AS 'n_\1'
        FROM per_row
        WHERE p_by = ['month']
        GROUP BY player, unit, unit_scale, k_month
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, position,
            count(*) AS n_hands, min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_')), count_if(COLUMNS('^if_(.*)')) AS 'n_\1'
        FROM per_row
        WHERE p_by = ['position']
        GROUP BY player, unit, unit_scale, position
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin,
            count(*) AS n_hands, min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_')), count_if(COLUMNS('^if_(.*)')) AS 'n_\1'
        FROM per_row
        WHERE p_by = ['stakes']
        GROUP BY player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin, k_game, k_hilo,
            structure, k_month, position, k_seats,
            count(*) AS n_hands, min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_')), count_if(COLUMNS('^if_(.*)')) AS 'n_\1'
        FROM per_row
        WHERE NOT (len(p_by) = 0 OR p_by = ['month'] OR p_by = ['position'] OR p_by = ['stakes'])
        GROUP BY player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin, k_game, k_hilo,
                 structure, k_month, position, k_seats
    ),

    -- the buckets in per_row's shape: the same split keys (a slot bucket's month is its local
    -- day's), the partial aggregates under n_ (counts) and sum_ (sums) and min_/max_. net_bb is
    -- the bucket's integer net over its big blind (a key): one division per bucket, where the raw
    -- rows add one quotient per row (each an exact decimal of 12 places: rows.sql's in_big_blinds;
    -- the two agree to the 12th place).
    per_bucket AS NOT MATERIALIZED (
        SELECT
            player,
            unit,
            unit_scale,
            CASE WHEN list_contains(p_by, 'stakes') THEN cash END                             AS k_cash,
            CASE WHEN list_contains(p_by, 'stakes') AND cash THEN small_blind END               AS k_small_blind,
            CASE WHEN list_contains(p_by, 'stakes') AND cash THEN big_blind END                 AS k_big_blind,
            CASE WHEN list_contains(p_by, 'stakes') AND NOT cash THEN buyin_label END           AS k_buyin,
            CASE WHEN list_contains(p_by, 'game') THEN game END                              AS k_game,
            CASE WHEN list_contains(p_by, 'game') THEN hilo END                              AS k_hilo,
            CASE WHEN list_contains(p_by, 'structure') THEN structure END                    AS structure,
            CASE WHEN list_contains(p_by, 'month')
                 THEN CASE WHEN utc_slot IS NULL THEN date_trunc('month', utc_month)
                           ELSE date_trunc('month', hand_day(utc_slot)) END END              AS k_month,
            CASE WHEN list_contains(p_by, 'position') THEN position END                      AS position,
            CASE WHEN list_contains(p_by, 'table-size') THEN max_seats END                   AS k_seats,
            hands                                                                             AS n_hands,
            min_tournament                                                                    AS min_tournament,
            max_tournament                                                                    AS max_tournament,
            buyin_label                                                                       AS min_buyin,
            buyin_label                                                                       AS max_buyin,
            small_blind                                                                       AS min_small_blind,
            small_blind                                                                       AS max_small_blind,
            big_blind                                                                         AS min_big_blind,
            big_blind                                                                         AS max_big_blind,
            max_seats                                                                         AS min_seats,
            in_big_blinds(net, big_blind)                                                     AS sum_net_bb,
            in_big_blinds(allin_ev, big_blind)                                                AS sum_ev_bb,
            net                                                                               AS sum_net,
            allin_ev                                                                          AS sum_allin_ev,
            postflop_aggressive                                                               AS sum_postflop_aggressive,
            postflop_calls                                                                    AS sum_postflop_calls,
            postflop_folds                                                                    AS sum_postflop_folds,
            showdown_net                                                                      AS sum_showdown_net,
            vpip                                                                              AS n_vpip,
            walks                                                                             AS n_walks,
            pfr                                                                               AS n_pfr,
            three_bet_opp                                                                     AS n_three_bet_opp,
            three_bet                                                                         AS n_three_bet,
            fold_to_three_bet_opp                                                             AS n_fold_to_three_bet_opp,
            fold_to_three_bet                                                                 AS n_fold_to_three_bet,
            steal_opp                                                                         AS n_steal_opp,
            steal                                                                             AS n_steal,
            fold_to_steal_opp                                                                 AS n_fold_to_steal_opp,
            fold_to_steal                                                                     AS n_fold_to_steal,
            cbet_opp                                                                          AS n_cbet_opp,
            cbet                                                                              AS n_cbet,
            fold_to_cbet_opp                                                                  AS n_fold_to_cbet_opp,
            fold_to_cbet                                                                      AS n_fold_to_cbet,
            saw_flop                                                                          AS n_saw_flop,
            wtsd                                                                              AS n_wtsd,
            wsd                                                                               AS n_wsd,
            wwsf                                                                              AS n_wwsf
        FROM bucket_rows_in(p_player, p_since, p_until, p_game, p_stakes)
    ),

    -- the buckets and the groups of `fine` (the raw rows, in the buckets' shape) added up: one
    -- aggregate of both, so that a split whose labels name one key each (merged, below) needs no
    -- second one; grouped, as `fine`, by the keys of the splits asked for alone for the common
    -- lists (hundreds of thousands of buckets at most where `fine` reads tens of millions of rows)
    parts AS NOT MATERIALIZED (
        SELECT * FROM per_bucket
        UNION ALL BY NAME
        SELECT * FROM fine
    ),

    fine_buckets AS (
        SELECT
            player, unit, unit_scale,
            min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_(.*)')) AS '\1', sum(COLUMNS('^n_(.*)')) AS '\1'
        FROM parts
        WHERE len(p_by) = 0
        GROUP BY player, unit, unit_scale
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_month,
            min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_(.*)')) AS '\1', sum(COLUMNS('^n_(.*)')) AS '\1'
        FROM parts
        WHERE p_by = ['month']
        GROUP BY player, unit, unit_scale, k_month
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, position,
            min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_(.*)')) AS '\1', sum(COLUMNS('^n_(.*)')) AS '\1'
        FROM parts
        WHERE p_by = ['position']
        GROUP BY player, unit, unit_scale, position
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin,
            min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_(.*)')) AS '\1', sum(COLUMNS('^n_(.*)')) AS '\1'
        FROM parts
        WHERE p_by = ['stakes']
        GROUP BY player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin
        UNION ALL BY NAME
        SELECT
            player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin, k_game, k_hilo,
            structure, k_month, position, k_seats,
            min(COLUMNS('^min_')), max(COLUMNS('^max_')),
            sum(COLUMNS('^sum_(.*)')) AS '\1', sum(COLUMNS('^n_(.*)')) AS '\1'
        FROM parts
        WHERE NOT (len(p_by) = 0 OR p_by = ['month'] OR p_by = ['position'] OR p_by = ['stakes'])
        GROUP BY player, unit, unit_scale, k_cash, k_small_blind, k_big_blind, k_buyin, k_game, k_hilo,
                 structure, k_month, position, k_seats
    ),

    labelled AS NOT MATERIALIZED (
        SELECT
            *,
            CASE WHEN k_cash THEN stakes_label(to_money(k_small_blind, unit_scale), to_money(k_big_blind, unit_scale), unit)
                 WHEN NOT k_cash THEN k_buyin END                                              AS stakes,
            CASE WHEN list_contains(p_by, 'game') THEN game_slug(k_game, k_hilo) END         AS game,
            strftime(k_month, '%Y-%m')                                                         AS month,
            CASE WHEN list_contains(p_by, 'table-size')
                 THEN coalesce(CAST(k_seats AS VARCHAR) || '-max', 'unknown') END              AS table_size
        FROM fine_buckets
    ),

    -- one row per output row: with a stakes or a game split, the groups of `fine_buckets` added
    -- up by their labels (a buy-in, the blinds of two stakes' hands, a game and its slug join
    -- here); without one, each label names one key (unit_scale follows the unit, a month label
    -- its month, a table size its seats, NULL 'unknown') and the groups are the output rows
    -- already, so they go on as they are: no second aggregate of the 479,091 groups of
    -- `--by month` at 10 M hands. (The branch whose condition on p_by is false folds away.)
    merged AS (
        SELECT
            player, unit, stakes, game, structure, month, position, table_size,
            any_value(unit_scale)                                     AS unit_scale,
            sum(hands)                                                AS hands,
            min(min_tournament)                                       AS min_tournament,
            max(max_tournament)                                       AS max_tournament,
            min(min_buyin)                                            AS min_buyin,
            max(max_buyin)                                            AS max_buyin,
            min(min_small_blind)                                      AS min_small_blind,
            max(max_small_blind)                                      AS max_small_blind,
            min(min_big_blind)                                        AS min_big_blind,
            max(max_big_blind)                                        AS max_big_blind,
            min(min_seats)                                            AS min_seats,
            sum(net_bb)                                               AS net_bb,
            sum(ev_bb)                                                AS ev_bb,
            sum(net)                                                  AS net,
            sum(allin_ev)                                             AS allin_ev,
            sum(vpip)                                                 AS vpip,
            sum(walks)                                                AS walks,
            sum(pfr)                                                  AS pfr,
            sum(three_bet_opp)                                        AS three_bet_opp,
            sum(three_bet)                                            AS three_bet,
            sum(fold_to_three_bet_opp)                                AS fold_to_three_bet_opp,
            sum(fold_to_three_bet)                                    AS fold_to_three_bet,
            sum(steal_opp)                                            AS steal_opp,
            sum(steal)                                                AS steal,
            sum(fold_to_steal_opp)                                    AS fold_to_steal_opp,
            sum(fold_to_steal)                                        AS fold_to_steal,
            sum(cbet_opp)                                             AS cbet_opp,
            sum(cbet)                                                 AS cbet,
            sum(fold_to_cbet_opp)                                     AS fold_to_cbet_opp,
            sum(fold_to_cbet)                                         AS fold_to_cbet,
            sum(postflop_aggressive)                                  AS postflop_aggressive,
            sum(postflop_calls)                                       AS postflop_calls,
            sum(postflop_folds)                                       AS postflop_folds,
            sum(saw_flop)                                             AS saw_flop,
            sum(wtsd)                                                 AS wtsd,
            sum(wsd)                                                  AS wsd,
            sum(wwsf)                                                 AS wwsf,
            sum(showdown_net)                                         AS showdown_net
        FROM labelled
        WHERE list_contains(p_by, 'stakes') OR list_contains(p_by, 'game')
        GROUP BY player, unit, stakes, game, structure, month, position, table_size
        UNION ALL BY NAME
        SELECT * EXCLUDE (k_cash, k_small_blind, k_big_blind, k_buyin, k_game, k_hilo, k_month, k_seats)
        FROM labelled
        WHERE NOT (list_contains(p_by, 'stakes') OR list_contains(p_by, 'game'))
    )

    SELECT
        player,
        unit,
        stakes,
        game,
        structure,
        month,
        position,
        table_size,
        CAST(hands AS BIGINT)                                         AS hands,
        CASE WHEN unit <> 'chips' OR coalesce(min_tournament, '') = coalesce(max_tournament, '')
             THEN to_money_sum(net, unit_scale) END                   AS net,
        CASE WHEN CASE WHEN unit = 'chips' THEN coalesce(min_buyin, '') = coalesce(max_buyin, '')
                       ELSE min_big_blind = max_big_blind AND min_small_blind = max_small_blind END
             THEN round(100 * net_bb / hands, 2) END                  AS bb_per_100,
        CASE WHEN unit <> 'chips' OR coalesce(min_tournament, '') = coalesce(max_tournament, '')
             THEN to_money_sum(allin_ev, unit_scale) END              AS ev_net,
        CASE WHEN CASE WHEN unit = 'chips' THEN coalesce(min_buyin, '') = coalesce(max_buyin, '')
                       ELSE min_big_blind = max_big_blind AND min_small_blind = max_small_blind END
             THEN round(100 * ev_bb / hands, 2) END                   AS ev_bb_per_100,
        pct(CAST(vpip AS BIGINT), CAST(hands - walks AS BIGINT))                            AS vpip,
        pct(CAST(pfr AS BIGINT), CAST(hands - walks AS BIGINT))                             AS pfr,
        pct(CAST(three_bet AS BIGINT), CAST(three_bet_opp AS BIGINT))                       AS three_bet,
        pct(CAST(fold_to_three_bet AS BIGINT), CAST(fold_to_three_bet_opp AS BIGINT))       AS fold_to_three_bet,
        pct(CAST(steal AS BIGINT), CAST(steal_opp AS BIGINT))                               AS steal,
        pct(CAST(fold_to_steal AS BIGINT), CAST(fold_to_steal_opp AS BIGINT))               AS fold_to_steal,
        round(postflop_aggressive / NULLIF(postflop_calls, 0), 2)                           AS af,
        pct(postflop_aggressive, postflop_aggressive + postflop_calls + postflop_folds)     AS afq,
        pct(CAST(cbet AS BIGINT), CAST(cbet_opp AS BIGINT))                                 AS cbet_flop,
        pct(CAST(fold_to_cbet AS BIGINT), CAST(fold_to_cbet_opp AS BIGINT))                 AS fold_to_cbet_flop,
        pct(CAST(wtsd AS BIGINT), CAST(saw_flop AS BIGINT))                                 AS wtsd,
        pct(CAST(wsd AS BIGINT), CAST(wtsd AS BIGINT))                                      AS wsd,
        pct(CAST(wwsf AS BIGINT), CAST(saw_flop AS BIGINT))                                 AS wwsf,
        CASE WHEN unit <> 'chips' OR coalesce(min_tournament, '') = coalesce(max_tournament, '')
             THEN to_money_sum(showdown_net, unit_scale) END          AS showdown_net,
        CASE WHEN unit <> 'chips' OR coalesce(min_tournament, '') = coalesce(max_tournament, '')
             THEN to_money_sum(net - showdown_net, unit_scale) END    AS nonshowdown_net,
        to_money(min_big_blind, unit_scale)                           AS sort_bb,
        min_seats                                                     AS sort_seats
    FROM merged;

-- One row per winner per award (half or whole of a pot of a run): the lists unzipped.
CREATE OR REPLACE VIEW award_shares AS
SELECT
    site,
    hand_id,
    pot,
    run,
    half,
    amount                  AS award_amount,
    unnest(winners)         AS player,
    unnest(amounts)         AS amount,
    unnest(descriptions)    AS description
FROM stg_awards;
