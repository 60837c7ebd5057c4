"""Time every report on a large synthetic warehouse (default 1,000,000 hands; target < 2 s each).

Usage::

    .venv/bin/python bench/reports.py                      # 1 M hands: hhparse synth -> hhparse import
    .venv/bin/python bench/reports.py --hands 100000       # smaller
    .venv/bin/python bench/reports.py --source rows        # rows generated directly (seconds to build)
    .venv/bin/python bench/reports.py --warehouse WH       # an existing warehouse (bench/replicate.py)

Two ways to build the warehouse (reused when it already holds the requested number of hands):

* ``pipeline`` (default): ``hhparse synth`` text imported by the real importer (parse -> referee
  -> tables); realistic in every column. Builds once (minutes for 1 M hands), then reused.
* ``rows``: schema-conformant Parquet written straight from numpy, six players a hand,
  with the referee's flags drawn at realistic rates and money that balances (nets sum to minus
  the rake, awards plus rake equal the pot) so the data tests hold too. Seconds for 1 M hands.

Reports time the SQL and the DataFrame conversion; the graph also times the PNG rendering.

``--cli`` times each report as the user runs it instead: the ``hhparse report ...`` command, a
fresh process end to end (start-up, the query, the output written: the terminal table at a fixed
width, CSV, JSON, the HTML page to a file), its standard output to a file. Wall seconds, CPU
seconds of the process (DuckDB's threads and any child together, from ``wait4``) and its peak RSS,
medians of ``--repeat`` rounds; ``--sql`` adds the SQL-only figure of each case (``--isolate``'s)
as a column. With several ``--hhparse`` executables (a "before" build and this one), each round
runs every one of them, in turn and alternating who goes first, so both see the same load::

    .venv/bin/python bench/reports.py --warehouse WH --cli --only summary \\
        --hhparse /work/benchn/.venv/bin/hhparse .venv/bin/hhparse --repeat 5
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd
import pyarrow as pa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hhparse.cli.replay_cmd import html_report  # noqa: E402
from hhparse.reports import REPORTS, data_tests, report, warehouse  # noqa: E402
from hhparse.reports.output import graph_image  # noqa: E402
from hhparse.tables.schema import MANIFEST_NAME, SCHEMA_VERSION, TABLES, arrow_schema  # noqa: E402
from hhparse.tables.store import Warehouse  # noqa: E402

SEATS = 6
POSITIONS = np.array(["BTN", "SB", "BB", "UTG", "MP", "CO"])
RANKS = np.array(list("A23456789TJQK"))
SUITS = np.array(list("cdhs"))


def _hands_in(root: Path) -> int:
    """Hands in the warehouse at ``root``; -1 when there is none (or it was written by another
    schema version: then it is deleted, to be rebuilt)."""
    if not (root / MANIFEST_NAME).exists():
        return -1
    version = json.loads((root / MANIFEST_NAME).read_text(encoding="utf-8")).get("schema_version")
    if version != SCHEMA_VERSION:
        print(f"{root} has schema version {version}, not {SCHEMA_VERSION}: rebuilding", file=sys.stderr)
        shutil.rmtree(root)
        return -1
    con = warehouse(root)
    n = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    return int(n)


def _batch(rng: np.random.Generator, start: int, n: int, t0: float, names: np.ndarray) -> dict[str, pa.Table]:
    """``n`` hands numbered from ``start``: every table the reports read, as Arrow tables."""
    ids = np.arange(start, start + n)
    hand_id = ids.astype(str)
    chips = rng.random(n) < 0.1
    unit = np.where(chips, "chips", "USD")
    bb = np.where(chips, rng.choice([30, 60, 100], n), rng.choice([2, 10, 25, 100], n))
    # Start times: 30-90 s apart, with a break of an hour or more every ~300 hands.
    gaps = rng.integers(30, 90, n) + (rng.random(n) < 1 / 300) * 3600
    start_s = t0 + np.cumsum(gaps)
    exposed = np.char.add(rng.choice(RANKS, n), rng.choice(SUITS, n))

    # Players: seat 1 is always the hero; the others drawn from a pool.
    player = rng.choice(names, (n, SEATS))
    player[:, 0] = "Hero"
    pos = np.tile(POSITIONS, (n, 1))
    rot = rng.integers(0, SEATS, n)
    pos = np.take_along_axis(pos, (np.arange(SEATS)[None, :] + rot[:, None]) % SEATS, axis=1)
    vpip = rng.random((n, SEATS)) < 0.28
    pfr = vpip & (rng.random((n, SEATS)) < 0.45)
    saw_flop = vpip & (rng.random((n, SEATS)) < 0.7)
    wtsd = saw_flop & (rng.random((n, SEATS)) < 0.4)
    # Money: everyone in puts in 0..10 bb, blinds 1 bb; the winner takes the pot minus rake.
    contrib = np.where(vpip, rng.integers(1, 10, (n, SEATS)), 0) * bb[:, None]
    contrib += np.where(pos == "BB", bb[:, None], 0) + np.where(pos == "SB", bb[:, None] // 2, 0)
    total = contrib.sum(axis=1)
    rake = np.where(chips, 0, np.minimum(total // 20, 300))
    winner = np.argmax(contrib + rng.random((n, SEATS)), axis=1)
    won = np.zeros((n, SEATS), dtype=np.int64)
    won[np.arange(n), winner] = total - rake
    net = won - contrib
    hilo_low = rng.random(n) < 0.5

    hand_rows = {
        "site": np.full(n, "PokerStars"),
        "hand_id": hand_id,
        "hand_kind": np.full(n, "Hand"),
        "game": np.full(n, "courchevel"),
        "hilo": np.ones(n, bool),
        "structure": np.full(n, "PL"),
        "game_label": np.full(n, "Courchevel Hi/Lo Pot Limit"),
        "unit": unit,
        "unit_scale": np.where(chips, 1, 100).astype(np.int16),
        "currency": np.where(chips, None, "USD"),
        "play_money": np.zeros(n, bool),
        "small_blind": bb // 2,
        "big_blind": bb,
        "tournament_id": np.where(chips, "T1", None),
        "buyin_label": np.where(chips, "$10+$1 USD", None),
        "max_seats": np.full(n, SEATS, np.int16),
        "zoom": np.zeros(n, bool),
        "table_name": np.char.add("Table ", (ids // 500).astype(str)),
        "button_seat": np.ones(n, np.int16),
        "start_utc": pa.array((start_s * 1e6).astype("int64"), pa.timestamp("us", tz="UTC")),
        "local_time": pa.array((start_s * 1e6).astype("int64"), pa.timestamp("us")),
        "time_zone": np.full(n, "UTC"),
        "n_players": np.full(n, SEATS, np.int16),
        "total_pot": total,
        "rake": rake,
        "runs": np.ones(n, np.int8),
        "exposed_card": exposed,
        "board": pa.array([[e] for e in exposed], pa.list_(pa.string())),
        "cancelled": np.zeros(n, bool),
        "warning_codes": pa.array([[]] * n, pa.list_(pa.string())),
        "source": np.full(n, "synthetic.txt"),
        "line": ids,
        "content_hash": hand_id,
    }
    flat = {
        "hand_id": np.repeat(hand_id, SEATS),
        "player": player.ravel(),
        "position": pos.ravel(),
        "vpip": vpip.ravel(),
        "pfr": pfr.ravel(),
        "saw_flop": saw_flop.ravel(),
        "went_to_showdown": wtsd.ravel(),
        "net": net.ravel(),
        "collected": won.ravel(),
        "contrib": contrib.ravel(),
    }
    m = n * SEATS
    r = rng.random((8, m))
    is_winner = flat["collected"] > 0
    sd = flat["went_to_showdown"]
    holes = np.char.add(rng.choice(RANKS, (m, 5)), rng.choice(SUITS, (m, 5)))
    hero = flat["player"] == "Hero"
    player_rows = {
        "site": np.full(m, "PokerStars"),
        "hand_id": flat["hand_id"],
        "seat": np.tile(np.arange(1, SEATS + 1, dtype=np.int16), n),
        "player": flat["player"],
        "is_hero": hero,
        "position": flat["position"],
        "dealt_in": np.ones(m, bool),
        "starting_stack": np.full(m, 10_000),
        "hole_cards": pa.array(
            [list(h) if k else None for h, k in zip(holes, hero | sd, strict=True)], pa.list_(pa.string())
        ),
        "contributed_preflop": flat["contrib"],
        "collected": flat["collected"],
        "net": flat["net"],
        "allin_ev": flat["net"],  # no all-in EV drawn: allin_ev = net (data test allin_ev_sums_to_minus_rake)
        "vpip": flat["vpip"],
        "pfr": flat["pfr"],
        "three_bet_opportunity": r[0] < 0.2,
        "three_bet": (r[0] < 0.2) & (r[1] < 0.3),
        "fold_to_three_bet_opportunity": flat["pfr"] & (r[2] < 0.2),
        "fold_to_three_bet": flat["pfr"] & (r[2] < 0.2) & (r[3] < 0.5),
        "steal_opportunity": r[4] < 0.15,
        "steal": (r[4] < 0.15) & flat["pfr"],
        "fold_to_steal_opportunity": r[5] < 0.1,
        "fold_to_steal": (r[5] < 0.1) & ~flat["vpip"],
        "cbet_opportunity": flat["pfr"] & flat["saw_flop"],
        "cbet": flat["pfr"] & flat["saw_flop"] & (r[6] < 0.6),
        "fold_to_cbet_opportunity": ~flat["pfr"] & flat["saw_flop"] & (r[6] < 0.5),
        "fold_to_cbet": ~flat["pfr"] & flat["saw_flop"] & (r[6] < 0.2),
        "postflop_bets": (flat["saw_flop"] * rng.integers(0, 3, m)).astype(np.int16),
        "postflop_raises": (flat["saw_flop"] * rng.integers(0, 2, m)).astype(np.int16),
        "postflop_calls": (flat["saw_flop"] * rng.integers(0, 3, m)).astype(np.int16),
        "postflop_checks": (flat["saw_flop"] * rng.integers(0, 3, m)).astype(np.int16),
        "postflop_folds": (flat["saw_flop"] & ~sd & ~is_winner).astype(np.int16),
        "saw_flop": flat["saw_flop"],
        "went_to_showdown": sd,
        "won_at_showdown": sd & is_winner,
        "won_high": is_winner,
        "won_low": is_winner & sd & (r[7] < 0.5),
        "scooped": is_winner & sd & (r[7] < 0.3),
        "quartered": is_winner & sd & (r[7] > 0.9),
        "showdown_won": np.where(sd, flat["collected"], 0),
        "nonshowdown_won": np.where(sd, 0, flat["collected"]),
        "high_won": flat["collected"],
    }
    awards = {
        "site": np.full(n, "PokerStars"),
        "hand_id": hand_id,
        "half": np.full(n, "whole"),
        "amount": total - rake,
        "eligible": pa.array([list(p) for p in player], pa.list_(pa.string())),
        "winners": pa.array([[w] for w in player[np.arange(n), winner]], pa.list_(pa.string())),
        "amounts": pa.array([[a] for a in (total - rake)], pa.list_(pa.int64())),
        "descriptions": pa.array([[""]] * n, pa.list_(pa.string())),
    }
    pots = {"site": awards["site"], "hand_id": hand_id, "amount": total, "eligible": awards["eligible"]}
    sd_idx = np.nonzero(sd)[0]
    showdowns = {
        "site": np.full(len(sd_idx), "PokerStars"),
        "hand_id": flat["hand_id"][sd_idx],
        "player": flat["player"][sd_idx],
        "cards": pa.array([list(holes[i]) for i in sd_idx], pa.list_(pa.string())),
        "high": np.full(len(sd_idx), "a pair"),
        "high_rank": np.ones(len(sd_idx), np.int64),
        "low": np.where(hilo_low[sd_idx // SEATS], "8,7,5,3,A", None),
        "low_rank": np.where(hilo_low[sd_idx // SEATS], 1, None),
    }
    # Actions: blinds, then one action per player pre-flop.
    k = 2 + SEATS
    a_hand = np.repeat(hand_id, k)
    a_seat = np.tile(np.r_[1, 2, np.arange(1, SEATS + 1)], n)
    a_kind = np.tile(np.r_[["small blind", "big blind"], ["call"] * SEATS], n)
    actions = {
        "site": np.full(n * k, "PokerStars"),
        "hand_id": a_hand,
        "seq": np.tile(np.arange(k, dtype=np.int32), n),
        "street": np.zeros(n * k, np.int8),
        "player": player[np.repeat(np.arange(n), k), a_seat - 1],
        "seat": a_seat.astype(np.int16),
        "action": a_kind,
        "amount": np.repeat(bb, k),
        "to_amount": np.repeat(bb, k),
        "all_in": np.zeros(n * k, bool),
        "pot_before": np.repeat(bb, k) * np.tile(np.arange(k), n),
        "stack_before": np.full(n * k, 10_000),
        "faced": np.repeat(bb, k),
        "line": np.tile(np.arange(k), n),
    }
    by_hand = {
        "hand_players": (player_rows, np.repeat(np.arange(n), SEATS)),
        "awards": (awards, np.arange(n)),
        "pots": (pots, np.arange(n)),
        "showdowns": (showdowns, sd_idx // SEATS),
        "actions": (actions, np.repeat(np.arange(n), k)),
    }
    for name, (cols, hand_of_row) in by_hand.items():
        _copy_hand_columns(name, cols, hand_rows, hand_of_row)
    return {
        "hands": _table("hands", hand_rows, n),
        "hand_players": _table("hand_players", player_rows, m),
        "awards": _table("awards", awards, n),
        "pots": _table("pots", pots, n),
        "showdowns": _table("showdowns", showdowns, len(sd_idx)),
        "actions": _table("actions", actions, n * k),
    }


def _copy_hand_columns(
    name: str, cols: dict[str, object], hands: dict[str, object], rows: np.ndarray
) -> None:
    """Add the columns ``name`` copies from ``hands`` (``from_hands``): row i gets hand ``rows[i]``."""
    for column in TABLES[name].hand_copies:
        value = hands[column]
        cols[column] = value.take(pa.array(rows)) if isinstance(value, pa.Array) else np.asarray(value)[rows]


def _table(name: str, cols: dict[str, object], rows: int) -> pa.Table:
    """A table in the declared schema; undeclared-here columns get zeros, falses or nulls."""
    schema = arrow_schema(name)
    arrays = []
    for field in schema:
        if field.name in cols:
            arrays.append(
                pa.array(cols[field.name], field.type)
                if not isinstance(cols[field.name], pa.Array)
                else cols[field.name].cast(field.type)
            )
        elif field.nullable:
            arrays.append(pa.nulls(rows, field.type))
        elif pa.types.is_boolean(field.type):
            arrays.append(pa.array(np.zeros(rows, bool)))
        elif pa.types.is_integer(field.type):
            arrays.append(pa.array(np.zeros(rows, np.int64)).cast(field.type))
        else:
            arrays.append(pa.array([""] * rows, field.type))
    return pa.Table.from_arrays(arrays, schema=schema)


def build_rows(root: Path, hands: int, seed: int = 1) -> None:
    """Write ``hands`` synthetic hands straight to Parquet, 250,000 per batch."""
    rng = np.random.default_rng(seed)
    names = np.array([f"player{i:04d}" for i in range(3000)])
    t0 = datetime(2024, 1, 1, tzinfo=UTC).timestamp()
    with Warehouse(root) as wh:
        done = 0
        while done < hands:
            n = min(250_000, hands - done)
            tables = _batch(rng, done, n, t0 + done * 60, names)
            wh.publish(tables, {})
            done += n
            print(f"  wrote {done:,} hands", file=sys.stderr, flush=True)


def build_pipeline(root: Path, hands: int) -> None:
    """``hhparse synth`` text, then the real importer."""
    from hhparse.importer import import_paths
    from hhparse.synth import SynthConfig, write

    text_dir = root.parent / f"{root.name}-text"
    write(SynthConfig(hands=hands, seed=1), directory=text_dir)
    import_paths([text_dir], root, jobs=os.cpu_count() or 1)


def _isolated(root: Path, repeat: int, name: str, kw: dict[str, object]) -> dict[str, Any]:
    """One case timed in a fresh process of this script (``--one``): its own CPU and peak RSS."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--warehouse",
            str(root),
            "--repeat",
            str(repeat),
            "--one",
            name,
            json.dumps(kw),
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def _label(name: str, kw: dict[str, object]) -> str:
    flags = "".join(f" --{k.replace('_', '-')} {v}" for k, v in kw.items() if k not in ("hand_id", "html"))
    return name + flags + (" (HTML page)" if kw.get("html") else "")


