-- hand: a text replay of one hand ($hand_id) from what the referee recorded: the header, the
-- seats, every action with the pot and the player's stack after it, the boards (the exposed
-- Courchevel card first), the showdown, the award of every half of every pot of every run, and
-- each player's net. One row per line: `text` is the line; the other columns hold the same facts
-- as data (amounts in the hand's unit).
WITH hand AS (
    SELECT * FROM stg_hands WHERE hand_id = $hand_id
),

players AS (
    SELECT p.*
    FROM stg_hand_players AS p
    WHERE p.hand_id = $hand_id AND p.site IN (SELECT site FROM hand)
),

header AS (
    SELECT
        0 AS part, 0 AS street, 0 AS seq, 0 AS sub,
        format('Hand #{}: {} ({}) - {} UTC - table ''{}'' - {} line {}',
               hand_id, game_label, stakes, strftime(start_utc, '%Y-%m-%d %H:%M:%S'),
               table_name, source, line)                                      AS text,
        NULL AS player, NULL AS action, NULL::DECIMAL(18, 2) AS amount,
        NULL::DECIMAL(18, 2) AS pot_after, NULL::DECIMAL(18, 2) AS stack_after
    FROM hand
),

seats AS (
    SELECT
        1, 0, seat, 0,
        format('Seat {}: {} ({} in chips){}{}{}', seat, player, money_text(starting_stack, unit),
               CASE WHEN position <> '' THEN ' ' || position ELSE '' END,
               CASE WHEN len(hole_cards) > 0 THEN ' [' || array_to_string(hole_cards, ' ') || ']' ELSE '' END,
               CASE WHEN dealt_in THEN '' ELSE ' (not dealt in)' END),
        player, NULL, NULL, NULL, starting_stack
    FROM players
),

boards AS (
    SELECT 1 AS run, board AS cards FROM hand
    UNION ALL
    SELECT 2, board_run2 FROM hand WHERE board_run2 IS NOT NULL
),

street_boards AS (
    SELECT
        s.street,
        run,
        cards[1:2 + s.street]                                                 AS shown,
        count(DISTINCT cards[1:2 + s.street]) OVER (PARTITION BY s.street)    AS variants
    FROM boards, (SELECT unnest([1, 2, 3]) AS street) AS s
    WHERE len(cards) >= 2 + s.street
),

markers AS (
    SELECT
        2, 0, -1, 0,
        '*** PRE-FLOP ***' || coalesce(' [' || exposed_card || ']', ''),
        NULL, NULL, NULL, NULL, NULL
    FROM hand
    UNION ALL
    SELECT
        2, street, -1, run,
        format('*** {}{} *** [{}]',
               CASE WHEN variants > 1 THEN CASE run WHEN 1 THEN 'FIRST ' ELSE 'SECOND ' END ELSE '' END,
               ['FLOP', 'TURN', 'RIVER'][street],
               array_to_string(shown, ' ')),
        NULL, NULL, NULL, NULL, NULL
    FROM street_boards
    WHERE variants > 1 OR run = 1
),

acts AS (
    SELECT
        a.*,
        CASE WHEN a.action = 'uncalled' THEN a.pot_before - a.amount
             ELSE a.pot_before + a.amount END                                 AS pot_after,
        CASE WHEN a.action = 'uncalled' THEN a.stack_before + a.amount
             ELSE a.stack_before - a.amount END                               AS stack_after
    FROM stg_actions AS a
    WHERE a.hand_id = $hand_id AND a.site IN (SELECT site FROM hand)
),

act_lines AS (
    SELECT
        2, street, seq, 0,
        printf('%-44s pot %s, %s has %s',
               format('{}: {}{}{}', player,
                      CASE WHEN action = 'uncalled' THEN 'uncalled bet returned' ELSE action END,
                      CASE WHEN action IN ('fold', 'check') THEN ''
                           WHEN action = 'raise' THEN ' to ' || money_text(to_amount, unit)
                           ELSE ' ' || money_text(amount, unit) END,
                      CASE WHEN all_in THEN ' and is all-in' ELSE '' END),
               money_text(pot_after, unit), player, money_text(stack_after, unit)),
        player, action, amount, pot_after, stack_after
    FROM acts
),

showdown_markers AS (
    SELECT DISTINCT
        3, run, 0, 0,
        CASE run WHEN 1 THEN '*** FIRST SHOW DOWN ***' WHEN 2 THEN '*** SECOND SHOW DOWN ***'
                 ELSE '*** SHOW DOWN ***' END,
        NULL, NULL, NULL, NULL, NULL
    FROM stg_showdowns
    WHERE hand_id = $hand_id AND site IN (SELECT site FROM hand)
),

shows AS (
    SELECT
        3, run, 1, row_number() OVER (PARTITION BY run ORDER BY player),
        format('{}: {} [{}] (HI: {}{})', player, CASE WHEN mucked THEN 'mucks hand' ELSE 'shows' END,
               array_to_string(cards, ' '), high, CASE WHEN low IS NOT NULL THEN '; LO: ' || low ELSE '' END),
        player, NULL, NULL, NULL, NULL
    FROM stg_showdowns
    WHERE hand_id = $hand_id AND site IN (SELECT site FROM hand)
),

shares AS (
    SELECT
        a.run, a.pot, a.half, a.amount AS award_amount, a.unit,
        unnest(a.winners)                                                     AS winner,
        unnest(a.amounts)                                                     AS amount,
        unnest(a.descriptions)                                                AS description,
        unnest(generate_series(1, len(a.winners)))                            AS i
    FROM stg_awards AS a
    WHERE a.hand_id = $hand_id AND a.site IN (SELECT site FROM hand)
),

award_lines AS (
    SELECT
        4, run, pot, list_position(['whole', 'high', 'low'], half) * 100 + i,
        format('{}{}, {} ({}): {} collects {}{}',
               CASE WHEN pot = 0 THEN 'main pot' ELSE 'side pot-' || pot END,
               CASE WHEN run > 0 THEN ' run ' || run ELSE '' END,
               half, money_text(award_amount, unit), winner, money_text(amount, unit),
               CASE WHEN coalesce(description, '') <> '' THEN ' with ' || description ELSE '' END),
        winner, 'collect', amount, NULL, NULL
    FROM shares
),

totals AS (
    SELECT 5, 0, 0, 0,
           format('Total pot {} | Rake {}', money_text(total_pot, unit), money_text(rake, unit)),
           NULL, NULL, NULL, total_pot, NULL
    FROM hand
    UNION ALL
    SELECT 6, 0, seat, 0,
           format('{}: net {}{} (stack {})', player, CASE WHEN net > 0 THEN '+' ELSE '' END,
                  money_text(net, unit), money_text(starting_stack + net, unit)),
           player, 'net', net, NULL, starting_stack + net
    FROM players
    WHERE dealt_in
),

final AS (
    SELECT text, player, action, amount, pot_after, stack_after
    FROM (
        SELECT * FROM header
        UNION ALL SELECT * FROM seats
        UNION ALL SELECT * FROM markers
        UNION ALL SELECT * FROM act_lines
        UNION ALL SELECT * FROM showdown_markers
        UNION ALL SELECT * FROM shows
        UNION ALL SELECT * FROM award_lines
        UNION ALL SELECT * FROM totals
    )
    ORDER BY part, street, seq, sub
)

SELECT * FROM final
