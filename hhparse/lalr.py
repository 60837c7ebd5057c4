"""A compiled LALR(1) driver for the line grammar, run on the tables lark built from it.

Why: the grammar (``grammars/pokerstars.lark``) makes every line one token and one reduction, so
what a hand costs in lark's own parser loop is per-line bookkeeping around two C-level steps (the
state's terminal regex, the builder's callback): token objects with nine positions, a lexer
thread, a generator, a parser-state object, exception-driven look-ups. This module runs the same
LALR automaton — lark's parse table, lark's terminals in lark's order per lexer state, lark's
callbacks, lark's rules — in a loop that mypyc compiles to C (``hatch_build.py``), with a small
token that also carries the match of its terminal, so the callback reads the line's fields from
the one match that lexed it.

It is a fast path, not a second parser. It accepts exactly what lark accepts, with the same
callbacks in the same order; everything else (no terminal matches, no action for a token, a
lexer state lark had to split, a terminal with a callback, a terminal that may reach past its
line) raises :class:`Rejected` and the caller hands the text to lark itself, whose exception then
says where and why. Nothing here knows the grammar, lark or the model:
:func:`hhparse.larkglue.line_parser` reads the tables out of a built lark parser and
``tests/test_parser_modes.py`` checks both read the corpus alike.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

__all__ = ["END", "LineParser", "LineToken", "Rejected", "Shape", "Term"]

#: The end-of-input terminal of lark's tables.
END: Final = "$END"

Matcher = Callable[[str], "re.Match[str] | None"]
"""A terminal's regex (``Pattern.match``), matched against one whole line."""

Term = tuple[str, Matcher, str, tuple[str, ...], "Matcher | None", str, tuple[str, ...]]
"""One terminal of a lexer state: (name, its regex, ``prefix``, ``needles``, ``fast``,
``guard_prefix``, ``guard_needles``). ``prefix`` (or "") is text every line of that terminal
starts with, ``needles`` (or none) texts of which every such line holds one: a line without them
cannot be of that terminal, so its regex is not tried. ``fast`` (or None) is the regex without a
negative look-ahead for other shapes, which matches alike on a line that cannot be one of them:
one that does not start with ``guard_prefix`` or holds none of ``guard_needles``. All are read off
the regex itself (:func:`hhparse.larkglue.line_parser`)."""

Shape = tuple[str, "Matcher | None", bool, tuple[str, ...]]
"""One way a terminal's line may end (an alternative of its regex): (``prefix``, ``ends``,
``empty``, ``needles``). ``prefix`` (or "") is text its lines start with; ``ends`` (None: any)
matches each character its line may end with before the ``"\n"``; ``empty``: its line may be a
``"\n"`` alone; ``needles`` (or none) texts of which its lines hold one. A line whose terminal
matches is a line of one of its shapes (:func:`hhparse.larkglue._line_shapes` reads them off
the regex)."""

Callback = Callable[[list[Any]], Any]
LineCallback = Callable[[Any], Any]
"""A rule's callback for ``items: items LINE`` that reads the line's token alone (see
:class:`LineParser`)."""


class LineToken:
    """One token: its terminal, its text and its 1-based line — what callbacks read of a token
    (lark's :class:`~lark.lexer.Token` has these three too, so callbacks work with both) — and
    the match of its terminal's regex against the line (None where the driver did not lex it)."""

    __slots__ = ("line", "match", "type", "value")

    def __init__(self, type: str, value: str, line: int, match: re.Match[str] | None = None) -> None:
        self.type = type
        self.value = value
        self.line = line
        self.match = match

    def __repr__(self) -> str:
        return f"LineToken({self.type!r}, {self.value!r}, {self.line})"


class Rejected(Exception):
    """The text is not in the language, or not in the part this driver runs: ask lark."""


def _holds(value: str, needles: tuple[str, ...]) -> bool:
    """Whether ``value`` holds one of ``needles``."""
    return any(needle in value for needle in needles)


#: A terminal with at least this many needles (or guard needles) has them tested behind fewer,
#: shorter texts (:func:`_cover`).
MANY: Final = 4


