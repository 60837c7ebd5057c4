"""The lark side of the parser: building the LALR parser and trimming lark's per-line overhead.

Why a module of its own: everything that reaches into lark's internals — the leaner pure-lark
lexer, the identity-hashed rules, the direct parse entry — lives here, so a change of lark's
internals shows up in one place, and :mod:`hhparse.parsing` (the grammar's builder, compiled by
mypyc at install: ``hatch_build.py``) stays free of what mypyc cannot compile (classes defined
inside functions, subclasses of lark's classes). This module always runs as plain Python.
Nothing here knows the grammar or the model.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import pickle
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from re import _constants as _sre
from typing import Any

from hhparse.cachefiles import CACHE_ENV, cache_dir, read_checked, write_checked
from hhparse.cachefiles import write_atomic as _write_atomic
from hhparse.lalr import LineParser, Shape, Term

__all__ = [
    "CACHE_ENV",
    "PROPAGATE_POSITIONS",
    "Source",
    "cache_dir",
    "direct_entry",
    "grammar_source",
    "line_parser",
    "load_grammar",
    "make_parser",
]

#: A named capture group's opening, ``(?P<name>``: in the grammar, a line's fields.
_NAMED_GROUP = re.compile(r"\(\?P<(\w+)>")
#: The same, numbered while lark composes the terminals (``(?P<name__7>``).
_NUMBERED_GROUP = re.compile(r"\(\?P<(\w+)__\d+>")

#: lark's ``propagate_positions``. It used to halve the parser's speed because the one flat hand
#: rule built a tree node per line and lark re-scanned the growing child list on every reduction
#: (O(n^2) per hand). Since every reduction now goes straight to a builder method that returns a
#: model value (no tree node, so nothing to re-scan), it only wraps each callback (one extra call
#: per line; ``docs/performance.md``). Positions themselves live on the tokens and in the
#: model's ``line`` fields, so it is off: every callback is then the builder method itself (lark's
#: wrapper only ever annotated tree nodes, and no reduction builds one).
PROPAGATE_POSITIONS = False


def _line_lexer_class() -> type:
    """The contextual lexer of pure lark, with its per-token bookkeeping cut down.

    lark's ``ContextualLexer`` spends most of its time around the regex match: a chain of small
    methods per token, a ``LineCounter`` update, token construction through a deprecation shim.
    This subclass keeps everything that decides *what* a token is — the same per-state scanners,
    compiled by lark from the terminals of the grammar, tried in the same order — and only runs
    the loop itself in one place. Anything unusual (a state whose scanner lark had to split, a
    terminal callback, a position where no terminal matches) is handed back to lark's own code,
    so errors are lark's. Only used without lark-cython, which has its own compiled lexer
    (what it saves: ``docs/performance.md``).
    """
    from lark.lexer import ContextualLexer, LexerState, Token

    class LineLexer(ContextualLexer):
        def __init__(self, conf: Any, states: Any, always_accept: Any = ()) -> None:
            super().__init__(conf, states, always_accept)
            self._ignore = frozenset(conf.ignore)
            self._matchers: dict[int, Any] = {}

        def _matcher(self, state: int) -> Any:
            lexer: Any = self.lexers[state]
            mres = lexer.scanner._mres
            match = mres[0].match if len(mres) == 1 and not lexer.callback else None
            self._matchers[state] = match
            return match

        def lex(self, lexer_state: LexerState, parser_state: Any) -> Iterator[Token]:
            text_slice = lexer_state.text
            text: str = text_slice.text
            end: int = text_slice.end
            ctr = lexer_state.line_ctr
            pos: int = ctr.char_pos
            line: int = ctr.line
            column: int = ctr.column
            ignore = self._ignore
            matchers = self._matchers
            new: Any = str.__new__
            stack: list[int] = parser_state.state_stack  # mutated in place by the parser
            while pos < end:
                state = stack[-1]  # parser_state.position, without the property call
                match = matchers[state] if state in matchers else self._matcher(state)
                m = match(text, pos, end) if match is not None else None
                if m is None:
                    break
                value: str = m.group()
                end_pos: int = m.end()
                newlines = value.count("\n")
                if newlines:
                    end_line = line + newlines
                    end_column = end_pos - text.rindex("\n", pos, end_pos)
                else:
                    end_line, end_column = line, column + len(value)
                type_ = m.lastgroup
                if type_ in ignore:
                    pos, line, column = end_pos, end_line, end_column
                    continue
                # Token._future_new, inlined (same object, same slots set)
                token = new(Token, value)
                token.type = type_
                token.start_pos = pos
                token.value = value
                token.line = line
                token.column = column
                token.end_line = end_line
                token.end_column = end_column
                token.end_pos = end_pos
                lexer_state.last_token = token
                pos, line, column = end_pos, end_line, end_column
                yield token
            ctr.char_pos, ctr.line, ctr.column = pos, line, column
            ctr.line_start_pos = pos - column + 1
            if pos < end:  # lark reports the error (or lexes a state we could not)
                yield from super().lex(lexer_state, parser_state)

    return LineLexer


def _cache_file(folder: Path, text: str, shapes: tuple[str, ...]) -> Path:
    """The cache file of this grammar, these shapes, this lark and this Python: another grammar
    (or lark) gets another file, so a file once written never changes."""
    import lark

    key = "\0".join((text, *shapes, repr(PROPAGATE_POSITIONS), lark.__version__, sys.version))
    return folder / f"parser-{hashlib.sha256(key.encode()).hexdigest()[:32]}.lark"


#: The attribute :func:`_cached_lark` sets on a parser it saved or loaded: (the cache folder,
#: the SHA-256 of the saved parser), from which :func:`line_parser` names its driver's file.
_SAVED = "_hhparse_saved"

#: The options lark attaches when it loads a saved parser (the builder and the plugins are this
#: process's objects): left out of the file, given again at load.
_AT_LOAD = frozenset({"transformer", "_plugins", "propagate_positions"})


@dataclass(frozen=True)
class Source:
    """What :func:`make_parser` builds the parser from when a cache folder is given: the saved
    parser (``saved``: a cache hit) or the loaded grammar (``grammar``: built, then saved with
    ``regexes`` at ``path``)."""

    text: str
    shapes: tuple[str, ...]
    regexes: dict[str, str]
    grammar: Any
    saved: bytes | None
    path: Path | None


def grammar_source(text: str, shapes: Iterable[str], cache: Path | None) -> tuple[Source, dict[str, str]]:
    """(what :func:`make_parser` builds from, the regex of each shape): :func:`load_grammar`'s,
    or both read from hhparse's cache folder, where the first process saved them.

    Why: loading the grammar and building the LALR tables is most of a one-file ``hhparse
    check``'s start-up (``docs/performance.md``, Start-up); loading them is a small part. The file
    (the shapes' regexes, then lark's own ``Lark.save`` of the built parser) is named by the hash
    of everything it was built from, so it never changes once written; it is written under a
    temporary name and renamed, so workers starting together never read half a file; a file that
    cannot be read is rebuilt and replaced; a folder that cannot be written only means no cache.
    Files of an older grammar or lark stay (tens of kilobytes each: another installation may use
    them). The file is unpickled, so it is trusted like the bytecode in ``__pycache__``: it lives
    in the user's own cache folder, written by nothing but hhparse.
    """
    wanted = tuple(sorted(set(shapes)))
    path = _cache_file(cache, text, wanted) if cache is not None else None
    if path is not None:
        try:
            with open(path, "rb") as f:
                regexes = pickle.load(f)
                saved = f.read()
            if (
                isinstance(regexes, dict)
                and sorted(regexes) == list(wanted)
                and all(isinstance(v, str) for v in regexes.values())
                and saved
            ):
                return Source(text, wanted, regexes, None, saved, path), regexes
        except FileNotFoundError:
            pass
        except Exception:  # damaged or truncated: whatever unpickling raised, built anew below
            pass
    grammar, regexes = load_grammar(text, wanted)
    return Source(text, wanted, regexes, grammar, None, path), regexes


def _cached_lark(source: Source, options: dict[str, Any]) -> Any:
    """The parser loaded from ``source.saved``, or built from the grammar (and saved)."""
    from lark import Lark

    if source.saved is not None:
        try:
            at_load = {k: v for k, v in options.items() if k in _AT_LOAD}
            loaded = Lark.__new__(Lark)._load(io.BytesIO(source.saved), **at_load)
        except Exception:  # damaged after the shapes: rebuilt from the grammar below
            pass
        else:
            if source.path is not None:
                setattr(loaded, _SAVED, (source.path.parent, hashlib.sha256(source.saved).hexdigest()))
            return loaded
    grammar = source.grammar if source.grammar is not None else load_grammar(source.text, source.shapes)[0]
    lark = Lark(grammar, **options)
    if source.path is None:
        return lark
    saved = io.BytesIO()
    lark.save(saved, exclude_options=_AT_LOAD)
    data = saved.getvalue()
    if _write_atomic(source.path, pickle.dumps(source.regexes) + data):
        setattr(lark, _SAVED, (source.path.parent, hashlib.sha256(data).hexdigest()))
    return lark


def load_grammar(text: str, shapes: Iterable[str] = ()) -> tuple[Any, dict[str, str]]:
    """Load the grammar once: (the grammar for :func:`make_parser`, the regex of each terminal
    named in ``shapes``).

    The grammar names the fields of each line shape with named groups (``(?P<amt>...)``), so the
    terminal is the line's only description: the builder reads the fields by matching a token
    against its terminal's regex as lark composed it (the second value, capture groups kept).
    The lexer needs no groups, and could not take them: it joins a state's terminals into one
    alternation, where the same group name may appear only once (and lark splits an alternation
    of more than 100 groups). So the grammar handed to lark has every named group made
    non-capturing: it matches exactly the same lines.
    """
    from lark.lexer import Token
    from lark.load_grammar import PrepareLiterals, TerminalTreeToPattern, nr_deepcopy_tree
    from lark.load_grammar import load_grammar as lark_load

    # lark checks each composed terminal with ``re``, where a name may appear once: the same
    # field of two line shapes (``text`` of two table events) is numbered apart meanwhile
    numbers = iter(range(1 << 30))
    text = _NAMED_GROUP.sub(lambda m: f"(?P<{m[1]}__{next(numbers)}>", text)
    grammar, _ = lark_load(text, "<grammar>", (), False)  # type: ignore[no-untyped-call]
    # the shapes asked for, composed as lark's ``Grammar.compile`` composes every terminal (only
    # these: composing them all, the rules too, would double the time the parser takes to build)
    wanted = set(shapes)
    to_pattern = PrepareLiterals() * TerminalTreeToPattern()
    regexes: dict[str, str] = {}
    for name, (tree, _) in grammar.term_defs:
        if name in wanted and tree is not None:
            regex = to_pattern.transform(nr_deepcopy_tree(tree)).to_regexp()  # type: ignore[no-untyped-call]
            regexes[name] = _first_names(regex)
    if wanted - set(regexes):
        raise KeyError(f"no such terminal in the grammar: {', '.join(sorted(wanted - set(regexes)))}")
    for _, (tree, _) in grammar.term_defs:
        if tree is None:
            continue
        for sub in tree.iter_subtrees():
            sub.children = [
                Token(c.type, _NAMED_GROUP.sub("(?:", c))
                if isinstance(c, Token) and c.type == "REGEXP"
                else c
                for c in sub.children
            ]
    return grammar, regexes


def _first_names(regex: str) -> str:
    """A composed terminal with its fields named once: the first group of each field name keeps
    its name, later ones (a field of a sub-terminal composed in again, or in a look-ahead such as
    ``STREET``'s ``(?!EVENT_LINE | ...)``) are made non-capturing. The line shape a terminal is
    built around comes first in it, so its fields are the ones read."""
    seen: set[str] = set()

    def name(m: re.Match[str]) -> str:
        if m[1] in seen:
            return "(?:"
        seen.add(m[1])
        return f"(?P<{m[1]}>"

    return _NUMBERED_GROUP.sub(name, regex)


def make_parser(grammar: Any, builder: object, *, cython: bool | None = None) -> Any:
    """Build the LALR parser with ``builder`` as inline transformer, from the grammar's text, the
    first value of :func:`load_grammar`, or a :class:`Source` (the parser kept in the cache
    folder: loaded from there, or built and saved there).

    ``cython=None`` uses lark-cython when it is importable, False forces pure lark (with the
    leaner contextual lexer above).
    """
    from lark import Lark

    plugins: dict[str, Any] = {}
    if cython is not False:
        try:
            import lark_cython

            plugins = dict(lark_cython.plugins)
        except ImportError:
            if cython:
                raise
    if not plugins:
        plugins = {"ContextualLexer": _line_lexer_class()}
    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "propagate_positions": PROPAGATE_POSITIONS,
        "transformer": builder,
        "maybe_placeholders": False,
        "_plugins": plugins,
    }
    lark = _cached_lark(grammar, options) if isinstance(grammar, Source) else Lark(grammar, **options)
    _fast_tables(lark)
    return lark


def _identity_rule_class() -> type:
    from lark.grammar import Rule

    class IdentityRule(Rule):
        """A :class:`lark.grammar.Rule` that hashes and compares by identity (C-level slots)."""

        __slots__ = ()
        __hash__ = object.__hash__
        __eq__ = object.__eq__

    return IdentityRule


_IdentityRule: type | None = None


def _fast_tables(lark: Any) -> None:
    """Take lark's Python-level dunder calls out of the LALR reduce step of ``lark``'s parser.

    On every reduction, both lark's and lark-cython's parser loop run ``assert arg != end_state``
    (``Rule.__eq__``), ``callbacks[rule]`` (``Rule.__hash__``) and
    ``states[...][rule.origin.name]``, where the name is a :class:`lark.lexer.Token` while the
    table's keys are plain strings (so the dict lookup calls ``Token.__eq__``): three Python
    calls per line. Once the parser is built, its rules are only ever looked up
    as the very objects stored in its own table and callback dict, so this parser's rules are
    switched to a subclass hashing and comparing by identity (the C defaults) and their origin
    names to the table's own key strings (equal text, equal hash). It touches only the objects
    of this one ``Lark`` instance (rules and grammar symbols are built per instance) and changes
    no outcome: same table, same callbacks, same lookups. Skipped, leaving lark as it is, if
    lark's internals do not have the expected shape.
    """
    global _IdentityRule
    from lark.grammar import Rule

    lalr = getattr(getattr(lark, "parser", None), "parser", None)
    table = getattr(lalr, "_parse_table", None)
    conf = getattr(lalr, "parser_conf", None)
    callbacks = getattr(conf, "callbacks", None)
    states = getattr(table, "states", None)
    if not isinstance(callbacks, dict) or not isinstance(states, dict):
        return
    keys = {k: k for actions in states.values() for k in actions}
    rules = {
        id(arg): arg for actions in states.values() for _, arg in actions.values() if isinstance(arg, Rule)
    }
    if not all(type(r) is Rule and r.origin.name in keys for r in rules.values()):
        return
    if _IdentityRule is None:
        _IdentityRule = _identity_rule_class()
    entries = list(callbacks.items())
    for r in rules.values():
        r.__class__ = _IdentityRule
        r.origin.name = keys[r.origin.name]
    callbacks.clear()  # the same dict object is held by the parser: refill it in place
    callbacks.update(entries)


def direct_entry(lark: Any) -> Callable[[str], Any]:
    """``lark.parse`` for this parser, minus the per-call layers that never change.

    ``Lark.parse`` goes through the front end (start-rule check, lexer-thread class look-up,
    input type dispatch) and the LALR wrapper (error-recovery hook) before the parser proper,
    which builds a fresh ``ParseConf`` every call. This calls the same lexer-thread constructor
    and parser entry directly, and in pure lark reuses one ``ParseConf`` (read-only during a
    parse) with a fresh ``ParserState`` per call, so each hand still starts from a clean parser
    state and raises exactly what ``lark.parse`` would (no ``on_error`` is used). Anything not
    of the expected shape falls back to ``lark.parse``.
    """
    from lark.lexer import LexerThread
    from lark.parsers import lalr_parser, lalr_parser_state

    frontend: Any = getattr(lark, "parser", None)
    inner: Any = getattr(getattr(frontend, "parser", None), "parser", None)
    try:
        if frontend.lexer_conf.postlex or frontend.skip_lexer:
            return lark.parse  # type: ignore[no-any-return]
        start = frontend._verify_start(None)
        thread = (lark.options._plugins.get("LexerThread") or LexerThread).from_text
        lexer = frontend.lexer
        inner_parse = inner.parse
    except AttributeError:
        return lark.parse  # type: ignore[no-any-return]
    if type(inner) is lalr_parser._Parser:
        conf = lalr_parser_state.ParseConf(inner.parse_table, inner.callbacks, start)
        state_cls = lalr_parser_state.ParserState
        from_state = inner.parse_from_state

        def parse_pure(text: str) -> Any:
            return from_state(state_cls(conf, thread(lexer, text)))

        return parse_pure

    def parse(text: str) -> Any:
        return inner_parse(thread(lexer, text), start)

    return parse


def line_parser(
    lark: Any, fields: dict[str, str] | None = None, lines: Mapping[str, Callable[[Any], Any]] | None = None
) -> LineParser | None:
    """The compiled driver (:mod:`hhparse.lalr`) over ``lark``'s own tables, or None.

    ``lark`` must be a pure-lark LALR parser with the contextual lexer (lark-cython's lexer
    keeps its scanners out of reach). What is read: the parse table (integer states), each
    rule's length, origin and callback, and each lexer state's terminals in the order its
    scanner tries them, with lark's regex for each — so the driver lexes and reduces as lark
    does. ``fields``: terminal name -> the same regex with its fields as named groups
    (:func:`load_grammar`), used instead of lark's where it is that regex once its groups are
    made non-capturing, so the token's match holds the line's fields. ``lines``: a rule's alias
    -> a callback that takes the line's token alone (:class:`~hhparse.lalr.LineParser`), used
    for a rule of two symbols whose callback is the method of that name (the transformer's
    promise: that method never reads its first child and returns what this one returns). A
    state whose scanner lark had to split, with terminal callbacks, or with a terminal that may
    match or look past the end of its line (:func:`_line_term`), gets no lexer (text reaching
    it goes to lark). Each terminal's shapes (:func:`_line_shapes`) and those its negative
    look-ahead refuses (:func:`_guard_shapes`) are read off its regex for the driver's lexer. None when lark's internals do not have the expected shape or something
    would run differently (post-lexer, terminal callbacks of the parser, non-integer states):
    then lark parses everything, as before.

    When ``lark`` was saved in (or loaded from) hhparse's cache folder (:func:`_cached_lark`),
    what this reads off it is kept there too, beside it (:func:`_driver_file`), and the next
    process loads that instead of reading lark's tables again (:func:`_load_driver`).
    """
    from lark.grammar import Rule
    from lark.parsers.lalr_analysis import Shift

    try:
        frontend = lark.parser
        inner = frontend.parser.parser
        table = inner.parse_table
        callbacks = inner.callbacks
        lexer = frontend.lexer
        conf = frontend.lexer_conf
        start = frontend._verify_start(None)
        start_state, end_state = table.start_states[start], table.end_states[start]
        states: dict[Any, dict[str, tuple[Any, Any]]] = table.states
        lexers: dict[Any, Any] = lexer.lexers
        ignore = frozenset(conf.ignore)
    except (AttributeError, KeyError, TypeError):
        return None
    if conf.postlex or frontend.skip_lexer or any(isinstance(k, str) for k in callbacks):
        return None
    n = len(states)
    if set(states) != set(range(n)) or set(lexers) != set(range(n)):
        return None
    _COMPILED.clear()  # (what an earlier build left: it kept no file)
    path = _driver_file(lark, fields, lines)
    if path is not None:
        loaded = _load_driver(path, callbacks, lines, (n, int(start_state), int(end_state), ignore))
        if loaded is not None:
            return loaded
    rules: list[tuple[int, str, Any]] = []
    alone: list[Callable[[Any], Any] | None] = []
    index: dict[int, int] = {}
    actions: list[dict[str, int]] = []
    rule_keys: list[tuple[str, tuple[str, ...]]] = []  # what the driver's file names each rule by
    aliases: list[str | None] = []
    for state in range(n):
        row: dict[str, int] = {}
        for symbol, (action, arg) in states[state].items():
            if action is Shift:
                row[str(symbol)] = int(arg)
            elif isinstance(arg, Rule):
                if id(arg) not in index:
                    index[id(arg)] = len(rules)
                    callback = callbacks[arg]
                    alias = getattr(arg, "alias", None)
                    line = (lines or {}).get(alias) if isinstance(alias, str) else None
                    if line is not None and (
                        len(arg.expansion) != 2 or getattr(callback, "__name__", None) != alias
                    ):
                        line = None
                    rules.append((len(arg.expansion), str(arg.origin.name), callback))
                    alone.append(line)
                    rule_keys.append(_rule_key(arg))
                    aliases.append(alias if line is not None else None)
                row[str(symbol)] = ~index[id(arg)]
            else:
                return None
        actions.append(row)
    built: dict[str, Term | None] = {}
    shapes: dict[str, tuple[Shape, ...]] = {}
    guards: dict[str, tuple[Shape, ...]] = {}
    terms: list[list[Term] | None] = []
    for state in range(n):
        basic = lexers[state]
        try:
            scanner = basic.scanner
            mres = scanner._mres
            plain = not basic.callback and len(mres) == 1
            flags = int(scanner.g_regex_flags)
            listed = [(str(t.name), str(t.pattern.to_regexp())) for t in scanner.terminals]
        except (AttributeError, TypeError):
            return None
        # the scanner is the alternation of these terminals, in this order (checked, not assumed)
        joined = "|".join(f"(?P<{name}>{regex})" for name, regex in listed)
        state_terms: list[Term] | None = None
        if plain and mres[0].pattern == joined:
            state_terms = []
            for name, regex in listed:
                key = f"{name}\0{regex}\0{flags}"
                if key not in built:
                    built[key] = _line_term(name, regex, (fields or {}).get(name), flags)
                    if built[key] is not None and name not in shapes:
                        shapes[name] = _line_shapes(regex, flags)
                        guards[name] = _guard_shapes(regex, flags)
                term = built[key]
                if term is None:
                    state_terms = None
                    break
                state_terms.append(term)
        terms.append(state_terms)
    args: list[Any] = [actions, rules, terms, ignore, int(start_state), int(end_state), alone, shapes, guards]
    driver = LineParser(*args)
    if path is not None:
        # every cover its lines may ask for chosen now, so that the file keeps them all: a
        # process that loads it chooses none on its first hands (its first task costs no more)
        driver.choose_covers()
        _save_driver(path, (n, int(start_state), int(end_state), ignore), args, rule_keys, aliases)
    _COMPILED.clear()
    return driver


# ------------------------------------------------------------------------------------------
# The driver's tables kept in the cache folder
# ------------------------------------------------------------------------------------------

#: The layout of a driver's file (its name also hashes this module's source and the driver's:
#: a change of how the tables are read off lark, or of what is kept, gets another file).
_DRIVER_FORMAT = 2
_DRIVER_MAGIC = b"hhparse driver tables\n"

#: A compiled regex as ``_sre.compile`` takes it (``re._compiler.compile``'s last step): the
#: pattern (None for one compiled from a parse), flags, code, groups, group index, index group.
Parts = tuple[str | None, int, list[int], int, dict[str, int], tuple[str | None, ...]]

#: Regexes compiled from a parse while the driver is read off lark (:func:`_compile_parsed`), with
#: how ``_sre`` builds them: a regex compiled from its text is kept by its text (:func:`_parts`).
_COMPILED: dict[int, tuple[re.Pattern[str], Parts]] = {}

_SOURCE: bytes | None = None


def _covers() -> dict[Any, tuple[str, ...]] | None:
    """The driver's covers of its terminals' needles, chosen so far (:func:`hhparse.lalr._cover`,
    a pure function of its key and the costliest step of building the driver; every one its
    lines may ask for, :meth:`~hhparse.lalr.LineParser.choose_covers`): kept in the driver's
    file, so a process that loads it finds them chosen. None if :mod:`hhparse.lalr`
    keeps no such memo (its source is in the file's name: a change there gets another file)."""
    import hhparse.lalr as lalr

    known = getattr(lalr, "_COVERS", None)
    return known if isinstance(known, dict) else None


def _rule_key(rule: Any) -> tuple[str, tuple[str, ...]]:
    """A rule as the driver's file names it: its origin and expansion (one rule each in lark)."""
    return str(rule.origin.name), tuple(str(s.name) for s in rule.expansion)


def _driver_file(
    lark: Any, fields: Mapping[str, str] | None, lines: Mapping[str, Callable[[Any], Any]] | None
) -> Path | None:
    """The file of the driver's tables read off ``lark``, or None (``lark`` is not in the cache).

    Its name hashes everything those tables are read from: the saved parser's bytes (so a
    parser built again, whose states lark may number otherwise, gets another file), the
    fields' regexes, the line callbacks' names, this module's source and the driver's
    (:mod:`hhparse.lalr`), the file's layout, Python's version and its regex engine's (the
    compiled regexes are kept as ``_sre`` code)."""
    global _SOURCE
    cached = getattr(lark, _SAVED, None)
    if not isinstance(cached, tuple):
        return None
    folder, digest = cached
    if _SOURCE is None:
        import hhparse.lalr as lalr

        compiled = Path(lalr.__file__ or "")
        try:
            source = compiled.with_name("lalr.py")
            lalr_source = source.read_bytes() if source.exists() else compiled.read_bytes()
            _SOURCE = Path(__file__).read_bytes() + b"\0" + lalr_source
        except OSError:
            return None
    engine = importlib.import_module("_sre")
    key = hashlib.sha256()
    for part in (
        digest,
        str(_DRIVER_FORMAT),
        repr(sorted((fields or {}).items())),
        repr(sorted(lines or ())),
        sys.version,
        repr(getattr(engine, "MAGIC", None)),
        repr(getattr(engine, "CODESIZE", None)),
    ):
        key.update(part.encode())
        key.update(b"\0")
    key.update(_SOURCE)
    return Path(folder) / f"driver-{key.hexdigest()[:32]}.pickle"


def _save_driver(
    path: Path, fits: tuple[int, int, int, frozenset[str]], args: list[Any], *named: Any
) -> None:
    """Keep the driver's arguments ``args`` (:class:`~hhparse.lalr.LineParser`'s) at ``path``:
    the magic line, the SHA-256 of the pickle, the pickle. ``fits``: the parser's states, start,
    end and ignored terminals, checked at load. The rules' callbacks and the line callbacks are
    this process's objects: kept as ``named`` (each rule's :func:`_rule_key`, each line
    callback's alias), looked up again at load. Regexes are kept as ``_sre`` code
    (:class:`_Pickler`); anything that cannot be kept means no file, as without a cache."""
    rule_keys, aliases = named
    kept = list(args)
    kept[1] = [(length, origin, key) for (length, origin, _), key in zip(args[1], rule_keys, strict=True)]
    kept[6] = aliases
    try:
        out = io.BytesIO()
        _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump((fits, kept, _covers()))
    except Exception:
        return
    finally:
        _COMPILED.clear()
    payload = out.getvalue()
    write_checked(path, _DRIVER_MAGIC, payload)


class _Pickler(pickle.Pickler):
    """Pickles a compiled regex (and its bound ``match``/``fullmatch``/... methods) as the
    ``_sre`` code that rebuilds it (:func:`_regex`): unpickling then costs no regex parse or
    compilation. A regex whose code cannot be had (:func:`_parts`) cannot be pickled."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, re.Pattern):
            known = _COMPILED.get(id(obj))
            parts = known[1] if known is not None and known[0] is obj else None
            if parts is None and obj.pattern is not None:
                parts = _parts(obj.pattern, obj.flags, obj)
            if parts is None:
                raise pickle.PicklingError("a regex compiled from a parse that was not kept")
            return _regex, (parts,)
        owner = getattr(obj, "__self__", None)
        if isinstance(owner, re.Pattern) and type(obj) is _BOUND:
            return getattr, (owner, str(getattr(obj, "__name__", "")))
        return NotImplemented


_BOUND = type(re.compile("").match)


def _regex(parts: Parts) -> re.Pattern[str]:
    """A regex from its ``_sre`` code (which ``_sre`` validates: bad code raises)."""
    compiled: re.Pattern[str] = importlib.import_module("_sre").compile(*parts)
    return compiled


def _compile_parsed(parsed: Any, flags: int) -> re.Pattern[str]:
    """``re._compiler.compile`` of a parse, with its ``_sre`` code kept for the driver's file
    (:data:`_COMPILED`, when it rebuilds an equal regex)."""
    sre_compile: Any = importlib.import_module("re._compiler")  # not in typeshed
    compiled: re.Pattern[str] = sre_compile.compile(parsed, flags)
    parts = _parts(parsed, flags, compiled)
    if parts is not None:
        _COMPILED[id(compiled)] = (compiled, parts)
    return compiled


def _load_driver(
    path: Path,
    callbacks: dict[Any, Any],
    lines: Mapping[str, Callable[[Any], Any]] | None,
    fits: tuple[int, int, int, frozenset[str]],
) -> LineParser | None:
    """The driver kept at ``path`` (:func:`_save_driver`), with this parser's callbacks, or None:
    no file, or one that is damaged (its checksum, its layout) or does not fit this parser (its
    states, start and end, ignored terminals, rules): then :func:`line_parser` reads lark's
    tables again and replaces the file. The file is unpickled, so it is trusted like the saved
    parser beside it (:func:`grammar_source`): it lives in the user's own cache folder, written
    by nothing but hhparse, and its checksum catches a damaged one. Its regexes are rebuilt from
    their ``_sre`` code, which ``_sre`` validates."""
    payload = read_checked(path, _DRIVER_MAGIC)
    if payload is None:
        return None
    try:
        kept_fits, args, covers = pickle.loads(payload)
        if kept_fits != fits or len(args[0]) != fits[0] or len(args[2]) != fits[0]:
            return None
        by_key = {_rule_key(rule): rule for rule in callbacks}
        rules: list[tuple[int, str, Any]] = []
        alone: list[Callable[[Any], Any] | None] = []
        for (length, origin, key), alias in zip(args[1], args[6], strict=True):
            rule = by_key[key]  # (a KeyError: not this parser's)
            callback = callbacks[rule]
            if len(rule.expansion) != length or str(rule.origin.name) != origin:
                return None
            line = (lines or {}).get(alias) if isinstance(alias, str) else None
            if alias is not None and (line is None or getattr(callback, "__name__", None) != alias):
                return None
            rules.append((length, origin, callback))
            alone.append(line)
        args[1], args[6] = rules, alone
        known = _covers()
        if known is not None and isinstance(covers, dict):
            known.update(covers)
        return LineParser(*args)
    except Exception:  # damaged or of another layout: read from lark again
        return None


def _parts(pattern: str | Any, flags: int, compiled: Any) -> Parts | None:
    """``compiled`` (from ``pattern``, a regex or its parse, and ``flags``) as ``_sre.compile``
    takes it — what ``re._compiler.compile`` passes it — or None when that does not rebuild an
    equal regex (code, flags, groups: another Python's internals)."""
    try:
        sre_compile: Any = importlib.import_module("re._compiler")
        engine: Any = importlib.import_module("_sre")
        if isinstance(pattern, str):
            text: str | None = pattern
            parsed: Any = importlib.import_module("re._parser").parse(pattern, flags)
        else:
            text, parsed = None, pattern
        code = [int(c) for c in sre_compile._code(parsed, flags)]  # (plain ints: its opcodes are named)
        groupindex = dict(parsed.state.groupdict)
        indexgroup: list[str | None] = [None] * parsed.state.groups
        for k, i in groupindex.items():
            indexgroup[i] = k
        parts: Parts = (
            text,
            flags | parsed.state.flags,
            code,
            parsed.state.groups - 1,
            groupindex,
            tuple(indexgroup),
        )
        again = engine.compile(*parts)
    except Exception:
        return None
    if again != compiled or again.groupindex != compiled.groupindex or again.groups != compiled.groups:
        return None
    return parts


def _line_term(name: str, regex: str, with_fields: str | None, flags: int) -> Term | None:
    """The driver's :data:`~hhparse.lalr.Term` for terminal ``name`` (lark's ``regex``), or None
    when the terminal may match or look past the end of its line (then the driver leaves its
    states to lark). ``with_fields``: the regex with its fields named, used when it is lark's
    regex with named groups."""
    from re import _parser as sre_parse

    if with_fields is not None and _NAMED_GROUP.sub("(?:", with_fields) == regex:
        regex = with_fields
    try:
        parsed = sre_parse.parse(regex, flags)
        compiled = re.compile(regex, flags)
    except re.error:
        return None
    items = list(parsed)
    global_flags = parsed.state.flags
    if global_flags & (re.MULTILINE | re.DOTALL | re.VERBOSE) or not items:
        return None
    if items[-1] != (_sre.LITERAL, 10) or not _within_line(items, True):
        return None
    if global_flags & re.IGNORECASE or _has_flags(items):  # literals would not be literal
        return (name, compiled.match, "", (), None, "", ())
    prefix = _leading(items)[0]
    needles = _needles(items, prefix) or ()
    # ``(?=SHAPE)(?!OTHER | ...)``: a terminal ahead of shapes it used to lose to (the grammar's
    # priorities). On a line that cannot be any of those shapes (none of their texts in it),
    # the regex without that look-ahead matches alike, and skips trying them all.
    lead = 0
    while lead < len(items) and items[lead][0] is _sre.ASSERT and items[lead][1][0] == 1:
        lead += 1
    if lead < len(items) and items[lead][0] is _sre.ASSERT_NOT and items[lead][1][0] == 1:
        body = list(items[lead][1][1])
        guard_prefix, guard_needles = _leading(body)[0], _needles(body)
        if guard_prefix or guard_needles:
            try:
                del parsed.data[lead]
                parsed.width = None
                fast = _compile_parsed(parsed, flags)
            except Exception:  # another Python's internals: no fast path
                return (name, compiled.match, prefix, needles, None, "", ())
            if fast.groupindex == compiled.groupindex:
                return (name, compiled.match, prefix, needles, fast.match, guard_prefix, guard_needles or ())
    return (name, compiled.match, prefix, needles, None, "", ())


#: More shapes than this in one terminal: its shapes are not told apart (:func:`_line_shapes`).
_MAX_SHAPES = 64


def _line_shapes(regex: str, flags: int) -> tuple[Shape, ...]:
    """The shapes of terminal ``regex`` (a :data:`~hhparse.lalr.Shape` each), or none when they
    cannot be read off the regex: its alternatives that decide how its line ends, each with the
    characters its line may end with and the texts it must hold.

    Why: the driver tries a state's terminals on a line in lark's order, each behind its texts
    (:func:`_needles`); a terminal whose lines cannot end with the line's last character need not
    be tried at all, and one of many alternatives (the table events) need only be tested for the
    texts of the alternatives that can end so. Read off the regex: the choice (``a|b``) or group
    that ends it is opened into one sequence per alternative, recursively (a match of the whole
    is a match of one of them), and each sequence says what its last character may be
    (:func:`_last_chars`), what it starts with (:func:`_leading`) and what it holds
    (:func:`_needles`); all safe readings (a character class, an unsure item: any character)."""
    from re import _parser as sre_parse

    try:
        parsed = sre_parse.parse(regex, flags)
    except re.error:
        return ()
    items = list(parsed)
    if parsed.state.flags & re.IGNORECASE or _has_flags(items) or items[-1:] != [(_sre.LITERAL, 10)]:
        return ()
    # ``(?=SHAPE\n)...``: a look-ahead where the line starts that reads up to its "\n" (the only
    # one of a line) says the line is one of SHAPE's (the grammar's ``(?=X)(?!Y)`` terminals)
    while items and items[0][0] is _sre.ASSERT and items[0][1][0] == 1:
        ahead = list(items[0][1][1])
        if ahead[-1:] != [(_sre.LITERAL, 10)] or not _within_line(ahead, True):
            break
        items = ahead
    return _shapes_of(parsed.state, [items], flags)


def _guard_shapes(regex: str, flags: int) -> tuple[Shape, ...]:
    """The shapes (:func:`_line_shapes`) of the lines a terminal's negative look-ahead refuses
    (``(?=SHAPE)(?!OTHER\n | ...)``: the grammar's terminals ahead of shapes they used to lose
    to), or none when they cannot be read off the regex.

    Why: the driver matches a line with the regex without that look-ahead (``fast``) where the
    line cannot be one of those shapes; a line none of whose shapes may end as it ends is not
    tested for their texts at all, and otherwise only for the texts of those that may."""
    from re import _parser as sre_parse

    try:
        parsed = sre_parse.parse(regex, flags)
    except re.error:
        return ()
    items = list(parsed)
    if parsed.state.flags & re.IGNORECASE or _has_flags(items):
        return ()
    lead = 0
    while lead < len(items) and items[lead][0] is _sre.ASSERT and items[lead][1][0] == 1:
        lead += 1
    if lead >= len(items) or items[lead][0] is not _sre.ASSERT_NOT or items[lead][1][0] != 1:
        return ()
    body = list(items[lead][1][1])
    if not _within_line(body, True):
        return ()
    lines = _open_ends(body)  # one sequence per shape, each up to its line's "\n"
    if lines is None or any(line[-1:] != [(_sre.LITERAL, 10)] for line in lines):
        return ()
    return _shapes_of(parsed.state, lines, flags)


def _shapes_of(state: Any, lines: list[list[Any]], flags: int) -> tuple[Shape, ...]:
    """The shapes of ``lines``: sequences that each match a whole line, its "\n" last."""
    from re import _parser as sre_parse

    bodies: list[list[Any]] = []
    for line in lines:
        opened = _open_ends(line[:-1])
        if opened is None or len(bodies) + len(opened) > _MAX_SHAPES:
            return ()
        bodies.extend(opened)
    out: list[Shape] = []
    for body in bodies:
        chars, empty = _last_chars(body)
        ends: Any = None
        if chars == []:  # a "\n" alone
            ends = re.compile("(?!)").fullmatch
        elif chars is not None:
            try:
                alts = [sre_parse.SubPattern(state, [c]) for c in chars]
                # (through _compile_parsed: its _sre code is kept, so the driver's file can hold it)
                ends = _compile_parsed(
                    sre_parse.SubPattern(state, [(_sre.BRANCH, (None, alts))]), flags
                ).fullmatch
            except Exception:  # another Python's internals: any last character
                ends = None
        prefix = _leading(body)[0]
        needles = _needles(body, prefix) or ((prefix,) if prefix else ())
        out.append((prefix, ends, empty or ends is None, needles))
    return tuple(out)


def _open_ends(body: list[Any]) -> list[list[Any]] | None:
    """``body`` as one sequence per alternative of the choice (or group) that ends it, opened
    recursively (zero-width items at the end are kept where they stand); None for more than
    :data:`_MAX_SHAPES`."""
    at = len(body) - 1
    while at >= 0 and body[at][0] in (_sre.ASSERT, _sre.ASSERT_NOT):
        at -= 1
    if at < 0:
        return [body]
    op, av = body[at]
    if op is _sre.SUBPATTERN:
        return _open_ends([*body[:at], *av[3], *body[at + 1 :]])
    if op is not _sre.BRANCH:
        return [body]
    out: list[list[Any]] = []
    for alt in av[1]:
        opened = _open_ends([*body[:at], *alt, *body[at + 1 :]])
        if opened is None or len(out) + len(opened) > _MAX_SHAPES:
            return None
        out.extend(opened)
    return out


def _last_chars(items: list[Any]) -> tuple[list[Any] | None, bool]:
    """(the one-character items the last character ``items`` match may come from, None when
    unsure: any; whether ``items`` may match nothing)."""
    chars: list[Any] = []
    for op, av in reversed(items):
        if op is _sre.ASSERT or op is _sre.ASSERT_NOT:
            continue
        if op in _ONE_CHAR:
            chars.append((op, av))
            return chars, False
        if op is _sre.SUBPATTERN or op is _sre.ATOMIC_GROUP:
            inner, empty = _last_chars(list(av[3] if op is _sre.SUBPATTERN else av))
        elif op is _sre.BRANCH:
            each = [_last_chars(list(alt)) for alt in av[1]]
            if any(c is None for c, _ in each):
                return None, False
            inner = [c for cs, _ in each for c in cs or ()]
            empty = any(e for _, e in each)
        elif op in _REPEATS:
            low, high, sub = av
            if high == 0:
                continue
            inner, empty = _last_chars(list(sub))
            empty = empty or low == 0
        else:
            return None, False
        if inner is None:
            return None, False
        chars.extend(inner)
        if not empty:
            return chars, False
    return chars, True


# What a terminal's regex may match, read off its parse (``re._parser``): whether it stays within
# one line, and the literal text every match must hold.
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT, _sre.POSSESSIVE_REPEAT)
_ONE_CHAR = (_sre.LITERAL, _sre.NOT_LITERAL, _sre.ANY, _sre.IN, _sre.CATEGORY)
#: Character classes without "\n".
_NO_NEWLINE = (_sre.CATEGORY_DIGIT, _sre.CATEGORY_WORD, _sre.CATEGORY_NOT_SPACE, _sre.CATEGORY_NOT_LINEBREAK)


def _newline_in(op: Any, av: Any) -> bool:
    """Whether a one-character item may match "\n" (when unsure: yes)."""
    if op is _sre.LITERAL:
        return bool(av == 10)
    if op is _sre.NOT_LITERAL:
        return bool(av != 10)
    if op is _sre.CATEGORY:
        return av not in _NO_NEWLINE
    if op is _sre.IN:
        negate = hit = False
        for o, a in av:
            if o is _sre.NEGATE:
                negate = True
            elif o is _sre.LITERAL:
                hit = hit or a == 10
            elif o is _sre.RANGE:
                hit = hit or a[0] <= 10 <= a[1]
            elif o is _sre.CATEGORY:
                hit = hit or a not in _NO_NEWLINE
            else:
                return True
        return hit != negate
    return True  # ANY: only without DOTALL (refused above) is it "\n"-free; be safe


def _within_line(items: list[Any], tail: bool) -> bool:
    """Whether ``items`` match and look at nothing past a line's "\n": a "\n" may only be the
    last thing matched (``tail``: this sequence ends the terminal, or a look-ahead); no anchor
    (``^``, ``$``, ``\b``: they read a line alone differently than inside its text)."""
    last = len(items) - 1
    for i, (op, av) in enumerate(items):
        end = tail and i == last
        if op in _ONE_CHAR:
            if _newline_in(op, av) and not (end and (op, av) == (_sre.LITERAL, 10)):
                return False
        elif op is _sre.SUBPATTERN:
            if not _within_line(list(av[3]), end):
                return False
        elif op is _sre.ATOMIC_GROUP:
            if not _within_line(list(av), end):
                return False
        elif op is _sre.BRANCH:
            if not all(_within_line(list(alt), end) for alt in av[1]):
                return False
        elif op in _REPEATS:
            if not _within_line(list(av[2]), False):
                return False
        elif op is _sre.ASSERT or op is _sre.ASSERT_NOT:
            if not _within_line(list(av[1]), av[0] == 1):  # a look-behind never reads "\n"
                return False
        else:  # anchors, back-references, conditionals
            return False
    return True


def _has_flags(items: list[Any]) -> bool:
    for op, av in items:
        if op is _sre.SUBPATTERN and (av[1] or av[2] or _has_flags(list(av[3]))):
            return True
        if op is _sre.ATOMIC_GROUP and _has_flags(list(av)):
            return True
        if op is _sre.BRANCH and any(_has_flags(list(alt)) for alt in av[1]):
            return True
        if op in _REPEATS and _has_flags(list(av[2])):
            return True
        if (op is _sre.ASSERT or op is _sre.ASSERT_NOT) and _has_flags(list(av[1])):
            return True
    return False


def _leading(items: list[Any]) -> tuple[str, bool]:
    """(the literal text every match starts with, whether that is all ``items`` match)."""
    out = ""
    for op, av in items:
        if op is _sre.LITERAL:
            out += chr(av)
        elif op is _sre.SUBPATTERN:
            inner, whole = _leading(list(av[3]))
            out += inner
            if not whole:
                return out, False
        elif op is _sre.ASSERT and av[0] == 1 and not out:  # a look-ahead where the match starts
            return _leading(list(av[1]))[0], False
        elif op is _sre.ASSERT_NOT or op is _sre.ASSERT:  # matches nothing: what follows leads
            continue
        else:
            return out, False
    return out, True


def _needles(items: list[Any], prefix: str = "") -> tuple[str, ...] | None:
    """Texts of which every match of ``items`` holds at least one (within its line), or None.

    A literal run is one such text on its own; a choice (``a|b``) gives one text of each branch.
    Of the candidates the most telling is kept: the one whose shortest text is longest, then the
    one with fewer texts (what the start of the line, ``prefix``, says already is no candidate)."""
    found: list[tuple[str, ...]] = []
    run = ""
    for op, av in [*items, (None, None)]:
        if op is _sre.LITERAL:
            run += chr(av)
            continue
        if run:
            found.append((run,))
            run = ""
        sub: tuple[str, ...] | None = None
        if op is _sre.SUBPATTERN:
            sub = _needles(list(av[3]), prefix)
        elif op is _sre.ATOMIC_GROUP:
            sub = _needles(list(av), prefix)
        elif op is _sre.ASSERT and av[0] == 1:
            sub = _needles(list(av[1]), prefix)
        elif op in _REPEATS and av[0] >= 1:
            sub = _needles(list(av[2]), prefix)
        elif op is _sre.BRANCH:
            each = [_needles(list(alt), prefix) for alt in av[1]]
            if all(each):
                sub = tuple(sorted({text for alt in each for text in alt or ()}))
        if sub:
            found.append(sub)
    found = [f for f in found if not (len(f) == 1 and f[0] in prefix)]
    if not found:
        return None
    best = max(found, key=lambda f: (min(map(len, f)), -len(f)))
    # a text holding another of the set adds nothing: either is there when it is
    best = tuple(t for t in best if not any(o != t and o in t for o in best))
    # a text every one of them holds is held by every match, and tested once
    common = _common_text(best)
    if len(best) > 1 and len(common) >= _COMMON_MIN:
        best = (common,)
    return best if min(map(len, best)) > 1 else None


#: A text all of a choice's texts hold is tested instead of them from this length on.
_COMMON_MIN = 4


def _common_text(texts: tuple[str, ...]) -> str:
    """The longest text that every one of ``texts`` holds (the first such of the shortest)."""
    if not texts:
        return ""
    short = min(texts, key=len)
    for size in range(len(short), 0, -1):
        for at in range(len(short) - size + 1):
            piece = short[at : at + size]
            if all(piece in t for t in texts):
                return piece
    return ""
