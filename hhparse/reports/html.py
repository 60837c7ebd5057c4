"""Self-contained HTML pages: reports, the hand list and the hand replayer.

Every page is one file with its CSS, JavaScript and data inline (no network: players open them
offline and mail them). Pages are Jinja2 templates (``templates/``) with autoescaping on, so a
player name is always text, never markup; data for the scripts is embedded as JSON by Jinja's
``tojson``, which escapes ``<``, ``>``, ``&`` and quotes, so no name can close a ``<script>``.
The scripts (``static/*.js``) draw what the data says and never compute a poker fact.

Size is a feature: a report page keeps at most :data:`MAX_ROWS` rows (in the report's order; the
CSV and JSON formats have all of them), the graph is drawn in the browser from about 1,000
points a line instead of a PNG, and a replay carries its hand as compact JSON.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import quote

import duckdb
import pandas as pd
from jinja2 import Environment, PackageLoader, StrictUndefined
from markupsafe import Markup

from hhparse import __version__
from hhparse.reports.columns import label
from hhparse.reports.filters import resolve
from hhparse.resources import read_text

__all__ = [
    "GENERATOR",
    "MAX_ROWS",
    "graph_lines",
    "graph_payload",
    "hands_page",
    "replay_page",
    "report_page",
    "shared_hours",
    "table_model",
    "write_hands_folder",
]

MAX_ROWS = 1000
"""Rows a report page shows at most (≈300 bytes a summary row keeps a full page near 300 KB)."""

GENERATOR = f"hhparse {__version__}"
"""The ``<meta name="generator">`` of every page: how :func:`write_hands_folder` recognises files
it may overwrite."""

_LINE_COLORS = (
    "#9467bd",
    "#ff7f0e",
    "#17becf",
    "#8c564b",
    "#e377c2",
    "#bcbd22",
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#7f7f7f",
)  # tournaments: the first ones unlike the cash lines
_CASH_LINES = (
    ("cum_net", "cum_net_bb", "net won", "#2ca02c"),
    ("cum_showdown", "cum_showdown_bb", "showdown", "#1f77b4"),
    ("cum_nonshowdown", "cum_nonshowdown_bb", "non-showdown", "#d62728"),
)
_BB_COLUMNS = ("cum_net_bb", "cum_showdown_bb", "cum_nonshowdown_bb")
_CLOSERS = re.compile(r"</(script|style)|<script|<!--", re.IGNORECASE)


@cache
def _env() -> Environment:
    env = Environment(
        loader=PackageLoader("hhparse.reports", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.policies["json.dumps_kwargs"] = {"sort_keys": False, "separators": (",", ":"), "ensure_ascii": False}
    return env


@cache
def static(name: str) -> Markup:
    """A file of ``static/`` as trusted markup for a ``<style>`` or ``<script>`` element.

    Raises:
        ValueError: the file contains ``</script``, ``</style``, ``<script`` or ``<!--`` (which end
            or change the parsing of the element it is inlined in).
    """
    text = resources.files("hhparse.reports").joinpath("static", name).read_text(encoding="utf-8")
    if _CLOSERS.search(text):
        raise ValueError(f"static/{name} contains a closing </script> or </style>")
    return Markup(text)


def _render(template: str, *, title: str, css: Sequence[str], js: Sequence[str], **context: Any) -> str:
    page = _env().get_template(template)
    return page.render(
        title=title,
        generator=GENERATOR,
        css=Markup("\n").join(static(c) for c in css),
        scripts=[static(j) for j in js],
        **context,
    )


# --------------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------------


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA or value is pd.NaT:
        return True
    return isinstance(value, float) and math.isnan(value)


def _numeric(series: pd.Series) -> bool:
    if pd.api.types.is_bool_dtype(series):
        return False
    if pd.api.types.is_numeric_dtype(series):
        return True
    values = [v for v in series if not _is_missing(v)]
    return bool(values) and all(
        isinstance(v, Decimal | int | float) and not isinstance(v, bool) for v in values
    )


def cell_text(value: Any) -> str:
    """A value as a table cell shows it: exact decimals, 2-decimal floats, UTC times to the
    minute, lists (cards) space-separated, True as ✓."""
    if _is_missing(value):
        return ""
    if isinstance(value, bool):
        return "✓" if value else ""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float):
        return f"{value:.2f}"
    if isinstance(value, pd.Timestamp | datetime):
        return value.strftime("%Y-%m-%d %H:%M")
    if isinstance(value, date):
        return value.isoformat()
    if hasattr(value, "tolist") and not isinstance(value, str):
        value = value.tolist()
    if isinstance(value, list | tuple):
        return " ".join(str(v) for v in value)
    return str(value)


def table_model(
    df: pd.DataFrame,
    *,
    max_rows: int = MAX_ROWS,
    links: Mapping[str, Mapping[str, str]] | None = None,
    hide: Iterable[str] = (),
) -> dict[str, Any]:
    """What ``_table.html.j2`` draws: labelled columns (numeric ones right-aligned and sorted as
    numbers) and at most ``max_rows`` rows of cell texts. ``links`` maps a column to
    {cell text: href}; ``hide`` drops columns from the page."""
    hidden = set(hide)
    names = [str(c) for c in df.columns if str(c) not in hidden]
    head = df.head(max_rows)
    columns = []
    numeric = []
    for name in names:
        lab = label(name)
        is_num = _numeric(df[name])
        numeric.append(is_num)
        columns.append({"name": name, "label": lab.text, "doc": lab.doc, "numeric": is_num})
    rows: list[list[Any]] = []
    for record in head[names].itertuples(index=False, name=None):
        row: list[Any] = []
        for name, value, is_num in zip(names, record, numeric, strict=True):
            text = cell_text(value)
            href = links.get(name, {}).get(text) if links else None
            if href is not None:
                row.append({"text": text, "href": href})
            elif is_num and text.startswith("-"):
                row.append({"text": text, "cls": "neg"})
            else:
                row.append(text)
        rows.append(row)
    right = [i + 1 for i, n in enumerate(numeric) if n]
    return {"columns": columns, "rows": rows, "total": len(df), "right": right}


def _filters_text(filters: Sequence[tuple[str, object]]) -> str:
    return ", ".join(f"{k}={v}" for k, v in filters if v not in (None, ""))


# --------------------------------------------------------------------------------------------
# The graph
# --------------------------------------------------------------------------------------------


def graph_lines(
    con: duckdb.DuckDBPyConnection,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
) -> pd.DataFrame:
    """The net-won graph's points: one line per cash unit and per tournament (``pages/graph_lines.sql``).

    The filters are taken as the user typed them and resolved as every report resolves them (a
    name in another case, a month or a year, stakes in any written form), so the page's graph
    shows the hands its table counts."""
    scope = resolve(con, player=player, since=since, until=until, game=game, stakes=stakes)
    df: pd.DataFrame = con.sql(read_text("analytics", "pages", "graph_lines.sql"), params=scope.params()).df()
    return df


@contextmanager
def shared_hours(
    con: duckdb.DuckDBPyConnection,
    name: str,
    *,
    player: str | None = None,
    since: date | str | None = None,
    until: date | str | None = None,
    game: str | None = None,
    stakes: str | None = None,
) -> Iterator[None]:
    """Within the block, report ``name`` and :func:`graph_lines`, run on ``con`` under these
    filters, read the player's hours and the hands of the hours they order hand by hand from two
    temporary tables made here (:func:`hhparse.reports.hours.graph_hours`): a page that shows the
    ``graph`` report with its net-won lines reads the player's hands twice (once to add them up
    per hour, once for the hands of the hours either graph needs) instead of twice for each.
    Nothing is made for a report that does not read the hours.

    Only for the report and the lines of one page: inside the block, ``player_hours`` and
    ``player_hour_hands`` return these filters' rows whatever they are asked (the hands only
    those of the hours the two graphs read: the report's own SQL and the lines' say which);
    after it, the macros are the warehouse's again."""
    from hhparse.reports.hours import graph_hours
    from hhparse.reports.query import report_sql

    sql = report_sql(name)
    if "player_hours(" not in sql:
        yield
        return
    params = resolve(con, player=player, since=since, until=until, game=game, stakes=stakes).params()
    lines = read_text("analytics", "pages", "graph_lines.sql")
    with graph_hours(con, ((sql, "needed_hours"), (lines, "point_hours")), params):
        yield