class _Entry:
    """A :data:`Term` as the lexing loop reads it: its fields as native attributes (mypyc reads
    them off the object, where a tuple of nine would be unpacked, item by item, for every
    terminal tried on every line), with the covers (:func:`_cover`) of its needles and of its
    guard needles, and its one needle apart (``needle``: most terminals have exactly one, tested
    without a loop)."""

    def __init__(
        self, term: Term, cover: tuple[str, ...], guard_cover: tuple[str, ...], unguarded: bool = False
    ) -> None:
        name, match, prefix, needles, fast, guard_prefix, guard_needles = term
        #: the lines this entry is tried on cannot be any of the shapes ``fast`` leaves out (see
        #: :meth:`_Group.for_last`): ``fast`` is used without testing them
        self.unguarded: Final = unguarded and fast is not None
        self.name: Final = name
        self.match: Final = match
        self.prefix: Final = prefix
        self.needles: Final = needles
        self.needle: Final = needles[0] if len(needles) == 1 else ""
        self.fast: Final = fast
        self.guard_prefix: Final = guard_prefix
        self.guard_needles: Final = guard_needles
        self.cover: Final = cover
        self.guard_cover: Final = guard_cover
        #: the terminal's number in the driver's dense tables, or -1 for one lark skips (set by
        #: :class:`_Lexer`: the loop reads it here instead of looking the name up in two dicts)
        self.id = -1
        #: the one line of a terminal whose regex starts with a whole line (its prefix ends in
        #: "\n": a line holds one "\n", its last), and that line's match, or "" and None:
        #: that line is told by comparing texts, and its match is made once
        self.line = ""
        self.line_match: re.Match[str] | None = None
        if prefix.endswith("\n"):
            found = match(prefix)
            if found is not None and found.end() == len(prefix):
                self.line, self.line_match = prefix, found
        self.term: Final = term

    def lexes(self, value: str) -> re.Match[str] | None:
        """The match of this terminal against the line ``value`` (None: not this terminal)."""
        if self.line:
            return self.line_match if value == self.line else None
        prefix = self.prefix
        if prefix and not value.startswith(prefix):
            return None
        needle = self.needle
        if needle:
            if needle not in value:
                return None
        elif self.needles:
            if self.cover and not _covered(value, self.cover):
                return None
            if not _holds(value, self.needles):
                return None
        fast = self.fast
        if self.unguarded:
            assert fast is not None
            return fast(value)
        if fast is not None and (
            (self.guard_prefix and not value.startswith(self.guard_prefix))
            or (
                self.guard_needles
                and (not _covered(value, self.guard_cover) or not _holds(value, self.guard_needles))
            )
        ):
            return fast(value)
        return self.match(value)


def _cover(needles: tuple[str, ...], others: set[str]) -> tuple[str, ...]:
    """Texts of which every one of ``needles`` holds one, fewer than the needles, or none.

    Why: a line that holds none of them holds none of the needles, so testing them first spares
    testing every needle (a table event has many) on the lines that have none — nearly all. Each
    is a piece of a needle (3 to 8 characters), chosen greedily (the most needles, then the
    longest), preferring pieces that are no part of ``others`` (the texts of the lines usually
    there: the other terminals' needles), which would be found on those lines for nothing."""
    if len(needles) < MANY:
        return ()
    key = (needles, frozenset(others))
    known = _COVERS.get(key)
    if known is not None:
        return known
    if len(_COVERS) >= 256:  # (bounded as hhparse.memo.remember bounds: the driver imports no hhparse)
        _COVERS.clear()
    cover = _COVERS[key] = _cover_of(needles, "\0".join(sorted(others)))
    return cover


_COVERS: Final[dict[tuple[tuple[str, ...], frozenset[str]], tuple[str, ...]]] = {}
"""Covers already chosen: every lexer state of a grammar asks again for the same few (the table
events' needles among the same others), and choosing one is the parser's costliest build step."""


def _cover_of(needles: tuple[str, ...], others: str) -> tuple[str, ...]:
    """:func:`_cover`, with ``others`` joined by NULs (no needle holds one) into one text."""
    pieces: dict[str, set[str]] = {}
    for avoid in (True, False):
        for needle in needles:
            for size in range(3, 9):
                for at in range(len(needle) - size + 1):
                    piece = needle[at : at + size]
                    if avoid and piece in others:
                        continue
                    pieces.setdefault(piece, set()).add(needle)
        if all(any(n in group for group in pieces.values()) for n in needles):
            break
    left = set(needles)
    chosen: list[str] = []
    while left:
        best, most = "", 0
        for piece, holders in pieces.items():
            held = len(holders & left)
            if held > most or (held and held == most and len(piece) > len(best)):
                best, most = piece, held
        if not most:
            return ()
        chosen.append(best)
        left -= pieces[best]
    if len(chosen) >= len(needles) or not all(any(c in n for c in chosen) for n in needles):
        return ()
    return tuple(chosen)


