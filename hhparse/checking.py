"""Parse and referee hands into per-hand verdicts: the engine behind ``hhparse check``.

Kept apart from the CLI so the same verdicts serve the command line, the JSONL output and tests,
and so the CLI module stays a thin adapter (parse options, call this, map to an exit code).
"""

from __future__ import annotations

import contextlib
import linecache
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from hhparse.engine import referee
from hhparse.errors import ParseError, Status, Violation
from hhparse.facts import RefereeResult
from hhparse.failures import os_reason
from hhparse.model import Hand
from hhparse.parsing import parse_file, parse_path
from hhparse.rules.spec import variant_for
from hhparse.splitter import NotRegularFileError, iter_files

if TYPE_CHECKING:
    # imported where a summary file is read: checking hand histories never needs it (start-up)
    from hhparse.summaries import TournamentSummary


@dataclass(frozen=True, slots=True)
class Verdict:
    """One hand's outcome: either a parse error or a referee result."""

    source: str
    line: int
    hand_id: str | None
    game: str | None
    status: Status
    parse_error: ParseError | None = None
    result: RefereeResult | None = None
    errors: tuple[Violation, ...] = field(default=())
    warnings: tuple[Violation, ...] = field(default=())
    summaries: tuple[TournamentSummary, ...] = field(default=())  # a tournament summary file, read

    @property
    def ok(self) -> bool:
        return self.status in (Status.VALID, Status.PARSED)

    @property
    def is_summary(self) -> bool:
        """A tournament summary file (read, or with the line it could not read)."""
        if self.summaries:
            return True
        if self.parse_error is None:
            return False
        from hhparse.summaries import SUMMARY_CODE

        return self.parse_error.code in ("summary-file", SUMMARY_CODE)

    def to_json(self) -> dict[str, object]:
        """The ``--format jsonl`` object. Money says its unit: ``unit`` (``USD``, ``chips``...),
        ``unit_scale`` (minor units per unit: 100 for a currency, 1 for chips) and the amounts in
        minor units, named ``*_minor`` (``players[].net_minor``: -25 is -$0.25)."""
        out: dict[str, object] = {
            "file": self.source,
            "line": self.line,
            "hand_id": self.hand_id,
            "game": self.game,
            "status": self.status.value,
        }
        if self.summaries:
            out["kind"] = "tournament-summary"
            out["errors"], out["warnings"] = [], []
            out["tournaments"] = [_summary_json(t) for t in self.summaries]
            return out
        if self.parse_error is not None:
            pe = self.parse_error
            out["errors"] = [
                {
                    "code": pe.code,
                    "line": pe.line,
                    "column": pe.column,
                    "message": pe.message,
                    "text": pe.text,
                }
            ]
            out["warnings"] = []
            return out
        out["errors"] = [_violation_json(v) for v in self.errors]
        out["warnings"] = [_violation_json(v) for v in self.warnings]
        if self.result is not None:
            hand = self.result.hand
            out["unit"] = hand.header.unit
            out["unit_scale"] = minor_units(hand.header.unit)
            facts = self.result.facts
            if facts is not None:
                out["players"] = [
                    {"name": p.player, "seat": p.seat, "net_minor": p.net} for p in facts.players
                ]
            else:
                out["players"] = [{"name": s.player, "seat": s.seat, "net_minor": None} for s in hand.seats]
        return out


def minor_units(unit: str) -> int:
    """Minor units per ``unit``: chips and play money 1, a currency 100 (as the warehouse's
    ``unit_scale``)."""
    return 1 if unit in ("chips", "play") else 100


def _summary_json(t: TournamentSummary) -> dict[str, object]:
    """A summary's JSONL object: amounts in hundredths of ``unit`` (``*_minor``, ``unit_scale`` 100)."""
    return {
        "tournament_id": t.tournament_id,
        "game": t.game,
        "buyin_label": t.buyin_label,
        "unit": t.unit or "play",
        "unit_scale": 100,
        "buyin_minor": t.buyin,
        "bounty_minor": t.bounty,
        "fee_minor": t.fee,
        "entries": t.entries,
        "prize_pool_minor": t.prize_pool,
        "started_utc": t.started_utc.isoformat() if t.started_utc else None,
        "finished_utc": t.finished_utc.isoformat() if t.finished_utc else None,
        "listed": len(t.places),
        "still_playing": sum(p.still_playing for p in t.places),
        "hero_place": t.hero_place,
    }


