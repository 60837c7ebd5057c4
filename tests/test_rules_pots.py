"""One test per money rule of ``hhparse.rules.pots``, named after the rule, plus conservation properties."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hhparse.model import Street
from hhparse.rules.pots import (
    RAKE_CUMULATIVE,
    RAKE_MAIN_FIRST,
    RAKE_PROPORTIONAL,
    Pot,
    apply_rake,
    clockwise_from_button,
    cumulative_rake_fits,
    cumulative_rake_rate,
    fixed_limit_size,
    hilo_halves,
    min_bet,
    min_raise_to,
    pot_limit_max_to,
    rake_allocation,
    rake_cumulative,
    rake_main_first,
    rake_proportional_bounds,
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
    pots = side_pots(
        contrib, live={"Crazy", "Lewis", "Bluf"}, order=["Crazy", "joiso", "Lewis", "Biatch", "Bluf"]
    )
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
    assert (
        sum(shares) == amount
        and max(shares) - min(shares) <= 1
        and list(shares) == sorted(shares, reverse=True)
    )


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


# --------------------------------------------------------------------------------------------
# Rake with side pots (rules.md "Rake with side pots"; issue 12)
# --------------------------------------------------------------------------------------------


def test_rake_with_side_pots_is_cumulative_in_the_2010_hand() -> None:
    # 22865231671: main $2.47, side-1 $0.93, side-2 $0.30, rake $0.18 -> $2.35, $0.88, $0.29
    assert rake_cumulative([247, 93, 30], 5, 100, None) == (12, 5, 1)
    assert rake_allocation([247, 93, 30], [12, 5, 1], 18) == RAKE_CUMULATIVE
    # 60920749213: main $1.37 (folded players' $0.21 included), $0.45, $0.72, rake $0.12 -> 6 + 3 + 3
    assert rake_cumulative([137, 45, 72], 5, 100, None) == (6, 3, 3)
    assert rake_allocation([137, 45, 72], [6, 3, 3], 12) == RAKE_CUMULATIVE


def test_rake_main_pot_first_is_a_capped_cumulative_rake() -> None:
    # O8-FL: Main pot $5275. Side pot $4200. | Rake $5 -- the cap is reached in the main pot
    assert rake_main_first([528000, 420000], 500) == (500, 0)
    assert rake_allocation([528000, 420000], [500, 0], 500) == RAKE_MAIN_FIRST
    assert rake_cumulative([528000, 420000], 5, 100, 500) == (500, 0)


def test_rake_proportional_shares_may_round_either_way() -> None:
    assert rake_proportional_bounds([300, 100], 10) == ((7, 8), (2, 3))
    assert rake_allocation([300, 100, 100], [6, 2, 2], 10) in (RAKE_CUMULATIVE, RAKE_PROPORTIONAL)
    # 2 over three equal pots as 1 + 0 + 1: neither main-first nor cumulative, proportional only
    assert not cumulative_rake_fits([100, 100, 100], [1, 0, 1])
    assert rake_allocation([100, 100, 100], [1, 0, 1], 2) == RAKE_PROPORTIONAL


def test_rake_allocation_rejects_what_no_room_does() -> None:
    assert rake_allocation([247, 93, 30], [0, 0, 18], 18) is None  # all off the last pot
    assert rake_allocation([247, 93, 30], [19, 0, -1], 18) is None  # a negative share
    assert rake_allocation([247, 93, 30], [12, 5, 2], 18) is None  # shares add up to 19, not 18
    assert rake_allocation([10, 93, 30], [12, 5, 1], 18) is None  # a share above its pot
    assert rake_allocation([247, 93], [12, 5, 1], 18) is None  # not one share per pot
    assert rake_allocation([100, 100], [1, 4], 5) is None  # the side pot pays more than the main


_pots = st.lists(st.integers(1, 10**6), min_size=1, max_size=6)


@given(_pots, st.integers(1, 1000), st.data(), st.one_of(st.none(), st.integers(0, 10**4)))
def test_every_cumulative_allocation_is_accepted(
    gross: list[int], den: int, data: st.DataObject, cap: int | None
) -> None:
    num = data.draw(st.integers(0, den))  # any rate from 0 to 100 %, any cap or none
    shares = rake_cumulative(gross, num, den, cap)
    assert all(0 <= s <= g for s, g in zip(shares, gross, strict=True))
    assert rake_allocation(gross, shares, sum(shares)) is not None
    witness = cumulative_rake_rate(gross, shares)
    assert witness is not None
    assert rake_cumulative(gross, *witness) == shares  # the rate it finds reproduces the shares


@given(_pots, st.data())
def test_main_first_and_proportional_allocations_are_accepted(gross: list[int], data: st.DataObject) -> None:
    rake = data.draw(st.integers(0, sum(gross)))
    assert rake_allocation(gross, rake_main_first(gross, rake), rake) == RAKE_MAIN_FIRST
    # proportional, largest remainder: floors, then the units left to the largest remainders
    total = sum(gross)
    floors = [rake * g // total for g in gross]
    order = sorted(range(len(gross)), key=lambda k: -(rake * gross[k] % total))
    for k in order[: rake - sum(floors)]:
        floors[k] += 1
    assert rake_allocation(gross, floors, rake) is not None


@given(_pots, st.data())
def test_an_accepted_allocation_conserves_chips(gross: list[int], data: st.DataObject) -> None:
    shares = data.draw(st.lists(st.integers(-2, 50), min_size=len(gross), max_size=len(gross)))
    rake = data.draw(st.sampled_from([sum(shares), sum(shares) + 1, max(sum(shares) - 1, 0)]))
    how = rake_allocation(gross, shares, rake)
    if how is not None:
        assert sum(shares) == rake and all(0 <= s <= g for s, g in zip(shares, gross, strict=True))
    if how == RAKE_CUMULATIVE:
        witness = cumulative_rake_rate(gross, shares)
        assert witness is not None and rake_cumulative(gross, *witness) == tuple(shares)