def _num(values: Iterable[Any]) -> list[float | int]:
    out: list[float | int] = []
    for v in values:
        f = float(v) if not _is_missing(v) else 0.0
        out.append(int(f) if f.is_integer() else round(f, 2))
    return out


def graph_payload(
    lines: pd.DataFrame | None, *, x_axis: str = "hands", y_axis: str = "money"
) -> dict[str, Any] | None:
    """The graph's JSON for ``graph.js``: one panel per unit, its lines and their points."""
    if lines is None or lines.empty:
        return None
    if "line" not in lines.columns:  # the `graph` report's points: one line per unit, no big blinds
        lines = lines.assign(
            line=lines["unit"],
            tournament_id=None,
            t=[int(pd.Timestamp(x).timestamp()) for x in lines["start_utc"]],
        )
    if x_axis not in ("hands", "date") or y_axis not in ("money", "bb"):
        raise ValueError("the graph's x axis is hands or date, its y axis money or bb")
    panels = []
    for unit, part in lines.groupby("unit", sort=False):
        series = []
        tournaments = part["tournament_id"].notna().any()
        for i, (line, pts) in enumerate(part.groupby("line", sort=False)):
            n, t = _num(pts["hand_no"]), _num(pts["t"])
            bb = {c: _num(pts[c]) if c in pts.columns else None for c in _BB_COLUMNS}
            if tournaments:
                tid = str(line)[1:]
                series.append(
                    {
                        "label": f"Tournament #{tid}",
                        "color": _LINE_COLORS[i % len(_LINE_COLORS)],
                        "n": n,
                        "t": t,
                        "v": _num(pts["cum_net"]),
                        "b": bb["cum_net_bb"],
                    }
                )
            else:
                for money, in_bb, name, color in _CASH_LINES:
                    series.append(
                        {"label": name, "color": color, "n": n, "t": t, "v": _num(pts[money]), "b": bb[in_bb]}
                    )
        title = f"Tournaments ({unit})" if tournaments else f"Cash ({unit})"
        panels.append({"unit": str(unit), "title": title, "lines": series})
    has_bb = "cum_net_bb" in lines.columns
    return {"x": x_axis, "y": y_axis if has_bb else "money", "bb": has_bb, "panels": panels}