def _violation_json(v: Violation) -> dict[str, object]:
    d: dict[str, object] = {"code": v.code, "line": v.line, "message": v.message}
    if v.expected is not None:
        d["expected"] = v.expected
    if v.found is not None:
        d["found"] = v.found
    return d


def game_name(hand: Hand) -> str:
    """Human game name, e.g. ``Courchevel Hi/Lo PL``."""
    h = hand.header
    return f"{variant_for(h.game, h.hilo).label} {h.structure.value}"


def judge(item: Hand | ParseError, referee_hands: bool = True) -> Verdict:
    """Turn one parser output into a verdict, refereeing parsed hands and reading tournament
    summary files (as ``hhparse import`` stores them)."""
    if isinstance(item, ParseError) and item.code == "summary-file":
        return _summary_verdict(item)
    if isinstance(item, ParseError):
        return Verdict(
            source=item.source,
            line=item.block_line or item.line,
            hand_id=item.hand_id,
            game=item.game,
            status=item.status,
            parse_error=item,
        )
    warnings = tuple(Violation(w.code, w.line, w.message) for w in item.warnings)
    if not referee_hands:
        return Verdict(
            item.source, item.line, item.hand_id, game_name(item), Status.PARSED, warnings=warnings
        )
    result = referee(item)
    status = Status.VALID if result.valid else Status.INVALID
    seen = {(w.code, w.line) for w in result.warnings}
    merged = result.warnings + tuple(w for w in warnings if (w.code, w.line) not in seen)
    return Verdict(
        item.source, item.line, item.hand_id, game_name(item), status, None, result, result.errors, merged
    )


def _summary_verdict(item: ParseError) -> Verdict:
    """A summary file read whole (the splitter keeps only an excerpt of text that is not hands)."""
    from hhparse.summaries import parse_summaries, read_summary_text

    text = item.block
    if os.path.isfile(item.source):
        with contextlib.suppress(OSError):
            text = read_summary_text(item.source)
    parsed = parse_summaries(text, item.source, item.block_line or item.line)
    if isinstance(parsed, ParseError):
        return Verdict(item.source, parsed.line, None, None, parsed.status, parse_error=parsed)
    first = parsed[0]
    return Verdict(item.source, first.line, None, first.game, Status.VALID, summaries=tuple(parsed))


UNREADABLE = "unreadable-file"
"""Code of a file or folder that could not be read (permissions, a symbolic link loop, I/O)."""
NOT_A_FILE = "not-a-file"
"""Code of a FIFO, socket or device given or found as an input: skipped, never opened."""


def unreadable(path: Path | str, exc: OSError) -> Verdict:
    """The verdict for an input that could not be read at all (it holds no hand we could see)."""
    code = NOT_A_FILE if isinstance(exc, NotRegularFileError) else UNREADABLE
    error = ParseError(code, os_reason(exc), str(path), 0, 0, None, "")
    return Verdict(str(path), 0, None, None, error.status, parse_error=error)


def check_paths(paths: Iterable[str], referee_hands: bool = True) -> Iterator[Verdict]:
    """Verdicts for every hand under ``paths`` (files, folders, ``-`` for stdin), in file order.

    A file or folder that cannot be read (or a FIFO, which is never opened) gives one
    :func:`unreadable` verdict in its place, and the check goes on.
    """
    for path in paths:
        if str(path) == "-":
            for item in parse_path(path):
                yield judge(item, referee_hands)
            continue
        yield from _check_tree(path, referee_hands)


def _check_tree(path: str, referee_hands: bool) -> Iterator[Verdict]:
    problems: list[Verdict] = []
    for file in iter_files(path, lambda p, exc: problems.append(unreadable(p, exc))):
        yield from problems
        problems.clear()
        try:
            for item in parse_file(file):
                yield judge(item, referee_hands)
        except OSError as exc:
            yield unreadable(file, exc)
    yield from problems


def source_line(source: str, line: int) -> str:
    """The text of a file line, for carets under referee errors (empty for stdin)."""
    if source.startswith("<"):
        return ""
    return linecache.getline(source, line).rstrip("\r\n")
