"""Names are text, never markup: how text from hand histories (player names, chat, table names,
file paths) is written to terminals, spreadsheets and JSON lines.

Why one module: a screen name is chosen by a stranger. Printed raw, ``\\x1b]52;...`` rewrites a
user's clipboard and ``\\u202e`` reverses what a terminal shows; opened in a spreadsheet,
``=HYPERLINK(...)`` is a formula; in a JSON line, a raw U+2028 ends the line for JavaScript-based
readers. Each output applies the one function that fits it, and the data itself is never changed.
"""

from __future__ import annotations

import json
import unicodedata
from typing import Any, Final

#: Characters a terminal may act on: C0 and C1 controls, bidirectional overrides and isolates,
#: line and paragraph separators (the categories Cc, and these format characters).
_INVISIBLE: Final = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029\ufeff"
)


def _escape(ch: str) -> str:
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def visible(text: str, *, keep_newlines: bool = False, keep_tabs: bool = False) -> str:
    """``text`` with every control, bidi and line-separator character written as a visible
    escape (``\\x1b``, ``\\u202e``); backslashes are left alone (they print as themselves).

    ``keep_newlines`` / ``keep_tabs`` keep ``\\n`` / ``\\t`` for multi-line or tabular output.
    Fast path: text with no such character is returned as it is.
    """
    if text.isprintable() and _INVISIBLE.isdisjoint(text):
        return text
    out = []
    for ch in text:
        if (ch == "\n" and keep_newlines) or (ch == "\t" and keep_tabs) or ch == " ":
            out.append(ch)
        elif ch in _INVISIBLE or unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            out.append(_escape(ch))
        else:
            out.append(ch)
    return "".join(out)


def json_line(obj: Any, **kwargs: Any) -> str:
    """``json.dumps`` for JSON Lines: UTF-8 kept readable, but U+2028 and U+2029 escaped (valid
    JSON either way; unescaped, JavaScript and some line readers split the line there)."""
    text = json.dumps(obj, ensure_ascii=False, **kwargs)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


#: First characters that make a spreadsheet read a cell as a formula (OWASP "CSV Injection").
FORMULA_STARTS: Final = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A text cell made inert for spreadsheets: a ``'`` before a leading ``= + - @``, tab or
    carriage return (OWASP's recommendation; Excel and LibreOffice then show the text as typed).
    Anything that is not text (numbers, decimals, dates) is returned unchanged."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
