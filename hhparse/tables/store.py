"""The warehouse on disk: Parquet batch files plus one manifest, published atomically.

Layout::

    <warehouse>/manifest.json            the only source of truth
    <warehouse>/<table>/<batch>.parquet  published batch files (listed in the manifest)

Why a manifest and not a glob: a batch spans several tables and must appear all at once or not at
all. Each batch is written to temporary files, fsynced and renamed into place; only then is the
manifest (listing the new files *and* the per-file import progress that the batch completes)
written to a temporary file, fsynced and ``os.replace``-d over the old one. A crash at any moment
leaves either the old manifest or the new one; files that no manifest lists are ignored by readers
(:func:`hhparse.tables.schema.create_views` reads only listed files) and deleted by the next writer.

One writer at a time: :class:`Warehouse` takes an exclusive ``flock`` on ``<warehouse>/.lock``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pyarrow as pa
import pyarrow.parquet as pq

from hhparse.tables.schema import MANIFEST_NAME, SCHEMA_VERSION, TABLES, arrow_schema

MANIFEST_FORMAT = 1
DEFAULT_WAREHOUSE = "hhparse-warehouse"
ENV_WAREHOUSE = "HHPARSE_WAREHOUSE"
COMPRESSION: Final = "zstd"

#: How long files replaced by :meth:`Warehouse.compact` stay on disk. A DuckDB connection (a
#: notebook's ``hhparse.warehouse()``) reads the files the manifest listed when it was opened;
#: deleting them at once would break its next query. They are deleted by the first write
#: (import or compact) after this many seconds.
RETIRED_GRACE_SECONDS: Final = 24 * 3600


class SchemaMismatchError(ValueError):
    """A batch does not match the declared schema of its table (a programming error)."""


class WarehouseLockedError(RuntimeError):
    """Another process is writing to the same warehouse."""


def default_warehouse() -> Path:
    """``$HHPARSE_WAREHOUSE`` or ``./hhparse-warehouse``."""
    return Path(os.environ.get(ENV_WAREHOUSE) or DEFAULT_WAREHOUSE)


def check_schema(name: str, table: pa.Table) -> None:
    """Raise :class:`SchemaMismatchError` unless ``table`` has exactly the declared columns/types.

    Nullability is checked on the data (a null in a non-nullable column is rejected), since
    pyarrow field flags alone prove nothing about the values.
    """
    expected = arrow_schema(name)
    if table.schema.names != expected.names:
        raise SchemaMismatchError(
            f"{name}: columns {table.schema.names} differ from the declaration {expected.names}"
        )
    for f in expected:
        got = table.schema.field(f.name).type
        if got != f.type:
            raise SchemaMismatchError(f"{name}.{f.name}: type {got} differs from the declared {f.type}")
        if not f.nullable and table.column(f.name).null_count:
            raise SchemaMismatchError(f"{name}.{f.name}: null in a non-nullable column")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_parquet_atomic(table_name: str, table: pa.Table, dest: Path) -> None:
    """Write ``table`` (checked against its declaration) to ``dest`` via a fsynced temp file."""
    check_schema(table_name, table)
    table = table.cast(arrow_schema(table_name))  # carries the schema_version metadata
    tmp = dest.with_name(f".tmp-{uuid.uuid4().hex}-{dest.name}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    with open(tmp, "wb") as fh:
        pq.write_table(table, fh, compression=COMPRESSION, row_group_size=256 * 1024)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, dest)


@dataclass
class Manifest:
    """Contents of ``manifest.json``.

    ``files`` maps an imported file's absolute path to its progress record (see
    :class:`hhparse.importer.FileProgress`, stored as a plain dict so this module stays generic).
    """

    tables: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in TABLES})
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    next_batch: int = 0
    schema_version: str = SCHEMA_VERSION
    retired: dict[str, float] = field(default_factory=dict)  # replaced file -> when (Unix time)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk."""
        return {
            "format": MANIFEST_FORMAT,
            "schema_version": self.schema_version,
            "next_batch": self.next_batch,
            "tables": self.tables,
            "files": self.files,
            "retired": self.retired,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        """Read a manifest object; unknown tables are kept, missing ones start empty."""
        tables: dict[str, list[str]] = {name: [] for name in TABLES}
        tables.update({k: list(v) for k, v in data.get("tables", {}).items()})
        return cls(
            tables=tables,
            files=dict(data.get("files", {})),
            next_batch=int(data.get("next_batch", 0)),
            schema_version=str(data.get("schema_version", SCHEMA_VERSION)),
            retired={str(k): float(v) for k, v in data.get("retired", {}).items()},
        )


class Warehouse:
    """A warehouse folder opened for writing (exclusive lock held until :meth:`close`)."""

    def __init__(self, root: Path | str) -> None:
        self.root = Path(root).resolve()
        self.root.mkdir(parents=True, exist_ok=True)
        self._lock_fh = open(self.root / ".lock", "a+b")  # noqa: SIM115 - held for the object's life
        try:
            fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            self._lock_fh.close()
            raise WarehouseLockedError(f"warehouse {self.root} is being written by another process") from exc
        self.manifest = self._read_manifest()
        if self.manifest.schema_version != SCHEMA_VERSION:
            self.close()
            raise SchemaMismatchError(
                f"warehouse {self.root} has schema version {self.manifest.schema_version}, "
                f"this hhparse writes {SCHEMA_VERSION}"
            )
        self.clean_orphans()

    # -- lifecycle -------------------------------------------------------------------------

    def close(self) -> None:
        """Release the writer lock."""
        if not self._lock_fh.closed:
            fcntl.flock(self._lock_fh.fileno(), fcntl.LOCK_UN)
            self._lock_fh.close()

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- manifest --------------------------------------------------------------------------

    def _read_manifest(self) -> Manifest:
        path = self.root / MANIFEST_NAME
        if not path.exists():
            return Manifest()
        return Manifest.from_json(json.loads(path.read_text(encoding="utf-8")))

    def _write_manifest(self) -> None:
        path = self.root / MANIFEST_NAME
        tmp = path.with_name(f".tmp-{uuid.uuid4().hex}-{MANIFEST_NAME}")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(self.manifest.to_json(), fh, separators=(",", ":"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
        _fsync_dir(self.root)

    def files_of(self, table: str) -> list[Path]:
        """Published files of ``table`` (absolute), in publication order."""
        return [self.root / rel for rel in self.manifest.tables.get(table, [])]

    def clean_orphans(self, now: float | None = None) -> list[Path]:
        """Delete Parquet and temp files no manifest lists (left by an interrupted writer), and
        files :meth:`compact` replaced more than :data:`RETIRED_GRACE_SECONDS` ago."""
        now = time.time() if now is None else now
        expired = {rel for rel, at in self.manifest.retired.items() if now - at > RETIRED_GRACE_SECONDS}
        if expired:
            self.manifest.retired = {r: at for r, at in self.manifest.retired.items() if r not in expired}
            self._write_manifest()  # forget them first: a crash then leaves plain orphans
        listed = {self.root / rel for rels in self.manifest.tables.values() for rel in rels}
        listed.update(self.root / rel for rel in self.manifest.retired)
        removed: list[Path] = []
        for p in self._data_files():
            if p not in listed:
                with contextlib.suppress(OSError):
                    p.unlink()
                    removed.append(p)
        for p in self.root.glob(".tmp-*"):
            with contextlib.suppress(OSError):
                p.unlink()
                removed.append(p)
        return removed

    def _data_files(self) -> Iterator[Path]:
        for name in TABLES:
            folder = self.root / name
            if folder.is_dir():
                yield from folder.iterdir()

    # -- publishing ------------------------------------------------------------------------

    def publish(self, tables: dict[str, pa.Table], files: dict[str, dict[str, Any]]) -> None:
        """Atomically add a batch (non-empty tables) and the import progress it completes.

        ``files`` entries replace the manifest's progress records for those paths. Either all of
        it becomes visible (manifest replaced) or none of it (crash before the replace).
        """
        batch = self.manifest.next_batch
        tag = f"b{batch:08d}-{uuid.uuid4().hex[:8]}"
        added: dict[str, str] = {}
        for name, table in tables.items():
            if table.num_rows == 0:
                continue
            rel = f"{name}/{tag}.parquet"
            write_parquet_atomic(name, table, self.root / rel)
            added[name] = rel
        for name in {rel.split("/")[0] for rel in added.values()}:
            _fsync_dir(self.root / name)
        for name, rel in added.items():
            self.manifest.tables.setdefault(name, []).append(rel)
        self.manifest.files.update(files)
        self.manifest.next_batch = batch + 1
        self._write_manifest()

    def read_table(self, name: str, columns: list[str] | None = None) -> pa.Table:
        """All published rows of ``name`` in publication order (declared schema)."""
        paths = self.files_of(name)
        if not paths:
            schema = arrow_schema(name)
            if columns is not None:
                schema = pa.schema([schema.field(c) for c in columns])
            return schema.empty_table()
        parts = [pq.read_table(p, columns=columns) for p in paths]
        return pa.concat_tables(parts)

    def _write_part(self, name: str, stem: str, parts: list[pa.Table]) -> str:
        rel = f"{name}/{stem}.parquet"
        write_parquet_atomic(name, pa.concat_tables(parts), self.root / rel)
        return rel

    def replace_tables(self, tables: dict[str, list[pa.Table]]) -> None:
        """Replace every published file of each named table by new files holding ``tables[name]``.

        For a rewrite of whole tables (``hhparse ev --recompute``): the new files are written
        first, then published with one manifest swap; the old ones are retired as by
        :meth:`compact`, so open connections keep reading them for a while.
        """
        batch = self.manifest.next_batch
        tag = f"r{batch:08d}-{uuid.uuid4().hex[:8]}"
        old_files: list[Path] = []
        for name, parts in tables.items():
            rels = [self._write_part(name, f"{tag}-{i:04d}", [t]) for i, t in enumerate(parts) if t.num_rows]
            if rels:
                _fsync_dir(self.root / name)
            old_files.extend(self.files_of(name))
            self.manifest.tables[name] = rels
        self.manifest.next_batch = batch + 1
        retired_at = time.time()
        for p in old_files:
            self.manifest.retired[p.relative_to(self.root).as_posix()] = retired_at
        self._write_manifest()

    def compact(self, target_rows: int = 2_000_000) -> dict[str, tuple[int, int]]:
        """Merge each table's batch files into files of up to ``target_rows`` rows.

        Rows and their order are unchanged. New files are published with one manifest swap. The
        old files are retired, not deleted: connections opened before still read them, until the
        first write after :data:`RETIRED_GRACE_SECONDS` deletes them (a crash in between leaves
        orphans, cleaned next time). Returns ``{table: (files before, files after)}``.
        """
        report: dict[str, tuple[int, int]] = {}
        old_files: list[Path] = []
        batch = self.manifest.next_batch
        tag = f"c{batch:08d}-{uuid.uuid4().hex[:8]}"
        for name in TABLES:
            paths = self.files_of(name)
            if len(paths) <= 1:
                report[name] = (len(paths), len(paths))
                continue
            new_rels: list[str] = []
            pending: list[pa.Table] = []
            rows = 0
            for p in paths:
                t = pq.read_table(p)
                if rows and rows + t.num_rows > target_rows:
                    new_rels.append(self._write_part(name, f"{tag}-{len(new_rels):04d}", pending))
                    pending, rows = [], 0
                pending.append(t)
                rows += t.num_rows
            new_rels.append(self._write_part(name, f"{tag}-{len(new_rels):04d}", pending))
            _fsync_dir(self.root / name)
            old_files.extend(paths)
            self.manifest.tables[name] = new_rels
            report[name] = (len(paths), len(new_rels))
        if old_files:
            self.manifest.next_batch = batch + 1
            retired_at = time.time()
            for p in old_files:
                self.manifest.retired[p.relative_to(self.root).as_posix()] = retired_at
            self._write_manifest()
        return report
