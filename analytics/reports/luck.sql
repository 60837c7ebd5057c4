-- luck: the hands where the all-in EV and the result differ most (the EV stage's hands: an all-in
-- before the river with at least two hands known; hhparse.ev), biggest swing first, at most 100
-- rows per unit. luck = net - allin_ev: what the cards dealt after the betting ended gave or took
-- compared with the equity the player had then. The player is --player; without it, the hero, as
-- in `graph`. ev_std_err is 0 for exact enumeration, the Monte Carlo standard error otherwise.
-- The hand_id opens the hand: `hhparse report hand HAND_ID`.
WITH scope AS (
    SELECT *
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE (CAST($player AS VARCHAR) IS NOT NULL OR is_hero)
      AND ev_method IN ('exact', 'mc')
      AND wtsd = 1  -- in the pots when the betting ended (folded players' allin_ev is their net)
),

ranked AS (
    SELECT
        player,
        unit,
        hand_id,
        start_utc,
        stakes,
        ev_street,
        ev_method,
        hole_cards,
        net,
        allin_ev,
        net - allin_ev                                                        AS luck,
        ev_std_err,
        row_number() OVER (PARTITION BY unit ORDER BY abs(net - allin_ev) DESC, start_utc, hand_id) AS rank
    FROM scope
),

final AS (
    SELECT
        rank,
        player,
        unit,
        hand_id,
        start_utc,
        stakes,
        CASE ev_street WHEN 0 THEN 'pre-flop' WHEN 1 THEN 'flop' WHEN 2 THEN 'turn' END AS street,
        ev_method                                                             AS method,
        hole_cards,
        net,
        allin_ev,
        luck,
        ev_std_err
    FROM ranked
    WHERE rank <= 100
    ORDER BY unit, rank
)

SELECT * FROM final
