"""The importer's stored-hand index answers exactly like a dict (``hhparse.known``)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hhparse.known import KnownHands, hash_value

_IDS = st.one_of(
    st.integers(min_value=0, max_value=10**18 - 1).map(str),  # PokerStars-style decimal ids
    st.sampled_from(["007", "0", "00", "12a", "", "١٢٣", "99999999999999999999"]),  # kept as text
)
_OPS = st.lists(
    st.tuples(
        st.sampled_from(["add", "fold", "get", "setdefault"]),
        st.sampled_from(["PokerStars", "Other"]),
        _IDS,
        st.integers(min_value=0, max_value=2**64 - 1),
    ),
    max_size=80,
)


@given(_OPS, st.lists(st.tuples(st.sampled_from(["PokerStars", "Other"]), _IDS), max_size=30))
@settings(max_examples=300, deadline=None)
def test_known_hands_is_an_exact_dict(
    ops: list[tuple[str, str, str, int]], loaded: list[tuple[str, str]]
) -> None:
    known = KnownHands()
    model: dict[tuple[str, str], int] = {}
    rows = []
    for site, hand_id in loaded:
        if (site, hand_id) not in model:
            model[(site, hand_id)] = len(model) * 7919
            rows.append((site, hand_id, f"{model[(site, hand_id)]:016x}"))
    known.extend(rows)
    for op, site, hand_id, value in ops:
        if op == "fold":
            known.fold()
        elif op == "setdefault":  # the importer's one look-up: the stored value, else recorded
            assert known.setdefault(site, hand_id, value) == model.get((site, hand_id))
            model.setdefault((site, hand_id), value)
        elif op == "add" and (site, hand_id) not in model:
            known.add(site, hand_id, value)
            model[(site, hand_id)] = value
        assert known.get(site, hand_id) == model.get((site, hand_id))
    assert len(known) == len(model)
    for (site, hand_id), value in model.items():
        assert known.get(site, hand_id) == value


def test_leading_zeros_and_sites_keep_ids_apart() -> None:
    known = KnownHands()
    known.add("PokerStars", "7", 1)
    known.add("PokerStars", "007", 2)
    known.fold()
    known.add("Other", "7", 3)
    assert (known.get("PokerStars", "7"), known.get("PokerStars", "007"), known.get("Other", "7")) == (
        1,
        2,
        3,
    )
    assert known.get("PokerStars", "8") is None


def test_hash_value_is_the_full_64_bits() -> None:
    assert hash_value("ffffffffffffffff") == 2**64 - 1
    assert hash_value("0000000000000001") == 1
