"""The warehouse on disk: Parquet files plus one manifest, published atomically.

Layout::

    <warehouse>/hhparse-warehouse.json            marker: this folder is an hhparse warehouse
    <warehouse>/manifest.json                     the only source of truth for hhparse
    <warehouse>/<table>/<batch>.parquet           the table's live files, for outside readers
    <warehouse>/.hhparse/files/<table>/<batch>.parquet   every data file hhparse wrote and still keeps
    <warehouse>/.hhparse/staging/                 files being written (never read)
    <warehouse>/.lock                             held by the one writer

**A user's files are never touched.** A writer opens only a folder that carries the marker (or an
older hhparse's valid ``manifest.json``, which it adopts by writing the marker), or a new or empty
folder; anything else is refused (:class:`NotAWarehouseError`). Clean-up deletes only files the
manifest names: the batches it announced in ``pending`` before writing them (a crash leaves them
behind), and files it ``retired``. Nothing is ever deleted because of its name or its folder.

**Atomic batches.** A batch spans several tables and must appear all at once or not at all. The
writer records the batch's tag in the manifest (``pending``), writes each file to ``staging``,
fsyncs it and renames it into ``.hhparse/files/``; then the manifest listing the new files (and the
per-file import progress the batch completes) is written to a temporary file, fsynced and
``os.replace``-d over the old one: that is the commit. A crash leaves the old manifest or the new
one; the next writer deletes what a still-pending tag wrote.

**Two kinds of readers.** hhparse's own views (:func:`published_files`) read the files the manifest
lists, at their ``.hhparse/files`` path. Outside tools glob a table folder
(``read_parquet('wh/hands/*.parquet')``, pandas, polars, pyarrow.dataset): after the commit each
new file is hard-linked into its table folder (a symbolic link, or a copy, where the file system
has no hard links), and a file :meth:`Warehouse.compact` replaced is unlinked from it, so a table
folder holds exactly the live files and a glob reads each row once. A retired file stays under
``.hhparse/files`` for :data:`RETIRED_GRACE_SECONDS`, so DuckDB connections opened before a
compaction keep working. Orphans of a crash never reach a table folder.

One writer at a time: :class:`Warehouse` takes an exclusive ``flock`` on ``<warehouse>/.lock``.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import shutil
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

import pyarrow as pa
import pyarrow.parquet as pq

from hhparse.failures import (
    NotAWarehouseError,
    WarehouseDamagedError,
    WarehouseLockedError,
    WarehouseNotFoundError,
    WarehouseVersionError,
    describe_os_error,
)
from hhparse.tables.schema import (
    DERIVED_TABLES,
    MANIFEST_NAME,
    SCHEMA_VERSION,
    TABLES,
    arrow_schema,
    superseded_rejects,
)

__all__ = [
    "DEFAULT_WAREHOUSE",
    "ENV_WAREHOUSE",
    "MARKER_NAME",
    "RETIRED_GRACE_SECONDS",
    "TAIL_RETIRED_GRACE_SECONDS",
    "Manifest",
    "SchemaMismatchError",
    "Warehouse",
    "WarehouseDamagedError",
    "WarehouseLockedError",
    "WarehouseNotFoundError",
    "WarehouseVersionError",
    "default_warehouse",
    "listed_tables",
    "published_files",
]

MANIFEST_FORMAT = 2
"""Format of ``manifest.json`` and of the layout (1: data files in the table folders, no marker)."""
WAREHOUSE_FORMAT: Final = 2
"""Format version written into the marker; a newer one is refused rather than misread."""
MARKER_NAME: Final = "hhparse-warehouse.json"
PRIVATE_DIR: Final = ".hhparse"
FILES_DIR: Final = ".hhparse/files"
STAGING_DIR: Final = ".hhparse/staging"
QUARANTINE_DIR: Final = ".hhparse/quarantine"
LOCK_NAME: Final = ".lock"
DEFAULT_WAREHOUSE = "hhparse-warehouse"
ENV_WAREHOUSE = "HHPARSE_WAREHOUSE"
COMPRESSION: Final = "zstd"
#: Parquet dictionary encoding: on, but for the times (:func:`dictionary_columns`).

#: Rows per Parquet row group (the unit whose statistics a reader can skip by).
ROW_GROUP_ROWS: Final = 256 * 1024

#: How long files replaced by :meth:`Warehouse.compact` stay on disk. A DuckDB connection (a
#: notebook's ``hhparse.warehouse()``) reads the files the manifest listed when it was opened;
#: deleting them at once would break its next query. They are deleted by the first write
#: (import or compact) after this many seconds.
RETIRED_GRACE_SECONDS: Final = 24 * 3600

#: :meth:`Warehouse.compact_tail` (run by ``hhparse import --watch`` as it publishes): tiers of
#: file sizes in rows, how many files of a tier make a merge, and the size from which a file is
#: left alone. A table then holds at most ``TAIL_FANOUT - 1`` files per tier besides its large
#: files, and a row is rewritten at most once per tier.
TAIL_BASE_ROWS: Final = 4096
TAIL_FANOUT: Final = 16
TAIL_MAX_ROWS: Final = 65_536
#: How long files merged by :meth:`Warehouse.compact_tail` stay readable for connections opened
#: before the merge. Shorter than :data:`RETIRED_GRACE_SECONDS` because a day of watching
#: replaces thousands of small files, each listed in the manifest until it expires.
TAIL_RETIRED_GRACE_SECONDS: Final = 3600

#: Names a folder may hold and still count as empty (a new warehouse may be created in it): what
#: file browsers leave, and what an interrupted creation of a warehouse leaves.
_EMPTY_OK: Final = frozenset({".DS_Store", "Thumbs.db", "desktop.ini", LOCK_NAME, PRIVATE_DIR})

#: A manifest entry: ``<table>/<file>.parquet``, nothing else (no ``..``, no absolute path), so a
#: damaged or hostile manifest can never make clean-up reach outside the warehouse.
_REL_RE: Final = re.compile(r"^[a-z][a-z0-9_]*/[A-Za-z0-9][A-Za-z0-9_.-]*\.parquet$")
_TAG_RE: Final = re.compile(r"^[bc][0-9]{8}-[0-9a-f]{8}$")
#: Files an hhparse before the marker wrote into table folders and the warehouse root.
_LEGACY_DATA_RE: Final = re.compile(r"^[bc][0-9]{8}-[0-9a-f]{8}(-[0-9]{4})?\.parquet$")
_LEGACY_TMP_RE: Final = re.compile(r"^\.tmp-[0-9a-f]{32}-.+$")
_MANIFEST_TMP: Final = "manifest.json.tmp"
_MARKER_TMP: Final = "marker.json.tmp"
_PARQUET_MAGIC: Final = b"PAR1"


class SchemaMismatchError(ValueError):
    """A batch does not match the declared schema of its table (a programming error)."""


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


@contextlib.contextmanager
def _signals_deferred() -> Iterator[None]:
    """Hold Ctrl-C (and SIGTERM) back over a few statements that must happen together, such as a
    commit and the record that it happened: they are delivered as soon as the block ends."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _write_json_atomic(data: Any, tmp: Path, dest: Path, replaced: Callable[[], None] | None = None) -> None:
    """Write ``dest`` atomically; ``replaced`` runs right after the replace, with no Ctrl-C
    between the two (so a caller always knows whether the new file is in place)."""
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            # one string, then one write: json.dump streams through the pure-Python encoder, and
            # the manifest (one record per imported file) is written twice per batch
            fh.write(json.dumps(data, separators=(",", ":")))
            fh.flush()
            os.fsync(fh.fileno())
        with _signals_deferred():
            os.replace(tmp, dest)
            if replaced is not None:
                replaced()
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(dest.parent)