def _run(con: duckdb.DuckDBPyConnection, name: str, kw: dict[str, object]) -> pd.DataFrame:
    """One case as the CLI makes it: the report's rows, then the graph's PNG, or with ``html`` the
    report's HTML page (``report NAME --format html``: the net-won graph's lines, the embedded
    replays of a hand list)."""
    kw = dict(kw)
    page = kw.pop("html", False)
    df = report(name, con, **kw)  # type: ignore[arg-type]
    if page:
        html_report(con, name, df, title=f"hhparse {name}", filters=kw, hand_id=kw.get("hand_id"))  # type: ignore[arg-type]
    elif name == "graph":
        graph_image(df, "png")
    return df


def _one(root: Path, name: str, kw: dict[str, object], repeat: int) -> None:
    """One report, ``repeat`` times, in this (fresh) process: a JSON line with its median time,
    its CPU seconds per run and the process's peak RSS (the child of ``--isolate``)."""
    con = warehouse(root)
    times, rows = [], 0
    cpu = time.process_time()
    for _ in range(repeat):
        t = time.perf_counter()
        df = _run(con, name, kw)
        times.append(time.perf_counter() - t)
        rows = len(df)
    print(
        json.dumps(
            {
                "best_s": round(min(times), 3),
                "median_s": round(statistics.median(times), 3),
                "cpu_s_per_run": round((time.process_time() - cpu) / repeat, 2),
                "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                "rows": rows,
            }
        )
    )


