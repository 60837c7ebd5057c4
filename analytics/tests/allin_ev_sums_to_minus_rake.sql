-- All-in EV conservation: in every hand the players' allin_ev add up to minus the rake, like their
-- nets (the EV stage rounds by largest remainder from exact integer totals, so exactly; a hand
-- where a player cashed out has no all-in EV, and its nets add up as in net_sums_to_minus_rake),
-- and a hand without an all-in EV has allin_ev = net for every player.
WITH sums AS (
    SELECT site, hand_id, sum(allin_ev) AS allin_ev, any_value(rake) AS rake,
           sum(CASE WHEN cash_out <> 0 THEN cash_out - high_won - low_won ELSE 0 END) AS room
    FROM stg_hand_players
    GROUP BY site, hand_id
)

SELECT hand_id, NULL AS player, allin_ev AS value, rake AS expected, 'sum of allin_ev <> -rake' AS problem
FROM sums
WHERE allin_ev <> room - coalesce(rake, 0)
UNION ALL
SELECT hand_id, player, allin_ev, net, 'allin_ev <> net without all-in EV'
FROM stg_hand_players
WHERE ev_method IS NULL AND allin_ev <> net
