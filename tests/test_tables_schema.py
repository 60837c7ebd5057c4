"""The single table declaration drives the Arrow schemas, the DuckDB views and docs/schema.md."""

from __future__ import annotations

import sys
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from hhparse.tables.build import BatchBuilder, strip_hand_idx
from hhparse.tables.schema import (
    HAND_TABLES,
    SCHEMA_VERSION,
    TABLES,
    arrow_schema,
    create_views,
    render_docs,
)
from hhparse.tables.store import SchemaMismatchError, Warehouse, check_schema

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import HAND_TEXT, fake_result

REPO = Path(__file__).resolve().parent.parent


def test_docs_schema_md_is_up_to_date() -> None:
    committed = (REPO / "docs" / "schema.md").read_text(encoding="utf-8")
    assert committed == render_docs(), "run: python -m hhparse.tables.schema"


def test_docs_mention_every_table_and_column() -> None:
    docs = render_docs()
    for t in TABLES.values():
        assert f"## `{t.name}`" in docs
        for c in t.columns:
            assert f"`{c.name}`" in docs and c.doc.replace("|", "/") in docs


def test_arrow_schemas_derive_from_declaration() -> None:
    for t in TABLES.values():
        schema = arrow_schema(t.name)
        assert schema.names == list(t.column_names)
        for c in t.columns:
            f = schema.field(c.name)
            assert f.type == c.type and f.nullable == c.nullable
        assert schema.metadata[b"schema_version"] == SCHEMA_VERSION.encode()


def test_every_table_declares_one_line_docs_and_unique_columns() -> None:
    for t in TABLES.values():
        assert len(set(t.column_names)) == len(t.columns), t.name
        assert all(c.doc and "\n" not in c.doc for c in t.columns)
        assert set(t.key) <= set(t.column_names)


def test_every_hand_table_carries_site_and_hand_id() -> None:
    for name in (*HAND_TABLES, "rejects"):
        assert {"site", "hand_id"} <= set(TABLES[name].column_names), name
    assert TABLES["hands"].key == ("site", "hand_id")


def test_money_is_int64_never_float() -> None:
    for t in TABLES.values():
        for c in t.columns:
            assert not pa.types.is_floating(c.type), f"{t.name}.{c.name}"
            if c.money:
                assert c.type == pa.int64(), f"{t.name}.{c.name}"


def test_views_have_declared_columns_even_when_empty(tmp_path: Path) -> None:
    con = duckdb.connect()
    create_views(con, tmp_path)
    for t in TABLES.values():
        cols = [r[0] for r in con.execute(f"DESCRIBE {t.name}").fetchall()]
        money = [f"{c.name}_dec" for c in t.columns if c.money]
        assert cols == [*t.column_names, *money], t.name
        assert con.execute(f"SELECT count(*) FROM {t.name}").fetchone() == (0,)


def test_views_read_published_files_and_add_decimals(tmp_path: Path) -> None:
    b = BatchBuilder()
    b.add_result(fake_result(), HAND_TEXT)
    tables = {k: strip_hand_idx(v) for k, v in b.finish().items()}
    with Warehouse(tmp_path) as wh:
        wh.publish(tables, {})
    con = duckdb.connect()
    create_views(con, tmp_path)
    assert con.execute("SELECT total_pot, total_pot_dec, unit FROM hands").fetchone() == (
        50,
        pytest.approx(0.5),
        "USD",
    )
    rows = con.execute("SELECT player, net, net_dec FROM hand_players ORDER BY seat").fetchall()
    assert [(p, n, float(d)) for p, n, d in rows] == [("Alice", 25, 0.25), ("Bob", -25, -0.25)]


def test_parquet_files_carry_schema_version(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    b = BatchBuilder()
    b.add_result(fake_result(), HAND_TEXT)
    with Warehouse(tmp_path) as wh:
        wh.publish({k: strip_hand_idx(v) for k, v in b.finish().items()}, {})
        for name in HAND_TABLES:
            (path,) = wh.files_of(name)
            meta = pq.read_schema(path).metadata
            assert meta[b"schema_version"] == SCHEMA_VERSION.encode()
            assert meta[b"table"] == name.encode()


def test_writer_rejects_mismatching_batches(tmp_path: Path) -> None:
    b = BatchBuilder()
    b.add_result(fake_result(), HAND_TEXT)
    hands = strip_hand_idx(b.finish()["hands"])
    check_schema("hands", hands)
    with pytest.raises(SchemaMismatchError, match="columns"):
        check_schema("hands", hands.drop_columns(["rake"]))
    with pytest.raises(SchemaMismatchError, match="type"):
        i = hands.schema.get_field_index("rake")
        check_schema("hands", hands.set_column(i, "rake", hands["rake"].cast(pa.float64())))
    with pytest.raises(SchemaMismatchError, match="null"):
        i = hands.schema.get_field_index("rake")
        check_schema("hands", hands.set_column(i, "rake", pa.array([None], pa.int64())))
    with Warehouse(tmp_path) as wh, pytest.raises(SchemaMismatchError):
        wh.publish({"hands": hands.drop_columns(["rake"])}, {})
    assert not list((tmp_path / "hands").glob("*.parquet")) if (tmp_path / "hands").exists() else True