# --------------------------------------------------------------------------------------------
# Pages
# --------------------------------------------------------------------------------------------


def report_page(
    df: pd.DataFrame,
    *,
    name: str,
    title: str,
    filters: Sequence[tuple[str, object]] = (),
    lines: pd.DataFrame | None = None,
    x_axis: str = "hands",
    y_axis: str = "money",
    doc: str = "",
) -> str:
    """A report as a page: its table (sortable, definitions on hover) and, given ``lines``
    (:func:`graph_lines`), the net-won graph."""
    payload = graph_payload(lines, x_axis=x_axis, y_axis=y_axis)
    js = ["table.js", *(["graph.js"] if payload else [])]
    return _render(
        "report.html.j2",
        title=title,
        css=["base.css"],
        js=js,
        body_class="",
        name=re.sub(r"[^a-z0-9-]", "", name.lower()) or "report",
        heading=name,
        filters=_filters_text(filters),
        doc=doc,
        graph_data=payload,
        table=table_model(df),
    )


def replay_page(
    docs: Sequence[Mapping[str, Any]], *, title: str, deck: int = 2, all_cards: bool = False
) -> str:
    """One hand's replayer (or several, chosen with ``#hand=ID``) as a page."""
    payload = {"docs": list(docs), "deck": deck, "all": all_cards}
    return _render(
        "replay.html.j2",
        title=title,
        css=["base.css", "replay.css"],
        js=["replay.js"],
        body_class="deck4" if deck == 4 else "",
        payload=payload,
    )


def _hand_links(df: pd.DataFrame, href: str) -> dict[str, dict[str, str]]:
    if df.empty or "hand_id" not in df.columns:
        return {}
    fragment = href.startswith("#")
    return {
        "hand_id": {
            str(h): href.format(id=quote(str(h)) if fragment else _safe_name(str(h))) for h in df["hand_id"]
        }
    }


def hands_page(
    df: pd.DataFrame,
    docs: Sequence[Mapping[str, Any]] | None,
    *,
    title: str,
    filters: Sequence[tuple[str, object]] = (),
    href: str = "#hand={id}&step=0",
    deck: int = 2,
    all_cards: bool = False,
    max_rows: int = MAX_ROWS,
) -> str:
    """The hand list; each hand number links to its replay: embedded in the page (``docs``
    given, ``href`` a ``#hand=`` fragment) or a file beside it (``href`` like ``{id}.html``)."""
    payload = {"docs": list(docs), "deck": deck, "all": all_cards, "list": True} if docs is not None else None
    js = ["table.js", *(["replay.js"] if payload else [])]
    return _render(
        "hands.html.j2",
        title=title,
        css=["base.css", *(["replay.css"] if payload else [])],
        js=js,
        body_class="deck4" if deck == 4 and payload else "",
        filters=_filters_text(filters),
        table=table_model(df, links=_hand_links(df, href), hide=("site",), max_rows=max_rows),
        payload=payload,
    )


def _ours(path: Path) -> bool:
    """Whether ``path`` is a page hhparse wrote (and so may be replaced)."""
    try:
        with path.open(encoding="utf-8", errors="replace") as f:
            head = f.read(600)
    except OSError:
        return False
    return '<meta name="generator" content="hhparse ' in head


def write_hands_folder(
    folder: Path,
    df: pd.DataFrame,
    docs: Sequence[Mapping[str, Any]],
    *,
    title: str,
    filters: Sequence[tuple[str, object]] = (),
    deck: int = 2,
    all_cards: bool = False,
) -> list[Path]:
    """The hand list as ``folder/index.html`` and one replay page per hand (``<hand id>.html``).

    A file already there is replaced only when hhparse wrote it: a user's own files are never
    overwritten.

    Raises:
        FileExistsError: a file to write exists and is not an hhparse page (nothing is written).
    """
    pages: dict[Path, str] = {}
    for d in docs:
        hid = str(d["hand"]["id"])
        pages[folder / f"{_safe_name(hid)}.html"] = replay_page(
            [d], title=f"Hand #{hid}", deck=deck, all_cards=all_cards
        )
    pages[folder / "index.html"] = hands_page(
        df, None, title=title, filters=filters, href="{id}.html", max_rows=len(docs) or MAX_ROWS
    )
    foreign = [p for p in pages if p.exists() and not _ours(p)]
    if foreign:
        raise FileExistsError(f"{foreign[0]} exists and was not written by hhparse; choose another folder")
    folder.mkdir(parents=True, exist_ok=True)
    for path, text in pages.items():
        path.write_text(text, encoding="utf-8")
    return list(pages)


def _safe_name(hand_id: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "_", hand_id)