def _entries(terms: list[Term]) -> list[_Entry]:
    """``terms`` with the covers of their needles (the other terminals' needles avoided)."""
    out: list[_Entry] = []
    for t in terms:
        others = {n for o in terms if o is not t for n in (*o[3], *o[6])}
        out.append(_Entry(t, _cover(t[3], others), _cover(t[6], others)))
    return out


def _fits(shape: Shape, first: str, last: str) -> bool:
    """Whether a line starting with ``first`` (or any, "") and ending with ``last`` before its
    ``"\n"`` ("" for a line that is a ``"\n"`` alone) may be of ``shape``."""
    prefix, ends, empty, _ = shape
    if first and prefix and prefix[0] != first:
        return False
    if not last:
        return empty
    return ends is None or ends(last) is not None


class _Group:
    """The terminals tried on the lines starting with one character (or with none of the
    characters the state's terminals start with: ``first`` ""), and, built when a line first
    asks, those of them tried on its lines by the character they end with (``by_last``): a
    terminal none of whose shapes (:data:`Shape`) may end so is left out, and one whose shapes
    that may end so hold fewer texts than the whole terminal is tested for those only."""

    def __init__(
        self,
        entries: list[_Entry],
        first: str,
        shapes: dict[str, tuple[Shape, ...]],
        guards: dict[str, tuple[Shape, ...]],
    ) -> None:
        self.entries: Final = entries
        self.first: Final = first
        self.shapes: Final = shapes
        self.guards: Final = guards
        self.by_last: dict[str, list[_Entry]] = {}
        #: an entry tested for fewer texts, by its terminal, those texts, its guard's texts and
        #: whether it is unguarded (made once)
        self.narrowed: dict[tuple[str, tuple[str, ...], tuple[str, ...], bool], _Entry] = {}

    def for_last(self, last: str) -> list[_Entry]:
        """The entries to try, in order, on a line ending with ``last`` ("" for none)."""
        known = self.by_last.get(last)
        if known is not None:
            return known
        if len(self.by_last) >= 1024:  # (a text of many different last characters: stay bounded)
            self.by_last.clear()
        out: list[_Entry] = []
        terms = [e.term for e in self.entries]
        for entry in self.entries:
            t = entry.term
            needles, guard_needles, unguarded = t[3], t[6], False
            shapes = self.shapes.get(entry.name)
            if shapes:
                fit = [s for s in shapes if _fits(s, self.first, last)]
                if not fit:
                    continue
                narrow = tuple(sorted({n for s in fit for n in s[3]}))
                if all(s[3] for s in fit) and (not needles or len(narrow) < len(needles)):
                    needles = narrow
            guards = self.guards.get(entry.name)
            if guards and entry.fast is not None:
                fit = [s for s in guards if _fits(s, self.first, last)]
                narrow = tuple(sorted({n for s in fit for n in s[3]}))
                if not fit:
                    unguarded = True
                elif all(s[3] for s in fit) and (not guard_needles or len(narrow) < len(guard_needles)):
                    guard_needles = narrow
            if entry.line or (needles is t[3] and guard_needles is t[6] and not unguarded):
                out.append(entry)
                continue
            key = (entry.name, needles, guard_needles, unguarded)
            sub = self.narrowed.get(key)
            if sub is None:
                others = {n for o in terms if o is not t for n in (*o[3], *o[6])}
                sub = _Entry(
                    (t[0], t[1], t[2], needles, t[4], t[5], guard_needles),
                    _cover(needles, others),
                    _cover(guard_needles, others),
                    unguarded,
                )
                sub.id = entry.id
                self.narrowed[key] = sub
            out.append(sub)
        self.by_last[last] = out
        return out


def _covered(value: str, cover: tuple[str, ...]) -> bool:
    """Whether ``value`` holds one of ``cover`` (no cover: it may hold any needle)."""
    return not cover or any(text in value for text in cover)


