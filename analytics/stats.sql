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
    CAST(hp.net AS DOUBLE) / NULLIF(CAST(hp.big_blind AS DOUBLE), 0)         AS net_bb,
    hp.allin_ev,
    CAST(hp.allin_ev AS DOUBLE) / NULLIF(CAST(hp.big_blind AS DOUBLE), 0)    AS ev_bb,
    hp.ev_street,
    hp.ev_method,
    hp.ev_std_err,
    (hp.position = 'BB' AND NOT hp.vpip AND NOT hp.pfr AND NOT hp.saw_flop
        AND hp.collected > 0)::INT                                            AS walk,
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

-- The report filters, each NULL for "no filter". User input arrives here only as bound
-- parameters, checked first against what the warehouse holds (hhparse.reports.filters: a filter
-- that matches nothing is an error there, never an empty table here). since/until are inclusive
-- dates (UTC); game matches the slug ("courchevel-hilo", "courchevel" = high only) or the header
-- label, case-insensitively; stakes is a list of stakes labels ("0.10/0.25 USD", "15/30 chips")
-- and tournament buy-ins ("$3.41+$3.41+$0.68 USD"), any of which the hand must have.
-- The dates are also compared with h_start, the stored start_utc column itself, a day wider on
-- each side (a margin: never narrower than the date test, whatever the session's time zone;
-- tests/test_reports_stats.py checks it from UTC+14 to UTC-12): a condition on a stored column
-- reaches the Parquet scan, which skips every row group whose start_utc range lies outside it
-- (files are written in import order, which follows the histories' dates), where the computed
-- hand_date must be read row by row: what partitioning the tables by month would have bought
-- (bench/reports.py, the --since cases; docs/reading-the-warehouse.md).
CREATE OR REPLACE MACRO in_scope(p_since, p_until, p_game, p_stakes, h_start, h_date, h_slug, h_label, h_stakes, h_buyin) AS
    (p_since IS NULL OR (h_start >= CAST(CAST(p_since AS DATE) - INTERVAL 1 DAY AS TIMESTAMPTZ)
                         AND h_date >= CAST(p_since AS DATE)))
    AND (p_until IS NULL OR (h_start < CAST(CAST(p_until AS DATE) + INTERVAL 2 DAY AS TIMESTAMPTZ)
                             AND h_date <= CAST(p_until AS DATE)))
    AND (p_game IS NULL OR lower(p_game) IN (lower(h_slug), lower(h_label)))
    AND (p_stakes IS NULL OR list_contains(CAST(p_stakes AS VARCHAR[]), h_stakes)
         OR list_contains(CAST(p_stakes AS VARCHAR[]), h_buyin));

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

-- The summary stats of every player, per unit, split by what p_by lists (stakes, game, structure,
-- month, position, table-size; each split adds its column, the others stay NULL): one definition
-- for the `summary` and `positions` reports. Money is never added across units, and tournament
-- chips not across tournaments (net and its parts are NULL on a chips row spanning several);
-- bb/100 only within one stake (NULL on a row mixing stakes: a cash stake is its blinds, a
-- tournament's its buy-in). sort_* are for the reports' ORDER BY. (Non-showdown net is net minus
-- showdown net: one sum fewer per row, the same exact decimal.)
CREATE OR REPLACE MACRO player_stats(p_player, p_since, p_until, p_game, p_stakes, p_by) AS TABLE
    SELECT
        player,
        unit,
        CASE WHEN list_contains(p_by, 'stakes')
             THEN CASE WHEN tournament_id IS NULL THEN stakes ELSE buyin_label END END AS stakes,
        CASE WHEN list_contains(p_by, 'game') THEN game_slug END      AS game,
        CASE WHEN list_contains(p_by, 'structure') THEN structure END AS structure,
        CASE WHEN list_contains(p_by, 'month') THEN strftime(hand_date, '%Y-%m') END AS month,
        CASE WHEN list_contains(p_by, 'position') THEN position END   AS position,
        CASE WHEN list_contains(p_by, 'table-size')
             THEN coalesce(CAST(max_seats AS VARCHAR) || '-max', 'unknown') END AS table_size,
        count(*)                                                      AS hands,
        CASE WHEN any_value(unit) <> 'chips' OR coalesce(min(tournament_id), '') = coalesce(max(tournament_id), '') THEN sum(net) END AS net,
        CASE WHEN CASE WHEN any_value(unit) = 'chips' THEN coalesce(min(buyin_label), '') = coalesce(max(buyin_label), '')
                       ELSE min(big_blind) = max(big_blind) AND min(small_blind) = max(small_blind) END
             THEN round(100 * sum(net_bb) / count(*), 2) END          AS bb_per_100,
        CASE WHEN any_value(unit) <> 'chips' OR coalesce(min(tournament_id), '') = coalesce(max(tournament_id), '') THEN sum(allin_ev) END AS ev_net,
        CASE WHEN CASE WHEN any_value(unit) = 'chips' THEN coalesce(min(buyin_label), '') = coalesce(max(buyin_label), '')
                       ELSE min(big_blind) = max(big_blind) AND min(small_blind) = max(small_blind) END
             THEN round(100 * sum(ev_bb) / count(*), 2) END           AS ev_bb_per_100,
        pct(cnt(vpip), count(*) - cnt(walk))                          AS vpip,
        pct(cnt(pfr), count(*) - cnt(walk))                           AS pfr,
        pct(cnt(three_bet), cnt(three_bet_opp))                       AS three_bet,
        pct(cnt(fold_to_three_bet), cnt(fold_to_three_bet_opp))       AS fold_to_three_bet,
        pct(cnt(steal), cnt(steal_opp))                               AS steal,
        pct(cnt(fold_to_steal), cnt(fold_to_steal_opp))               AS fold_to_steal,
        round(sum(postflop_aggressive) / NULLIF(sum(postflop_calls), 0), 2) AS af,
        pct(sum(postflop_aggressive),
            sum(postflop_aggressive) + sum(postflop_calls) + sum(postflop_folds)) AS afq,
        pct(cnt(cbet), cnt(cbet_opp))                                 AS cbet_flop,
        pct(cnt(fold_to_cbet), cnt(fold_to_cbet_opp))                 AS fold_to_cbet_flop,
        pct(cnt(wtsd), cnt(saw_flop))                                 AS wtsd,
        pct(cnt(wsd), cnt(wtsd))                                      AS wsd,
        pct(cnt(wwsf), cnt(saw_flop))                                 AS wwsf,
        CASE WHEN any_value(unit) <> 'chips' OR coalesce(min(tournament_id), '') = coalesce(max(tournament_id), '')
             THEN sum(showdown_net) END                               AS showdown_net,
        CASE WHEN any_value(unit) <> 'chips' OR coalesce(min(tournament_id), '') = coalesce(max(tournament_id), '')
             THEN sum(net) - sum(showdown_net) END                    AS nonshowdown_net,
        min(big_blind)                                                AS sort_bb,
        min(max_seats)                                                AS sort_seats
    FROM player_hands_in(p_player, p_since, p_until, p_game, p_stakes)
    GROUP BY ALL;

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
