"""One test per money rule of ``hhparse.rules.pots``, named after the rule, plus conservation properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hhparse.model import Street
from hhparse.rules.pots import (
    Pot,
    apply_rake,
    clockwise_from_button,
    fixed_limit_size,
    hilo_halves,
    min_bet,
    min_raise_to,
    pot_limit_max_to,
    run_twice_halves,
    side_pots,
    split_evenly,
)


def test_pot_limit_max_is_pot_after_the_call() -> None:
    # rules.md: pot $100, a player bets $100; the next player may raise to at most $400.
    assert pot_limit_max_to(pot_total=200, current_bet=100, player_street_bet=0) == 400


def test_pot_limit_max_preflop_counts_the_blinds() -> None:
    # blinds $0.10/$0.25: UTG may raise to $0.85; the small blind (0.10 in) calls 0.15, pot 0.50, to $0.75.
    assert pot_limit_max_to(35, 25, 0) == 85
    assert pot_limit_max_to(35, 25, 10) == 75


def test_pot_limit_bet_is_at_most_the_pot() -> None:
    assert pot_limit_max_to(pot_total=72, current_bet=0, player_street_bet=0) == 72


def test_min_bet_is_the_big_blind() -> None:
    assert min_bet(25) == 25


def test_min_raise_is_previous_increment() -> None:
    assert min_raise_to(current_bet=25, last_raise_size=25, big_blind=25) == 50
    assert min_raise_to(current_bet=75, last_raise_size=50, big_blind=25) == 125


def test_min_raise_never_below_big_blind() -> None:
    assert min_raise_to(current_bet=10, last_raise_size=10, big_blind=25) == 35


def test_fixed_limit_small_bet_preflop_and_flop_big_bet_turn_and_river() -> None:
    assert [fixed_limit_size(s, 300, 600) for s in Street] == [300, 300, 600, 600]


def test_side_pots_main_first_with_shrinking_eligibility() -> None:
    pots = side_pots({"a": 50, "b": 100, "c": 100}, live={"a", "b", "c"}, order=["a", "b", "c"])
    assert pots == (Pot(150, ("a", "b", "c")), Pot(100, ("b", "c")))


def test_side_pots_folded_chips_count_but_folded_players_are_not_eligible() -> None:
    pots = side_pots({"a": 30, "b": 100, "c": 100, "d": 60}, live={"b", "c"}, order="abcd")
    assert pots == (Pot(290, ("b", "c")),)


def test_side_pots_real_fixed_limit_hand() -> None:
    # O8-FL 109713978619: Crazy Elior all-in for $1282.50; SB folded $150. Main 5280 (before rake), side 4200.
    contrib = {"Crazy": 128250, "joiso": 188250, "Lewis": 308250, "Biatch": 15000, "Bluf": 308250}
    pots = side_pots(contrib, live={"Crazy", "Lewis", "Bluf"}, order=["Crazy", "joiso", "Lewis", "Biatch", "Bluf"])
    assert [p.amount for p in pots] == [528000, 420000]
    assert pots[1].eligible == ("Lewis", "Bluf")


def test_rake_comes_off_the_main_pot_first() -> None:
    # Total pot $9480 Main pot $5275. Side pot $4200. | Rake $5
    assert [p.amount for p in apply_rake([Pot(528000, ("a",)), Pot(420000, ("b",))], 500)] == [527500, 420000]


def test_rake_larger_than_main_pot_spills_to_next() -> None:
    assert [p.amount for p in apply_rake([Pot(3, ()), Pot(10, ())], 5)] == [0, 8]


def test_split_evenly_odd_chip_to_first_clockwise_from_button() -> None:
    assert split_evenly(4075, ["Hero", "Player0"]) == (2038, 2037)
    assert split_evenly(10, ["a", "b", "c"]) == (4, 3, 3)


def test_hilo_odd_chip_goes_to_high_half() -> None:
    assert hilo_halves(77) == (39, 38)  # pogson: NeiLutzn $0.39 (HI) / SGS62 $0.38 (LO)
    assert hilo_halves(399) == (200, 199)


def test_run_twice_odd_chip_goes_to_first_board() -> None:
    assert run_twice_halves(16300) == (8150, 8150)
    assert run_twice_halves(16301) == (8151, 8150)


def test_clockwise_from_button_button_is_last() -> None:
    # O8-KO 68174850011: button seat 2, tie between seats 9 and 2: seat 9 gets the odd chip.
    assert clockwise_from_button([("APTEM-89", 2), ("Hero", 9)], button_seat=2) == ("Hero", "APTEM-89")


@given(st.integers(0, 10**9), st.integers(1, 10))
def test_split_evenly_conserves_chips(amount: int, n: int) -> None:
    shares = split_evenly(amount, [str(i) for i in range(n)])
    assert sum(shares) == amount and max(shares) - min(shares) <= 1 and list(shares) == sorted(shares, reverse=True)


@given(st.integers(0, 10**9))
def test_halves_conserve_chips(amount: int) -> None:
    hi, lo = hilo_halves(amount)
    first, second = run_twice_halves(amount)
    assert hi + lo == amount and 0 <= hi - lo <= 1
    assert first + second == amount and 0 <= first - second <= 1


@given(st.dictionaries(st.sampled_from("abcdefgh"), st.integers(0, 10_000), min_size=1), st.data())
def test_side_pots_and_rake_conserve_chips(contrib: dict[str, int], data: st.DataObject) -> None:
    names = sorted(contrib)
    live = data.draw(st.sets(st.sampled_from(names)))
    pots = side_pots(contrib, live, names)
    assert sum(p.amount for p in pots) == sum(contrib.values())
    for p in pots:
        assert set(p.eligible) <= live
    rake = data.draw(st.integers(0, sum(contrib.values())))
    assert sum(p.amount for p in apply_rake(pots, rake)) == sum(contrib.values()) - rake
