"""Crafted PokerStars histories and tournament summary files for the issue-16 tests (written for
these tests; every hand referees as valid), with the numbers they should give, computed by hand.

Cash, Courchevel Hi/Lo pot limit, three-handed, Hero on the button every hand:
* February 2024 at $0.10/$0.25: three steals. Hero raises to $0.75, both blinds fold, $0.50 comes
  back, Hero collects the $0.60 pot: +$0.35 a hand = 1.4 big blinds. Three hands: net $1.05,
  bb/100 = 100 x 3 x 1.4 / 3 = 140.
* March 2024 at $1/$2: two steals (raise to $6, $4 back, collect the $5 pot: +$3 = 1.5 bb) and one
  walk (Hero folds: 0). Three hands: net $6.00, bb/100 = 100 x (1.5 + 1.5 + 0) / 3 = 100.
* Both stakes together: net $7.05 over six hands; bb/100 is not given (two stakes in one row).

Tournaments (money in USD):
* #900001, $1.08+$0.27+$0.15 knockout, one hand (heads-up, Hero wins): Hero knocks Villain out
  ($0.27 bounty) and wins the tournament ($4.87), and collects the bounty on their own head ($0.27,
  the buy-in's bounty part: a fixed knockout's bounty never changes). Won = 4.87 + 0.27 + 0.27 =
  $5.41; paid $1.35 + $0.15 fee = $1.50; net $3.91; ROI = 3.91 / 1.50 = 260.67 %. A summary file
  agrees (9 players, 1st).
* #900002, $10+$1, known only from its summary files: a snapshot while it ran (Hero still playing)
  and the final one (Hero 5th, unpaid): place 5, prize 0, net -$11.00, ROI -100 %.
* #900003, $5.00+$0.50, one hand: Hero busts in 4th place and receives $7.20: net 7.20 - 5.50 =
  $1.70, ROI = 1.70 / 5.50 = 30.91 %.
* All three: paid $18.00, won $12.61, net -$5.39, ROI = -5.39 / 18.00 = -29.94 %, in the money 2 of
  3 = 66.67 %.
"""

from __future__ import annotations

from pathlib import Path

STEAL = """\
PokerStars Hand #{hid}:  Courchevel Hi/Lo Pot Limit (${sb}/${bb} USD) - 2024/{month:02d}/01 12:{mm:02d}:00 ET
Table 'Crafted I' 6-max Seat #1 is the button
Seat 1: Hero ($100 in chips)
Seat 2: Villain1 ($100 in chips)
Seat 3: Villain2 ($100 in chips)
Villain1: posts small blind ${sb}
Villain2: posts big blind ${bb}
*** HOLE CARDS ***
Dealt to Hero [As Kd 7c 2h 9s]
*** PRE-FLOP *** [Ah]
Hero: raises ${by} to ${to}
Villain1: folds
Villain2: folds
Uncalled bet (${by}) returned to Hero
Hero collected ${pot} from pot
*** SUMMARY ***
Total pot ${pot} | Rake $0
Seat 1: Hero (button) collected (${pot})
Seat 2: Villain1 (small blind) folded before Flop
Seat 3: Villain2 (big blind) folded before Flop
"""

WALK = """\
PokerStars Hand #{hid}:  Courchevel Hi/Lo Pot Limit (${sb}/${bb} USD) - 2024/{month:02d}/01 12:{mm:02d}:00 ET
Table 'Crafted I' 6-max Seat #1 is the button
Seat 1: Hero ($100 in chips)
Seat 2: Villain1 ($100 in chips)
Seat 3: Villain2 ($100 in chips)
Villain1: posts small blind ${sb}
Villain2: posts big blind ${bb}
*** HOLE CARDS ***
Dealt to Hero [2s Qs Js 9d 7h]
*** PRE-FLOP *** [2c]
Hero: folds
Villain1: folds
Uncalled bet (${back}) returned to Villain2
Villain2 collected ${pot} from pot
*** SUMMARY ***
Total pot ${pot} | Rake $0
Seat 1: Hero (button) folded before Flop (didn't bet)
Seat 2: Villain1 (small blind) folded before Flop
Seat 3: Villain2 (big blind) collected (${pot})
"""

HEADS_UP = """\
PokerStars Hand #{hid}: Tournament #{tid}, {buyin} USD Courchevel Hi/Lo Pot Limit - Level II (20/40) - 2024/05/{day:02d} 12:00:00 ET
Table '{tid} 1' 9-max Seat #1 is the button
Seat 1: {big} (2500 in chips)
Seat 2: {short} (200 in chips)
{big}: posts small blind 20
{short}: posts big blind 40
*** HOLE CARDS ***
Dealt to Hero [{hero_cards}]
*** PRE-FLOP *** [Ks]
{big}: raises 80 to 120
{short}: raises 80 to 200 and is all-in
{big}: calls 80
*** FLOP *** [Ks] [Kc Ts]
*** TURN *** [Ks Kc Ts] [Jd]
*** RIVER *** [Ks Kc Ts Jd] [Qd]
*** SHOW DOWN ***
{big}: shows [Kh Kd 9c 9s Qh] (HI: four of a kind, Kings)
{short}: shows [Ah Ad 2c 3c 4d] (HI: two pair, Aces and Kings)
{big} collected 400 from pot
No low hand qualified
{tail}*** SUMMARY ***
Total pot 400 | Rake 0
Board [Ks Kc Ts Jd Qd]
Seat 1: {big} (button) (small blind) showed [Kh Kd 9c 9s Qh] and won (400) with HI: four of a kind, Kings
Seat 2: {short} (big blind) showed [Ah Ad 2c 3c 4d] and lost with HI: two pair, Aces and Kings
"""