class _Lexer:
    """One lexer state's terminals in lark's order, grouped by the first character a line must
    have for each (terminals with no fixed start are in every group), with their covers."""

    def __init__(
        self,
        terms: list[Term],
        ids: dict[str, int],
        ignore: frozenset[str],
        shapes: dict[str, tuple[Shape, ...]],
        guards: dict[str, tuple[Shape, ...]],
    ) -> None:
        firsts = {t[2][0] for t in terms if t[2]}
        self.by_first: dict[str, list[_Entry]] = {
            c: _entries([t for t in terms if not t[2] or t[2][0] == c]) for c in firsts
        }
        self.other: list[_Entry] = _entries([t for t in terms if not t[2]])
        for group in [*self.by_first.values(), self.other]:
            for entry in group:
                entry.id = -1 if entry.name in ignore else ids[entry.name]
        self.groups: Final = {c: _Group(group, c, shapes, guards) for c, group in self.by_first.items()}
        self.rest: Final = _Group(self.other, "", shapes, guards)
        #: the entries of a line by its first and last characters when both are ASCII, by their
        #: codes (``rows[first][last]``, "\n" for a line that is one): two list indexes a line
        #: where the groups' look-ups would take two dict look-ups; filled as lines ask
        self.rows: Final[list[list[list[_Entry] | None] | None]] = [None] * ASCII

    def entries(self, value: str) -> list[_Entry]:
        """The entries to try, in order, on the line ``value`` (its "\n" included)."""
        first = ord(value[0])
        last = ord(value[-2]) if len(value) >= 2 else 10
        if first < ASCII and last < ASCII:
            row = self.rows[first]
            if row is None:
                row = [None] * ASCII
                self.rows[first] = row
            known = row[last]
            if known is not None:
                return known
        group = self.groups.get(value[0])
        if group is None:
            group = self.rest
        out = group.for_last(value[-2] if len(value) >= 2 else "")
        if first < ASCII and last < ASCII:
            row = self.rows[first]
            assert row is not None
            row[last] = out
        return out


#: The last characters :meth:`LineParser.choose_covers` builds the lists of by default: every
#: printable ASCII character and a tab, and one of each kind of other character a regex's
#: character class may tell apart (a letter, a symbol, a no-break space, a digit that is no
#: ASCII digit). A line ending otherwise builds its list when it first comes, as before.
CHOSEN_LASTS: Final = "".join(chr(c) for c in range(32, 127)) + "\t\u00e9\u20ac\u00a0\u0663"

#: Characters below this code are looked up by list index (:attr:`_Lexer.rows`).
ASCII: Final = 128


#: The dense tables' empty cell: no action for that symbol in that state.
NO_ACTION: Final = 1 << 40