OUTPUTS = ("table80", "table160", "csv", "json")
"""What ``--cli`` writes for each case (``--outputs``): the terminal table at 80 and 160 columns
(``COLUMNS``; standard output is a file, so no colour), CSV and JSON. An HTML case writes its page."""


def _cli_args(name: str, kw: dict[str, object]) -> list[str]:
    """The ``hhparse report`` arguments of a case (the keyword arguments of :func:`report`)."""
    args = [name]
    for key, value in kw.items():
        if key == "html":
            continue
        if key == "hand_id":
            args.append(str(value))
        elif value is True:
            args.append(f"--{key.replace('_', '-')}")
        else:
            args += [f"--{key.replace('_', '-')}", str(value)]
    return args


def _timed(cmd: list[str], env: dict[str, str], stdout: Path) -> dict[str, float]:
    """Run ``cmd`` with its standard output to ``stdout``: wall and CPU seconds (the process and
    its threads, and any child it waited for: ``wait4``'s resource usage) and peak RSS."""
    with stdout.open("wb") as out:
        t = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        assert proc.stderr is not None
        err = proc.stderr.read()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{err.decode(errors='replace')}")
    return {
        "wall_s": wall,
        "cpu_s": usage.ru_utime + usage.ru_stime,
        "peak_rss_mb": usage.ru_maxrss / 1024,
        "bytes": stdout.stat().st_size,
    }


