"""The importer's index of stored hands: (site, hand id) → content hash.

Why not a dict of strings: the importer must know every hand already in the warehouse (and every
hand it has added this run) to tell a new hand from a duplicate or a conflict, so this index grows
with the warehouse, not with the batch. As a dict of hand-id and hex-hash strings it costs about
200 bytes a hand: 200 MB at 1 M hands, 2 GB at 10 M, against a 1 GB memory budget that must hold
whatever the input size. Here a PokerStars hand id (decimal digits) is kept as an ``int64`` and
its content hash (16 hex digits) as a ``uint64``, in per-site arrays sorted by id: 16 bytes a
hand. Hands added during the run wait in a small dict until :data:`FOLD_EVERY` of them are merged
into the arrays. An id that is not plain decimal (no PokerStars id is) is kept exactly, as text,
in a dict of its own. Lookups stay exact: no id or hash is ever approximated.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["FOLD_EVERY", "KnownHands", "hash_value"]

LOAD_CHUNK = 1 << 20
"""Stored hands :meth:`KnownHands.load` gathers before merging them into the arrays (bounds what
it holds besides them; each merge copies the arrays)."""
FOLD_EVERY = 65_536
"""Pending hands merged into the sorted arrays at once (bounds the dict, amortises the merge)."""

_NUMERIC = re.compile(r"[1-9][0-9]{0,17}|0")  # no leading zero: "007" and "7" stay different ids
_Ids = npt.NDArray[np.int64]
_Hashes = npt.NDArray[np.uint64]


def hash_value(content_hash: str) -> int:
    """A content hash (16 hex digits, ``tables.build.content_hash``) as the integer stored here."""
    return int(content_hash, 16)


_DECIMAL_ID = r"^(?:[1-9][0-9]{0,17}|0)$"
"""A hand id kept as an ``int64`` (:data:`_NUMERIC`), as an Arrow regular expression."""
_HEX_HASH = r"^[0-9a-fA-F]{16}$"
_HEX_DIGITS = np.full(256, 0, dtype=np.uint64)
for _i, _c in enumerate(b"0123456789abcdef"):
    _HEX_DIGITS[_c] = _i
for _i, _c in enumerate(b"ABCDEF", 10):
    _HEX_DIGITS[_c] = _i


def _hex_values(hashes: Any) -> _Hashes:
    """:func:`hash_value` of each of an Arrow string array's values, every one 16 hex digits."""
    n = len(hashes)
    if not n:
        return np.zeros(0, dtype=np.uint64)
    import pyarrow as pa

    large = pa.types.is_large_string(hashes.type) or pa.types.is_large_binary(hashes.type)
    offsets = np.frombuffer(hashes.buffers()[1], dtype=np.int64 if large else np.int32)
    start = int(offsets[hashes.offset])
    chars = np.frombuffer(hashes.buffers()[2], dtype=np.uint8)[start : start + 16 * n].reshape(n, 16)
    values = np.zeros(n, dtype=np.uint64)
    for k in range(16):
        values = (values << np.uint64(4)) | _HEX_DIGITS[chars[:, k]]
    return values


