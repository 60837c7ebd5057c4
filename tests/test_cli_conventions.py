"""Issue 16: the command line follows Typer/Click conventions — ``--version``, shell completion,
examples in every command's help, flags without a value placeholder, one meaning per short
option, help text that renders cleanly (no hard wraps, no ``double backquotes``) — and the exit
codes stay at the end of every ``--help``."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from hhparse import __version__
from hhparse.cli import app
from hhparse.cli.common import help_text
from hhparse.cli.report_cmd import report_command

runner = CliRunner()
COMMANDS = [c.name for c in app.registered_commands]


def _help(*args: str, columns: int = 80) -> str:
    r = runner.invoke(app, [*args, "--help"], env={"COLUMNS": str(columns)})
    assert r.exit_code == 0, r.output
    return r.output


def test_version() -> None:
    r = runner.invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output.strip() == f"hhparse {__version__}"


def test_shell_completion_is_on() -> None:
    text = _help()
    assert "--install-completion" in text and "--show-completion" in text


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_examples_that_fit_80_columns(command: str) -> None:
    text = _help(command)
    assert "Examples:" in text, command
    examples = text.split("Examples:", 1)[1].split("Exit codes:", 1)[0]
    lines = [ln.strip() for ln in examples.splitlines() if ln.strip()]
    assert lines and all(ln.startswith(("hhparse ", "cat ", "HHPARSE_")) for ln in lines), (
        lines
    )  # none wrapped
    assert "Exit codes: 0 all accepted" in " ".join(text.split())


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_option_help_is_whole_at_80_columns(command: str) -> None:
    """At 80 columns ``import --help`` cut four option helps short with an ellipsis
    (``./hhparse-warehouse…``): a wide value placeholder (``<float range> [x>=0]``) left the help
    column too narrow for the longest words. Every word of every option's help must be there."""
    import typer.main

    group = typer.main.get_command(app)
    params = (group if not command else group.commands[command]).params  # type: ignore[attr-defined]
    text = _help(*([command] if command else []), columns=80)
    assert "\u2026" not in text, command
    flat = " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())
    for param in params:
        for word in (getattr(param, "help", None) or "").replace("\\[", "[").split():
            assert word in flat, (command, param.name, word)


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_flags_take_no_value_placeholder(command: str) -> None:
    text = _help(*([command] if command else []), columns=200)
    assert "<bool>" not in text, command


def test_parse_only_is_a_flag() -> None:
    """``--parse-only <bool>`` read as if it took a value; it is a flag: the word after it is a path."""
    r = runner.invoke(app, ["check", "--parse-only", "true"])
    assert r.exit_code == 2 and "true: no such file or folder" in r.output


def test_one_meaning_per_short_option() -> None:
    """``-w`` was ``--warnings`` in check and ``--warehouse`` elsewhere."""
    import typer.main

    group = typer.main.get_command(app)
    meaning: dict[str, set[str]] = {}
    for command in group.commands.values():  # type: ignore[attr-defined]
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in [*param.opts, *param.secondary_opts] if re.fullmatch(r"-[A-Za-z]", o)):
                meaning.setdefault(short, set()).add(longs[0] if longs else param.name)
    clashes = {s: m for s, m in meaning.items() if len(m) > 1}
    assert not clashes, clashes
    assert meaning["-w"] == {"--warehouse"}


@pytest.mark.parametrize("command", ["", *COMMANDS])
def test_help_renders_cleanly(command: str) -> None:
    text = _help(*([command] if command else []), columns=200)
    assert "``" not in text and ":func:" not in text and ":class:" not in text, command


def test_option_help_keeps_bracketed_words() -> None:
    """Rich read ``'hhparse[cluster]'`` in ``import --cluster``'s help as a markup tag and showed
    ``'hhparse'``: every option's help is shown as written."""
    import typer.main

    group = typer.main.get_command(app)
    for name, command in [("", group), *group.commands.items()]:  # type: ignore[attr-defined]
        text = " ".join(_help(*([name] if name else []), columns=1000).split())
        for param in command.params:
            words = [w for w in (param.help or "").replace("\\[", "[").split() if "[" in w]
            for word in words:
                assert word in text, (name, param.name, word)
    assert "'hhparse[cluster]'" in " ".join(_help("import", columns=1000).split())


def test_help_paragraphs_are_not_hard_wrapped() -> None:
    """A docstring's paragraphs become one line each (the terminal wraps them at its width); a
    list (lines indented under a line ending in ':') keeps its lines."""
    doc = """First line
    goes on.

    A second paragraph with ``code`` and :func:`hhparse.report`
    that was wrapped at 100 characters.

    Reports:
      summary  the summary
      hilo     the hi/lo report
    """
    assert help_text(doc) == (
        "First line goes on.\n\n"
        "A second paragraph with 'code' and report that was wrapped at 100 characters.\n\n"
        "Reports:\n  summary  the summary\n  hilo     the hi/lo report"
    )
    text = _help("report", columns=1000)
    first = " ".join((report_command.__doc__ or "").split("\n\n")[1].split())
    assert first in text  # the docstring's paragraph on one line


def test_report_help_says_what_each_report_shows() -> None:
    text = _help("report")
    for name, brief in (
        ("summary", "PokerTracker stats"),
        ("tournaments", "buy-in, place, prize"),
        ("door-card", "by the door card"),
    ):
        assert re.search(rf"^\s+{name}\s+.*{re.escape(brief)}", text, re.MULTILINE), name
