"""The HTML pages in a real headless Chromium (Playwright driving the system's ``chromium``).

The replayer is stepped through every action of real corpus hands — run twice, quartered, a
three-way all-in with side pots, the 2016 client-bug board — and after each step the pot, every
stack and the visible board are compared with the referee's facts read from the warehouse
(independently of the replay document). Also: opening ``#step=N``, sorting a report table,
names that look like markup, and no JavaScript console error anywhere. Each test leaves a
screenshot in ``test-artifacts/browser/`` (gitignored; ``HHPARSE_ARTIFACTS`` moves it).

Chromium is Debian's ``chromium`` (``.ci/run`` installs it), never a download: the tests skip
with a message when it is missing — unless ``HHPARSE_REQUIRE_BROWSER=1``, ``HHPARSE_REQUIRE_CORPUS=1``
or ``CI`` is set, when they fail.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

import hhparse
from hhparse.importer import import_paths
from hhparse.reports.html import replay_page, report_page, write_hands_folder
from hhparse.reports.replay import money_text, replay_documents

sys.path.insert(0, str(Path(__file__).parent))
from _warehouse_helpers import HAND_TEXT

REPO = Path(__file__).resolve().parent.parent
ARTIFACTS = Path(os.environ.get("HHPARSE_ARTIFACTS", REPO / "test-artifacts")) / "browser"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HANDS = {
    "run-it-twice": ("courchevel-hilo/stars-cash-pl-1-2-2013-run-it-twice.txt", "97007286518"),
    "quartered": ("omaha-hilo/hhsmithy-cash-nl-0.50-1-2014-quartered.txt", "109680525613"),
    "three-way-all-in": ("omaha-hilo/stars-tour-nl-stt-ko-2011-73hands.txt", "68173693354"),
    "client-bug-board": ("courchevel/stars-cash-pl-0.50-1-2016-weird-board.txt", "151933331674"),
}
NASTY = {
    "Player0": "<img src=x onerror=window.__pwned=1>",
    "Player1": "</script><script>window.__pwned=2</script>",
    "Player2": "A&amp;B \"q\" 'r'",
}

pytestmark = pytest.mark.browser


def _required() -> bool:
    env = os.environ
    return (
        env.get("HHPARSE_REQUIRE_BROWSER") == "1"
        or env.get("HHPARSE_REQUIRE_CORPUS") == "1"
        or env.get("CI", "").lower() in ("1", "true", "yes")
    )


def _unavailable(why: str) -> None:
    if _required():
        pytest.fail(f"browser tests required but {why}", pytrace=False)
    pytest.skip(f"browser tests skipped: {why}")


def find_chromium() -> str | None:
    """The system Chromium: $HHPARSE_CHROMIUM, else ``chromium`` (Debian) or a sibling on PATH."""
    env = os.environ.get("HHPARSE_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright is not installed (pip install -e '.[test]')")
    exe = find_chromium()
    if exe is None:
        _unavailable("no Chromium found (apt-get install chromium, or set HHPARSE_CHROMIUM)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page that records console errors and refuses every network request."""
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = context.new_page()
    errors: list[str] = []
    remote: list[str] = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))

    def _route(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:", "about:")):
            route.continue_()
        else:
            remote.append(url)
            route.abort()

    context.route("**/*", _route)
    yield pg
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert errors == [], f"JavaScript console errors: {errors}"
    assert remote == [], f"the page asked the network for {remote}"


# --------------------------------------------------------------------------------------------
# Warehouses and pages
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def wh(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> duckdb.DuckDBPyConnection:
    folder = tmp_path_factory.mktemp("browser-wh")
    nasty = folder / "in" / "nasty.txt"
    nasty.parent.mkdir()
    text = HAND_TEXT.replace("96353118546", "555000111")
    for plain, name in NASTY.items():
        text = text.replace(plain, name)
    nasty.write_text(text, encoding="utf-8")
    files = [corpus_dir / rel for rel, _ in HANDS.values()]
    import_paths([*files, nasty], folder / "wh", jobs=1)
    return hhparse.warehouse(folder / "wh")


@pytest.fixture(scope="module")
def pages(wh: duckdb.DuckDBPyConnection, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("pages")
    ids = [hid for _, hid in HANDS.values()] + ["555000111"]
    for doc in replay_documents(wh, ids):
        (out / f"{doc['hand']['id']}.html").write_text(
            replay_page([doc], title=f"Hand #{doc['hand']['id']}"), encoding="utf-8"
        )
    return out


def _rows(con: duckdb.DuckDBPyConnection, sql: str, hand_id: str) -> list[dict[str, Any]]:
    rel = con.sql(sql, params={"h": hand_id})
    return [dict(zip(rel.columns, r, strict=True)) for r in rel.fetchall()]


STATE_JS = """() => {
  const root = document.getElementById('replay');
  const num = (e) => e ? Number(e.getAttribute('data-v')) : null;
  const stacks = {}, bets = {}, faces = {};
  for (const s of root.querySelectorAll('.seat')) {
    const seat = s.getAttribute('data-seat');
    stacks[seat] = num(s.querySelector('.stack'));
    faces[seat] = [...s.querySelectorAll('.cards svg.card')].map(c => c.getAttribute('data-card'));
  }
  const seatOf = [...root.querySelectorAll('.seat')].map(s => s.getAttribute('data-seat'));
  root.querySelectorAll('.bet').forEach((b, i) => { bets[seatOf[i]] = b.style.display === 'none' ? 0 : num(b); });
  const rows = {};
  for (const r of root.querySelectorAll('.rp-board .row'))
    rows[r.getAttribute('data-run')] = [...r.querySelectorAll('svg.card')].map(c => c.getAttribute('data-card'));
  return {
    step: Number(root.dataset.step), kind: root.dataset.kind, seq: root.dataset.seq,
    street: Number(root.dataset.street), run: Number(root.dataset.run), award: root.dataset.award,
    pot: num(root.querySelector('.rp-pot')), potText: root.querySelector('.rp-pot').textContent,
    pots: [...root.querySelectorAll('.rp-pots li')].map(num), stacks, bets, faces, rows,
    hash: location.hash, now: root.querySelector('.rp-now').textContent,
  };
}"""


class Facts:
    """One hand's facts from the warehouse, and the table as they say it stands after each step."""

    def __init__(self, con: duckdb.DuckDBPyConnection, hand_id: str) -> None:
        q = "SELECT * FROM {} WHERE hand_id = $h ORDER BY {}"
        self.hand = _rows(con, q.format("hands", "hand_id"), hand_id)[0]
        self.players = _rows(con, q.format("hand_players", "seat"), hand_id)
        self.actions = {a["seq"]: a for a in _rows(con, q.format("actions", "seq"), hand_id)}
        self.pots = [p["amount"] for p in _rows(con, q.format("pots", "pot"), hand_id)]
        self.awards = _rows(con, q.format("awards", "pot, run"), hand_id)
        self.seat = {p["player"]: str(p["seat"]) for p in self.players}
        self.stacks = {str(p["seat"]): p["starting_stack"] for p in self.players}
        self.pot = 0
        board2 = self.hand["board_run2"]
        self.boards = [list(self.hand["board"]), list(board2) if board2 is not None else None]
        self.rows: dict[str, list[str]] = {}
        self.seen: list[int] = []

    def money(self, v: int) -> str:
        return money_text(v, self.hand["unit"], self.hand["unit_scale"])

    def advance(self, st: dict[str, Any]) -> None:
        """Apply what the step shown says happened, from the facts alone."""
        kind = st["kind"]
        if kind in ("post", "action"):
            a = self.actions[int(st["seq"])]
            seat = self.seat[a["player"]]
            assert self.stacks[seat] == a["stack_before"] and self.pot == a["pot_before"], a
            sign = -1 if a["action"] == "uncalled" else 1
            self.stacks[seat] -= sign * a["amount"]
            self.pot += sign * a["amount"]
            self.seen.append(a["seq"])
            if a["action"] not in ("ante",):
                assert st["bets"][seat] == a["to_amount"], (a, st["bets"])
        elif kind == "deal" and self.hand["exposed_card"]:
            self.rows = {"1": [self.hand["exposed_card"]]}
        elif kind == "street":
            n = 2 + st["street"]
            if st["run"] == 2:
                self.rows = {"1": self.boards[0], "2": self.boards[1][:n]}  # type: ignore[index]
            else:
                self.rows = {"1": self.boards[0][:n]}
        elif kind == "award":
            pot, run = (int(x) for x in st["award"].split(","))
            for aw in self.awards:
                if aw["pot"] == pot and aw["run"] == run:
                    for w, x in zip(aw["winners"], aw["amounts"], strict=True):
                        self.stacks[self.seat[w]] += x
        elif kind == "end":
            self.stacks = {str(p["seat"]): p["starting_stack"] + p["net"] for p in self.players}

    def check(self, st: dict[str, Any]) -> None:
        where = f"step {st['step']} ({st['now']})"
        assert st["stacks"] == self.stacks, where
        if st["kind"] not in ("award", "end"):
            assert st["pot"] == self.pot, where
            assert st["potText"] == f"Pot {self.money(self.pot)}", where
        assert st["rows"] == self.rows, where
        if st["kind"] in ("showdown", "award", "end") and len(self.pots) > 1:
            assert st["pots"] == self.pots, where


def _walk(page: Any, url: str, facts: Facts) -> list[dict[str, Any]]:
    """Step with the right arrow from the first step to the last, checking each against the facts."""
    page.goto(url + "#step=0")
    states = []
    while True:
        st = page.evaluate(STATE_JS)
        facts.advance(st)
        facts.check(st)
        assert st["hash"] == f"#step={st['step']}"
        states.append(st)
        page.keyboard.press("ArrowRight")
        if page.evaluate("() => Number(document.getElementById('replay').dataset.step)") == st["step"]:
            break
    assert facts.seen == sorted(facts.actions), "every action was a step"
    assert states[-1]["kind"] == "end"
    return states


# --------------------------------------------------------------------------------------------
# The replayer
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(HANDS))
def test_replay_steps_match_the_facts(
    case: str, page: Any, wh: duckdb.DuckDBPyConnection, pages: Path
) -> None:
    hand_id = HANDS[case][1]
    facts = Facts(wh, hand_id)
    url = (pages / f"{hand_id}.html").as_uri()
    states = _walk(page, url, facts)
    # the results table: every half of every pot, with winners, amounts and descriptions
    rows = page.eval_on_selector_all(
        "#replay .rp-results tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent))"
    )
    want = [
        (w, facts.money(x), d)
        for aw in facts.awards
        for w, x, d in zip(aw["winners"], aw["amounts"], aw["descriptions"], strict=True)
    ]
    assert sorted((r[4], r[5], r[6]) for r in rows) == sorted(want)
    # straight to a step through the URL, and again by changing the fragment
    middle = states[len(states) // 2]
    page.goto(url + f"#step={middle['step']}")
    assert page.evaluate(STATE_JS) == middle
    page.evaluate("() => { location.hash = '#step=2'; }")
    page.wait_for_function("() => document.getElementById('replay').dataset.step === '2'")
    assert page.evaluate(STATE_JS)["stacks"] == states[2]["stacks"]


def test_run_it_twice_shows_both_boards_and_the_door_card(page: Any, pages: Path) -> None:
    page.goto((pages / "97007286518.html").as_uri() + "#step=3")
    st = page.evaluate(STATE_JS)
    assert st["kind"] == "deal" and st["rows"] == {"1": ["7h"]}
    assert page.locator("#replay .rp-board svg.card.door").count() == 1
    page.keyboard.press("End")
    st = page.evaluate(STATE_JS)
    assert st["rows"] == {"1": ["7h", "5d", "3s", "7s", "Ts"], "2": ["7h", "5d", "3s", "2s", "4h"]}


def test_hero_view_hides_unshown_cards_until_asked(page: Any, pages: Path) -> None:
    page.goto((pages / "68173693354.html").as_uri() + "#step=5")
    st = page.evaluate(STATE_JS)
    hero = st["faces"]["9"]
    assert hero == ["Jh", "Ad", "2s", "3s"]
    assert st["faces"]["1"] == [None] * 4  # tredex: four face-down cards
    page.check("#allcards")
    assert page.evaluate(STATE_JS)["faces"]["1"] == ["Jc", "9d", "As", "Ah"]
    page.uncheck("#allcards")
    page.click("#replay button[data-street='4']")  # jump to the showdown
    st = page.evaluate(STATE_JS)
    assert st["kind"] == "showdown" and st["faces"]["1"] == ["Jc", "9d", "As", "Ah"]
    assert st["pots"] == [4170, 399, 1626]
    page.check("#deck4")
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('svg.card text.d')).fill")
        == "rgb(19, 81, 201)"
    )


def test_controls_buttons_and_play(page: Any, pages: Path) -> None:
    page.goto((pages / "109680525613.html").as_uri())
    page.click("#replay button[data-street='1']")
    st = page.evaluate(STATE_JS)
    assert st["kind"] == "street" and st["rows"] == {"1": ["5s", "Kc", "6d"]}
    page.click("#replay button[title^='Step back']")
    assert page.evaluate(STATE_JS)["step"] == st["step"] - 1
    page.click("#replay button[title^='Play']")
    page.wait_for_function(
        f"() => Number(document.getElementById('replay').dataset.step) >= {st['step'] + 1}", timeout=5000
    )
    page.keyboard.press("Space")  # pause
    page.keyboard.press("End")
    assert page.evaluate(STATE_JS)["kind"] == "end"
    page.click("#replay .rp-log li:first-child")
    assert page.evaluate(STATE_JS)["step"] == 0


def test_names_that_look_like_markup_render_as_text(
    page: Any, wh: duckdb.DuckDBPyConnection, pages: Path, tmp_path: Path
) -> None:
    page.goto((pages / "555000111.html").as_uri() + "#step=999")
    names = page.eval_on_selector_all("#replay .seat .name", "ns => ns.map(n => n.textContent)")
    assert set(NASTY.values()) <= set(names)
    assert page.evaluate("() => window.__pwned") is None
    assert page.locator("img").count() == 0
    assert page.locator("script").count() == 2  # the data and the replayer, nothing injected
    log = page.eval_on_selector_all("#replay .rp-log li", "ls => ls.map(l => l.textContent)")
    assert f"{NASTY['Player1']} raises $0.50 to $0.75" in log
    # the same names in the hand list and in a report table
    df = hhparse.report("hands", wh)
    write_hands_folder(tmp_path / "list", df, replay_documents(wh, list(df["hand_id"])), title="<b>list</b>")
    page.goto((tmp_path / "list" / "index.html").as_uri())
    assert page.locator("h1").text_content() == "<b>list</b>"
    summary = tmp_path / "summary.html"
    summary.write_text(
        report_page(hhparse.report("summary", wh), name="summary", title="s"), encoding="utf-8"
    )
    page.goto(summary.as_uri())
    cells = page.eval_on_selector_all("table.data td:first-child", "ts => ts.map(t => t.textContent)")
    assert set(NASTY.values()) <= set(cells)
    assert page.evaluate("() => window.__pwned") is None and page.locator("img").count() == 0


def test_hand_list_links_to_each_replay(page: Any, wh: duckdb.DuckDBPyConnection, tmp_path: Path) -> None:
    from hhparse.reports.html import hands_page

    df = hhparse.report("hands", wh, showdown=True)
    docs = replay_documents(wh, list(df["hand_id"]))
    path = tmp_path / "hands.html"
    path.write_text(hands_page(df, docs, title="hands", filters=[("showdown", True)]), encoding="utf-8")
    page.goto(path.as_uri())
    assert page.locator("#replay").is_hidden()
    page.click("a[href='#hand=68173693354&step=0']")
    page.wait_for_function("() => document.querySelector('#replay h1')")
    assert page.locator("#replay h1").text_content() == "Hand #68173693354"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => location.hash") == "#hand=68173693354&step=1"
    page.goto(path.as_uri() + "#hand=97007286518&step=4")
    assert page.evaluate(STATE_JS)["step"] == 4
    assert page.locator("#replay h1").text_content() == "Hand #97007286518"


# --------------------------------------------------------------------------------------------
# Reports
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def sample_summary(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sample")
    import_paths([REPO / "sample_histories"], folder / "wh", jobs=1)
    con = hhparse.warehouse(folder / "wh")
    from hhparse.reports.html import graph_lines

    page = report_page(
        hhparse.report("summary", con), name="summary", title="hhparse summary", lines=graph_lines(con)
    )
    path = folder / "summary.html"
    path.write_text(page, encoding="utf-8")
    return path


def test_summary_page_is_small(sample_summary: Path) -> None:
    assert sample_summary.stat().st_size < 300_000


def test_report_table_sorts_and_reads_well(page: Any, sample_summary: Path) -> None:
    page.goto(sample_summary.as_uri())
    col = "() => [...document.querySelectorAll('table.data tbody tr')].filter(r => !r.hidden).map(r => r.cells[2].textContent)"
    page.click("th[data-col='hands']")
    up = [int(x) for x in page.evaluate(col)]
    assert up == sorted(up) and up[0] < up[-1]
    page.click("th[data-col='hands']")
    down = [int(x) for x in page.evaluate(col)]
    assert down == sorted(up, reverse=True)
    assert page.get_attribute("th[data-col='hands']", "aria-sort") == "descending"
    page.click("th[data-col='player']")
    names = page.evaluate(col.replace("cells[2]", "cells[0]"))
    assert names == sorted(names, key=str.lower)
    style = "(sel) => { const e = document.querySelector(sel); const s = getComputedStyle(e); return [s.textAlign, s.position]; }"
    assert page.evaluate(style, "table.data tbody td:nth-child(3)")[0] == "right"
    assert page.evaluate(style, "table.data tbody td:nth-child(1)")[0] == "left"
    assert page.evaluate(style, "th[data-col='vpip']")[1] == "sticky"
    assert "Voluntarily Put money In Pot" in (page.get_attribute("th[data-col='vpip']", "title") or "")
    assert page.locator("th[data-col='vpip']").text_content() == "VPIP %"


def test_graph_lines_per_tournament_and_legend_outside(page: Any, sample_summary: Path) -> None:
    page.goto(sample_summary.as_uri())
    panels = page.locator("#graph .panel")
    assert panels.count() == 2  # USD cash, tournament chips
    chips = panels.nth(1)
    assert chips.locator("polyline").count() == 2  # one line per tournament, never joined
    assert chips.locator(".legend li").all_text_contents() == [
        "Tournament #1000006471",
        "Tournament #1000012075",
    ]
    for i in range(2):
        svg, legend = (
            panels.nth(i).locator("svg").bounding_box(),
            panels.nth(i).locator(".legend").bounding_box(),
        )
        assert legend["y"] >= svg["y"] + svg["height"]  # under the plot, not over the lines
    before = chips.locator("polyline").first.get_attribute("points")
    page.check("#graph input[value='date']")
    page.check("#graph input[value='bb']")
    chips = page.locator("#graph .panel").nth(1)
    assert chips.locator("polyline").first.get_attribute("points") != before
    assert "big blinds" in (chips.locator("h3").text_content() or "")


# --------------------------------------------------------------------------------------------
# The scripts' own functions
# --------------------------------------------------------------------------------------------


def test_js_money_format_is_pythons(page: Any, pages: Path) -> None:
    page.goto((pages / "97007286518.html").as_uri())
    cases = [
        (v, unit, scale)
        for v in (0, 1, 9, 10, 99, 100, 105, 2037, -5, -1250, 123456789)
        for unit, scale in (("USD", 100), ("EUR", 100), ("GBP", 100), ("SEK", 100), ("chips", 1), ("play", 1))
    ]
    got = page.evaluate("cs => cs.map(c => hhparse.fmt(c[0], c[1], c[2]))", cases)
    assert got == [money_text(*c) for c in cases]


def test_js_sort_keys_and_ticks(page: Any, sample_summary: Path) -> None:
    page.goto(sample_summary.as_uri())
    keys = page.evaluate("() => ['12.50', '-3', '', ' 7 ', 'x'].map(t => hhparse.sortKey(t, true))")
    assert keys == [12.5, -3, None, 7, None]
    assert page.evaluate("() => hhparse.sortKey(' Äb ', false)") == "äb"
    order = page.evaluate("() => [3, null, -1, 2].sort((a, b) => hhparse.compare(a, b, -1))")
    assert order == [3, 2, -1, None]  # empty cells last in either direction
    ticks = page.evaluate("() => hhparse.ticks(-37, 212, 5)")
    assert ticks == [0, 50, 100, 150, 200]
    assert page.evaluate("() => hhparse.ticks(5, 5, 5)") == [5]