def _leaves(name: str, type_: pa.DataType) -> Iterator[tuple[str, pa.DataType]]:
    """The Parquet leaf columns of a column ``name`` of ``type_``: path and type (a list's values
    are ``NAME.list.element``, a struct's fields ``NAME.FIELD``: pyarrow's compliant nested names)."""
    if pa.types.is_list(type_) or pa.types.is_large_list(type_):
        yield from _leaves(f"{name}.list.element", type_.value_type)
    elif pa.types.is_struct(type_):
        for i in range(type_.num_fields):
            child = type_.field(i)
            yield from _leaves(f"{name}.{child.name}", child.type)
    else:
        yield name, type_


_DICTIONARY_COLUMNS: dict[str, list[str]] = {}


def dictionary_columns(table_name: str) -> list[str]:
    """The leaf columns of ``table_name`` written with dictionary encoding, as Parquet paths (what
    ``pq.write_table``'s ``use_dictionary`` takes): every one but the times.

    Why the dictionaries: DuckDB reads dictionary-encoded columns much faster than plain ones,
    strings (grouping by player, filtering one player) and integers alike (summing the money
    columns of ``actions`` or ``hand_players``), and a warehouse is written once and read by
    every report (``docs/performance.md``). Why not the times: their values are mostly distinct
    (``hands``) or runs of one value (the copies of a hand's time), which zstd packs smaller
    plain; DuckDB reads them plain no slower, and the writer no longer hashes each into a
    dictionary that saves nothing."""
    paths = _DICTIONARY_COLUMNS.get(table_name)
    if paths is None:
        paths = [
            path
            for f in arrow_schema(table_name)
            for path, type_ in _leaves(f.name, f.type)
            if not pa.types.is_timestamp(type_)
        ]
        _DICTIONARY_COLUMNS[table_name] = paths
    return paths


def write_parquet_atomic(
    table_name: str,
    table: pa.Table,
    dest: Path,
    tmp: Path | None = None,
    metadata: Mapping[str, str] | None = None,
) -> None:
    """Write ``table`` (checked against its declaration) to ``dest`` via a fsynced temp file
    (``tmp``, by default beside ``dest``); on any failure the temp file is removed. ``metadata``
    is added to the file's key-value metadata (a derived file's ``source_file``)."""
    check_schema(table_name, table)
    expected = arrow_schema(table_name)
    if not table.schema.equals(expected, check_metadata=True):  # (the built tables' already is)
        table = table.cast(expected)  # carries the schema_version metadata
    if metadata:
        merged = dict(table.schema.metadata or {})
        merged.update((k.encode(), v.encode()) for k, v in metadata.items())
        table = table.replace_schema_metadata(merged)
    tmp = tmp if tmp is not None else dest.with_name(f".tmp-{uuid.uuid4().hex}-{dest.name}")
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        with open(tmp, "wb") as fh:
            pq.write_table(
                table,
                fh,
                compression=COMPRESSION,
                row_group_size=ROW_GROUP_ROWS,
                # (a list of columns is documented, but not in pyarrow's stubs)
                use_dictionary=dictionary_columns(table_name),  # type: ignore[arg-type]
            )
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def staged_name(folder: Path, kind: str, part: int) -> Path:
    """A file another process writes for a writer into the staging folder of a tag the writer
    announced (:meth:`Warehouse.stage`), which the writer's clean-up of the tag deletes with
    everything in it (:meth:`Warehouse._discard`). ``kind``: letters, digits, ``_``."""
    return folder / f"{kind}-{part:04d}.tmp"


def write_batch_file(root: Path | str, name: str, tag: str, table: pa.Table, folder: Path | str) -> int:
    """Write table ``name`` of the batch ``tag`` where :meth:`Warehouse.publish` would, fsynced,
    from another process than the writer's (a cluster's worker,
    :meth:`Warehouse.publish_written`), through ``folder``, the staging folder of a tag the
    writer announced (:meth:`Warehouse.stage`): a worker still writing after its client died
    finds that folder deleted by the next writer, and leaves nothing behind. Returns its rows."""
    tmp = Path(folder) / f"{tag}.{name}.parquet.tmp"
    write_parquet_atomic(name, table, Path(root) / FILES_DIR / name / f"{tag}.parquet", tmp)
    return int(table.num_rows)


def _damaged(root: Path, what: str) -> WarehouseDamagedError:
    return WarehouseDamagedError(
        f"the warehouse at {root} is damaged: {what}; restore it from a backup, or import your "
        f"hand histories again into a new warehouse (hhparse import PATH --warehouse NEW_FOLDER)"
    )


#: Reader errors that say something about the question, never about the files (DuckDB's
#: exception classes, by name, so this module needs no DuckDB).
_QUESTION_ERRORS: Final = frozenset(
    {
        "ParserException",
        "BinderException",
        "CatalogException",
        "SyntaxException",
        "ConversionException",
        "OutOfRangeException",
        "InvalidTypeException",
        "NotImplementedException",
        "ConstraintException",
        "TypeMismatchException",
    }
)


def damage_in(exc: BaseException, warehouse_dir: Path | str) -> WarehouseDamagedError | None:
    """The damage a reader's error (DuckDB, pyarrow) reveals, or ``None`` if the files are fine.

    An error that names a file of the warehouse means that file is corrupt or gone. Otherwise,
    unless the error is about the question itself (a parser or binder error), every listed file
    is read through once with pyarrow to find one that is not readable — slow on a large
    warehouse, but only ever on this error path.
    """
    root = Path(warehouse_dir).absolute()
    text = str(exc)
    first = text.strip().splitlines()[0] if text.strip() else type(exc).__name__
    if str(root) in text:
        return _damaged(root, f"a file cannot be read ({first})")
    if type(exc).__name__ in _QUESTION_ERRORS:
        return None
    try:
        files = published_files(root)
    except WarehouseDamagedError as damage:
        return damage
    except (OSError, ValueError):
        return None
    for name, paths in files.items():
        for path in paths:
            try:
                pf = pq.ParquetFile(path)
                for i in range(pf.num_row_groups):
                    pf.read_row_group(i)
            except (pa.ArrowException, OSError) as bad:
                rel = f"{name}/{Path(path).name}"
                return _damaged(
                    root,
                    f"{rel} cannot be read ({str(bad).splitlines()[0] if str(bad) else type(bad).__name__})",
                )
    return None


