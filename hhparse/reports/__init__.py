"""Players' reports: the SQL in ``analytics/`` run by DuckDB over a warehouse's Parquet files.

Why SQL files and not Python: every stat is computed once, in ``analytics/stats.sql``, where a
reader can check it against its definition (:mod:`hhparse.reports.columns`, the one source of
every column's meaning, PokerTracker 4's where one exists); :mod:`hhparse.reports.query` only
opens the warehouse, checks the user's filters against what it holds (a name that matches nobody
is an error with the nearest names, never an empty table), binds them as parameters (never
formatting them into SQL) and hands back a DataFrame. Layers, loaded in this order on every
connection:

1. raw views, one per table (:func:`hhparse.tables.schema.create_views`);
2. ``analytics/staging/*.sql``: rename and cast, money as DECIMAL in the hand's unit;
3. ``analytics/rows.sql`` (a row's values that the derived tables' builds compute alike) and
   ``analytics/filters.sql``: the report filters' tests of a row, each written once;
4. the rows each report reads within the filters, one pair of table macros per source, written
   from one declaration (:mod:`hhparse.reports.scoped`);
5. ``analytics/stats.sql``: the per-player-hand base and the stat arithmetic, then
   ``analytics/pages/player_hours.sql`` (the graphs' hours);
6. ``analytics/reports/<name>.sql``: one SELECT per report, run on demand.

Reports never re-derive what the referee decided: they aggregate its flags and amounts.

This package imports nothing heavy until a function is used (:data:`REPORTS` comes from
:mod:`hhparse.reports.catalog`): ``hhparse --help`` must not load DuckDB and pandas.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from hhparse.failures import WarehouseNotFoundError
from hhparse.reports.catalog import BY, REPORTS, ReportSpec

if TYPE_CHECKING:
    from hhparse.reports.query import data_tests, report, report_sql, warehouse

__all__ = [
    "BY",
    "REPORTS",
    "ReportSpec",
    "WarehouseNotFoundError",
    "data_tests",
    "report",
    "report_sql",
    "warehouse",
]

_LAZY = {"data_tests", "report", "report_sql", "warehouse"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module("hhparse.reports.query"), name)
    raise AttributeError(f"module 'hhparse.reports' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(__all__)
