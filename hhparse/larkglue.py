"""The lark side of the parser: building the LALR parser and trimming lark's per-line overhead.

Why a module of its own: everything that reaches into lark's internals — the leaner pure-lark
lexer, the identity-hashed rules, the direct parse entry — lives here, so a change of lark's
internals shows up in one place, and :mod:`hhparse.parsing` (the grammar's builder, compiled by
mypyc at install: ``hatch_build.py``) stays free of what mypyc cannot compile (classes defined
inside functions, subclasses of lark's classes). This module always runs as plain Python.
Nothing here knows the grammar or the model.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hhparse.lalr import LineParser

__all__ = ["CACHE_ENV", "PROPAGATE_POSITIONS", "cache_dir", "direct_entry", "line_parser", "make_parser"]

#: Where the built parser is cached (see :func:`cache_dir`); set to an empty value: no cache.
CACHE_ENV = "HHPARSE_CACHE_DIR"

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


def cache_dir() -> Path | None:
    """The folder of hhparse's own caches: ``$HHPARSE_CACHE_DIR`` (empty: none), else the
    platform's per-user cache folder (``%LOCALAPPDATA%\\hhparse\\Cache``,
    ``~/Library/Caches/hhparse``, ``$XDG_CACHE_HOME/hhparse`` or ``~/.cache/hhparse``)."""
    configured = os.environ.get(CACHE_ENV)
    if configured is not None:
        return Path(configured).expanduser() if configured.strip() else None
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "hhparse" / "Cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "hhparse"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "hhparse"


def _cache_file(folder: Path, grammar: str, options: dict[str, Any]) -> Path:
    """The cache file of this grammar, these options, this lark and this Python: another grammar
    (or lark) gets another file, so a file once written never changes."""
    import lark

    key = "\0".join((grammar, repr(sorted(options.items())), lark.__version__, sys.version))
    return folder / f"parser-{hashlib.sha256(key.encode()).hexdigest()[:32]}.lark"


#: The options lark attaches when it loads a saved parser (the builder and the plugins are this
#: process's objects): left out of the file and of its key, given again at load.
_AT_LOAD = frozenset({"transformer", "_plugins", "propagate_positions"})


def _cached_lark(grammar: str, options: dict[str, Any], folder: Path) -> Any:
    """``Lark(grammar, **options)``, saved in ``folder`` by the first process and loaded by the next.

    Why: building the LALR tables from the grammar (grammar analysis, table construction) is a
    large part of a one-file ``hhparse check``'s start-up (``docs/performance.md``, Start-up);
    loading them is a small one. lark can save a built LALR parser
    (``Lark.save``: its tables, terminals and rules, pickled) and load it back, which is what its
    own ``cache=`` option does; this does the same with two differences. The file's name is the
    hash of everything it was built from (grammar, options, lark's version, Python's): another
    grammar or lark gets another file, so no file ever changes once written. It is written under
    a temporary name and renamed, so processes starting together (a bulk import's workers) never
    read a half-written file. A file that cannot be read or loaded (damaged, truncated) is
    rebuilt from the grammar and replaced; a folder that cannot be written (read-only home, full
    disk) only means no cache. Files of an older grammar or lark stay (a few tens of kilobytes
    each: another installation may still use them) until the folder is emptied. The file is
    unpickled, so it is trusted like the bytecode in ``__pycache__``: it lives in the user's own
    cache folder, written by nothing but hhparse.
    """
    from lark import Lark

    at_load = {k: v for k, v in options.items() if k in _AT_LOAD}
    path = _cache_file(folder, grammar, {k: v for k, v in options.items() if k not in _AT_LOAD})
    try:
        with open(path, "rb") as f:
            return Lark.__new__(Lark)._load(f, **at_load)
    except FileNotFoundError:
        pass
    except Exception:  # damaged or truncated: whatever unpickling raised, build it anew below
        pass
    lark = Lark(grammar, **options)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as f:
            lark.save(f, exclude_options=_AT_LOAD)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
    return lark


def make_parser(
    grammar: str, builder: object, *, cython: bool | None = None, cache: Path | None = None
) -> Any:
    """Build the LALR parser with ``builder`` as inline transformer.

    ``cython=None`` uses lark-cython when it is importable, False forces pure lark (with the
    leaner contextual lexer above). ``cache``: a folder where the built parser is kept across
    processes (:func:`_cached_lark`); None builds it from the grammar.
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
    lark = _cached_lark(grammar, options, cache) if cache is not None else Lark(grammar, **options)
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


def line_parser(lark: Any, line_memo: int = 0) -> LineParser | None:
    """The compiled driver (:mod:`hhparse.lalr`) over ``lark``'s own tables, or None.

    ``lark`` must be a pure-lark LALR parser with the contextual lexer (lark-cython's lexer
    keeps its scanners out of reach). What is read: the parse table (integer states), each
    rule's length, origin and callback, and each lexer state's compiled terminal regex — the
    very objects lark uses, so the driver lexes and reduces as lark does. A state whose
    scanner lark had to split into several regexes, or with terminal callbacks, gets no
    scanner (text reaching it goes to lark). None when lark's internals do not have the
    expected shape or something would run differently (post-lexer, terminal callbacks of the
    parser, non-integer states): then lark parses everything, as before. ``line_memo``: see
    :class:`~hhparse.lalr.LineParser` (only for grammars whose terminals stay within a line).
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
    rules: list[tuple[int, str, Any]] = []
    index: dict[int, int] = {}
    actions: list[dict[str, int]] = []
    for state in range(n):
        row: dict[str, int] = {}
        for symbol, (action, arg) in states[state].items():
            if action is Shift:
                row[str(symbol)] = int(arg)
            elif isinstance(arg, Rule):
                if id(arg) not in index:
                    index[id(arg)] = len(rules)
                    rules.append((len(arg.expansion), str(arg.origin.name), callbacks[arg]))
                row[str(symbol)] = ~index[id(arg)]
            else:
                return None
        actions.append(row)
    scanners: list[Any] = []
    for state in range(n):
        basic = lexers[state]
        try:
            mres = basic.scanner._mres
            plain = not basic.callback and len(mres) == 1
        except AttributeError:
            return None
        scanners.append(mres[0].match if plain else None)
    return LineParser(actions, rules, scanners, ignore, int(start_state), int(end_state), line_memo)
