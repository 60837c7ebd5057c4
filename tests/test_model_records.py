"""The records of the model and of the referee's facts: immutable values with the dataclass
behaviour the rest of the code uses.

``hhparse.model`` and ``hhparse.facts`` declare their records as plain classes with ``Final``
attributes so that mypyc compiles them to native classes (see the model's docstring). These
tests hold them to what the dataclasses they replaced did: field order, equality, hashing, repr,
pickling, ``match``, ``fields``/``replace`` — and, compiled, no assignment after construction.
"""

from __future__ import annotations

import ast
import copy
import pickle
from datetime import UTC, datetime
from pathlib import Path

import pytest

from hhparse import facts, model
from hhparse.engine import referee
from hhparse.model import (
    Call,
    Fold,
    Hand,
    HandCancelled,
    Header,
    SeatOutcome,
    Structure,
    SummarySeat,
    fields,
    replace,
)
from hhparse.parsing import parse_text

RECORDS = sorted(
    {
        cls
        for module in (model, facts)
        for cls in vars(module).values()
        if isinstance(cls, type)
        and issubclass(cls, model.Record)
        and cls is not model.Record
        and not cls.__name__.startswith("_")
    },
    key=lambda cls: cls.__name__,
)
HAND = """\
PokerStars Hand #1:  Courchevel Hi/Lo Pot Limit ($1/$2 USD) - 2013/01/10 17:05:09 CT [2013/01/10 18:05:09 ET]
Table 'Pollux I' 2-max Seat #1 is the button
Seat 1: a ($258 in chips)
Seat 2: b ($200 in chips)
a: posts small blind $1
b: posts big blind $2
*** HOLE CARDS ***
*** PRE-FLOP *** [7h]
a: folds
Uncalled bet ($1) returned to b
b collected $2 from pot
*** SUMMARY ***
Total pot $2 | Rake $0
Seat 1: a (button) (small blind) folded before Flop
Seat 2: b (big blind) collected ($2)
"""


def _hand() -> Hand:
    (hand,) = parse_text(HAND)
    assert isinstance(hand, Hand)
    return hand


def test_every_event_class_is_a_record() -> None:
    assert len(RECORDS) >= 29
    for cls in model.ACTION_TYPES:
        assert cls in RECORDS


def _init_params() -> dict[str, list[str]]:
    """Each class's ``__init__`` parameters, read from the source (compiled classes do not
    always carry a signature ``inspect`` can read)."""
    params: dict[str, list[str]] = {}
    nodes: list[ast.stmt] = []
    for name in ("model.py", "facts.py"):
        tree = ast.parse((Path(__file__).parents[1] / "hhparse" / name).read_text(encoding="utf-8"))
        nodes.extend(tree.body)
    for node in nodes:
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    params[node.name] = [a.arg for a in item.args.args[1:]]
    return params


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_field_order_is_the_init_order(cls: type[model.Record]) -> None:
    params = _init_params()
    owner = next(c for c in cls.__mro__ if c.__name__ in params)  # the class whose __init__ runs
    assert "__match_args__" in vars(owner), "a class with its own __init__ declares its fields"
    assert params[owner.__name__] == list(fields(cls)), (
        "__match_args__ must list __init__'s parameters in order"
    )


def test_every_field_is_stored_under_its_name() -> None:
    hand = _hand()
    assert hand.summary is not None
    for record in (hand, hand.header, *hand.seats, *hand.events, hand.summary, *hand.summary.seats):
        for name in fields(record):
            getattr(record, name)


def test_equal_fields_equal_records_and_hashes() -> None:
    a, b = Fold(3, "x", ("Ah",)), Fold(3, "x", ("Ah",))
    assert a == b and hash(a) == hash(b)
    assert not a.__ne__(b)
    assert a != Fold(4, "x", ("Ah",))
    assert {a, b} == {a}


def test_records_of_other_classes_or_tuples_are_never_equal() -> None:
    assert model.Check(3, "x") != model.Muck(3, "x")
    assert Fold(3, "x", ()) != (3, "x", ())


def test_repr_names_every_field() -> None:
    assert repr(Call(5, "x", 200)) == "Call(line=5, player='x', amount=200, all_in=False, cap_reached=None)"


def test_replace_changes_only_the_named_fields() -> None:
    c = Call(5, "x", 200, all_in=True)
    r = replace(c, amount=300)
    assert (r.line, r.player, r.amount, r.all_in, r.cap_reached) == (5, "x", 300, True, None)
    assert c.amount == 200
    with pytest.raises(TypeError, match="no field 'amont'"):
        replace(c, amont=1)


def test_a_parsed_hand_pickles_copies_and_compares_whole() -> None:
    hand = _hand()
    assert pickle.loads(pickle.dumps(hand)) == hand
    assert copy.deepcopy(hand) == hand
    assert replace(hand, line=hand.line + 1) != hand


def test_class_patterns_match_by_keyword_and_position() -> None:
    match SummarySeat(9, 2, "b", outcome=SeatOutcome.COLLECTED, won=(200,)):
        case SummarySeat(9, 2, player="b", won=(amount,)):
            assert amount == 200
        case _:
            pytest.fail("no match")


def test_properties_and_methods_survive() -> None:
    hand = _hand()
    assert hand.hand_id == "1" and not hand.cancelled
    assert replace(hand, events=(*hand.events, HandCancelled(99))).cancelled
    seat = hand.seat_of("b")
    assert seat is not None and seat.stack == 20000
    assert hand.header.unit == "USD" and hand.header.structure is Structure.POT_LIMIT


def test_compiled_records_refuse_assignment() -> None:
    if not str(model.__file__).endswith((".so", ".pyd")):
        pytest.skip("pure-Python install: immutability is mypy's (Final), not enforced at run time")
    header = _hand().header
    with pytest.raises(AttributeError):
        header.hand_id = "2"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Fold(1, "x").player = "y"  # type: ignore[misc]
    result = referee(_hand())
    assert result.facts is not None
    with pytest.raises(AttributeError):
        result.facts.players[0].net = 0  # type: ignore[misc]
    with pytest.raises(AttributeError):
        result.facts = None  # type: ignore[misc]


def test_referee_facts_are_values_too() -> None:
    result = referee(_hand())
    assert result == referee(_hand())
    assert pickle.loads(pickle.dumps(result)) == result
    assert result.facts is not None
    player = result.facts.players[0]
    assert replace(player, net=player.net + 1) != player
    assert "net=" in repr(player)


def test_header_keeps_aware_utc_start() -> None:
    header: Header = _hand().header
    assert header.start_utc == datetime(2013, 1, 10, 23, 5, 9, tzinfo=UTC)


def test_the_module_is_compiled_when_the_build_says_so() -> None:
    """``hatch_build.COMPILED`` lists the model: the speed and the immutability rely on it."""
    hatch = (Path(__file__).parents[1] / "hatch_build.py").read_text(encoding="utf-8")
    assert '"hhparse/model.py"' in hatch