class LineParser:
    """LALR(1) over lark's tables.

    ``actions[state]`` maps a symbol to the next state (shift, ``>= 0``) or to ``~i`` for a
    reduction by ``rules[i]`` = (length of the expansion, origin symbol, callback);
    ``lexers[state]`` is that state's terminals, in the order lark's contextual lexer tries them
    (the first that matches wins), or None when the driver cannot lex the state exactly like
    lark (then any text reaching it is rejected); ``ignore`` are the terminals lark skips.

    The loop reads the same tables with every symbol numbered (``_table[state][symbol]``, a
    dense row a state, :data:`NO_ACTION` where ``actions`` has no entry; each terminal carries
    its number): two list indexes a look-up where a dict would hash and compare the symbol's
    name, three look-ups a line.

    ``lines[i]`` (or None) is a callback of ``rules[i]``, a rule of two symbols whose own
    callback never reads its first child (a line after the lines before it), that takes the
    line's token alone and returns what the rule's callback returns: the driver calls it
    without building the children list, one list less a line. A line callback keeps nothing of
    its token but what it reads: the driver lends the same token, refilled, to every line it
    reduces at once (``lend``; below).

    A line shifted to a state whose every action is one reduction by a rule with a line
    callback (``items: items LINE``) is reduced at once, without its token and that state on
    the stacks: lark would make that reduction whatever the next line is, after lexing it in
    that state, so the driver lexes the next line in that state too, and refuses what that
    state has no action for, as lark does. Only the moment of the callback changes, before the
    next line is lexed instead of after; a text lark refuses is refused all the same (and read
    again by lark from a fresh builder).

    ``shapes[name]`` (or none) are the ways terminal ``name``'s lines may end (:data:`Shape`),
    ``guards[name]`` those of the lines its negative look-ahead refuses: the lexer tries on a
    line only the terminals one of whose shapes may end as the line ends, each behind the texts
    of those shapes alone, and uses ``fast`` untested where none of the refused shapes may
    (:class:`_Group`). States whose terminals are the same share one lexer.

    Every terminal the driver lexes matches one whole line, its ``"\\n"`` included, and looks at
    nothing outside it (:func:`hhparse.larkglue.line_parser` checks each regex): so a line's
    terminal and its match depend on the line and the state alone, and the line is matched as a
    string of its own. (A memo of whole lines, tried before, cost more on real files than the
    filtered look-up it saved: ``docs/performance.md``.)
    """

    def __init__(
        self,
        actions: list[dict[str, int]],
        rules: list[tuple[int, str, Callback]],
        lexers: list[list[Term] | None],
        ignore: frozenset[str],
        start: int,
        end: int,
        lines: list[LineCallback | None] | None = None,
        shapes: dict[str, tuple[Shape, ...]] | None = None,
        guards: dict[str, tuple[Shape, ...]] | None = None,
    ) -> None:
        self.actions = actions
        self.rules = rules
        self.lexers = lexers
        self.ignore = ignore
        self.start = start
        self.end = end
        ids: dict[str, int] = {}
        for row in actions:
            for symbol in row:
                ids.setdefault(symbol, len(ids))
        for _, origin, _ in rules:
            ids.setdefault(origin, len(ids))
        for terms in lexers:
            for term in terms or ():
                ids.setdefault(term[0], len(ids))
        ids.setdefault(END, len(ids))
        self._end_id: Final = ids[END]
        self._table: Final[list[list[int]]] = []
        for row in actions:
            dense = [NO_ACTION] * len(ids)
            for symbol, action in row.items():
                dense[ids[symbol]] = action
            self._table.append(dense)
        alone: list[LineCallback | None] = list(lines) if lines is not None else [None] * len(rules)
        if len(alone) != len(rules) or any(
            f is not None and r[0] != 2 for f, r in zip(alone, rules, strict=True)
        ):
            raise ValueError("a line callback is for a rule of two symbols")
        self.lines = alone
        self._rules: Final[list[tuple[int, int, Callback, LineCallback | None]]] = [
            (n, ids[o], cb, f) for (n, o, cb), f in zip(rules, alone, strict=True)
        ]
        #: whether the line callbacks of the reductions made at once are lent one token, refilled
        #: for each line (they keep nothing of it but what they read: the line callback's promise)
        self.lend = True
        self.shapes: Final[dict[str, tuple[Shape, ...]]] = dict(shapes or {})
        self.guards: Final[dict[str, tuple[Shape, ...]]] = dict(guards or {})
        # states with the same terminals in the same order lex alike: one lexer for them all
        made: dict[tuple[str, ...], _Lexer] = {}
        self._lexers: list[_Lexer | None] = []
        for t in lexers:
            if t is None:
                self._lexers.append(None)
                continue
            key = tuple(term[0] for term in t)
            if key not in made:
                made[key] = _Lexer(t, ids, ignore, self.shapes, self.guards)
            self._lexers.append(made[key])
        # a state reached by shifting a line whose every action is one reduction by a rule of
        # a line callback: that reduction is made at once (:meth:`parse`), else -1
        self._at_once: Final[list[int]] = []
        for row in actions:
            kinds = set(row.values())
            only = next(iter(kinds)) if len(kinds) == 1 else 0
            self._at_once.append(~only if only < 0 and self._rules[~only][3] is not None else -1)

    def choose_covers(self, lasts: str = CHOSEN_LASTS) -> int:
        """Build now, for every lexer and every group of it, the entries a line ending with each
        of ``lasts`` (and a line that is a ``"\n"`` alone) is tried against, and so choose their
        covers (:func:`_cover`): how many lists were built. What is built equals what a line
        would build when it first asks (:meth:`_Group.for_last`).

        Why: a process's first lines build these lists as they come, and choosing a narrowed
        entry's cover is what costs (tens of them in a process's first few hundred hands: its
        first task cost more than the next). :func:`hhparse.larkglue.line_parser` calls this
        before it keeps the driver in the cache folder, whose file keeps every cover chosen:
        a process that loads it chooses none, and builds each list (cheap then) as before."""
        seen: set[int] = set()
        built = 0
        for lexer in self._lexers:
            if lexer is None or id(lexer) in seen:
                continue
            seen.add(id(lexer))
            for group in [*lexer.groups.values(), lexer.rest]:
                group.for_last("")
                for last in lasts:
                    group.for_last(last)
                built += 1 + len(lasts)
        return built

    def parse(self, text: str) -> Any:
        """The value of the start rule's callback for ``text``; raises :class:`Rejected`."""
        lexers = self._lexers
        table = self._table
        at_once = self._at_once
        states: list[int] = [self.start]
        values: list[Any] = []
        pos = 0
        line = 1
        size = len(text)
        # the state whose lexer reads the next line: the top of the stack, or the state a line
        # was shifted to and reduced from at once (lark lexes the next line in that state, then
        # makes the reduction that state makes whatever comes, then takes the line)
        state = self.start
        # the token lent to the line callbacks of the reductions made at once (refilled for each
        # line: a line callback keeps none of its token but what it reads), or None to make one
        # a line (``lend`` False)
        scratch: LineToken | None = LineToken("", "", 0) if self.lend else None
        while pos < size:
            eol = text.find("\n", pos) + 1
            if not eol:  # every terminal ends its line with "\n"
                raise Rejected
            value = text[pos:eol]
            pos = eol
            lexer = lexers[state]
            if lexer is None:
                raise Rejected
            terms = lexer.entries(value)
            m: re.Match[str] | None = None
            found: _Entry | None = None
            for entry in terms:
                m = entry.lexes(value)
                if m is not None:
                    found = entry
                    break
            if found is None:
                raise Rejected
            kind = found.id
            if kind >= 0:
                if table[state][kind] == NO_ACTION:
                    raise Rejected
                action = table[states[-1]][kind]
                if 0 <= action < NO_ACTION and at_once[action] >= 0 and scratch is not None:
                    # the shift and the reduction of nearly every line: the token lent
                    scratch.type = found.name
                    scratch.value = value
                    scratch.line = line
                    scratch.match = m
                    self._reduce_at_once(states, values, at_once[action], scratch)
                else:
                    token = LineToken(found.name, value, line, m)
                    if not 0 <= action < NO_ACTION:  # reductions first (lark's ``feed_token``)
                        self._feed(states, values, kind, token)
                        action = states.pop()
                        values.pop()
                    if at_once[action] >= 0:
                        self._reduce_at_once(states, values, at_once[action], token)
                    else:
                        states.append(action)
                        values.append(token)
                state = action
            line += 1
        if table[state][self._end_id] == NO_ACTION:
            raise Rejected
        return self._feed(states, values, self._end_id, None)

    def _reduce_at_once(self, states: list[int], values: list[Any], rule: int, token: LineToken) -> None:
        """The shift of ``token`` to a state that reduces by ``rule`` (``items: items LINE``,
        with a line callback) whatever comes, and that reduction: the line's callback called
        with the token, without the token and that state on the stacks."""
        _, origin, _, alone = self._rules[rule]
        assert alone is not None
        # the rule's two symbols off the stacks and its result on: the line's own state and
        # token never went on, so the ``items`` below it is replaced in place (no pop, no push)
        result = alone(token)
        goto = self._table[states[-2]][origin]
        if goto == NO_ACTION or goto < 0:
            raise Rejected
        states[-1] = goto
        values[-1] = result

    def _feed(self, states: list[int], values: list[Any], kind: int, token: LineToken | None) -> Any:
        """Shift ``token`` (of terminal number ``kind``) after the reductions it calls for
        (lark's ``feed_token``); at the end (``token`` None) reduce to the end state and return
        the start rule's value."""
        table = self._table
        rules = self._rules
        while True:
            action = table[states[-1]][kind]
            if action == NO_ACTION:
                raise Rejected
            if action >= 0:
                if token is None:
                    raise Rejected
                states.append(action)
                values.append(token)
                return None
            length, origin, callback, alone = rules[~action]
            if alone is not None:  # ``items: items LINE``, the reduction of nearly every line
                last = values.pop()
                values.pop()
                states.pop()
                states.pop()
                value = alone(last)
            else:
                if length == 2:
                    last = values.pop()
                    children = [values.pop(), last]
                    states.pop()
                    states.pop()
                elif length:
                    children = values[-length:]
                    del states[-length:]
                    del values[-length:]
                else:
                    children = []
                value = callback(children)
            goto = table[states[-1]][origin]
            if goto == NO_ACTION or goto < 0:
                raise Rejected
            states.append(goto)
            values.append(value)
            if token is None and goto == self.end:
                return value
