-- tournaments: one row per tournament of one player (--player; without it, the hero: the account
-- whose hole cards the histories show, or a summary file's "You finished in Nth place"), then the
-- totals per player, unit, game and buy-in (where there are several) and per player and unit
-- (tournament_id = 'total').
--
-- Where each value comes from (definitions: hhparse/reports/columns.py, docs/stats.md):
--   buy-in, fee   the hands' header (`$3.41+$3.41+$0.68 USD`: buy-in + bounty + fee), else the
--                 summary's `Buy-In:` line; rebuys and add-ons paid are added to buy_in
--   place, prize  a hand's `finished the tournament in Nth place [and received $X]` or `wins the
--                 tournament and receives $X` line (tournament_events), else the summary file's
--                 entrant line (the most complete summary of the tournament: fewest still playing,
--                 finished, most entrants listed); a place without a prize printed paid nothing
--   bounties      the summary's `You collected N bounties for a total of` when it is the account's
--                 row, else the knockout lines (each winner's share) and the winner's own bounty
--   won = prize + bounties; net = won - buy_in - fee; ROI = net / (buy_in + fee); ITM = prize > 0
-- A tournament whose result neither a hand nor a summary shows has no place, won, net, ROI or ITM,
-- and the totals' money, ROI and ITM count only tournaments with a known result. Money is in the
-- buy-in's unit (hundredths kept exact), never added across units. Tournaments known only from a
-- summary file are listed unless --stakes is given (a summary prints no blinds), and with --game
-- when their game is that one.
WITH mine AS (
    SELECT
        player,
        tournament_id,
        count(*)                                                              AS hands,
        min(start_utc)                                                        AS first_hand
    FROM player_hands_in($player, $since, $until, $game, $stakes)
    WHERE tournament_id IS NOT NULL
      AND (CAST($player AS VARCHAR) IS NOT NULL OR is_hero)
    GROUP BY ALL
),

heroes AS (
    SELECT DISTINCT player FROM hand_players WHERE is_hero
),

t_hands AS (
    SELECT
        tournament_id,
        any_value(game || CASE WHEN hilo THEN '-hilo' ELSE '' END)            AS game,
        any_value(buyin_label)                                                AS buyin_label,
        any_value(buyin_total)                                                AS buyin_total,
        any_value(buyin_fee)                                                  AS buyin_fee,
        any_value(buyin_currency)                                             AS buyin_currency,
        bool_or(knockout)                                                     AS knockout
    FROM hands
    WHERE tournament_id IN (SELECT tournament_id FROM mine)
    GROUP BY tournament_id
),

picked AS (
    SELECT tournament_id, content_hash
    FROM (
        SELECT
            tournament_id,
            content_hash,
            row_number() OVER (
                PARTITION BY tournament_id
                ORDER BY count_if(still_playing), max(finished_utc) IS NULL, count(*) DESC, content_hash
            )                                                                 AS pick
        FROM tournament_summaries
        GROUP BY tournament_id, content_hash
    )
    WHERE pick = 1
),

s_player AS (
    SELECT
        s.player,
        s.tournament_id,
        CASE WHEN s.still_playing THEN NULL ELSE s.rank END                   AS place,
        s.prize_dec                                                           AS prize,
        (s.hero_place IS NOT NULL AND s.rank = s.hero_place AND NOT s.still_playing)
            OR s.player IN (SELECT player FROM heroes)                        AS account,
        s.hero_bounty_total_dec                                               AS hero_bounties,
        s.hero_rebuy_total_dec                                                AS hero_rebuys,
        s.buyin_dec + coalesce(s.bounty_dec, 0)                               AS buy_in,
        s.fee_dec                                                             AS fee,
        s.entries,
        s.unit,
        coalesce(s.game_slug, s.game)                                         AS game,
        s.game_slug,
        s.buyin_label,
        s.started_utc
    FROM tournament_summaries AS s
    JOIN picked USING (tournament_id, content_hash)
    WHERE s.player IS NOT NULL
      AND CASE WHEN CAST($player AS VARCHAR) IS NOT NULL THEN s.player = $player
               ELSE (s.hero_place IS NOT NULL AND s.rank = s.hero_place AND NOT s.still_playing)
                    OR s.player IN (SELECT player FROM heroes) END
      AND (CAST($since AS DATE) IS NULL OR CAST(s.started_utc AS DATE) >= CAST($since AS DATE))
      AND (CAST($until AS DATE) IS NULL OR CAST(s.started_utc AS DATE) <= CAST($until AS DATE))
      AND ((CAST($stakes AS VARCHAR[]) IS NULL
            AND (CAST($game AS VARCHAR) IS NULL OR lower(CAST($game AS VARCHAR)) = s.game_slug))
           OR EXISTS (SELECT 1 FROM mine WHERE mine.player = s.player AND mine.tournament_id = s.tournament_id))
),

lines AS (
    SELECT
        tournament_id,
        player,
        max(place) FILTER (WHERE kind IN ('finished', 'won'))                 AS place,
        max(amount_dec) FILTER (WHERE kind IN ('finished', 'won'))            AS prize,
        bool_or(kind IN ('finished', 'won'))                                  AS finished,
        CAST(sum(amount_dec / shared_by) FILTER (WHERE kind IN ('bounty', 'own-bounty')) AS DECIMAL(18, 2)) AS bounties,
        sum(amount_dec) FILTER (WHERE kind IN ('rebuy', 'add-on'))            AS rebuys,
        any_value(unit)                                                       AS unit
    FROM tournament_events
    WHERE tournament_id IN (SELECT tournament_id FROM mine UNION SELECT tournament_id FROM s_player)
    GROUP BY ALL
),

rows AS (
    SELECT
        coalesce(m.player, s.player)                                          AS player,
        coalesce(m.tournament_id, s.tournament_id)                            AS tournament_id,
        coalesce(s.started_utc, m.first_hand)                                 AS start_utc,
        coalesce(th.game, s.game)                                             AS game,
        coalesce(th.buyin_label, s.buyin_label)                               AS buyin_label,
        coalesce(th.buyin_currency, s.unit, l.unit, 'play')                   AS unit,
        s.entries,
        coalesce(l.place, s.place)                                            AS place,
        CAST(coalesce(CAST(th.buyin_total - th.buyin_fee AS DECIMAL(18, 2))
                          * CASE WHEN th.buyin_currency IS NULL THEN 1.00 ELSE 0.01 END, s.buy_in)
             + coalesce(l.rebuys, CASE WHEN s.account THEN s.hero_rebuys END, 0) AS DECIMAL(18, 2)) AS buy_in,
        CAST(coalesce(CAST(th.buyin_fee AS DECIMAL(18, 2))
                          * CASE WHEN th.buyin_currency IS NULL THEN 1.00 ELSE 0.01 END, s.fee) AS DECIMAL(18, 2)) AS fee,
        coalesce(l.prize, s.prize,
                 CASE WHEN coalesce(l.place, s.place) IS NOT NULL THEN 0.00 END)  AS prize,
        coalesce(CASE WHEN s.account THEN s.hero_bounties END, l.bounties,
                 CASE WHEN th.knockout THEN 0.00 END)                         AS bounties,
        CAST(m.hands AS BIGINT)                                               AS hands,
        CASE WHEN l.finished AND s.place IS NOT NULL THEN 'hands+summary'
             WHEN l.finished THEN 'hands'
             WHEN s.place IS NOT NULL THEN 'summary' END                      AS result_from
    FROM mine AS m
    FULL OUTER JOIN s_player AS s ON s.player = m.player AND s.tournament_id = m.tournament_id
    LEFT JOIN t_hands AS th ON th.tournament_id = coalesce(m.tournament_id, s.tournament_id)
    LEFT JOIN lines AS l ON l.tournament_id = coalesce(m.tournament_id, s.tournament_id)
                        AND l.player = coalesce(m.player, s.player)
),

results AS (
    SELECT
        *,
        CAST(CASE WHEN place IS NOT NULL THEN prize + coalesce(bounties, 0) END AS DECIMAL(18, 2)) AS won,
        place IS NOT NULL                                                     AS known
    FROM rows
),

per_tournament AS (
    SELECT
        player,
        tournament_id,
        start_utc,
        game,
        buyin_label,
        unit,
        entries,
        place,
        buy_in,
        fee,
        prize,
        bounties,
        won,
        CAST(won - buy_in - fee AS DECIMAL(18, 2))                            AS net,
        round(100 * (won - buy_in - fee) / NULLIF(buy_in + fee, 0), 2)        AS roi,
        CAST(1 AS BIGINT)                                                     AS tournaments,
        CASE WHEN known THEN CAST(prize > 0 AS BIGINT) END                    AS cashes,
        CASE WHEN known THEN 100.0 * CAST(prize > 0 AS INTEGER) END           AS itm,
        hands,
        result_from,
        known
    FROM results
),

totals AS (
    SELECT
        player,
        'total'                                                               AS tournament_id,
        CAST(NULL AS TIMESTAMPTZ)                                             AS start_utc,
        CASE WHEN GROUPING(game) = 0 THEN game ELSE 'all' END                 AS game,
        CASE WHEN GROUPING(buyin_label) = 0 THEN buyin_label ELSE 'all' END   AS buyin_label,
        unit,
        NULL                                                                  AS entries,
        NULL                                                                  AS place,
        CAST(sum(buy_in) FILTER (WHERE known) AS DECIMAL(18, 2))              AS buy_in,
        CAST(sum(fee) FILTER (WHERE known) AS DECIMAL(18, 2))                 AS fee,
        CAST(sum(prize) FILTER (WHERE known) AS DECIMAL(18, 2))               AS prize,
        CAST(sum(bounties) FILTER (WHERE known) AS DECIMAL(18, 2))            AS bounties,
        CAST(sum(won) FILTER (WHERE known) AS DECIMAL(18, 2))                 AS won,
        CAST(sum(net) FILTER (WHERE known) AS DECIMAL(18, 2))                 AS net,
        round(100 * sum(net) FILTER (WHERE known)
              / NULLIF(sum(buy_in + fee) FILTER (WHERE known), 0), 2)         AS roi,
        count(*)                                                              AS tournaments,
        CAST(sum(cashes) AS BIGINT)                                           AS cashes,
        round(100.0 * sum(cashes) / NULLIF(count_if(known), 0), 2)            AS itm,
        CAST(sum(hands) AS BIGINT)                                            AS hands,
        count_if(known) || ' of ' || count(*) || ' known'                     AS result_from,
        GROUPING(game)                                                        AS level
    FROM per_tournament
    GROUP BY GROUPING SETS ((player, unit, game, buyin_label), (player, unit))
    HAVING count(*) > 1 OR GROUPING(game) = 1  -- a group of one tournament repeats its row
),

final AS (
    SELECT * EXCLUDE (level, sort_level)
    FROM (
        SELECT * EXCLUDE (known), 0 AS level, 0 AS sort_level FROM per_tournament
        UNION ALL BY NAME
        SELECT *, 1 + level AS sort_level FROM totals
    )
    ORDER BY player, unit, sort_level, start_utc, game, buyin_label, tournament_id
)

SELECT * FROM final