def cli_bench(
    root: Path,
    cases: list[tuple[str, dict[str, object]]],
    exes: list[Path],
    outputs: list[str],
    repeat: int,
    sql: bool,
) -> dict[str, dict[str, dict[str, float]]]:
    """Each case as the ``hhparse report`` command, every output of ``outputs`` (a page case: its
    HTML page), ``repeat`` rounds, the executables of a round in turn; medians per executable."""
    import tempfile

    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="hhparse-bench-") as tmp:
        scratch = Path(tmp)
        for name, kw in cases:
            variants = (
                [("html", ["--format", "html", "--out"])] if kw.get("html") else [(o, []) for o in outputs]
            )
            sql_s = None
            if sql:
                sql_s = _isolated(root, repeat, name, kw)
            for output, extra in variants:
                env = dict(os.environ)
                env.pop("NO_COLOR", None)
                args = [*_cli_args(name, kw), "--warehouse", str(root)]
                if output.startswith("table"):
                    env["COLUMNS"] = output.removeprefix("table")
                elif output in ("csv", "json"):
                    args += ["--format", output]
                runs: dict[int, list[dict[str, float]]] = {k: [] for k in range(len(exes))}
                for r in range(repeat):
                    order = list(range(len(exes)))
                    if r % 2:
                        order.reverse()
                    for k in order:
                        page = [str(scratch / f"page{k}.html")] if extra else []
                        runs[k].append(
                            _timed([str(exes[k]), "report", *args, *extra, *page], env, scratch / f"out{k}")
                        )
                label = f"{_label(name, kw)} [{output}]"
                results[label] = {}
                for k, exe in enumerate(exes):
                    med = {key: statistics.median(run[key] for run in runs[k]) for key in runs[k][0]}
                    med["peak_rss_mb"] = max(run["peak_rss_mb"] for run in runs[k])
                    if extra:
                        med["bytes"] = (scratch / f"page{k}.html").stat().st_size
                    if sql_s is not None:
                        med["sql_cpu_s"] = sql_s["cpu_s_per_run"]
                        med["sql_wall_s"] = sql_s["median_s"]
                    results[label][str(exe)] = med
                    tag = f" ({k})" if len(exes) > 1 else ""
                    sql_col = (
                        f"  SQL {sql_s['median_s']:6.2f} s / {sql_s['cpu_s_per_run']:5.2f} CPU"
                        if sql_s
                        else ""
                    )
                    print(
                        f"{label + tag:60s} wall {med['wall_s']:6.2f} s  CPU {med['cpu_s']:6.2f} s  "
                        f"peak RSS {med['peak_rss_mb']:6.0f} MB  {med['bytes'] / 1e6:8.2f} MB out{sql_col}",
                        flush=True,
                    )
    return results