@dataclass
class Manifest:
    """Contents of ``manifest.json``.

    ``tables`` lists each table's live files as ``<table>/<file>.parquet``. ``files`` maps an
    imported file's absolute path to its progress record (see
    :class:`hhparse.import_plan.FileRun`, stored as a plain dict so this module stays generic).
    ``retired`` maps files :meth:`Warehouse.compact` replaced to when (Unix time); ``pending``
    lists the tags of batches being written (announced before their files exist).
    """

    tables: dict[str, list[str]] = field(default_factory=lambda: {name: [] for name in TABLES})
    files: dict[str, dict[str, Any]] = field(default_factory=dict)
    next_batch: int = 0
    schema_version: str = SCHEMA_VERSION
    retired: dict[str, float] = field(default_factory=dict)
    pending: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The JSON object written to disk."""
        return {
            "format": MANIFEST_FORMAT,
            "schema_version": self.schema_version,
            "next_batch": self.next_batch,
            "tables": self.tables,
            "files": self.files,
            "retired": self.retired,
            "pending": self.pending,
        }

    @classmethod
    def from_json(cls, data: Any) -> Manifest:
        """Read a manifest object; unknown tables are kept, missing ones start empty.

        Raises:
            ValueError: ``data`` is not a manifest (wrong shape, an entry that is not a
                ``<table>/<file>.parquet`` path, a pending tag of the wrong form).
        """
        if not isinstance(data, dict):
            raise ValueError(f"a JSON {type(data).__name__} instead of an object")
        raw_tables = data.get("tables", {})
        raw_files = data.get("files", {})
        raw_retired = data.get("retired", {})
        raw_pending = data.get("pending", [])
        if not isinstance(raw_tables, dict) or not all(isinstance(v, list) for v in raw_tables.values()):
            raise ValueError("'tables' is not an object of lists")
        if not isinstance(raw_files, dict) or not all(isinstance(v, dict) for v in raw_files.values()):
            raise ValueError("'files' is not an object of objects")
        if not isinstance(raw_retired, dict) or not isinstance(raw_pending, list):
            raise ValueError("'retired' or 'pending' has the wrong type")
        tables: dict[str, list[str]] = {name: [] for name in TABLES}
        for name, rels in raw_tables.items():
            for rel in rels:
                if not isinstance(rel, str) or not _REL_RE.match(rel) or rel.split("/")[0] != name:
                    raise ValueError(f"table {name!r} lists {rel!r}, not a file of that table")
            tables[str(name)] = list(rels)
        for rel in raw_retired:
            if not _REL_RE.match(str(rel)):
                raise ValueError(f"retired entry {rel!r} is not a table file")
        for tag in raw_pending:
            if not isinstance(tag, str) or not _TAG_RE.match(tag):
                raise ValueError(f"pending entry {tag!r} is not a batch tag")
        try:
            return cls(
                tables=tables,
                files=dict(raw_files),
                next_batch=int(data.get("next_batch", 0)),
                schema_version=str(data.get("schema_version", SCHEMA_VERSION)),
                retired={str(k): float(v) for k, v in raw_retired.items()},
                pending=list(raw_pending),
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"a field has the wrong type ({exc})") from None


# --------------------------------------------------------------------------------------------
# What a folder is
# --------------------------------------------------------------------------------------------


Kind = Literal["warehouse", "legacy", "empty", "missing"]


def _read_marker(root: Path) -> int:
    """The marker's format version. Raises :class:`WarehouseDamagedError` when it is unreadable."""
    path = root / MARKER_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _damaged(root, f"{path} is not valid JSON ({exc})") from None
    version = data.get("hhparse_warehouse") if isinstance(data, dict) else None
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _damaged(root, f"{path} is not an hhparse warehouse marker")
    if version > WAREHOUSE_FORMAT:
        raise WarehouseVersionError(
            f"the warehouse at {root} was written by a newer hhparse (format {version}, this one "
            f"knows {WAREHOUSE_FORMAT}): upgrade hhparse to use it"
        )
    return version


def _looks_like_ours(root: Path) -> bool:
    """Signs that a folder without marker was written by an older hhparse (for error wording)."""
    return (root / LOCK_NAME).exists() or any((root / name).is_dir() for name in TABLES)


def _read_manifest_at(root: Path) -> Manifest | None:
    """The manifest, ``None`` when there is none. Raises :class:`WarehouseDamagedError`."""
    path = root / MANIFEST_NAME
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise _damaged(root, f"{path} is not UTF-8 text") from None
    try:
        return Manifest.from_json(json.loads(text))
    except json.JSONDecodeError as exc:
        raise _damaged(root, f"{path} is not valid JSON ({exc})") from None
    except ValueError as exc:
        raise _damaged(root, f"{path} is not a warehouse manifest: {exc}") from None


def classify(root: Path) -> Kind:
    """What ``root`` is: a marked warehouse, one of an older hhparse (a valid manifest, no
    marker), an empty folder, or nothing yet.

    Raises:
        NotAWarehouseError: a file, or a non-empty folder that is not a warehouse.
        WarehouseDamagedError: a marked warehouse (or an older one) whose marker or manifest
            is unreadable.
    """
    if not root.exists():
        if root.is_symlink():
            raise NotAWarehouseError(f"the warehouse path {root} is a broken symbolic link")
        return "missing"
    if not root.is_dir():
        raise NotAWarehouseError(
            f"the warehouse path {root} is a file, not a folder: choose a folder for the warehouse "
            f"(--warehouse or ${ENV_WAREHOUSE})"
        )
    if (root / MARKER_NAME).exists():
        _read_marker(root)
        return "warehouse"
    if (root / MANIFEST_NAME).exists():
        try:
            _read_manifest_at(root)
        except WarehouseDamagedError:
            if _looks_like_ours(root):
                raise
            raise NotAWarehouseError(
                f"{root} is not an hhparse warehouse (its {MANIFEST_NAME} was not written by "
                f"hhparse) and not empty: hhparse will not write into it; choose a new or empty "
                f"folder for the warehouse"
            ) from None
        return "legacy"
    try:
        entries = [e for e in os.listdir(root) if e not in _EMPTY_OK]
    except OSError as exc:
        raise NotAWarehouseError(describe_os_error(exc, f"cannot read the warehouse folder {root}")) from None
    if entries:
        raise NotAWarehouseError(
            f"{root} is not an hhparse warehouse and not empty (it holds {entries[0]!r}"
            f"{f' and {len(entries) - 1} more' if len(entries) > 1 else ''}): hhparse will not write "
            f"into it; choose a new or empty folder for the warehouse"
        )
    return "empty"


# --------------------------------------------------------------------------------------------
# Readers
# --------------------------------------------------------------------------------------------


