-- All-in EV shares: for each pot and run of a hand with an all-in EV, the players' expected shares
-- (every half) add up to the pot, exactly for the rounded `ev` and for the exact numerators
-- (share_sum = amount x boards); each player's allin_ev is within rounding (less than one unit) of
-- their net minus what they won plus what they were expected to win; and no EV computation failed.
WITH pot_runs AS (
    SELECT site, hand_id, pot, run, any_value(amount) AS amount, sum(ev) AS ev,
           sum(share_sum) AS share_sum, any_value(boards) AS boards, count(DISTINCT amount) AS amounts
    FROM ev_shares
    GROUP BY site, hand_id, pot, run
),

by_player AS (
    SELECT site, hand_id, player,
           CAST(sum(share_sum) AS DOUBLE) / any_value(boards) - sum(won) AS expected_minus_won
    FROM ev_shares
    GROUP BY site, hand_id, player
)

SELECT hand_id, format('pot {} run {}', pot, run) AS what, 'shares <> pot' AS problem
FROM pot_runs
WHERE ev <> amount OR share_sum <> amount * boards OR amounts <> 1
UNION ALL
SELECT hp.hand_id, hp.player, 'allin_ev <> net + expected - won'
FROM hand_players AS hp
JOIN by_player AS b USING (site, hand_id, player)
WHERE hp.ev_method IN ('exact', 'mc') AND abs(hp.allin_ev - (hp.net + b.expected_minus_won)) >= 1
UNION ALL
SELECT hand_id, player, 'all-in EV failed'
FROM hand_players
WHERE ev_method = 'failed'
