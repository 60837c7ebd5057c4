"""Referee results → Arrow tables, column by column.

Why columns and not rows: building Parquet from ready Arrow columns is about ten times faster
than from Python row tuples (``docs/performance.md``). A :class:`BatchBuilder` therefore keeps, per table, one
plain tuple of the needed fields per row — taken in a single C call by an
:func:`operator.attrgetter` over the fact record's slots — and :meth:`BatchBuilder.finish`
transposes them (``zip(*rows)``, also in C) into one Python list per column and converts each
with one ``pa.array`` call (the integer and boolean columns of the records with typed fields from
a machine buffer instead, :func:`_exact_array`). No Python function runs per value. The worker
process does this and ships finished tables to the writer.

The column order, names and types all come from the declaration in :mod:`hhparse.tables.schema`;
this module only says where each column's value comes from (a same-named field of the fact
record unless listed in a table's ``special`` sources), and an import-time check fails on any
declared column without a source.

The builder never re-derives poker logic: every value is a field of the parsed ``Hand`` or of the
referee's ``HandFacts``, reshaped (the only arithmetic is picking the largest ante posted). The
key columns (``site``, ``hand_id``) of the per-hand child tables and the columns a child copies
from ``hands`` (``from_hands`` in the declaration: unit, start time, stakes...) are taken from the
finished ``hands`` table with one Arrow ``take``, so they cannot disagree.

Every table built here carries an extra ``_hand_idx`` column (the block's position in its batch,
not part of the declared schema) so the writer can drop the rows of duplicate hands without
knowing anything about the tables; :func:`strip_hand_idx` removes it before writing.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, Final, cast

import numpy as np
import pyarrow as pa

from hhparse.errors import ParseError, Violation
from hhparse.facts import (
    ActionFact,
    AwardFact,
    EvShareFact,
    HandEvFacts,
    HandFacts,
    PlayerFacts,
    PotFact,
    RefereeResult,
    ShowdownFact,
)
from hhparse.memo import remember
from hhparse.model import HandCancelled, Record, fields
from hhparse.tables.schema import TABLES, arrow_schema, minor_units

HAND_IDX = "_hand_idx"
"""Name of the batch-local hand ordinal column added to every built table."""

_TRAILING_WS = re.compile(r"[ \t\r\f\v]+(?=\n)|[ \t\r\f\v]+\Z")
_EOL = re.compile(r"\r\n|\r")


def normalise_text(text: str) -> str:
    """The hand text with LF line ends, no BOM, no trailing spaces and no surrounding blank lines.

    Two copies of one hand that differ only in those (CRLF exports vs FPDB's LF-stripped copies)
    must hash the same, so that the second is a duplicate and not a conflict. The usual hand
    (LF, no trailing blanks) is recognised by substring tests and skips the regexes: tab, form
    feed and vertical tab are rare anywhere in a hand, so a memchr-fast test for each stands in
    for "before a line end" (a two-character search is far slower); only " \n" needs one.
    Real hands do end lines with one space (``NAME: folds ``, ``Rake 0 ``): with no line ending
    in two, one C-level ``replace`` removes exactly what the regex would (whose match attempt at
    every space of the text made it the costliest step of storing a hand); two or more trailing
    spaces go to the regex, so no input costs more than one pass. The search for two spaces is
    made only once one is known (``"  \n"`` holds ``" \n"``): a text that ends no line in a blank
    (synthetic hands, stripped exports) pays one two-character scan, not two.
    """
    if text.startswith("\ufeff"):
        text = text.lstrip("\ufeff")
    if "\r" in text:
        text = _EOL.sub("\n", text)
    if "\t" in text or "\f" in text or "\v" in text:
        text = _TRAILING_WS.sub("", text)
    elif " \n" in text:
        text = _TRAILING_WS.sub("", text) if "  \n" in text else text.replace(" \n", "\n").rstrip(" ")
    elif text[-1:] == " ":
        text = text.rstrip(" ")
    return text.strip("\n")


def content_hash(text: str) -> str:
    """16 hex digits of BLAKE2b over the normalised text (the warehouse's duplicate/conflict test).

    ``surrogatepass``: text a caller decoded itself may hold lone surrogates, which must not make
    hashing fail (such a hand is then rejected by :meth:`BatchBuilder.finish`, not the batch).
    """
    return normalised_hash(normalise_text(text))


def normalised_hash(normalised: str) -> str:
    """:func:`content_hash` of a text already normalised (:func:`normalise_text`): the import's
    worker has it from the parse (:func:`hhparse.parsing.parse_block_hashable`)."""
    data = normalised.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=8).hexdigest()


class HandRef(Record):
    """What the writer needs to know about one block to decide new / duplicate / conflict."""

    __match_args__ = ("site", "hand_id", "content_hash", "accepted")

    def __init__(self, site: str | None, hand_id: str | None, content_hash: str, accepted: bool) -> None:
        self.site: Final = site
        self.hand_id: Final = hand_id
        self.content_hash: Final = content_hash
        self.accepted: Final = accepted


@dataclass(frozen=True, slots=True)
class _Reject:
    site: str | None
    hand_id: str | None
    source: str
    line: int
    status: str
    code: str
    message: str
    error_line: int
    game: str | None
    errors: list[dict[str, Any]]
    raw_text: str
    content_hash: str


# --------------------------------------------------------------------------------------------
# Where each declared column comes from
# --------------------------------------------------------------------------------------------

Column = Sequence[Any]
Derive = Callable[[Mapping[str, Column]], Column]
"""Computes one column from the transposed source fields (``{field: values}``) of a table."""


@dataclass(frozen=True)
class _Plan:
    """How to build one table: the record fields gathered per row and each column's source."""

    name: str
    fields: tuple[str, ...]  # record fields the columns are pulled from (hands: _hand_row order)
    derive: dict[str, Derive]  # column -> values, for every column built from the rows
    from_hands: tuple[str, ...]  # key and copied columns, taken from the batch's hands table
    external: tuple[str, ...]  # columns the builder supplies itself (the all-in EV of hand_players)
    schema: pa.Schema  # declared schema + _hand_idx
    exact: frozenset[str] = frozenset()  # columns built from machine values (:func:`_exact_array`)


def _same(name: str) -> Derive:
    return lambda cols: cols[name]


def _plan(
    name: str,
    record_fields: Sequence[str],
    special: dict[str, tuple[tuple[str, ...], Derive]],
    *,
    keyed: bool,
    external: tuple[str, ...] = (),
    exact: bool = False,
) -> _Plan:
    """Plan of table ``name``: every non-copied column is ``special`` (its fields and how to
    derive it), ``external`` (supplied by :meth:`BatchBuilder.finish`) or the record's same-named
    field; a declared column with no source is an error.

    ``exact``: the rows are compiled records whose ``int`` and ``bool`` fields hold exactly
    those types (see :data:`_MACHINE`); their non-null integer and boolean columns are then
    converted from machine values (:func:`_exact_array`)."""
    table = TABLES[name]
    available = set(record_fields)
    fields: dict[str, None] = {}
    derive: dict[str, Derive] = {}
    from_hands: list[str] = []
    for c in table.columns:
        if c.from_hands or (keyed and c.name in ("site", "hand_id")):
            from_hands.append(c.name)
        elif c.name in external:
            continue
        elif c.name in special:
            needs, fn = special[c.name]
            fields.update(dict.fromkeys(needs))
            derive[c.name] = fn
        elif c.name in available:
            fields[c.name] = None
            derive[c.name] = _same(c.name)
        else:  # a declared column with no source is a programming error, caught at import
            raise KeyError(f"{name}.{c.name} has no source")
    schema = arrow_schema(name)
    meta: dict[bytes | str, bytes | str] = dict((schema.metadata or {}).items())
    full = pa.schema([*schema, pa.field(HAND_IDX, pa.int32(), nullable=False)], metadata=meta)
    typed = frozenset(
        c.name for c in table.columns if exact and c.name in derive and not c.nullable and c.type in _MACHINE
    )
    return _Plan(name, tuple(fields), derive, tuple(from_hands), tuple(external), full, typed)


_MACHINE: dict[pa.DataType, str] = {
    t: code
    for t, code in ((pa.int64(), "q"), (pa.int32(), "i"), (pa.int16(), "h"), (pa.int8(), "b"))
    if array(code).itemsize * 8 == t.bit_width
}
"""Integer column type -> the :mod:`array` code of a C integer of the same width (a platform
whose C types differ keeps ``pa.array`` for that type), and ``bool``: the types
:func:`_exact_array` converts from machine values."""
_MACHINE[pa.bool_()] = "?"


def _exact_array(values: Column, type_: pa.DataType) -> pa.Array[Any]:
    """``pa.array(values, type=type_)`` for a column of exact ``int`` or ``bool`` values, built
    from a machine buffer instead of one Python object at a time.

    Why: ``pa.array`` of a list checks and converts every value on its own (``docs/performance.md``,
    ref33); ``array`` packs the integers in one C loop (``bytes`` the booleans, ``np.packbits``
    their Arrow bitmap) and Arrow wraps the buffer. Same values, same type, no validity bitmap
    (no nulls), as ``pa.array`` builds them. A value the machine type cannot hold (out of range,
    not an integer, ``None``) makes ``array``/``bytes`` raise, and the column is then left to
    ``pa.array``, which accepts or refuses it exactly as before. Only for records whose fields
    cannot hold a ``bool`` where an ``int`` is declared (compiled :class:`Record` classes store a
    ``bool`` given to an ``int`` field as the integer, and refuse an ``int`` for a ``bool``
    field): ``array`` would take ``True`` as 1 where ``pa.array`` refuses it."""
    if isinstance(values, pa.Array):  # (built from machine values already: _flag_columns)
        return values
    n = len(values)
    code = _MACHINE[type_]
    if n:
        try:
            if code == "?":
                raw = np.frombuffer(bytes(values), dtype=np.uint8)
                bits = np.packbits(raw, bitorder="little")
                if int(raw.max()) <= 1:
                    return pa.Array.from_buffers(type_, n, [None, pa.py_buffer(bits.tobytes())])
            else:
                return pa.Array.from_buffers(type_, n, [None, pa.py_buffer(array(code, values))])
        except (TypeError, ValueError, OverflowError):
            pass
    return pa.array(values, type=type_)


def _fields(record: type) -> tuple[str, ...]:
    if issubclass(record, Record):
        return fields(record)
    return tuple(getattr(record, "__dataclass_fields__", {}))


def _none_if_empty(field_name: str) -> tuple[tuple[str, ...], Derive]:
    return (field_name,), lambda cols: [v or None for v in cols[field_name]]


def _nth(field_name: str, i: int) -> tuple[tuple[str, ...], Derive]:
    return (field_name,), lambda cols: [v[i] for v in cols[field_name]]


_EV_COLUMNS = ("allin_ev", "ev_street", "ev_method", "ev_std_err")
"""``hand_players`` columns from the EV stage (:class:`HandEvFacts`), not from :class:`PlayerFacts`:
``allin_ev`` is ``net`` and the others null for every hand without an all-in EV."""

_HAND_FIELDS = (
    "site",
    "hand_id",
    "hand_kind",
    "game",
    "hilo",
    "structure",
    "game_label",
    "mixed",
    "unit",
    "unit_scale",
    "currency",
    "play_money",
    "small_blind",
    "big_blind",
    "cap",
    "ante",
    "tournament_id",
    "buyin_label",
    "buyin_total",
    "buyin_fee",
    "buyin_bounty",
    "buyin_currency",
    "knockout",
    "level",
    "zoom",
    "table_name",
    "max_seats",
    "button_seat",
    "start_utc",
    "local_time",
    "time_zone",
    "n_players",
    "total_pot",
    "rake",
    "runs",
    "exposed_card",
    "board",
    "board_run2",
    "cancelled",
    "warning_codes",
    "source",
    "line",
    "content_hash",
)
"""The order of :func:`_hand_row`'s tuple (checked against the declaration at import)."""


_ZOOM_KINDS: dict[str, bool] = {}
"""``hand_kind`` -> whether it names a Zoom hand, filled as kinds are met (a handful exist in
real files; bounded, since a damaged header may name any words)."""


def _zoom_kind(kind: str) -> bool:
    """``"Zoom" in kind``, remembered per kind: the substring test costs far more than a
    lookup of a string whose hash is already known, and every hand asks it."""
    zoom = _ZOOM_KINDS.get(kind)
    if zoom is None:
        zoom = remember(_ZOOM_KINDS, 256, kind, "Zoom" in kind)
    return zoom


def _cancelled(events: tuple[object, ...]) -> bool:
    """:attr:`Hand.cancelled`, as an exact type test (no subclass of ``HandCancelled`` exists).

    Why ``object``: compiled, a loop variable typed as the ``Event`` union is checked against
    the union's members one by one on every step (a cast), which cost more than the rest of the
    hand's row; as ``object`` each step is one pointer comparison.
    ``tests/test_tables_build.py`` checks the two agree."""
    cancelled = HandCancelled
    for e in events:  # noqa: SIM110 - a loop compiles to C, a generator would not
        if type(e) is cancelled:
            return True
    return False


def _hand_row(result: RefereeResult, facts: HandFacts, chash: str) -> tuple[Any, ...]:
    """One ``hands`` row, fields in ``_HAND_FIELDS`` order."""
    hand = result.hand
    h = hand.header
    t = h.tournament
    antes = [x.amount for x in facts.actions if x.action == "ante"]
    boards = facts.boards
    unit = h.unit
    return (
        h.site,
        h.hand_id,
        h.hand_kind,
        str(h.game),
        h.hilo,
        str(h.structure),
        h.game_label,
        h.mixed,
        unit,
        minor_units(unit),
        h.currency,
        h.play_money,
        h.small_blind,
        h.big_blind,
        h.cap,
        max(antes) if antes else None,
        None if t is None else t.tournament_id,
        None if t is None else t.buyin_label,
        None if t is None else sum(t.buyin_parts),
        None if t is None else (t.buyin_parts[-1] if len(t.buyin_parts) >= 2 else 0),
        None if t is None or len(t.buyin_parts) != 3 else t.buyin_parts[1],
        None if t is None else t.buyin_currency,
        None if t is None else t.knockout,
        None if t is None else t.level,
        (t is not None and t.zoom) or _zoom_kind(h.hand_kind),
        h.table,
        h.max_seats,
        h.button_seat,
        h.start_utc,
        h.local_time,
        h.time_zone,
        sum(1 for p in facts.players if p.dealt_in),
        facts.total_pot,
        facts.rake,
        facts.runs,
        facts.exposed_card,
        list(boards[0]) if boards else [],
        list(boards[1]) if len(boards) > 1 else None,
        _cancelled(hand.events),
        [w.code for w in hand.warnings] + [w.code for w in result.warnings],
        hand.source,
        hand.line,
        chash,
    )


_HANDS = _plan("hands", _HAND_FIELDS, {}, keyed=False)
if sorted(_HANDS.fields) != sorted(_HAND_FIELDS):  # pragma: no cover - a programming error
    raise KeyError(f"hands: _HAND_FIELDS {_HAND_FIELDS} must list each declared column once")
_HANDS = replace(_HANDS, fields=_HAND_FIELDS)  # the columns of _hand_row's tuples, in its order


def _hand_columns(rows: list[tuple[Any, ...]]) -> dict[str, Column]:
    """The ``hands`` columns of :func:`_hand_row`'s tuples, each a tuple of its values.

    Why ``zip(*rows)`` here, where the other tables read one field at a time (:class:`_Columns`):
    these rows are tuples already, so one C-level transposition builds every column at once,
    cheaper than a ``map`` of an item getter per column; and ``pa.array`` reads a tuple's items
    a little faster than a list's."""
    if not rows:
        return {f: () for f in _HAND_FIELDS}
    return dict(zip(_HAND_FIELDS, zip(*rows, strict=True), strict=True))


_CHILDREN: dict[str, tuple[_Plan, Callable[[HandFacts], Sequence[Any]], type]] = {
    "hand_players": (
        _plan(
            "hand_players",
            _fields(PlayerFacts),
            {
                "hole_cards": _none_if_empty("hole_cards"),
                **{
                    f"contributed_{s}": _nth("contributed", i)
                    for i, s in enumerate(("preflop", "flop", "turn", "river"))
                },
            },
            keyed=True,
            external=_EV_COLUMNS,
            exact=True,
        ),
        attrgetter("players"),
        PlayerFacts,
    ),
    "actions": (
        _plan("actions", _fields(ActionFact), {}, keyed=True, exact=True),
        attrgetter("actions"),
        ActionFact,
    ),
    "pots": (_plan("pots", _fields(PotFact), {}, keyed=True), attrgetter("pots"), PotFact),
    "awards": (_plan("awards", _fields(AwardFact), {}, keyed=True), attrgetter("awards"), AwardFact),
    "showdowns": (
        _plan("showdowns", _fields(ShowdownFact), {}, keyed=True),
        attrgetter("showdowns"),
        ShowdownFact,
    ),
}
_EV_SHARES = _plan("ev_shares", _fields(EvShareFact), {}, keyed=True)
_REJECTS = _plan("rejects", _fields(_Reject), {}, keyed=False)


class _Columns(Mapping[str, Column]):
    """The columns of a table's rows, each built when first asked for.

    Rows stay the records the referee built until a column is needed, then one C-level pass
    (``map`` of an attribute getter) pulls out that field, cheaper than one tuple per row and
    ``zip(*rows)`` (``docs/performance.md``). (The ``hands`` rows are tuples already:
    :func:`_hand_columns` transposes them at once.)
    """

    __slots__ = ("_built", "_getters", "_rows")

    def __init__(self, rows: Sequence[Any], getters: dict[str, Callable[[Any], Any]]) -> None:
        self._rows = rows
        self._getters = getters
        self._built: dict[str, Column] = {}

    def __getitem__(self, name: str) -> Column:
        column = self._built.get(name)
        if column is None:
            column = self._built[name] = list(map(self._getters[name], self._rows))
        return column

    def __iter__(self) -> Iterator[str]:
        return iter(self._getters)

    def __len__(self) -> int:
        return len(self._getters)


# The two tables with the most values a hand (hand_players, actions): their columns read in one
# compiled comprehension per field, straight from each record's struct (an ``attrgetter`` looks
# the name up on every row). ``tests/test_tables_build.py`` checks each column against its field.


_PLAYER_FLAGS: Final = (
    "is_hero",
    "dealt_in",
    "vpip",
    "pfr",
    "three_bet_opportunity",
    "three_bet",
    "fold_to_three_bet_opportunity",
    "fold_to_three_bet",
    "steal_opportunity",
    "steal",
    "fold_to_steal_opportunity",
    "fold_to_steal",
    "cbet_opportunity",
    "cbet",
    "fold_to_cbet_opportunity",
    "fold_to_cbet",
    "saw_flop",
    "went_to_showdown",
    "won_at_showdown",
    "won_high",
    "won_low",
    "scooped",
    "quartered",
)
"""The boolean fields of :class:`PlayerFacts`, in the bit order of :func:`_player_flags`."""


def _player_flags(rows: list[PlayerFacts]) -> list[int]:
    """Each row's boolean fields as the bits of one integer (bit ``i``: ``_PLAYER_FLAGS[i]``):
    one integer a row instead of one list a field (:func:`_flag_columns`)."""
    out: list[int] = []
    for p in rows:
        m = 0
        if p.is_hero:
            m |= 1
        if p.dealt_in:
            m |= 2
        if p.vpip:
            m |= 4
        if p.pfr:
            m |= 8
        if p.three_bet_opportunity:
            m |= 16
        if p.three_bet:
            m |= 32
        if p.fold_to_three_bet_opportunity:
            m |= 64
        if p.fold_to_three_bet:
            m |= 128
        if p.steal_opportunity:
            m |= 256
        if p.steal:
            m |= 512
        if p.fold_to_steal_opportunity:
            m |= 1024
        if p.fold_to_steal:
            m |= 2048
        if p.cbet_opportunity:
            m |= 4096
        if p.cbet:
            m |= 8192
        if p.fold_to_cbet_opportunity:
            m |= 16384
        if p.fold_to_cbet:
            m |= 32768
        if p.saw_flop:
            m |= 65536
        if p.went_to_showdown:
            m |= 131072
        if p.won_at_showdown:
            m |= 262144
        if p.won_high:
            m |= 524288
        if p.won_low:
            m |= 1048576
        if p.scooped:
            m |= 2097152
        if p.quartered:
            m |= 4194304
        out.append(m)
    return out


def _flag_columns(masks: list[int], names: tuple[str, ...]) -> dict[str, Column]:
    """The boolean columns whose values are the bits of ``masks`` (bit ``i``: ``names[i]``), each
    an Arrow array built from the rows' bits at once: the bytes of the masks spread into one bit
    a byte (``np.unpackbits``), then each column's bits packed into its Arrow bitmap
    (``np.packbits``), no Python object a value. Equal to ``pa.array`` of the column's bools
    (no nulls: no validity bitmap either)."""
    n = len(masks)
    k = len(names)
    words = np.frombuffer(array("q", masks), dtype=np.int64).astype("<i8", copy=False)  # (bit 0 first)
    spread = np.unpackbits(words.view(np.uint8).reshape(n, 8), axis=1, bitorder="little")
    packed = np.packbits(spread[:, :k].T, axis=1, bitorder="little")  # row i: the bitmap of names[i]
    bool_ = pa.bool_()
    out: dict[str, Column] = {}
    for i in range(k):
        bitmap = pa.py_buffer(packed[i].tobytes())
        out[names[i]] = cast(Column, pa.Array.from_buffers(bool_, n, [None, bitmap]))
    return out


def _player_columns(rows: list[PlayerFacts]) -> dict[str, Column]:
    columns: dict[str, Column] = {
        "seat": [p.seat for p in rows],
        "player": [p.player for p in rows],
        "position": [p.position for p in rows],
        "starting_stack": [p.starting_stack for p in rows],
        "hole_cards": [p.hole_cards for p in rows],
        "contributed": [p.contributed for p in rows],
        "returned": [p.returned for p in rows],
        "collected": [p.collected for p in rows],
        "net": [p.net for p in rows],
        "postflop_bets": [p.postflop_bets for p in rows],
        "postflop_raises": [p.postflop_raises for p in rows],
        "postflop_calls": [p.postflop_calls for p in rows],
        "postflop_checks": [p.postflop_checks for p in rows],
        "postflop_folds": [p.postflop_folds for p in rows],
        "all_in_street": [p.all_in_street for p in rows],
        "showdown_won": [p.showdown_won for p in rows],
        "nonshowdown_won": [p.nonshowdown_won for p in rows],
        "high_won": [p.high_won for p in rows],
        "low_won": [p.low_won for p in rows],
        "cash_out": [p.cash_out for p in rows],
        "cash_out_fee": [p.cash_out_fee for p in rows],
    }
    columns.update(_flag_columns(_player_flags(rows), _PLAYER_FLAGS))
    return columns


def _action_columns(rows: list[ActionFact]) -> dict[str, Column]:
    return {
        "seq": [a.seq for a in rows],
        "street": [a.street for a in rows],
        "player": [a.player for a in rows],
        "seat": [a.seat for a in rows],
        "action": [a.action for a in rows],
        "amount": [a.amount for a in rows],
        "to_amount": [a.to_amount for a in rows],
        "all_in": [a.all_in for a in rows],
        "pot_before": [a.pot_before for a in rows],
        "stack_before": [a.stack_before for a in rows],
        "faced": [a.faced for a in rows],
        "line": [a.line for a in rows],
    }


NATIVE_COLUMNS: dict[type, Callable[[list[Any]], dict[str, Column]]] = {
    PlayerFacts: _player_columns,
    ActionFact: _action_columns,
}
"""Fact record class -> every column of its rows, read natively (:class:`_Rows` uses it)."""


class _Rows:
    """One table's rows of a batch: the records, and how many each accepted hand has."""

    __slots__ = ("counts", "getters", "native", "of", "plan", "rows")

    def __init__(
        self,
        plan: _Plan,
        of: Callable[[HandFacts], Sequence[Any]] | None = None,
        record: type | None = None,
    ) -> None:
        self.plan = plan
        self.getters: dict[str, Callable[[Any], Any]] = {f: attrgetter(f) for f in plan.fields}
        self.native = NATIVE_COLUMNS.get(record) if record is not None else None
        self.of = of
        self.rows: list[Any] = []
        self.counts: list[int] = []  # rows per accepted hand (child tables)

    def columns(self, rows: list[Any] | None = None) -> Mapping[str, Column]:
        """The columns of ``rows`` (default: every row of the batch)."""
        rows = self.rows if rows is None else rows
        if self.native is not None:
            return self.native(rows)
        return _Columns(rows, self.getters)


class BatchBuilder:
    """Collects a batch of referee verdicts; :meth:`finish` turns them into Arrow tables.

    Call :meth:`add_result` or :meth:`add_parse_error` once per block, in block order; the
    returned :class:`HandRef` list (``refs``) is parallel to the blocks.
    """

    def __init__(self) -> None:
        self.refs: list[HandRef] = []
        self._hands: list[tuple[Any, ...]] = []
        self._hand_idx: list[int] = []
        self._texts: list[str] = []  # each accepted hand's text, should the tables refuse it
        self._children = [_Rows(plan, of, record) for plan, of, record in _CHILDREN.values()]
        self._players = next(r for r in self._children if r.plan.name == "hand_players")
        self._ev_shares = _Rows(_EV_SHARES)
        # The all-in EV of hand_players rows, for the rows of hands that have one: row position,
        # then the four _EV_COLUMNS values (every other row: allin_ev = net, the rest null).
        self._ev_rows: list[int] = []
        self._ev_values: list[tuple[int, int | None, str, int]] = []
        self._rejects = _Rows(_REJECTS)
        self._reject_idx: list[int] = []

    def add_result(
        self, result: RefereeResult, text: str, chash: str | None = None, ev: HandEvFacts | None = None
    ) -> HandRef:
        """Add a parsed hand's verdict: accepted when valid with facts, else a reject.

        ``ev`` is the hand's all-in EV (:func:`hhparse.ev.hand_ev`), when it has one.
        """
        chash = chash or content_hash(text)
        header = result.hand.header
        idx = len(self.refs)
        facts = result.facts
        if result.errors or facts is None:
            errors = list(result.errors) or [
                Violation("no-facts", result.hand.line, "the referee produced no facts for this hand")
            ]
            first = errors[0]
            self._add_reject(
                idx,
                _Reject(
                    site=header.site,
                    hand_id=header.hand_id,
                    source=result.hand.source,
                    line=result.hand.line,
                    status="invalid",
                    code=first.code,
                    message=first.message,
                    error_line=first.line,
                    game=header.game_label,
                    errors=[{"code": v.code, "message": v.message, "line": v.line} for v in errors],
                    raw_text=text,
                    content_hash=chash,
                ),
            )
            ref = HandRef(header.site, header.hand_id, chash, accepted=False)
        else:
            row = _hand_row(result, facts, chash)
            children = [rows.of(facts) for rows in self._children]  # type: ignore[misc]
            self._hands.append(row)  # (only once every part of the hand is built)
            self._hand_idx.append(idx)
            self._texts.append(text)
            if ev is not None:
                self._add_ev(ev, len(self._players.rows))
            else:
                self._ev_shares.counts.append(0)
            for rows, items in zip(self._children, children, strict=True):
                rows.rows.extend(items)
                rows.counts.append(len(items))
            ref = HandRef(header.site, header.hand_id, chash, accepted=True)
        self.refs.append(ref)
        return ref

    def _add_ev(self, ev: HandEvFacts, first_row: int) -> None:
        """Remember the EV columns of the hand whose hand_players rows start at ``first_row``."""
        for i, (allin_ev, err) in enumerate(zip(ev.allin_ev, ev.std_err, strict=True)):
            self._ev_rows.append(first_row + i)
            self._ev_values.append((allin_ev, ev.street, ev.method, err))
        self._ev_shares.rows.extend(ev.shares)
        self._ev_shares.counts.append(len(ev.shares))

    def _ev_columns(self, net: Column) -> dict[str, pa.Array[Any]]:
        """The hand_players EV columns of the batch (see :func:`_ev_arrays`)."""
        return _ev_arrays(net, self._ev_rows, self._ev_values)

    def add_parse_error(self, error: ParseError, source: str, line: int, text: str) -> HandRef:
        """Add a block that did not parse (or a whole-file problem) as a reject."""
        chash = content_hash(text)
        idx = len(self.refs)
        self._add_reject(
            idx,
            _Reject(
                site=None,
                hand_id=error.hand_id,
                source=source,
                line=line,
                status=error.status.value,
                code=error.code,
                message=error.message,
                error_line=error.line,
                game=error.game,
                errors=[{"code": error.code, "message": error.message, "line": error.line}],
                raw_text=text,
                content_hash=chash,
            ),
        )
        ref = HandRef(None, error.hand_id, chash, accepted=False)
        self.refs.append(ref)
        return ref

    def _add_reject(self, idx: int, reject: _Reject) -> None:
        self._rejects.rows.append(reject)
        self._reject_idx.append(idx)

    def finish(self) -> dict[str, pa.Table]:
        """Every table of the batch (possibly with zero rows), each with a ``_hand_idx`` column.

        Whatever a hand holds, it cannot fail the batch: if the batch's columns cannot be built
        (a value no column type holds, text Arrow refuses), each hand is built alone, and those
        that fail become ``unstorable-hand`` rejects carrying the exception; a reject row that
        fails is kept with its text made encodable. The usual batch pays nothing for this.
        """
        try:
            return self._finish()
        except Exception:  # (rare: a hand beyond every check before this one)
            self._isolate()
            return self._finish()

    def _isolate(self) -> None:
        """Turn the hands (and reject rows) whose rows cannot be built into rejects."""
        children = self._children
        offsets = [np.concatenate(([0], np.cumsum(rows.counts, dtype=np.int64))) for rows in children]
        bad: dict[int, BaseException] = {}
        for k in range(len(self._hands)):
            try:
                one = _hand_columns(self._hands[k : k + 1])
                hands = pa.RecordBatch.from_arrays(
                    _arrays(_HANDS, one, pa.array([0], type=pa.int32())), schema=_HANDS.schema
                )
                for rows, off in zip(children, offsets, strict=True):
                    part = rows.rows[int(off[k]) : int(off[k + 1])]
                    where = _numpy_array(np.zeros(len(part), dtype=np.int32), pa.int32())
                    fields = rows.columns(part)
                    extra = _ev_arrays(fields["net"], (), ()) if rows is self._players else None
                    _table(rows.plan, fields, None, hands=(hands, where), extra=extra)
            except Exception as exc:
                bad[k] = exc
        keep = [k for k in range(len(self._hands)) if k not in bad]
        self._drop_ev(keep, offsets[children.index(self._players)])
        for rows, off in zip(children, offsets, strict=True):
            rows.rows = [r for k in keep for r in rows.rows[int(off[k]) : int(off[k + 1])]]
            rows.counts = [rows.counts[k] for k in keep]
        for k, error in bad.items():
            row = dict(zip(_HAND_FIELDS, self._hands[k], strict=True))
            idx = self._hand_idx[k]
            message = f"a value the warehouse cannot hold: {type(error).__name__}: {str(error)[:300]}"
            self._add_reject(
                idx,
                _Reject(
                    site=row["site"],
                    hand_id=row["hand_id"],
                    source=row["source"],
                    line=row["line"],
                    status="invalid",
                    code="unstorable-hand",
                    message=message,
                    error_line=row["line"],
                    game=row["game_label"],
                    errors=[{"code": "unstorable-hand", "message": message, "line": row["line"]}],
                    raw_text=self._texts[k],
                    content_hash=row["content_hash"],
                ),
            )
            old = self.refs[idx]
            self.refs[idx] = HandRef(old.site, old.hand_id, old.content_hash, accepted=False)
        self._hands = [self._hands[k] for k in keep]
        self._hand_idx = [self._hand_idx[k] for k in keep]
        self._texts = [self._texts[k] for k in keep]
        rejects = self._rejects.rows
        for i, reject in enumerate(rejects):
            try:
                _table(_REJECTS, _Columns([reject], self._rejects.getters), pa.array([0], type=pa.int32()))
            except Exception:
                rejects[i] = _encodable(reject)

    def _drop_ev(self, keep: list[int], player_offsets: Any) -> None:
        """Keep the EV of the hands in ``keep`` only, its rows renumbered like hand_players'."""
        shares = self._ev_shares
        off = np.concatenate(([0], np.cumsum(shares.counts, dtype=np.int64)))
        shares.rows = [r for k in keep for r in shares.rows[int(off[k]) : int(off[k + 1])]]
        shares.counts = [shares.counts[k] for k in keep]
        new_start: dict[int, int] = {}  # old first hand_players row of a kept hand -> new one
        moved = 0
        for k in keep:
            new_start[int(player_offsets[k])] = moved
            moved += int(player_offsets[k + 1] - player_offsets[k])
        starts = [int(x) for x in player_offsets[:-1]]
        kept = set(keep)
        rows: list[int] = []
        values: list[tuple[int, int | None, str, int]] = []
        for row, value in zip(self._ev_rows, self._ev_values, strict=True):
            k = bisect.bisect_right(starts, row) - 1  # the hand this row belongs to
            first = int(player_offsets[k])
            if first in new_start and k in kept:
                rows.append(new_start[first] + row - first)
                values.append(value)
        self._ev_rows, self._ev_values = rows, values

    def _finish(self) -> dict[str, pa.Table]:
        cols = _hand_columns(self._hands)
        hand_arrays = _arrays(_HANDS, cols, pa.array(self._hand_idx, type=pa.int32()))
        out = {"hands": pa.Table.from_arrays(hand_arrays, schema=_HANDS.schema)}
        hands = pa.RecordBatch.from_arrays(hand_arrays, schema=_HANDS.schema)
        positions = np.arange(len(self._hands), dtype=np.int32)
        for rows in (*self._children, self._ev_shares):
            hand_rows = _numpy_array(np.repeat(positions, rows.counts), pa.int32())
            fields = rows.columns()
            extra = self._ev_columns(fields["net"]) if rows is self._players else None
            out[rows.plan.name] = _table(rows.plan, fields, None, hands=(hands, hand_rows), extra=extra)
        out["rejects"] = _table(
            _REJECTS, self._rejects.columns(), pa.array(self._reject_idx, type=pa.int32())
        )
        return out


def _encodable(reject: _Reject) -> _Reject:
    """A reject row Arrow can store: text fields made valid UTF-8 (lone surrogates escaped),
    anything else not text dropped to null or a bounded repr."""

    def text(value: Any) -> str:
        return str(value).encode("utf-8", "backslashreplace").decode("utf-8")

    def maybe(value: Any) -> str | None:
        return None if value is None else text(value)

    return _Reject(
        site=maybe(reject.site),
        hand_id=maybe(reject.hand_id),
        source=text(reject.source),
        line=_int64(reject.line),
        status=text(reject.status),
        code=text(reject.code),
        message=text(reject.message),
        error_line=_int64(reject.error_line),
        game=maybe(reject.game),
        errors=[
            {"code": text(e.get("code")), "message": text(e.get("message")), "line": _int64(e.get("line"))}
            for e in reject.errors
        ],
        raw_text=text(reject.raw_text),
        content_hash=text(reject.content_hash),
    )


def _numpy_array(values: Any, type_: pa.DataType) -> pa.Array[Any]:
    """The Arrow array of a numpy array of ``type_``'s dtype (one dimension, contiguous, no
    nulls), on the numpy array's own buffer, as ``pa.array(values, type=type_)`` makes it. Not
    ``pa.array``: on a numpy array it first asks whether it is a masked one (``np.ma``), and
    numpy imports ``numpy.ma`` at that first question, a module nothing here uses (every import
    process paid it in its first batch: ``docs/performance.md``)."""
    if values.dtype != np.dtype(f"<i{type_.bit_width // 8}") or not values.flags.c_contiguous:
        raise TypeError(f"a contiguous {type_} array expected, not {values.dtype}")  # (integers only)
    return pa.Array.from_buffers(type_, len(values), [None, pa.py_buffer(values)])


def _int64(value: Any) -> int:
    return value if isinstance(value, int) and -(2**63) <= value < 2**63 else 0


def _ev_arrays(
    net: Column, rows: Sequence[int], values: Sequence[tuple[int, int | None, str, int]]
) -> dict[str, pa.Array[Any]]:
    """The hand_players EV columns: ``net`` and nulls, overwritten at ``rows`` by ``values``."""
    allin_ev = np.array(net, dtype=np.int64)
    n = len(allin_ev)
    street: list[int | None] = [None] * n
    method: list[str | None] = [None] * n
    err: list[int | None] = [None] * n
    for row, (value, st, how, e) in zip(rows, values, strict=True):
        allin_ev[row] = value
        street[row], method[row], err[row] = st, how, e
    return {
        "allin_ev": _numpy_array(allin_ev, pa.int64()),
        "ev_street": pa.array(street, type=pa.int8()),
        "ev_method": pa.array(method, type=pa.string()),
        "ev_std_err": pa.array(err, type=pa.int64()),
    }


def _table(
    plan: _Plan,
    cols: Mapping[str, Column],
    hand_idx: pa.Array[Any] | None,
    hands: tuple[pa.RecordBatch, pa.Array[Any]] | None = None,
    extra: dict[str, pa.Array[Any]] | None = None,
) -> pa.Table:
    """Table of ``plan`` (:func:`_arrays`)."""
    return pa.Table.from_arrays(_arrays(plan, cols, hand_idx, hands, extra), schema=plan.schema)


def _arrays(
    plan: _Plan,
    cols: Mapping[str, Column],
    hand_idx: pa.Array[Any] | None,
    hands: tuple[pa.RecordBatch, pa.Array[Any]] | None = None,
    extra: dict[str, pa.Array[Any]] | None = None,
) -> list[pa.Array[Any]]:
    """The columns of ``plan``'s table, in its schema's order, from its transposed source fields;
    ``hands`` is the batch's ``hands`` rows and each row's position in it (for the key and copied
    columns, and ``_hand_idx``); ``extra`` the plan's ``external`` columns.

    The copied columns are taken from the ``hands`` record batch in one ``take`` (one Arrow
    kernel call for them all, where a call a column cost more than their values on a task's
    small tables)."""
    taken: dict[str, pa.Array[Any]] = dict(extra) if extra else {}
    if hands is not None:
        batch, where = hands
        names = [*plan.from_hands, HAND_IDX]
        copied = batch.select(names).take(where)
        for i, name in enumerate(names):
            taken[name] = copied.column(i)
    elif hand_idx is not None:
        taken[HAND_IDX] = hand_idx
    arrays: list[pa.Array[Any]] = []
    exact = plan.exact
    for f in plan.schema:
        if f.name in taken:
            arrays.append(taken[f.name])
        elif f.name in exact:
            arrays.append(_exact_array(plan.derive[f.name](cols), f.type))
        else:
            arrays.append(pa.array(plan.derive[f.name](cols), type=f.type))
    return arrays


def strip_hand_idx(table: pa.Table) -> pa.Table:
    """The table without the batch-local ``_hand_idx`` column (i.e. in its declared schema)."""
    if HAND_IDX in table.column_names:
        return table.drop_columns([HAND_IDX])
    return table


def empty_table(name: str) -> pa.Table:
    """A zero-row table of ``name`` in its declared schema."""
    return arrow_schema(name).empty_table()


def records_from_pylist(name: str, rows: list[dict[str, Any]]) -> pa.Table:
    """A table of ``name`` from dict rows (small tables only, e.g. ``imports``), schema enforced."""
    return pa.Table.from_pylist(rows, schema=arrow_schema(name))
