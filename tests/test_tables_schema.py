"""The single table declaration drives the Arrow schemas, the DuckDB views and docs/schema.md."""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from pathlib import Path

import duckdb
import pyarrow as pa
import pytest

from hhparse.tables.build import BatchBuilder, strip_hand_idx
from hhparse.tables.schema import (
    DERIVED_TABLES,
    FILTER_KEYS,
    HAND_TABLES,
    SCHEMA_VERSION,
    TABLES,
    WarehouseVersionError,
    arrow_schema,
    create_views,
    money_dec_sql,
    render_docs,
    view_sql,
)
from hhparse.tables.store import SchemaMismatchError, Warehouse, check_schema

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import HAND_TEXT, fake_ev, fake_result

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


def test_derived_tables_keep_the_filter_keys_as_hand_players_declares_them() -> None:
    """Every derived table a report filters by --game and --stakes keys its rows by the columns the
    filters test (held_game, held_stake), declared once: as hand_players declares them."""
    source = {c.name: c for c in TABLES["hand_players"].columns}
    for name, table in DERIVED_TABLES.items():
        columns = {c.name: c for c in table.columns}
        for key in ("unit", "unit_scale", *FILTER_KEYS):
            assert columns[key] == source[key], (name, key)
            assert key == "unit_scale" or key in table.key, (name, key)


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
        Decimal("0.50"),
        "USD",
    )
    rows = con.execute("SELECT player, net, net_dec, unit FROM hand_players ORDER BY seat").fetchall()
    assert rows == [("Alice", 25, Decimal("0.25"), "USD"), ("Bob", -25, Decimal("-0.25"), "USD")]


def test_decimal_companions_are_exact_decimals(tmp_path: Path) -> None:
    """`_dec` is DECIMAL(18,2), not DOUBLE (DuckDB's "/" on decimals yields DOUBLE), for every scale."""
    con = duckdb.connect()
    create_views(con, tmp_path)
    for t in TABLES.values():
        for c in t.columns:
            if c.money:
                got = con.execute(f"DESCRIBE SELECT {c.name}_dec FROM {t.name}").fetchone()
                assert got is not None and got[1] == "DECIMAL(18,2)", f"{t.name}.{c.name}_dec: {got}"
    cases = [
        (1, 100, "0.01"),
        (-25, 100, "-0.25"),
        (123456789012345, 100, "1234567890123.45"),
        (1500, 1, "1500.00"),
        (7, 1, "7.00"),
        (0, 100, "0.00"),
    ]
    for amount, scale, expected in cases:
        sql = f"SELECT {money_dec_sql(str(amount), str(scale))}"
        (value,) = con.execute(sql).fetchone() or (None,)
        assert value == Decimal(expected), (amount, scale, value)
        (typ,) = con.execute(f"SELECT typeof({money_dec_sql(str(amount), str(scale))})").fetchone() or ("",)
        assert typ == "DECIMAL(18,2)"
    assert con.execute(f"SELECT {money_dec_sql('5', '10')}").fetchone() == (None,)  # no silent wrong scale


def test_views_never_join() -> None:
    """Each view reads only its own table's files: money scales by the row's own `unit_scale`."""
    for t in TABLES.values():
        sql = view_sql(t, [f"/wh/{t.name}/b0.parquet"])
        assert " JOIN " not in sql.upper() and sql.count("read_parquet") == 1, t.name
        if t.has_money:
            assert "unit_scale" in t.column_names, t.name
    for name in HAND_TABLES[1:]:
        assert {"unit", "unit_scale"} <= set(TABLES[name].hand_copies), name


def test_copied_columns_repeat_the_hands_declaration() -> None:
    hands = {c.name: c for c in TABLES["hands"].columns}
    for t in TABLES.values():
        for c in t.columns:
            if c.from_hands:
                h = hands[c.name]
                assert (c.type, c.nullable, c.doc, c.money) == (h.type, h.nullable, h.doc, h.money), c.name