SUMMARY_900001 = """\
PokerStars Tournament #900001, Pot Limit Courchevel Hi/Lo
Buy-In: $1.08/$0.27/$0.15 USD
9 players
Total Prize Pool: $9.72 USD
Tournament started 2024/05/01 11:00:00 ET
Tournament finished 2024/05/01 12:00:01 ET

  1: Hero (Neverland), $4.87 (50.102%)
  2: Villain (Neverland), $2.91 (29.938%)
  3: Third (Neverland), $1.94 (19.958%)
  4: Fourth (Neverland),
  5: Fifth (Neverland),
  6: Sixth (Neverland),
  7: Seventh (Neverland),
  8: Eighth (Neverland),
  9: Ninth (Neverland),

You finished in 1st place.
"""

SUMMARY_900002_RUNNING = """\
PokerStars Tournament #900002, Pot Limit Courchevel Hi/Lo
Buy-In: $10.00/$1.00 USD
18 players
Total Prize Pool: $180.00 USD
Tournament started 2024/05/02 12:00:00 ET

  1: Alpha (Neverland), still playing
  2: Bravo (Neverland), still playing
  3: Charlie (Neverland), still playing
  4: Delta (Neverland), still playing
  5: Hero (Neverland), still playing
  6: Foxtrot (Neverland),

You are still playing in this tournament.
"""

SUMMARY_900002_FINAL = """\
PokerStars Tournament #900002, Pot Limit Courchevel Hi/Lo
Buy-In: $10.00/$1.00 USD
18 players
Total Prize Pool: $180.00 USD
Tournament started 2024/05/02 12:00:00 ET
Tournament finished 2024/05/02 14:00:00 ET

  1: Alpha (Neverland), $72.00 (40%)
  2: Bravo (Neverland), $54.00 (30%)
  3: Charlie (Neverland), $36.00 (20%)
  4: Delta (Neverland), $18.00 (10%)
  5: Hero (Neverland),
  6: Foxtrot (Neverland),

You finished in 5th place.
"""


def cash_hands() -> str:
    """The six cash hands (February at $0.10/$0.25, March at $1/$2)."""
    hands = []
    for i in range(3):
        hands.append(
            STEAL.format(
                hid=800000 + i, sb="0.10", bb="0.25", by="0.50", to="0.75", pot="0.60", month=2, mm=i
            )
        )
    for i in range(2):
        hands.append(STEAL.format(hid=800010 + i, sb="1", bb="2", by="4", to="6", pot="5", month=3, mm=i))
    hands.append(WALK.format(hid=800012, sb="1", bb="2", back="1", pot="2", month=3, mm=2))
    return "\n\n\n".join(hands) + "\n\n\n"


def tournament_hands() -> dict[str, str]:
    """The two tournament hands, one file each (as the client writes a tournament)."""
    won = HEADS_UP.format(
        hid=900000001,
        tid=900001,
        buyin="$1.08+$0.27+$0.15",
        day=1,
        big="Hero",
        short="Villain",
        hero_cards="Kh Kd 9c 9s Qh",
        tail="Hero wins the $0.27 bounty for eliminating Villain\n"
        "Villain finished the tournament in 2nd place and received $2.91.\n"
        "Hero wins the tournament and receives $4.87 - congratulations!\n",
    )
    bust = HEADS_UP.format(
        hid=900000003,
        tid=900003,
        buyin="$5.00+$0.50",
        day=3,
        big="Villain",
        short="Hero",
        hero_cards="Ah Ad 2c 3c 4d",
        tail="Hero finished the tournament in 4th place and received $7.20.\n",
    )
    return {
        "HH20240501 T900001 Courchevel Hi-Lo Pot Limit $1.08 + $0.27 + $0.15.txt": won + "\n\n\n",
        "HH20240503 T900003 Courchevel Hi-Lo Pot Limit $5 + $0.50.txt": bust + "\n\n\n",
    }


def write_all(folder: Path) -> Path:
    """Every crafted file in ``folder`` (histories and summaries, as the client lays them out)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "HH20240201 Crafted I - $0.10-$0.25 - USD Courchevel Hi-Lo Pot Limit.txt").write_text(
        cash_hands()
    )
    for name, text in tournament_hands().items():
        (folder / name).write_text(text)
    summaries = folder / "TournSummary"
    summaries.mkdir(exist_ok=True)
    (summaries / "TS20240501 T900001 Courchevel Hi-Lo.txt").write_text(SUMMARY_900001)
    (summaries / "TS20240502 T900002 running.txt").write_text(SUMMARY_900002_RUNNING)
    (summaries / "TS20240502 T900002 Courchevel Hi-Lo.txt").write_text(SUMMARY_900002_FINAL)
    return folder