class KnownHands:
    """Exact (site, hand id) → content hash index, 16 bytes a hand for decimal ids."""

    def __init__(self) -> None:
        self._ids: dict[str, _Ids] = {}
        self._hashes: dict[str, _Hashes] = {}
        self._pending: dict[str, dict[int, int]] = {}
        self._pending_count = 0
        self._text: dict[tuple[str, str], int] = {}  # ids that are not plain decimal

    def __len__(self) -> int:
        return sum(len(a) for a in self._ids.values()) + self._pending_count + len(self._text)

    def get(self, site: str, hand_id: str) -> int | None:
        """The stored content hash of this hand, or None if it is not stored."""
        if _NUMERIC.fullmatch(hand_id) is None:
            return self._text.get((site, hand_id))
        n = int(hand_id)
        pending = self._pending.get(site)
        if pending is not None:
            found = pending.get(n)
            if found is not None:
                return found
        ids = self._ids.get(site)
        if ids is None or not len(ids):
            return None
        i = int(np.searchsorted(ids, n))
        if i < len(ids) and int(ids[i]) == n:
            return int(self._hashes[site][i])
        return None

    def add(self, site: str, hand_id: str, value: int) -> None:
        """Record a hand (the caller has checked it is not stored yet)."""
        if _NUMERIC.fullmatch(hand_id) is None:
            self._text[(site, hand_id)] = value
            return
        self._pending.setdefault(site, {})[int(hand_id)] = value
        self._pending_count += 1
        if self._pending_count >= FOLD_EVERY:
            self.fold()

    def setdefault(self, site: str, hand_id: str, value: int) -> int | None:
        """The stored content hash of this hand; if it is not stored, record ``value`` and return
        None. One look-up instead of :meth:`get` then :meth:`add` (the importer does this once
        for every hand it reads, in its busy main process)."""
        if _NUMERIC.fullmatch(hand_id) is None:
            key = (site, hand_id)
            old = self._text.get(key)
            if old is None:
                self._text[key] = value
            return old
        n = int(hand_id)
        pending = self._pending.get(site)
        if pending is None:
            pending = self._pending[site] = {}
        else:
            found = pending.get(n)
            if found is not None:
                return found
        ids = self._ids.get(site)
        if ids is not None and len(ids):
            i = int(np.searchsorted(ids, n))
            if i < len(ids) and int(ids[i]) == n:
                return int(self._hashes[site][i])
        pending[n] = value
        self._pending_count += 1
        if self._pending_count >= FOLD_EVERY:
            self.fold()
        return None

    def extend(self, rows: Iterable[tuple[str, str, str]]) -> None:
        """Add ``(site, hand id, content hash)`` rows of stored hands, in bulk (loading)."""
        by_site: dict[str, tuple[list[int], list[int]]] = {}
        for site, hand_id, chash in rows:
            if _NUMERIC.fullmatch(hand_id) is None:
                self._text[(site, hand_id)] = hash_value(chash)
                continue
            ids, hashes = by_site.setdefault(site, ([], []))
            ids.append(int(hand_id))
            hashes.append(hash_value(chash))
        for site, (ids, hashes) in by_site.items():
            self._merge(site, np.array(ids, dtype=np.int64), np.array(hashes, dtype=np.uint64))

    def load(self, batches: Iterable[Any]) -> None:
        """:meth:`extend` with the stored hands of ``batches`` (Arrow record batches of the
        ``hands`` table's ``site``, ``hand_id`` and ``content_hash``), merged into the sorted
        arrays once at the end. Rows of a decimal id and a 16-hex-digit hash (every PokerStars
        hand) are converted by Arrow and NumPy a column at a time; any other row goes through
        :meth:`extend`, so the index holds exactly what :meth:`extend` of the rows would. Why:
        row by row, with a merge into the arrays every record batch (a copy of them all), the
        index of millions of stored hands took far longer to load (``docs/performance.md``)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        parts: dict[str, tuple[list[_Ids], list[_Hashes]]] = {}
        for batch in batches:
            sites, ids, hashes = (batch.column(name) for name in ("site", "hand_id", "content_hash"))
            fast = pc.and_kleene(
                pc.and_kleene(pc.is_valid(sites), pc.match_substring_regex(ids, _DECIMAL_ID)),
                pc.match_substring_regex(hashes, _HEX_HASH),
            ).fill_null(False)
            slow = pc.invert(fast)
            if pc.any(slow).as_py():
                rows = zip(*(pc.filter(c, slow).to_pylist() for c in (sites, ids, hashes)), strict=True)
                self.extend(rows)
                sites, ids, hashes = (pc.filter(c, fast) for c in (sites, ids, hashes))
            if not len(ids):
                continue
            unique = pc.unique(sites).to_pylist()
            for site in unique:
                site_ids, site_hashes = ids, hashes
                if len(unique) > 1:
                    mask = pc.equal(sites, site)
                    site_ids, site_hashes = pc.filter(ids, mask), pc.filter(hashes, mask)
                got = parts.setdefault(site, ([], []))
                got[0].append(np.array(pc.cast(site_ids, pa.int64()).to_numpy(zero_copy_only=False)))
                got[1].append(_hex_values(site_hashes))
                if sum(len(a) for a in got[0]) >= LOAD_CHUNK:
                    self._merge_parts(site, *got)
        for site, got in parts.items():
            self._merge_parts(site, *got)

    def _merge_parts(self, site: str, id_parts: list[_Ids], hash_parts: list[_Hashes]) -> None:
        """Merge what :meth:`load` gathered of a site into its arrays, and forget it."""
        if not id_parts:
            return
        ids = np.concatenate(id_parts)
        id_parts.clear()
        hashes = np.concatenate(hash_parts)
        hash_parts.clear()
        self._merge(site, ids, hashes)

    def fold(self) -> None:
        """Merge the pending hands into the sorted arrays."""
        for site, pending in self._pending.items():
            ids = np.fromiter(pending.keys(), dtype=np.int64, count=len(pending))
            hashes = np.fromiter(pending.values(), dtype=np.uint64, count=len(pending))
            self._merge(site, ids, hashes)
        self._pending.clear()
        self._pending_count = 0

    def _merge(self, site: str, ids: _Ids, hashes: _Hashes) -> None:
        # (one array at a time, and no sort of ids already in order, as stored hands mostly
        # are: at 10 M hands each array is 80 MB, and every copy alive at once adds to the peak)
        if len(ids) > 1 and not bool(np.all(ids[1:] >= ids[:-1])):
            order = np.argsort(ids, kind="stable")
            ids = ids[order]
            hashes = hashes[order]
            del order
        old_ids = self._ids.get(site)
        if old_ids is None or not len(old_ids):
            self._ids[site], self._hashes[site] = ids, hashes
            return
        at = np.searchsorted(old_ids, ids)
        del old_ids
        self._ids[site] = np.insert(self._ids.pop(site), at, ids)
        self._hashes[site] = np.insert(self._hashes.pop(site), at, hashes)