def bench_cases(con: duckdb.DuckDBPyConnection, hands: int) -> list[tuple[str, dict[str, object]]]:
    """The report cases timed on a warehouse of ``hands`` hands (also ``bench/layout.py``'s)."""
    hand_id = con.execute("SELECT max(hand_id) FROM hands").fetchall()[0][0]
    busiest = con.execute(
        "SELECT player FROM stg_hand_players WHERE NOT is_hero GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
    ).fetchall()[0][0]
    cases: list[tuple[str, dict[str, object]]] = [(name, {}) for name in REPORTS if name != "hand"]
    if hands > 2_000_000:  # the hand list of every hand is the size of the warehouse: the last 10,000
        cases = [(name, {"limit": 10_000} if name == "hands" else kw) for name, kw in cases]
    last_month = con.execute("SELECT CAST(max(start_utc) - INTERVAL 30 DAY AS DATE) FROM hands").fetchall()[
        0
    ][0]
    cash = con.execute(
        "SELECT stakes FROM stg_hands WHERE tournament_id IS NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1"
    ).fetchall()
    cases += [
        ("hand", {"hand_id": hand_id}),
        ("summary", {"player": busiest}),
        ("sessions", {"player": "Hero"}),
        # the last month only: what partitioning by month would speed up (issue #18)
        ("summary", {"player": "Hero", "since": str(last_month)}),
        ("hands", {"player": "Hero", "since": str(last_month)}),
        ("summary", {"by": "stakes"}),
        ("summary", {"by": "month"}),
    ]
    if cash:  # the warehouse's most played cash stakes (a hard-coded one may not exist: a usage error)
        cases.append(("summary", {"stakes": cash[0][0]}))
    limit: dict[str, object] = {"limit": 10_000} if hands > 2_000_000 else {}
    if hands > 2_000_000:  # one player's list: every row in scope is grouped (no shortcut)
        cases.append(("hands", {"player": "Hero", "limit": 10_000}))
    cases += [
        ("hands", {"showdown": True, **limit}),  # a flag about anyone: each hand's flags grouped
        # the HTML pages (--format html): the summary's and the graph's carry the net-won graph
        # (pages/graph_lines.sql), the hand list's the replays of its first hands
        ("summary", {"html": True}),
        ("graph", {"html": True}),
        ("hands", {"player": "Hero", "limit": 1_000, "html": True}),
    ]
    # every other report's page (issue #18: each report, as the user runs it): the table page of
    # each, the hand's replayer
    cases += [
        (name, {"html": True})
        for name, spec in REPORTS.items()
        if name not in ("hand", "hands") and not spec.graph
    ]
    cases.append(("hand", {"hand_id": hand_id, "html": True}))
    return cases


