-- Reference formulation (tests/test_reports_reference.py): the report as it was before the
-- #18 rewrite of stats.sql's player_stats, with that macro's former body inlined.
-- positions: the summary stats per player, unit and table position (the referee's labels:
-- SB, BB, UTG, UTG+1, MP, HJ, CO, BTN), in the order the positions act pre-flop.
WITH stats AS (
    SELECT player, unit, position, * EXCLUDE (player, unit, stakes, game, structure, month, position, table_size,
                                             sort_bb, sort_seats)
    FROM (
        SELECT
            player,
            unit,
            CASE WHEN list_contains(['position'], 'stakes')
                 THEN CASE WHEN tournament_id IS NULL THEN stakes ELSE buyin_label END END AS stakes,
            CASE WHEN list_contains(['position'], 'game') THEN game_slug END      AS game,
            CASE WHEN list_contains(['position'], 'structure') THEN structure END AS structure,
            CASE WHEN list_contains(['position'], 'month') THEN strftime(hand_date, '%Y-%m') END AS month,
            CASE WHEN list_contains(['position'], 'position') THEN position END   AS position,
            CASE WHEN list_contains(['position'], 'table-size')
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
        FROM player_hands_in($player, $since, $until, $game, $stakes)
        GROUP BY ALL
    )
),

final AS (
    SELECT *
    FROM stats
    ORDER BY
        player,
        unit,
        coalesce(list_position(['UTG', 'UTG+1', 'UTG+2', 'MP', 'MP+1', 'HJ', 'CO', 'BTN', 'SB', 'BB'], position), 99),
        position
)

SELECT * FROM final
