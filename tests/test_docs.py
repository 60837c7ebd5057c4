"""Generated docs are up to date, and every command and report is documented in the README."""

from __future__ import annotations

from pathlib import Path

from hhparse.cli import app
from hhparse.engine.codes import render_docs

REPO = Path(__file__).resolve().parent.parent


def test_referee_codes_doc_is_up_to_date() -> None:
    committed = (REPO / "docs" / "referee-codes.md").read_text(encoding="utf-8")
    assert committed == render_docs(), "run: python -m hhparse.engine.codes"


def test_every_command_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    names = [c.name for c in app.registered_commands]
    assert set(names) >= {"check", "import", "compact", "sql", "report", "synth"}
    for name in names:
        assert f"hhparse {name}" in readme, f"README does not show `hhparse {name}`"


def test_every_report_is_in_the_readme() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    reports = sorted(p.stem.replace("_", "-") for p in (REPO / "analytics" / "reports").glob("*.sql"))
    assert reports
    for name in reports:
        assert f"hhparse report {name}" in readme, f"README does not show `hhparse report {name}`"


def test_readme_speed_figures_are_the_performance_pages() -> None:
    """The README's speed paragraph quotes ``docs/performance.md``, the one page of figures: every
    number it gives must be on that page, so the two cannot drift apart."""
    import re

    readme = (REPO / "README.md").read_text(encoding="utf-8")
    speed = readme.split("## Speed", 1)[1].split("\n## ", 1)[0]
    page = (REPO / "docs" / "performance.md").read_text(encoding="utf-8")
    figures = re.findall(r"\d[\d,.]*(?:–[\d,.]+)?(?: ?(?:%|×|MB|GB|s\b))?", speed)
    figures = [f.rstrip(".,") for f in figures if any(c.isdigit() for c in f)]
    assert len(figures) >= 5, figures
    missing = [f for f in figures if f not in page]
    assert not missing, f"README speed figures not in docs/performance.md: {missing}"