def main() -> None:
    """Build or reuse the warehouse, then time each report a few times (best and median)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--source", choices=("rows", "pipeline"), default="pipeline")
    ap.add_argument("--warehouse", type=Path, default=None, help="default: bench/out/wh-<source>-<hands>")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true", help="print the timings as JSON")
    ap.add_argument(
        "--isolate",
        action="store_true",
        help="each report in a fresh process: its own peak RSS and CPU seconds (DuckDB's "
        "threads together), where the shared process's high-water mark names no report",
    )
    ap.add_argument(
        "--only", nargs="+", metavar="REPORT", help="time only these reports (every case of each)"
    )
    ap.add_argument(
        "--cli",
        action="store_true",
        help="time each report as the hhparse report command (a process end to end, its output written)",
    )
    ap.add_argument(
        "--hhparse",
        nargs="+",
        type=Path,
        metavar="EXE",
        help="with --cli: the hhparse executables to run, interleaved (default: this venv's)",
    )
    ap.add_argument(
        "--outputs",
        nargs="+",
        choices=OUTPUTS,
        default=list(OUTPUTS),
        help="with --cli: the outputs of each case (default: all)",
    )
    ap.add_argument("--sql", action="store_true", help="with --cli: also each case's SQL-only figure")
    ap.add_argument(
        "--case",
        nargs="+",
        metavar="LABEL",
        help="time only these cases, by their label ('summary --by month')",
    )
    ap.add_argument("--one", nargs=2, metavar=("REPORT", "KWARGS_JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.one:
        _one(args.warehouse, args.one[0], json.loads(args.one[1]), args.repeat)
        return
    root = args.warehouse or ROOT / "bench" / "out" / f"wh-{args.source}-{args.hands}"
    have = _hands_in(root)
    if have < 0:
        t = time.perf_counter()
        (build_rows if args.source == "rows" else build_pipeline)(root, args.hands)
        print(f"built {root} in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    else:
        print(f"reusing {root} ({have:,} hands)", file=sys.stderr)
    t = time.perf_counter()
    con = warehouse(root)
    hands = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    print(f"open warehouse: {time.perf_counter() - t:.3f} s, {hands:,} hands", file=sys.stderr)
    # the machine's load (1, 5, 15 min): wall times are only comparable at a similar load
    print(
        f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}, {os.cpu_count()} cores",
        file=sys.stderr,
    )
    cases = bench_cases(con, hands)
    if args.only:
        cases = [(name, kw) for name, kw in cases if name in args.only]
    if args.case:
        cases = [(name, kw) for name, kw in cases if _label(name, kw) in args.case]
    results = {}
    if args.cli:
        con.close()
        exes = args.hhparse or [Path(sys.executable).with_name("hhparse")]
        print(f"executables: {', '.join(f'({k}) {e}' for k, e in enumerate(exes))}", file=sys.stderr)
        cli_results = cli_bench(root, cases, exes, args.outputs, args.repeat, args.sql)
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
        if args.json:
            print(json.dumps({"hands": hands, "reports": cli_results}, indent=1))
        return
    if args.isolate:
        con.close()
        for name, kw in cases:
            label = _label(name, kw)
            r = _isolated(root, args.repeat, name, kw)
            results[label] = r
            print(
                f"{label:48s} median {r['median_s']:6.3f} s  CPU {r['cpu_s_per_run']:6.2f} s/run  "
                f"peak RSS {r['peak_rss_mb']:6.0f} MB  {r['rows']:>8,} rows",
                flush=True,
            )
        print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}", file=sys.stderr)
        if args.json:
            print(json.dumps({"hands": hands, "reports": results}, indent=1))
        return
    for name, kw in cases:
        times, rows = [], 0
        for _ in range(args.repeat):
            t = time.perf_counter()
            df = _run(con, name, kw)
            times.append(time.perf_counter() - t)
            rows = len(df)
        label = _label(name, kw)
        results[label] = {
            "best_s": round(min(times), 3),
            "median_s": round(statistics.median(times), 3),
            "rows": rows,
        }
        print(
            f"{label:48s} best {min(times):6.3f} s  median {statistics.median(times):6.3f} s  {rows:>8,} rows"
        )
    t = time.perf_counter()
    failing = {k: len(v) for k, v in data_tests(con).items() if len(v)}
    print(f"{'data tests':48s} {time.perf_counter() - t:6.3f} s  failing: {failing or 'none'}")
    # the process's high-water mark: DuckDB's buffers, the DataFrames, the graph (and the build
    # when the warehouse was built in this run)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak RSS':48s} {peak:6.0f} MB{' (including the build)' if have < 0 else ''}")
    if args.json:
        print(json.dumps({"hands": hands, "reports": results, "peak_rss_mb": round(peak)}, indent=1))


if __name__ == "__main__":
    main()
