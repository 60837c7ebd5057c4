"""Errors as values.

A bad hand is normal input: it becomes a value that names the file, the line, the hand and the
offending text, and the next hand goes on. Nothing here raises; exceptions are only for bugs.

Stable codes are part of the public interface (tests, the ``rejects`` table and users' scripts
depend on them): never rename a code, add a new one. A :class:`ParseError`'s codes:

* ``syntax`` — a line the grammar does not accept, or whose fields make no sense;
* ``amount-out-of-range`` — an amount of :data:`hhparse.money.AMOUNT_LIMIT` minor units or more;
* ``unsupported-game``, ``summary-file``, ``no-header``, ``binary-file`` — not a hand we read;
* ``nul-bytes`` — NUL bytes in the hand (a crash or a disk error damaged it);
* ``line-too-long``, ``hand-too-large`` — a line or a hand far beyond any real one (only an
  excerpt of it is kept);
* ``truncated-hand`` — the file ends among a hand's summary seat lines and has stopped changing;
* ``internal-error`` — the parser or referee raised (a bug; the hand is kept, the import goes on);
* ``unstorable-hand`` (table builder) — a value no warehouse column can hold (a bug's last net).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Status(StrEnum):
    """Outcome of a hand through the pipeline (the ``status`` of ``check --format jsonl``)."""

    PARSED = "parsed"  # parse-only mode
    VALID = "valid"  # parsed and the referee accepted it
    INVALID = "invalid"  # parsed, the referee found at least one error
    UNPARSED = "unparsed"  # syntax / encoding error
    UNSUPPORTED = "unsupported"  # another game (Hold'em, Stud, ...) or a summary file


@dataclass(frozen=True, slots=True)
class ParseError:
    """A hand (or a whole file) that could not be read into a :class:`~hhparse.model.Hand`.

    ``text`` is the offending line; ``block`` the whole raw hand, kept so nothing is lost (it goes
    to the ``rejects`` table whole).
    """

    code: str  # e.g. "syntax", "unsupported-game", "summary-file", "unreadable-file", "empty-hand"
    message: str
    source: str
    line: int  # file line of the offending text (1-based)
    column: int  # 1-based; 0 when not applicable
    hand_id: str | None
    text: str  # the offending line
    block: str = ""  # the whole hand text
    block_line: int = 0  # first line of the block in the file
    game: str | None = None  # the header's game words when readable (e.g. "Hold'em No Limit")

    @property
    def status(self) -> Status:
        return Status.UNSUPPORTED if self.code in UNSUPPORTED_CODES else Status.UNPARSED

    def format(self) -> str:
        """``path:line:col: hand #id: message`` then the line and a caret, like a compiler.

        Bounded whatever the input: a line longer than :data:`EXCERPT` characters is shown as its
        start and its length (a caret beyond the excerpt points at its end).
        """
        where = f"{self.source}:{self.line}:{self.column}"
        hand = f" hand #{excerpt(self.hand_id)}:" if self.hand_id else ""
        out = f"{where}:{hand} {excerpt(self.message)} [{self.code}]"
        if self.text:
            shown = excerpt(self.text)
            caret = " " * min(max(self.column - 1, 0), len(shown)) + "^"
            out += f"\n    {shown}\n    {caret}"
        return out


EXCERPT = 200
"""Characters of an offending line (or a message, a hand id) shown in an error."""


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text``, or its first ``limit`` characters and how long it is."""
    if len(text) <= limit + 40:
        return text
    return f"{text[:limit]}\u2026 ({len(text):,} characters)"


UNSUPPORTED_CODES = frozenset({"unsupported-game", "summary-file"})

PARSE_CODES: dict[str, str] = {
    "syntax": "a line the grammar does not read, or reads but cannot make sense of (named in the message)",
    "truncated-hand": "the hand's text stops before its end (a file cut short, a hand still being written): "
    "before *** SUMMARY ***, or inside the summary (no Total pot line, no Board line for a "
    "board that was dealt, or no summary line for a seated player)",
    "no-header": "text outside every hand: before the first hand header of a file, or after a hand's "
    "blank lines without a hand header of its own",
    "unsupported-game": "a hand of a game hhparse does not read (Hold'em, Stud, 6 Card Omaha, ...)",
    "summary-file": "a tournament summary file, not hand histories (`import` stores it in `tournament_summaries`, "
    "`check` reads it: this code is only seen where the whole file could not be read)",
    "bad-summary": "a tournament summary file with a line that cannot be read (named, with its file line)",
    "binary-file": "a file with NUL bytes: not a hand history",
    "internal-error": "the importer caught a bug while reading this hand (kept with the traceback's last line)",
}
"""Codes of :class:`ParseError`: code -> one-line meaning (``docs/referee-codes.md`` lists them)."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A rule the referee found broken (severity error) or an oddity it noticed (warning).

    ``expected``/``found`` are human strings in the hand's money format ("$0.46", "raise to $0.60").
    """

    code: str  # stable kebab-case code, e.g. "raise-above-pot-limit"
    line: int  # file line of the event the violation refers to
    message: str
    expected: str | None = None
    found: str | None = None
    player: str | None = None

    def format(self, source: str, hand_id: str, text: str = "") -> str:
        out = f"{source}:{self.line}:1: hand #{excerpt(hand_id)}: {excerpt(self.message)} [{self.code}]"
        if text:
            out += f"\n    {excerpt(text)}\n    ^"
        return out
