"""The importer's stored-hand index answers exactly like a dict (``hhparse.known``)."""

from __future__ import annotations

import itertools

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


_HASHES = st.one_of(
    st.integers(min_value=0, max_value=2**64 - 1).map(lambda v: f"{v:016x}"),  # as stored
    st.integers(min_value=0, max_value=2**64 - 1).map(lambda v: f"{v:016X}"),
    st.sampled_from(["f", "0x00000000000001", " 0000000000000001", "00000000_0000001"]),  # read by int(x, 16)
)


@given(
    st.lists(st.tuples(st.sampled_from(["PokerStars", "Other", "Ünï"]), _IDS, _HASHES), max_size=60),
    st.lists(st.integers(min_value=0, max_value=60), max_size=4),
    st.booleans(),
)
@settings(max_examples=300, deadline=None)
def test_loading_record_batches_equals_extending_with_their_rows(
    rows: list[tuple[str, str, str]], cuts: list[int], large: bool
) -> None:
    """``KnownHands.load`` (the importer's index, a column at a time) holds exactly what
    ``extend`` of the same rows does, however the rows are cut into record batches (sliced ones
    too) and whatever the ids and hashes (decimal or not, hex digits in either case, or what only
    ``int(x, 16)`` reads)."""
    import pyarrow as pa

    unique = list({(site, hand_id): (site, hand_id, chash) for site, hand_id, chash in rows}.values())
    kind = pa.large_string() if large else pa.string()
    table = pa.table(
        {
            name: pa.array([r[i] for r in unique], kind)
            for i, name in enumerate(["site", "hand_id", "content_hash"])
        }
    )
    bounds = sorted({0, len(unique), *(min(c, len(unique)) for c in cuts)})
    batches = [b for lo, hi in itertools.pairwise(bounds) for b in table.slice(lo, hi - lo).to_batches()]
    want, got = KnownHands(), KnownHands()
    want.extend(unique)
    got.load(batches)
    assert len(got) == len(want) == len(unique)
    for site, hand_id, chash in unique:
        assert got.get(site, hand_id) == want.get(site, hand_id) == hash_value(chash)