def test_parquet_files_carry_schema_version(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    b = BatchBuilder()
    b.add_result(fake_result(), HAND_TEXT, ev=fake_ev())
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


def test_views_refuse_a_warehouse_of_another_schema_version(tmp_path: Path) -> None:
    b = BatchBuilder()
    b.add_result(fake_result(), HAND_TEXT)
    with Warehouse(tmp_path) as wh:
        wh.publish({k: strip_hand_idx(v) for k, v in b.finish().items()}, {})
    manifest = tmp_path / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.write_text(json.dumps(data | {"schema_version": "0"}), encoding="utf-8")
    with pytest.raises(WarehouseVersionError, match="schema version 0"):
        create_views(duckdb.connect(), tmp_path)


def _sample_value(type_: pa.DataType, i: int) -> object:
    """A value of ``type_`` (row ``i``), for writing a few rows of any declared table."""
    from datetime import datetime

    if pa.types.is_string(type_):
        return f"text {i}"
    if pa.types.is_boolean(type_):
        return i % 2 == 0
    if pa.types.is_integer(type_):
        return i
    if pa.types.is_timestamp(type_):
        return datetime(2026, 1, 1, 12, i)
    if pa.types.is_decimal(type_):
        return Decimal(i) / 4
    if pa.types.is_date(type_):
        return datetime(2026, 1, 1 + i).date()
    if pa.types.is_list(type_):
        return [_sample_value(type_.value_type, i), _sample_value(type_.value_type, i + 1)]
    if pa.types.is_struct(type_):
        return {type_.field(k).name: _sample_value(type_.field(k).type, i) for k in range(type_.num_fields)}
    raise AssertionError(f"no sample value for {type_}")


def _items_named_item(type_: pa.DataType) -> pa.DataType:
    """``type_`` with its lists' value fields named ``item`` (Parquet's compliant lists read back
    as ``element``, whatever the writer's version: a name, not a type)."""
    if pa.types.is_list(type_):
        f = type_.value_field
        return pa.list_(f.with_type(_items_named_item(f.type)).with_name("item"))
    if pa.types.is_struct(type_):
        return pa.struct([f.with_type(_items_named_item(f.type)) for f in type_])
    return type_


@pytest.mark.parametrize("name", [*TABLES, *DERIVED_TABLES])
def test_parquet_files_hold_the_declared_schema_and_dictionaries_but_for_times(
    name: str, tmp_path: Path
) -> None:
    """Every table's file reads back in its declared schema (types, nullability, metadata), and
    every column but the times is dictionary-encoded (booleans have no dictionary encoding in
    Parquet): DuckDB reads dictionaries faster, strings and integers alike; times are smaller,
    cheaper to write and read a little faster plain (``dictionary_columns``)."""
    import pyarrow.parquet as pq

    from hhparse.tables.store import dictionary_columns, write_parquet_atomic

    schema = arrow_schema(name)
    rows = [{f.name: _sample_value(f.type, i) for f in schema} for i in range(3)]
    table = pa.Table.from_pylist(rows, schema=schema)
    loose = table.cast(pa.schema([f.with_nullable(True) for f in schema]))  # cast back on writing
    for i, t in enumerate((table, loose)):
        path = tmp_path / f"{name}-{i}.parquet"
        write_parquet_atomic(name, t, path)
        stored = pq.read_schema(path)
        stored = pa.schema([f.with_type(_items_named_item(f.type)) for f in stored], metadata=stored.metadata)
        assert stored.equals(schema, check_metadata=True)
        assert pq.read_table(path).cast(schema).equals(table)
        meta = pq.ParquetFile(path).metadata
        coded = set(dictionary_columns(name))
        group = meta.row_group(0)
        leaves = {group.column(k).path_in_schema: group.column(k) for k in range(group.num_columns)}
        assert coded <= set(leaves)
        columns = [meta.schema.column(k) for k in range(group.num_columns)]
        times = {c.path for c in columns if c.logical_type.type == "TIMESTAMP"}
        assert coded == set(leaves) - times
        if name == "hands":
            assert times == {"start_utc", "local_time"}
        for leaf, column in leaves.items():
            dictionary = leaf not in times and column.physical_type != "BOOLEAN"
            assert ("RLE_DICTIONARY" in column.encodings) == dictionary, leaf
