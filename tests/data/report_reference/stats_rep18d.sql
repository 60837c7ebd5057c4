-- stats.sql's player_rows_in and player_stats as of the rep18d pass (main at bb6765d), renamed
-- *_rep18d: the last version before rep18e, which grouped each split list by its own keys and
-- joined the --game / --stakes filters only when given. tests/test_reports_reference.py runs
-- both on the same warehouse, under every filter and split, and requires the same rows.

-- player_rows_in: the dealt-in rows of the raw hand_players view (money in minor units, flags as
-- booleans) within the report's filters, each filter exactly as player_hands_in's (in_scope).
-- The held games and stakes a filter names are one list, made once per query (an uncorrelated
-- scalar subquery; the columns are never NULL, so membership is the IN test's): an IN subquery
-- is planned as a join every row goes through, even without the filter, and its columns are read
-- for every row; the list leaves a NULL filter foldable, and then its columns unread.
CREATE OR REPLACE MACRO player_rows_in_rep18d(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT *
    FROM hand_players AS t
    WHERE t.dealt_in
      AND (p_player IS NULL OR t.player = p_player)
      AND (p_since IS NULL OR (t.start_utc >= CAST(CAST(p_since AS DATE) - INTERVAL 1 DAY AS TIMESTAMPTZ)
                               AND hand_day(t.start_utc) >= CAST(p_since AS DATE)))
      AND (p_until IS NULL OR (t.start_utc < CAST(CAST(p_until AS DATE) + INTERVAL 2 DAY AS TIMESTAMPTZ)
                               AND hand_day(t.start_utc) <= CAST(p_until AS DATE)))
      AND (p_game IS NULL
           OR list_contains((SELECT list((game, hilo, game_label)) FROM held_games
                             WHERE lower(p_game) IN (lower(game_slug), lower(game_label))),
                            (t.game, t.hilo, t.game_label)))
      AND (p_stakes IS NULL
           OR list_contains(CAST(p_stakes AS VARCHAR[]), t.buyin_label)
           OR list_contains((SELECT list((unit, small_blind, big_blind)) FROM held_stakes
                             WHERE list_contains(CAST(p_stakes AS VARCHAR[]), stakes)),
                            (t.unit, t.small_blind, t.big_blind)));

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
-- labels. tests/test_reports_reference.py checks every column against the former formulation,
-- which did all of that per row (tests/data/report_reference/summary.sql).
CREATE OR REPLACE MACRO player_stats_rep18d(p_player, p_since, p_until, p_game, p_stakes, p_by) AS TABLE
    WITH fine AS (
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
            min(tournament_id)                                                                AS min_tournament,
            max(tournament_id)                                                                AS max_tournament,
            min(buyin_label)                                                                  AS min_buyin,
            max(buyin_label)                                                                  AS max_buyin,
            min(small_blind)                                                                  AS min_small_blind,
            max(small_blind)                                                                  AS max_small_blind,
            min(big_blind)                                                                    AS min_big_blind,
            max(big_blind)                                                                    AS max_big_blind,
            min(max_seats)                                                                    AS min_seats,
            sum(CAST(net AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0))                   AS net_bb,
            sum(CAST(allin_ev AS DOUBLE) / NULLIF(CAST(big_blind AS DOUBLE), 0))              AS ev_bb,
            count(*)                                                                          AS hands,
            sum(net)                                                                          AS net,
            sum(allin_ev)                                                                     AS allin_ev,
            count_if(vpip)                                                                    AS vpip,
            count_if(position = 'BB' AND NOT vpip AND NOT pfr AND NOT saw_flop AND collected > 0) AS walks,
            count_if(pfr)                                                                     AS pfr,
            count_if(three_bet_opportunity)                                                   AS three_bet_opp,
            count_if(three_bet)                                                               AS three_bet,
            count_if(fold_to_three_bet_opportunity)                                           AS fold_to_three_bet_opp,
            count_if(fold_to_three_bet)                                                       AS fold_to_three_bet,
            count_if(steal_opportunity)                                                       AS steal_opp,
            count_if(steal)                                                                   AS steal,
            count_if(fold_to_steal_opportunity)                                               AS fold_to_steal_opp,
            count_if(fold_to_steal)                                                           AS fold_to_steal,
            count_if(cbet_opportunity)                                                        AS cbet_opp,
            count_if(cbet)                                                                    AS cbet,
            count_if(fold_to_cbet_opportunity)                                                AS fold_to_cbet_opp,
            count_if(fold_to_cbet)                                                            AS fold_to_cbet,
            sum(postflop_bets + postflop_raises)                                              AS postflop_aggressive,
            sum(postflop_calls)                                                               AS postflop_calls,
            sum(postflop_folds)                                                               AS postflop_folds,
            count_if(saw_flop)                                                                AS saw_flop,
            count_if(went_to_showdown)                                                        AS wtsd,
            count_if(won_at_showdown)                                                         AS wsd,
            count_if(saw_flop AND collected > 0)                                              AS wwsf,
            sum(CASE WHEN went_to_showdown THEN net ELSE 0 END)                              AS showdown_net
        FROM player_rows_in_rep18d(p_player, p_since, p_until, p_game, p_stakes)
        GROUP BY ALL
    ),

    labelled AS MATERIALIZED (
        SELECT
            *,
            CASE WHEN k_cash THEN stakes_label(to_money(k_small_blind, unit_scale), to_money(k_big_blind, unit_scale), unit)
                 WHEN NOT k_cash THEN k_buyin END                                              AS stakes,
            CASE WHEN list_contains(p_by, 'game') THEN game_slug(k_game, k_hilo) END         AS game,
            strftime(k_month, '%Y-%m')                                                         AS month,
            CASE WHEN list_contains(p_by, 'table-size')
                 THEN coalesce(CAST(k_seats AS VARCHAR) || '-max', 'unknown') END              AS table_size
        FROM fine
    ),

    -- one row per output row: the groups of `fine` added up by their labels. Only the stakes and
    -- game labels can join several groups (a buy-in, the blinds of two stakes' hands, a game
    -- and its slug): without them every group of `fine` is its own row (unit_scale follows the
    -- unit, the month and table-size labels name one key each), so the rows go on unmerged.
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
        SELECT
            player, unit, stakes, game, structure, month, position, table_size, unit_scale, hands,
            min_tournament, max_tournament, min_buyin, max_buyin, min_small_blind, max_small_blind,
            min_big_blind, max_big_blind, min_seats, net_bb, ev_bb, net, allin_ev, vpip, walks, pfr,
            three_bet_opp, three_bet, fold_to_three_bet_opp, fold_to_three_bet, steal_opp, steal,
            fold_to_steal_opp, fold_to_steal, cbet_opp, cbet, fold_to_cbet_opp, fold_to_cbet,
            postflop_aggressive, postflop_calls, postflop_folds, saw_flop, wtsd, wsd, wwsf, showdown_net
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

