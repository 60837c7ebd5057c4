"""Report DataFrames → text, CSV, JSON, Parquet, PNG/SVG graphs and a standalone HTML page.

Kept apart from the SQL runner because formatting is the only part that changes with the
output a user asks for; the figures themselves always come from :func:`hhparse.reports.report`.
Money arrives as :class:`decimal.Decimal` (exact); text formats print the decimal, JSON prints
the shortest float text, which for cents and chips is the same number.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

TEXT_FORMATS = ("table", "csv", "json", "html")
"""Formats every report and query can be written in (as text)."""

IMAGE_FORMATS = ("png", "svg")
"""Formats only the ``graph`` report can be written in (to a file)."""

GRAPH_SIZE = (1000, 500)
"""Pixel size of the PNG graph (10 x 5 inches at 100 dpi)."""

_LINES = (
    ("cum_net", "net won", "#2ca02c"),
    ("cum_showdown", "showdown", "#1f77b4"),
    ("cum_nonshowdown", "non-showdown", "#d62728"),
    ("cum_allin_ev", "all-in EV", "#ff7f0e"),
)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Decimal):
        # Shortest round-trip float text: exact for every amount below 2**53 minor units.
        return float(value)
    if isinstance(value, datetime | date | pd.Timestamp):
        return value.isoformat()
    if isinstance(value, float) and value != value:  # NaN
        return None
    if value is pd.NA or value is pd.NaT:
        return None
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return value.tolist()
    return value


def to_records(df: pd.DataFrame) -> list[dict[str, Any]]:
    """Rows as plain dicts of JSON-ready values (decimals stay exact, times as ISO text)."""
    return [{str(k): _jsonable(v) for k, v in row.items()} for row in df.to_dict(orient="records")]


def to_json(df: pd.DataFrame) -> str:
    """A JSON array of row objects."""
    return json.dumps(to_records(df), indent=1, ensure_ascii=False, default=str) + "\n"


def to_table(df: pd.DataFrame, *, name: str = "") -> str:
    """Aligned plain text; the ``hand`` report is printed as its replay lines only."""
    if name == "hand" and "text" in df.columns:
        return "\n".join(str(t) for t in df["text"]) + "\n"
    if df.empty:
        return "(no rows)\n"
    return str(df.to_string(index=False, na_rep="")) + "\n"


def to_csv(df: pd.DataFrame) -> str:
    """CSV with a header row."""
    return str(df.to_csv(index=False))


def to_parquet(df: pd.DataFrame) -> bytes:
    """A Parquet file's bytes (decimals kept as decimal128)."""
    buf = io.BytesIO()
    pq.write_table(pa.Table.from_pandas(df, preserve_index=False), buf)
    return buf.getvalue()


def graph_image(points: pd.DataFrame, fmt: str, *, title: str = "") -> bytes:
    """The cumulative net-won graph as PNG or SVG bytes: one panel per unit, four lines each (net,
    showdown, non-showdown, all-in EV; a line whose column the points lack is left out).

    ``points`` is the ``graph`` report. Uses matplotlib's object API (no pyplot global state, no
    display needed), so it is safe in worker threads and servers.
    """
    from matplotlib.figure import Figure

    if fmt not in IMAGE_FORMATS:
        raise ValueError(f"graph format must be png or svg, not {fmt!r}")
    units = list(dict.fromkeys(points["unit"])) if not points.empty else []
    width, height = GRAPH_SIZE
    fig = Figure(figsize=(width / 100, height / 100), dpi=100)
    axes = fig.subplots(max(len(units), 1), 1, squeeze=False)[:, 0]
    if not units:
        axes[0].text(0.5, 0.5, "no hands", ha="center", va="center")
    for ax, unit in zip(axes, units, strict=False):
        part = points[points["unit"] == unit]
        for column, label, color in _LINES:
            if column not in part:
                continue
            ax.plot(
                part["hand_no"], [float(v) for v in part[column]], label=label, color=color, linewidth=1.2
            )
        ax.axhline(0, color="#888888", linewidth=0.6)
        ax.set_ylabel(f"won ({unit})")
        ax.legend(loc="upper left", fontsize="small")
        ax.grid(True, alpha=0.3)
    axes[-1].set_xlabel("hands")
    if title:
        fig.suptitle(title)
    buf = io.BytesIO()
    if fmt == "png":
        fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    else:
        import matplotlib

        with matplotlib.rc_context({"svg.hashsalt": "hhparse", "svg.fonttype": "none"}):
            fig.savefig(buf, format="svg", metadata={"Date": None, "Creator": None})
    return buf.getvalue()


_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.1em; margin-top: 2em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: right; }
th { background: #f0f0f0; } td:first-child, th:first-child { text-align: left; }
pre { font-size: 0.85em; } .filters { color: #666; } img { max-width: 100%; }
"""


def to_html(
    df: pd.DataFrame,
    *,
    name: str,
    title: str,
    filters: Sequence[tuple[str, object]] = (),
    graph: pd.DataFrame | None = None,
) -> str:
    """A standalone HTML page: the report's table (or replay text) and, when given, the graph.

    The graph is embedded as a base64 PNG so the page is one file a user can mail or open offline.
    """
    shown = [f"{k}={v}" for k, v in filters if v not in (None, "")]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f'<p class="filters">{html.escape(", ".join(shown) or "all hands")}</p>',
    ]
    if graph is not None and not graph.empty:
        png = base64.b64encode(graph_image(graph, "png", title=title)).decode("ascii")
        parts.append("<h2>Net won</h2>")
        parts.append(f'<img alt="cumulative net won" src="data:image/png;base64,{png}">')
    parts.append(f"<h2>{html.escape(name)}</h2>")
    if name == "hand" and "text" in df.columns:
        parts.append("<pre>" + html.escape("\n".join(str(t) for t in df["text"])) + "</pre>")
    elif df.empty:
        parts.append("<p>(no rows)</p>")
    else:
        parts.append(df.to_html(index=False, na_rep="", border=0, escape=True))
    parts.append("</body></html>\n")
    return "\n".join(parts)