def _check_parquet(root: Path, path: Path, rel: str) -> None:
    """A listed file must exist and end with Parquet's footer magic (a cheap truncation test)."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size
            if size < 12:
                raise _damaged(root, f"{rel} is truncated ({size} bytes)")
            fh.seek(-4, os.SEEK_END)
            if fh.read(4) != _PARQUET_MAGIC:
                raise _damaged(root, f"{rel} is truncated or not a Parquet file")
    except FileNotFoundError:
        raise _damaged(root, f"{rel}, listed in {MANIFEST_NAME}, is missing") from None


def _listed_path(root: Path, rel: str) -> Path:
    """Where hhparse reads a listed file: its ``.hhparse/files`` copy, else (a warehouse of an
    older hhparse not yet adopted) the file in the table folder."""
    stored = root / FILES_DIR / rel
    if stored.exists():
        return stored
    legacy = root / rel
    return legacy if legacy.exists() else stored


def file_records(warehouse_dir: Path | str) -> dict[str, dict[str, Any]]:
    """The manifest's progress record of every imported file (empty when nothing was published).

    Read after :func:`published_files` has vouched for the manifest, so a damage raised here is
    one that appeared in between.

    Raises:
        WarehouseDamagedError: the manifest is unreadable.
    """
    manifest = _read_manifest_at(Path(warehouse_dir).absolute())
    return manifest.files if manifest is not None else {}


def published_files(
    warehouse_dir: Path | str, *, verify: bool = True, missing_ok: bool = False
) -> dict[str, list[str]]:
    """Absolute paths of the published Parquet files per table, as listed by the manifest.

    Reads without writing anything (a read-only warehouse is fine). Files no manifest lists (an
    interrupted batch) are never read. With ``verify``, each listed file must exist and end like
    a Parquet file. With ``missing_ok``, a folder with no manifest yet (nothing was ever
    published) reads as an empty warehouse.

    Raises:
        WarehouseNotFoundError: no warehouse at ``warehouse_dir``.
        WarehouseDamagedError: unreadable marker or manifest, a listed file missing or truncated.
        WarehouseVersionError: the manifest lists files written by another schema version.
    """
    root = Path(warehouse_dir).absolute()
    if missing_ok and not (root / MANIFEST_NAME).exists() and (root.is_dir() or not root.exists()):
        return {name: [] for name in TABLES}
    if not root.is_dir():
        what = "is a file, not a folder" if root.exists() else "does not exist"
        raise WarehouseNotFoundError(f"no warehouse at {root} (it {what}); run `hhparse import` first")
    marked = (root / MARKER_NAME).exists()
    if marked:
        _read_marker(root)
    try:
        manifest = _read_manifest_at(root)
    except WarehouseDamagedError:
        if marked or _looks_like_ours(root):
            raise
        raise WarehouseNotFoundError(
            f"no warehouse at {root} (its {MANIFEST_NAME} was not written by hhparse)"
        ) from None
    if manifest is None:
        if marked:
            return {name: [] for name in TABLES}
        raise WarehouseNotFoundError(
            f"no warehouse at {root} (no {MANIFEST_NAME}); run `hhparse import` first"
        )
    if manifest.schema_version != SCHEMA_VERSION and any(manifest.tables.values()):
        raise WarehouseVersionError(
            f"warehouse {root} was written with schema version {manifest.schema_version}, this "
            f"hhparse reads {SCHEMA_VERSION}: import the hand histories again into a new warehouse"
        )
    out: dict[str, list[str]] = {}
    for name in TABLES:
        paths = []
        for rel in manifest.tables.get(name, []):
            path = _listed_path(root, rel)
            if verify:
                _check_parquet(root, path, rel)
            paths.append(str(path))
        out[name] = paths
    return out


def listed_tables(warehouse_dir: Path | str) -> dict[str, dict[str, Path]]:
    """Every table the manifest lists (derived ones too), each file's name
    (``<table>/<file>.parquet``) mapped to where hhparse reads it; empty when nothing was
    published. Read after :func:`published_files` has vouched for the warehouse (nothing is
    verified here).

    Raises:
        WarehouseDamagedError: the manifest is unreadable.
    """
    root = Path(warehouse_dir).absolute()
    manifest = _read_manifest_at(root)
    if manifest is None:
        return {}
    return {name: {rel: _listed_path(root, rel) for rel in rels} for name, rels in manifest.tables.items()}


def _locked_message(root: Path) -> str:
    """The sentence for a warehouse another writer holds, naming that writer when its lock file
    says who it is (a ``hhparse import --watch`` does not finish by itself: it must be stopped)."""
    holder, pid, since = None, None, None
    with contextlib.suppress(OSError, ValueError, AttributeError):
        info = json.loads((root / LOCK_NAME).read_text(encoding="utf-8") or "{}")
        holder, pid, since = info.get("holder"), info.get("pid"), info.get("since")
    who = ", ".join(
        str(x)
        for x in (holder, f"pid {pid}" if isinstance(pid, int) else None, f"since {since}" if since else None)
        if x
    )
    text = f"warehouse {root} is being written by another process ({who or 'an import or compact still running?'})"
    if holder and "--watch" in str(holder):
        stop = f"`kill {pid}`" if isinstance(pid, int) else "kill it"
        return (
            f"{text}, which keeps running until it is stopped: stop it (Ctrl-C in its terminal, or "
            f"{stop}) and run the command again, or use another warehouse"
        )
    return f"{text}; wait for it to finish and run the command again"


# --------------------------------------------------------------------------------------------
# The writer
# --------------------------------------------------------------------------------------------


class Warehouse:
    """A warehouse folder opened for writing (exclusive lock held until :meth:`close`).

    Opening creates a new warehouse in a missing or empty folder, adopts one written by an
    older hhparse, finishes what a crashed writer left (see the module docstring) and checks that
    every listed file is there. ``notes`` says, in sentences, what opening did that a user
    should know.

    Raises:
        NotAWarehouseError: ``root`` is a file or a non-empty folder that is not a warehouse.
        WarehouseLockedError: another process is writing to it.
        WarehouseDamagedError: its marker, manifest or a listed file is unreadable.
        WarehouseVersionError: written by another schema version or a newer hhparse.
        OSError: the folder cannot be created or written (permissions, read-only, full disk).
    """

    def __init__(self, root: Path | str, *, holder: str | None = None) -> None:
        self.root = Path(root).absolute()
        self.notes: list[str] = []
        self._rows: dict[str, int] = {}  # rows of each file this writer wrote or looked at (immutable)
        self.commits = 0  # manifest replaces done by this writer (see _commit)
        kind = classify(self.root)
        if kind in ("missing", "empty"):
            self._create()
        self._lock_fh = self._take_lock(holder)
        try:
            kind = classify(self.root)  # again, under the lock: another process may have created it
            if kind == "empty":
                self._create()
            loaded = _read_manifest_at(self.root)
            self.manifest = loaded if loaded is not None else Manifest()
            if self.manifest.schema_version != SCHEMA_VERSION:
                raise WarehouseVersionError(
                    f"warehouse {self.root} has schema version {self.manifest.schema_version}, "
                    f"this hhparse writes {SCHEMA_VERSION}: import the hand histories again into a "
                    f"new warehouse"
                )
            for d in (FILES_DIR, STAGING_DIR):
                (self.root / d).mkdir(parents=True, exist_ok=True)
            if kind == "legacy":
                self._adopt()
            self._recover()
            self._verify()
        except BaseException:
            self.close()
            raise

    # -- lifecycle -------------------------------------------------------------------------

    def _create(self) -> None:
        """Make ``root`` a warehouse: the marker is written last, atomically (an interrupted
        creation leaves only names that still count as an empty folder)."""
        try:
            (self.root / STAGING_DIR).mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise NotAWarehouseError(
                f"cannot create the warehouse folder {self.root}: a path component is a file"
            ) from None
        marker = {
            "hhparse_warehouse": WAREHOUSE_FORMAT,
            "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
            "about": (
                "This folder is an hhparse warehouse. hhparse writes and deletes only the files its "
                "manifest.json names. Each table folder holds that table's Parquet files: read them "
                "with any Parquet tool, or with hhparse.warehouse() (see docs/reading-the-warehouse.md)."
            ),
        }
        _write_json_atomic(marker, self.root / STAGING_DIR / _MARKER_TMP, self.root / MARKER_NAME)

    def _take_lock(self, holder: str | None) -> Any:
        """Take the writer lock and write who holds it into the lock file (``holder``, the pid,
        since when), so that a second writer is told which process to wait for or stop."""
        try:
            fh = open(self.root / LOCK_NAME, "a+b")  # noqa: SIM115 - held for the object's life
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, str(self.root / LOCK_NAME)) from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as exc:
            fh.close()
            raise WarehouseLockedError(_locked_message(self.root)) from exc
        info = {"pid": os.getpid(), "holder": holder, "since": datetime.now().isoformat(timespec="seconds")}
        with contextlib.suppress(OSError):  # the note is a courtesy: the lock is what counts
            fh.truncate(0)
            fh.write(json.dumps(info).encode())
            fh.flush()
        return fh

    def close(self) -> None:
        """Release the writer lock (and clear the holder's note)."""
        fh = getattr(self, "_lock_fh", None)
        if fh is not None and not fh.closed:
            with contextlib.suppress(OSError):
                fh.truncate(0)
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            fh.close()

    def reload(self) -> None:
        """Read the manifest again and finish what a failed write left (under the lock still
        held): for a writer that stays open across imports (``hhparse import --watch``) after
        one of them failed part-way, so that its next import starts from what is on disk."""
        loaded = _read_manifest_at(self.root)
        self.manifest = loaded if loaded is not None else Manifest()
        self._recover()

    def __enter__(self) -> Warehouse:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- paths -----------------------------------------------------------------------------

    def stored(self, rel: str) -> Path:
        """Where the data file ``rel`` (``<table>/<file>.parquet``) is kept and read by hhparse."""
        return self.root / FILES_DIR / rel

    def exposed(self, rel: str) -> Path:
        """Where outside readers find the live file ``rel``: its table folder."""
        return self.root / rel

    def files_of(self, table: str) -> list[Path]:
        """Published files of ``table`` (absolute), in publication order."""
        return [_listed_path(self.root, rel) for rel in self.manifest.tables.get(table, [])]

    # -- manifest --------------------------------------------------------------------------

    def _write_manifest(self) -> None:
        _write_json_atomic(
            self.manifest.to_json(),
            self.root / STAGING_DIR / _MANIFEST_TMP,
            self.root / MANIFEST_NAME,
            replaced=self._count_commit,
        )

    def _count_commit(self) -> None:
        self.commits += 1

    def _commit(self, undo: Callable[[], None], made_visible: Callable[[], None]) -> None:
        """Replace the manifest: the commit point. If it did not happen, ``undo`` restores the
        manifest in memory and deletes the batch's files; once it has, an error that follows it
        (Ctrl-C the moment the replace returned, a failed directory fsync) must never undo it —
        the files are then live — so ``made_visible`` still runs and the error goes on."""
        before = self.commits
        try:
            self._write_manifest()
        except BaseException:
            if self.commits == before:
                undo()
            else:
                made_visible()
            raise
        made_visible()

    def _new_tag(self, kind: str) -> str:
        return f"{kind}{self.manifest.next_batch:08d}-{uuid.uuid4().hex[:8]}"

    def _announce(self, tag: str) -> None:
        """Record in the manifest that ``tag``'s files are about to be written: what lets a later
        writer delete them if this one dies before the commit."""
        self.manifest.pending.append(tag)
        self._write_manifest()

    # -- recovery --------------------------------------------------------------------------

    def _discard(self, tag: str) -> list[Path]:
        """Delete the files of the uncommitted batch ``tag`` (staged or stored, never exposed)."""
        names = re.compile(rf"^{re.escape(tag)}(-[0-9]{{4}})?\.parquet$")
        staged = re.compile(rf"^{re.escape(tag)}\.[a-z0-9_]+(-[0-9]{{4}})?\.parquet\.tmp$")
        removed: list[Path] = []
        live = {rel for rels in self.manifest.tables.values() for rel in rels} | set(self.manifest.retired)
        files = self.root / FILES_DIR
        folders = [files / name for name in {*TABLES, *DERIVED_TABLES, *self.manifest.tables}]
        for folder, pattern in [*((f, names) for f in folders), (self.root / STAGING_DIR, staged)]:
            with contextlib.suppress(FileNotFoundError):
                for entry in os.listdir(folder):
                    path = folder / entry
                    if pattern.match(entry) and f"{folder.name}/{entry}" not in live:
                        path.unlink(missing_ok=True)
                        removed.append(path)
        own = self.root / STAGING_DIR / tag  # (the folder of a tag of :meth:`stage`)
        if own.is_dir() and not own.is_symlink():
            for entry in os.listdir(own):
                (own / entry).unlink(missing_ok=True)
                removed.append(own / entry)
            with contextlib.suppress(OSError):  # (a file created since: the next writer tries again)
                own.rmdir()
        return removed

    def _recover(self, now: float | None = None) -> list[Path]:
        """Finish what a crashed writer left: delete the files of pending batches and the
        expired retired files, and make the table folders show exactly the live files."""
        now = time.time() if now is None else now
        removed: list[Path] = []
        changed = False
        for tag in list(self.manifest.pending):
            removed += self._discard(tag)
            self.manifest.pending.remove(tag)
            changed = True
        for tmp in (_MANIFEST_TMP, _MARKER_TMP):
            (self.root / STAGING_DIR / tmp).unlink(missing_ok=True)
        expired = [rel for rel, at in self.manifest.retired.items() if now - at > RETIRED_GRACE_SECONDS]
        live = {rel for rels in self.manifest.tables.values() for rel in rels}
        for rel in expired:
            self._hide(rel)
            if rel not in live:
                path = self.stored(rel)
                if path.exists():
                    path.unlink()
                    removed.append(path)
            del self.manifest.retired[rel]
            changed = True
        if changed:
            self._write_manifest()
        live = {rel for rels in self.manifest.tables.values() for rel in rels}
        for rel in self.manifest.retired:
            if rel not in live:  # (a damaged manifest could list a file as both)
                self._hide(rel)
        for rels in self.manifest.tables.values():
            for rel in rels:
                self._keep(rel)
                self._expose(rel)
        return removed

    def _keep(self, rel: str) -> None:
        """Give a live file that exists only in its table folder (a warehouse of an older hhparse,
        or one copied without ``.hhparse``) its kept name, so that retiring it later can take it
        out of the table folder while open connections still read it."""
        src, dst = self.exposed(rel), self.stored(rel)
        if dst.exists() or not src.exists():
            return
        dst.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dst)
        except OSError:
            os.replace(src, dst)
            self._expose(rel)

    def clean_orphans(self, now: float | None = None) -> list[Path]:
        """Run the clean-up a writer runs when it opens (see :meth:`_recover`) at time ``now``:
        returns the files deleted. Only files the manifest names are ever deleted."""
        return self._recover(now)

    def _verify(self) -> None:
        for rels in self.manifest.tables.values():
            for rel in rels:
                _check_parquet(self.root, _listed_path(self.root, rel), rel)

    # -- the table folders (outside readers) -----------------------------------------------

    def _expose(self, rel: str) -> None:
        """Make the live file ``rel`` visible in its table folder (hard link; a relative symbolic
        link or a copy where the file system has no hard links). Never fatal: the data is
        committed already; a failure is a note, and the next writer tries again."""
        try:
            self._link_into_table(rel)
        except OSError as exc:
            self._note_folder_problem(rel, exc)

    def _note_folder_problem(self, rel: str, exc: OSError) -> None:
        note = (
            f"could not update the table folder {self.root / rel.split('/')[0]} "
            f"({describe_os_error(exc)}); the warehouse itself is fine, but Parquet tools reading "
            f"that folder directly may see an old state until the next import or compact"
        )
        if note not in self.notes:
            self.notes.append(note)

    def _link_into_table(self, rel: str) -> None:
        src, dst = self.stored(rel), self.exposed(rel)
        if not src.exists() or os.path.lexists(dst):
            return
        dst.parent.mkdir(exist_ok=True)
        try:
            os.link(src, dst)
            return
        except OSError:
            pass
        try:
            os.symlink(os.path.relpath(src, dst.parent), dst)
            return
        except OSError:
            pass
        tmp = self.root / STAGING_DIR / f"{src.name}.copy.tmp"
        shutil.copyfile(src, tmp)
        os.replace(tmp, dst)

    def _hide(self, rel: str) -> None:
        """Remove the retired file ``rel`` from its table folder, if what is there is ours: the
        same file as the kept one (hard or symbolic link), or an identical copy of it. Never
        fatal, like :meth:`_expose`."""
        src, dst = self.stored(rel), self.exposed(rel)
        if not os.path.lexists(dst) or not src.exists():
            return
        try:
            ours = os.path.samefile(src, dst) or _same_bytes(src, dst)
        except OSError:
            ours = False
        if ours:
            try:
                dst.unlink()
            except OSError as exc:
                self._note_folder_problem(rel, exc)

    # -- adopting a warehouse of an older hhparse -----------------------------------------

    def _adopt(self) -> None:
        """Move a warehouse of the first format (data files in the table folders, no marker) to
        this layout, then mark it. Every step can be repeated, so a crash part-way is harmless.

        Listed files get their ``.hhparse/files`` name (a hard link when possible); retired files
        leave the table folders; files an older hhparse left after a crash (its exact batch and
        temp-file names, listed nowhere) are moved to ``.hhparse/quarantine`` — not deleted.
        """
        live = {rel for rels in self.manifest.tables.values() for rel in rels}
        for rel in sorted(live):
            self._keep(rel)
        for rel in sorted(self.manifest.retired):
            src, dst = self.exposed(rel), self.stored(rel)
            if src.exists() and not dst.exists():
                dst.parent.mkdir(parents=True, exist_ok=True)
                os.replace(src, dst)
        moved = 0
        known = live | set(self.manifest.retired)
        folders = [(self.root, _LEGACY_TMP_RE)] + [
            (self.root / name, None) for name in sorted({*TABLES, *self.manifest.tables})
        ]
        for folder, only in folders:
            if not folder.is_dir():
                continue
            for entry in sorted(os.listdir(folder)):
                ours = bool(_LEGACY_TMP_RE.match(entry)) or (
                    only is None and bool(_LEGACY_DATA_RE.match(entry))
                )
                if not ours or f"{folder.name}/{entry}" in known:
                    continue
                path = folder / entry
                if not path.is_file() or path.is_symlink():
                    continue
                place = self.root / QUARANTINE_DIR / (folder.name if folder != self.root else "") / entry
                place.parent.mkdir(parents=True, exist_ok=True)
                os.replace(path, place)
                moved += 1
        if moved:
            self.notes.append(
                f"moved {moved} file(s) an interrupted import of an older hhparse left in the "
                f"warehouse to {self.root / QUARANTINE_DIR} (not deleted; no table lists them)"
            )
        self._write_manifest()
        _write_json_atomic(
            {
                "hhparse_warehouse": WAREHOUSE_FORMAT,
                "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "adopted": "written by an older hhparse, adopted",
            },
            self.root / STAGING_DIR / _MARKER_TMP,
            self.root / MARKER_NAME,
        )

    # -- publishing ------------------------------------------------------------------------

    def _write_file(
        self, name: str, rel: str, table: pa.Table, metadata: Mapping[str, str] | None = None
    ) -> None:
        """Write ``rel`` into ``.hhparse/files`` through ``staging`` (temp name: the batch tag,
        the table and the part, which is what :meth:`_discard` looks for)."""
        stem = Path(rel).stem  # <tag> or <tag>-NNNN
        tmp = self.root / STAGING_DIR / f"{stem[:18]}.{name}{stem[18:]}.parquet.tmp"
        write_parquet_atomic(name, table, self.stored(rel), tmp, metadata)

    def publish(self, tables: dict[str, pa.Table], files: dict[str, dict[str, Any]]) -> None:
        """Atomically add a batch (non-empty tables) and the import progress it completes.

        ``files`` entries replace the manifest's progress records for those paths. Either all of
        it becomes visible (manifest replaced) or none of it (crash before the replace).
        """
        nonempty = {name: t for name, t in tables.items() if t.num_rows}
        for name, table in nonempty.items():
            check_schema(name, table)  # a programming error: before anything is announced

        def write(tag: str) -> dict[str, int]:
            for name, table in nonempty.items():
                self._write_file(name, f"{name}/{tag}.parquet", table)
            return {name: table.num_rows for name, table in nonempty.items()}

        self._publish_batch(files, write if nonempty else None)

    # -- batches written by other processes (a cluster's workers, issue #18) -----------------

    def stage(self) -> tuple[str, Path]:
        """Announce a new tag for files other processes write for this writer (a cluster's task
        results, :func:`staged_name`; a batch's files, :func:`write_batch_file`), and return it
        with its folder in ``staging``, created now. Announced first, like a batch: the next
        writer deletes that folder and all in it if this one dies, and :meth:`unstage` does
        when the import is over. Once the folder is gone, a late writer (a worker still running
        a task of a client that died) cannot create a file in it."""
        tag = self._new_tag("b")
        self._announce(tag)
        folder = self.root / STAGING_DIR / tag
        folder.mkdir()
        return tag, folder

    def unstage(self, tag: str) -> None:
        """Delete what is left under a tag of :meth:`stage` and forget it."""
        self._discard(tag)
        if tag in self.manifest.pending:
            self.manifest.pending.remove(tag)
            self._write_manifest()

    def publish_written(
        self, files: dict[str, dict[str, Any]], write: Callable[[str], dict[str, int]]
    ) -> None:
        """:meth:`publish` of a batch whose files another process writes (a cluster's worker,
        which holds its tables): ``write(tag)`` writes each non-empty table ``name`` to
        :func:`write_batch_file`'s place for ``tag`` and returns its rows by name. The batch is
        announced before, and committed after, exactly as :meth:`publish` does."""
        self._publish_batch(files, write)

    def _publish_batch(
        self, files: dict[str, dict[str, Any]], write: Callable[[str], dict[str, int]] | None
    ) -> None:
        """The one commit of a batch (:meth:`publish`, :meth:`publish_written`): its tag announced,
        ``write(tag)`` writing its tables' files (None: no table rows, progress only), the folders
        synced, then the manifest replaced; a failure before that deletes what the tag wrote."""
        batch = self.manifest.next_batch
        tag = self._new_tag("b")
        added: dict[str, str] = {}
        if write is not None:
            self._announce(tag)
            try:
                for name, n in write(tag).items():
                    if n:
                        rel = f"{name}/{tag}.parquet"
                        added[name] = rel
                        self._rows[rel] = n
                for name in added:
                    _fsync_dir(self.root / FILES_DIR / name)
            except BaseException:
                with contextlib.suppress(OSError):
                    self._discard(tag)  # the announcement stays: the next writer tries again
                raise
        for name, rel in added.items():
            self.manifest.tables.setdefault(name, []).append(rel)
        self.manifest.files.update(files)
        self.manifest.next_batch = batch + 1
        if write is not None:
            self.manifest.pending.remove(tag)
        self._commit(
            lambda: self._rollback(added, files, batch, tag if write is not None else None),
            lambda: self._swap_visible({}, {name: [rel] for name, rel in added.items()}),
        )

    def _rollback(
        self, added: dict[str, str], files: dict[str, dict[str, Any]], batch: int, tag: str | None
    ) -> None:
        """Undo in memory what a failed commit added (the manifest on disk was not replaced)."""
        for name, rel in added.items():
            with contextlib.suppress(ValueError):
                self.manifest.tables[name].remove(rel)
        for key in files:  # the record before is unknown here: drop it, the next open re-reads
            self.manifest.files.pop(key, None)
        self.manifest.next_batch = batch
        if tag is not None:
            self.manifest.pending.append(tag)
            with contextlib.suppress(OSError):
                self._discard(tag)

    def read_table(self, name: str, columns: list[str] | None = None) -> pa.Table:
        """All published rows of ``name`` in publication order (declared schema).

        Raises:
            WarehouseDamagedError: a listed file cannot be read as Parquet.
        """
        paths = self.files_of(name)
        if not paths:
            schema = arrow_schema(name)
            if columns is not None:
                schema = pa.schema([schema.field(c) for c in columns])
            return pa.Table.from_batches([], schema=schema)  # (empty_table() imports pandas)
        parts = [self.read_file(p, columns) for p in paths]
        return pa.concat_tables(parts)

    def read_file(self, path: Path, columns: list[str] | None = None) -> pa.Table:
        """One listed file; a file that is missing or not readable Parquet is a damaged warehouse."""
        with self._reading(path):
            return pq.read_table(path, columns=columns)

    def iter_batches(
        self, name: str, columns: list[str], batch_size: int = 65_536
    ) -> Iterator[pa.RecordBatch]:
        """The rows of ``name``, a record batch at a time (memory stays flat)."""
        for path in self.files_of(name):
            with self._reading(path):
                yield from pq.ParquetFile(path).iter_batches(batch_size=batch_size, columns=columns)

    @contextlib.contextmanager
    def _reading(self, path: Path) -> Iterator[None]:
        """Map the failures of reading a listed file: missing or not Parquet is damage (exit 3);
        an error of the system (permissions, I/O) stays an :class:`OSError`."""
        try:
            yield
        except FileNotFoundError:
            raise _damaged(self.root, f"{path}, listed in {MANIFEST_NAME}, is missing") from None
        except pa.ArrowException as exc:
            if isinstance(exc, OSError) and exc.errno is not None:
                raise
            raise _damaged(self.root, f"{path} cannot be read as Parquet ({exc})") from None

    def _write_part(self, name: str, stem: str, parts: list[pa.Table]) -> str:
        rel = f"{name}/{stem}.parquet"
        self._write_file(name, rel, pa.concat_tables(parts))
        return rel

    def replace_tables(self, tables: dict[str, list[pa.Table]]) -> None:
        """Replace every published file of each named table by new files holding ``tables[name]``.

        For a rewrite of whole tables (``hhparse ev --recompute``), with :meth:`compact`'s protocol:
        the new files are announced and written first, then published with one manifest swap; the
        old ones are retired, so open connections keep reading them for a while, and leave the
        table folders before the new ones enter (an outside reader never sees a row twice).
        """
        batch = self.manifest.next_batch
        tag = self._new_tag("c")  # a rewrite, like compact: the manifest knows only batch and compact tags
        self._announce(tag)
        new_tables: dict[str, list[str]] = {}
        try:
            for name, parts in tables.items():
                new_tables[name] = [
                    self._write_part(name, f"{tag}-{i:04d}", [t]) for i, t in enumerate(parts) if t.num_rows
                ]
                _fsync_dir(self.root / FILES_DIR / name)
        except BaseException:
            with contextlib.suppress(OSError):
                self._discard(tag)
            raise
        old = {name: list(self.manifest.tables.get(name, [])) for name in new_tables}
        retired_at = time.time()
        for name, rels in new_tables.items():
            self.manifest.tables[name] = rels
            for rel in old[name]:
                self.manifest.retired[rel] = retired_at
        self.manifest.pending.remove(tag)
        self.manifest.next_batch = batch + 1
        self._commit(lambda: self._undo_rewrite(old, batch, tag), lambda: self._swap_visible(old, new_tables))

    def update_derived(
        self, updates: Mapping[str, tuple[Iterable[pa.Table], Iterable[str]]]
    ) -> dict[str, list[str]]:
        """Add files to the derived tables named in ``updates``
        (:data:`~hhparse.tables.schema.DERIVED_TABLES`) and retire their files listed beside them,
        with :meth:`compact`'s protocol and one commit for all of them: announced, written (one file
        per table of each iterable, consumed one at a time so that memory holds one), then one
        manifest swap; the retired files stay readable for connections opened before. A table whose
        schema metadata names its ``source_file`` keeps it in the file's metadata, and is written
        even when empty: the file then records that its source has no such rows (else that source
        would count as not covered, and be built again by every refresh); an empty table without it
        is skipped. Returns each table's new files (``<table>/<file>.parquet``)."""
        unknown = [name for name in updates if name not in DERIVED_TABLES]
        if unknown:
            raise ValueError(f"{', '.join(map(repr, unknown))} not a derived table")
        batch = self.manifest.next_batch
        tag = self._new_tag("c")
        self._announce(tag)
        made: dict[str, list[str]] = {}
        gone: dict[str, list[str]] = {}
        part = 0
        try:
            for name, (tables, drop) in updates.items():
                gone[name] = list(drop)
                rels = made.setdefault(name, [])
                for table in tables:
                    source = (table.schema.metadata or {}).get(b"source_file")
                    if table.num_rows or source is not None:
                        rel = f"{name}/{tag}-{part:04d}.parquet"
                        part += 1
                        meta = {"source_file": source.decode()} if source is not None else None
                        self._write_file(name, rel, table, meta)
                        self._rows[rel] = table.num_rows
                        rels.append(rel)
                if rels:
                    _fsync_dir(self.root / FILES_DIR / name)
        except BaseException:
            with contextlib.suppress(OSError):
                self._discard(tag)
            raise
        old = {name: list(self.manifest.tables.get(name, [])) for name in updates}
        for name in updates:
            self.manifest.tables[name] = [rel for rel in old[name] if rel not in gone[name]] + made[name]
        retired_at = time.time()
        for rels in gone.values():
            for rel in rels:
                self.manifest.retired[rel] = retired_at
        self.manifest.pending.remove(tag)
        self.manifest.next_batch = batch + 1
        self._commit(
            lambda: self._undo_rewrite(old, batch, tag, gone),
            lambda: self._swap_visible(gone, made),
        )
        return made

    def drop_superseded_rejects(self) -> int:
        """Rewrite the ``rejects`` files that hold superseded rows without them; the row count.

        The ``rejects`` view already leaves them out; this is for outside readers, who glob the
        table folder: a hand read whole later must not stay listed as rejected there either. Only
        the files holding such rows are rewritten, with :meth:`compact`'s protocol.
        """
        stale = set(superseded_rejects({"files": self.manifest.files}))
        if not stale:
            return 0
        rels = list(self.manifest.tables.get("rejects", []))
        keys = ["source", "line", "content_hash"]
        changed: dict[str, pa.Table] = {}
        dropped = 0
        for rel, path in zip(rels, self.files_of("rejects"), strict=True):
            key = self.read_file(path, keys).to_pydict()
            keep = [k not in stale for k in zip(key["source"], key["line"], key["content_hash"], strict=True)]
            if not all(keep):
                changed[rel] = self.read_file(path).filter(pa.array(keep, pa.bool_()))
                dropped += len(keep) - sum(keep)
        if not changed:
            return 0
        batch = self.manifest.next_batch
        tag = self._new_tag("c")
        self._announce(tag)
        new: dict[str, str] = {}
        try:
            for i, (rel, t) in enumerate(changed.items()):
                if t.num_rows:
                    new[rel] = self._write_part("rejects", f"{tag}-{i:04d}", [t])
            _fsync_dir(self.root / FILES_DIR / "rejects")
        except BaseException:
            with contextlib.suppress(OSError):
                self._discard(tag)
            raise
        retired_at = time.time()
        self.manifest.tables["rejects"] = [
            new.get(rel, rel) for rel in rels if rel not in changed or rel in new
        ]
        for rel in changed:
            self.manifest.retired[rel] = retired_at
        self.manifest.pending.remove(tag)
        self.manifest.next_batch = batch + 1
        self._commit(
            lambda: self._undo_rewrite({"rejects": rels}, batch, tag, {"rejects": list(changed)}),
            lambda: self._swap_visible({"rejects": list(changed)}, {"rejects": list(new.values())}),
        )
        return dropped

    def compact(self, target_rows: int = 2_000_000) -> dict[str, tuple[int, int]]:
        """Merge each table's batch files into files of up to ``target_rows`` rows.

        Rows and their order are unchanged (but for superseded rejects, which go first). New files are published with one manifest swap. The
        old files are retired, not deleted: they leave the table folders at once (outside readers
        never see a row twice) but stay readable for connections opened before, until the first
        write after :data:`RETIRED_GRACE_SECONDS`. Returns ``{table: (files before, files after)}``.
        """
        self.drop_superseded_rejects()  # (an import stopped before it dropped them)
        todo = {name: list(self.manifest.tables.get(name, [])) for name in TABLES}
        return self._merge({name: rels for name, rels in todo.items() if len(rels) > 1}, target_rows)

    def compact_tail(
        self,
        *,
        base_rows: int = TAIL_BASE_ROWS,
        fanout: int = TAIL_FANOUT,
        max_rows: int = TAIL_MAX_ROWS,
        grace: float = TAIL_RETIRED_GRACE_SECONDS,
    ) -> dict[str, tuple[int, int]]:
        """Merge the small files at the end of each table, size-tiered, so that a writer that
        publishes many small batches (``hhparse import --watch``: one a hand or so) keeps every
        table at a few dozen files without rewriting its large ones.

        A table's files are tiered by rows: under ``base_rows``, under ``base_rows * fanout``...
        up to ``max_rows``. When its last ``fanout`` or more files are all under a tier's
        limit, that trailing run is merged into one file (rows and order unchanged, one manifest
        swap, as :meth:`compact`). Each row is so rewritten a few times at most, and files of
        ``max_rows`` rows or more are never touched. The replaced files are retired with a
        ``grace`` of their own (shorter than :data:`RETIRED_GRACE_SECONDS`: there are thousands a
        day, each listed in the manifest until it expires). Returns ``{table: (files before,
        files after)}`` for the tables merged (empty when none needed it).
        """
        groups: dict[str, list[str]] = {}
        for name in TABLES:
            rels = self.manifest.tables.get(name, [])
            best: list[str] = []
            limit = base_rows
            while limit <= max_rows:
                run = self._trailing_run(rels, limit)
                if len(run) >= fanout:
                    best = run
                limit *= fanout
            if best:
                groups[name] = best
        if not groups:
            return {}
        return self._merge(groups, None, grace=grace)

    def _trailing_run(self, rels: list[str], limit: int) -> list[str]:
        """The longest run of files at the end of ``rels`` that each hold fewer than ``limit`` rows."""
        n = len(rels)
        while n > 0 and self.rows_of(rels[n - 1]) < limit:
            n -= 1
        return rels[n:]

    def rows_of(self, rel: str) -> int:
        """Rows of the listed file ``rel`` (from its Parquet footer once, then remembered: a data
        file never changes)."""
        rows = self._rows.get(rel)
        if rows is None:
            path = _listed_path(self.root, rel)
            with self._reading(path):
                rows = int(pq.ParquetFile(path).metadata.num_rows)
            self._rows[rel] = rows
        return rows

    def _merge(
        self, groups: dict[str, list[str]], target_rows: int | None, *, grace: float = RETIRED_GRACE_SECONDS
    ) -> dict[str, tuple[int, int]]:
        """Replace, in each table of ``groups``, the run of files listed there (the whole table,
        or its last files) by files of up to ``target_rows`` rows (``None``: one file) holding the
        same rows in the same order; one manifest swap publishes every table. Returns
        ``{table: (files before, files after)}`` for every table (unchanged ones too when
        ``target_rows`` is given, as :meth:`compact` reports them)."""
        report: dict[str, tuple[int, int]] = {}
        if target_rows is not None:
            for name in TABLES:
                n = len(self.manifest.tables.get(name, []))
                report[name] = (n, n)
        if not groups:
            return report
        batch = self.manifest.next_batch
        tag = self._new_tag("c")
        self._announce(tag)
        new_tables: dict[str, list[str]] = {}
        try:
            for name, rels in groups.items():
                new_rels: list[str] = []
                pending: list[pa.Table] = []
                rows = 0
                for rel in rels:
                    t = self.read_file(_listed_path(self.root, rel))
                    if rows and target_rows is not None and rows + t.num_rows > target_rows:
                        new_rels.append(self._write_part(name, f"{tag}-{len(new_rels):04d}", pending))
                        self._rows[new_rels[-1]] = rows
                        pending, rows = [], 0
                    pending.append(t)
                    rows += t.num_rows
                new_rels.append(self._write_part(name, f"{tag}-{len(new_rels):04d}", pending))
                self._rows[new_rels[-1]] = rows
                _fsync_dir(self.root / FILES_DIR / name)
                new_tables[name] = new_rels
        except BaseException:
            with contextlib.suppress(OSError):
                self._discard(tag)
            raise
        old = {name: list(self.manifest.tables[name]) for name in groups}
        # a grace shorter than the usual one is recorded as an earlier retirement: the manifest's
        # format (and what any hhparse reading it does) stays the same
        retired_at = time.time() - (RETIRED_GRACE_SECONDS - grace)
        for name, rels in new_tables.items():
            kept = old[name][: len(old[name]) - len(groups[name])]
            self.manifest.tables[name] = kept + rels
            for rel in groups[name]:
                self.manifest.retired[rel] = retired_at
            report[name] = (len(old[name]), len(kept) + len(rels))
        self.manifest.pending.remove(tag)
        self.manifest.next_batch = batch + 1
        self._commit(
            lambda: self._undo_rewrite(old, batch, tag, groups),
            lambda: self._swap_visible(groups, new_tables),
        )
        return report

    def _undo_rewrite(
        self, old: dict[str, list[str]], batch: int, tag: str, replaced: dict[str, list[str]] | None = None
    ) -> None:
        """Undo in memory what a failed rewrite commit (compact, compact_tail, replace_tables)
        changed, and delete its new files (the manifest on disk was not replaced). ``old``: each
        table's list before; ``replaced``: the files of it that were retired (default: all)."""
        for name, rels in old.items():
            self.manifest.tables[name] = rels
        for rels in (replaced if replaced is not None else old).values():
            for rel in rels:
                self.manifest.retired.pop(rel, None)
        self.manifest.next_batch = batch
        self.manifest.pending.append(tag)
        with contextlib.suppress(OSError):
            self._discard(tag)

    def _swap_visible(self, old: dict[str, list[str]], new: dict[str, list[str]]) -> None:
        """The table folders after a rewrite: the old files leave first (a crash in between shows
        fewer rows, never a row twice), then the new ones come in."""
        for rels in old.values():
            for rel in rels:
                self._hide(rel)
                self._rows.pop(rel, None)
        for rels in new.values():
            for rel in rels:
                self._expose(rel)


def _same_bytes(a: Path, b: Path) -> bool:
    if a.stat().st_size != b.stat().st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        while True:
            x, y = fa.read(1 << 20), fb.read(1 << 20)
            if x != y:
                return False
            if not x:
                return True
