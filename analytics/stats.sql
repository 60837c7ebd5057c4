-- The stat layer: every stat is defined here, once, as a count of opportunities and a count of
-- times the player did it. Reports only pick and group these. The per-hand flags come from the
-- referee (hhparse.facts.PlayerFacts); nothing here re-derives a poker decision.
--
-- Definitions (PokerTracker 4 where one exists; "hands" = hands the player was dealt into):
--   VPIP        did: put money in voluntarily pre-flop (call, bet, raise; posting blinds is not
--               voluntary; a big blind that only checks is not VPIP).
--               opportunity: every hand dealt in, except walks (PT4: cnt_hands - cnt_walks).
--   walk        the big blind who won the blinds because everyone else folded pre-flop: in the BB,
--               no VPIP, no pre-flop raise, no flop and collected something.
--   PFR         did: raised pre-flop (any raise, including a 3-bet). opportunity: as VPIP.
--   3-bet       did: re-raised a pre-flop raise. opportunity: faced exactly one pre-flop raise
--               (the open) with a raise still allowed (the referee's three_bet_opportunity).
--   fold to 3-bet  did: folded to the 3-bet. opportunity: raised first in pre-flop and then
--               faced a 3-bet (no 4-bet yet).
--   steal       did: raised first in from CO, BTN or SB. opportunity: everyone before folded to
--               the player in CO, BTN or SB.
--   fold to steal  did: folded the SB/BB to a steal. opportunity: SB/BB facing a steal.
--   c-bet flop  did: bet the flop first. opportunity: was the last pre-flop raiser and the action
--               came to them on the flop with no bet yet.
--   fold to c-bet flop  did: folded to a flop c-bet. opportunity: faced a flop c-bet.
--   AF          (bets + raises) / calls, flop to river (PT4 "Aggression Factor"); NULL if no calls.
--   AFq         (bets + raises) / (bets + raises + calls + folds), flop to river, as % (PT4
--               "Aggression Frequency"; checks are not counted).
--   WTSD        did: went to showdown. opportunity: saw the flop (PT4).
--   W$SD        did: won money (any part of any pot) at showdown. opportunity: went to showdown.
--   WWSF        did: won money (collected > 0) in a hand where the player saw the flop.
--               opportunity: saw the flop (PT4 "Won When Saw Flop").
--   net         collected + returned - everything put in (the referee's net), in the hand's unit.
--   bb/100      100 * sum(net / big blind of that hand) / hands (header big blind; for fixed-limit
--               games the header's second number, the big bet, as PT4 does for limit).
--   showdown / non-showdown winnings  net summed over hands where the player went / did not go to
--               showdown (PT4's blue and red lines); the two add up to net.
--   all-in EV   ev_net: allin_ev summed, the net had every all-in before the river been paid its
--               equity at the point the betting ended (hhparse.ev: exact over every board, or
--               seeded Monte Carlo; every card the history prints counts as out of the deck);
--               the net itself in hands without one (PT4's "All-in Adj" / green line).
--               ev_bb_per_100 as bb/100 with allin_ev for net. luck = net - allin_ev.

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
    hp.big_blind,
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
-- parameters. since/until are inclusive dates (UTC); game matches the slug ("courchevel-hilo",
-- "courchevel" = high only, "5-card-omaha-hilo") or the header label, case-insensitively; stakes
-- matches stg_hands.stakes ("0.10/0.25 USD", "15/30 chips") or the big blind alone.
-- The dates are also compared with h_start, the stored start_utc column itself, a day wider on
-- each side (a margin: never narrower than the date test, whatever the session's time zone;
-- tests/test_reports_stats.py checks it from UTC+14 to UTC-12): a
-- condition on a stored column reaches the Parquet scan, which skips every row group whose
-- start_utc range lies outside it (files are written in import order, which follows the
-- histories' dates), where the computed hand_date must be read row by row: what partitioning
-- the tables by month would have bought (bench/reports.py, the --since cases;
-- docs/reading-the-warehouse.md).
CREATE OR REPLACE MACRO in_scope(p_since, p_until, p_game, p_stakes, h_start, h_date, h_slug, h_label, h_stakes, h_bb) AS
    (p_since IS NULL OR (h_start >= CAST(CAST(p_since AS DATE) - INTERVAL 1 DAY AS TIMESTAMPTZ)
                         AND h_date >= CAST(p_since AS DATE)))
    AND (p_until IS NULL OR (h_start < CAST(CAST(p_until AS DATE) + INTERVAL 2 DAY AS TIMESTAMPTZ)
                             AND h_date <= CAST(p_until AS DATE)))
    AND (p_game IS NULL OR lower(p_game) IN (lower(h_slug), lower(h_label)))
    AND (p_stakes IS NULL OR p_stakes = h_stakes OR TRY_CAST(p_stakes AS DECIMAL(18, 2)) = h_bb);

-- player_hands restricted to the report's filters.
CREATE OR REPLACE MACRO player_hands_in(p_player, p_since, p_until, p_game, p_stakes) AS TABLE
    SELECT *
    FROM player_hands
    WHERE (p_player IS NULL OR player = p_player)
      AND in_scope(p_since, p_until, p_game, p_stakes, start_utc, hand_date, game_slug, game_label, stakes, big_blind);

-- cnt(flag): how many rows have the 0/1 flag (or a product of flags) set, as BIGINT. count_if
-- keeps an 8-byte counter per group, where sum(INT) keeps a HUGEINT: measurably cheaper when a
-- report groups millions of rows into tens of thousands of groups with twenty-odd counts each.
CREATE OR REPLACE MACRO cnt(flag) AS count_if(flag <> 0);

-- pct(did, opportunities): a percentage rounded to 2 places, NULL without opportunities.
CREATE OR REPLACE MACRO pct(did, opp) AS
    round(100.0 * did / NULLIF(opp, 0), 2);

-- The summary stats of every player, per unit, optionally split by position: one definition for
-- the `summary` and `positions` reports. (Non-showdown net is net minus showdown net: one sum
-- fewer per row, the same exact decimal.)
CREATE OR REPLACE MACRO player_stats(p_player, p_since, p_until, p_game, p_stakes, p_by_position) AS TABLE
    SELECT
        player,
        unit,
        CASE WHEN p_by_position THEN position END                     AS position,
        count(*)                                                      AS hands,
        sum(net)                                                      AS net,
        round(100 * sum(net_bb) / count(*), 2)                        AS bb_per_100,
        sum(allin_ev)                                                 AS ev_net,
        round(100 * sum(ev_bb) / count(*), 2)                         AS ev_bb_per_100,
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
        sum(showdown_net)                                             AS showdown_net,
        sum(net) - sum(showdown_net)                                  AS nonshowdown_net
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
