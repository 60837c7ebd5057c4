"""Regenerate the README's screenshots (docs/img/*.png) from the hands in sample_histories/.

    .venv/bin/python docs/screenshots.py

Imports sample_histories/ into a temporary warehouse, writes the replay of one Courchevel Hi/Lo
hand and the summary report as hhparse writes them, photographs both in headless Chromium
(Debian's ``chromium``; ``HHPARSE_CHROMIUM`` names another) and stores them as small
palette PNGs.
"""

from __future__ import annotations

import io
import os
import shutil
import sys
import tempfile
from pathlib import Path

from PIL import Image

import hhparse
from hhparse.importer import import_paths
from hhparse.reports.html import graph_lines, replay_page, report_page
from hhparse.reports.replay import replay_document

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "img"
HAND = "121700011189"  # Courchevel Hi/Lo, six-handed, the high and low halves to two players
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _save(png: bytes, name: str) -> None:
    with Image.open(io.BytesIO(png)) as img:
        small = img.convert("RGB").quantize(colors=128, method=Image.Quantize.MEDIANCUT)
        small.save(OUT / name, optimize=True)
    print(f"{OUT / name}: {(OUT / name).stat().st_size // 1024} KB")


def main() -> None:
    from playwright.sync_api import sync_playwright

    exe = os.environ.get("HHPARSE_CHROMIUM") or shutil.which("chromium")
    if not exe:
        sys.exit("no Chromium: apt-get install chromium (or set HHPARSE_CHROMIUM)")
    with tempfile.TemporaryDirectory() as tmp:
        import_paths([REPO / "sample_histories"], Path(tmp) / "wh", jobs=1)
        con = hhparse.warehouse(Path(tmp) / "wh")
        doc = replay_document(con, HAND)
        step = next(i for i, s in enumerate(doc["steps"]) if s["kind"] == "award")
        replay = Path(tmp) / "replay.html"
        replay.write_text(replay_page([doc], title=f"Hand #{HAND}"), encoding="utf-8")
        summary = Path(tmp) / "summary.html"
        summary.write_text(
            report_page(hhparse.report("summary", con), name="summary", title="hhparse summary",
                        lines=graph_lines(con), doc=hhparse.reports.REPORTS["summary"].doc),
            encoding="utf-8",
        )
        OUT.mkdir(parents=True, exist_ok=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=exe, args=ARGS)
            page = browser.new_page(viewport={"width": 1000, "height": 1000})
            page.goto(replay.as_uri() + f"#step={step}")
            _save(page.screenshot(clip={"x": 0, "y": 0, "width": 1000, "height": 860}), "replay.png")
            page = browser.new_page(viewport={"width": 1200, "height": 1250})
            page.goto(summary.as_uri())
            _save(page.screenshot(), "summary.png")
            browser.close()


if __name__ == "__main__":
    main()
