"""The README's tour and every documentation page's examples work as written: each page's
`$ meeple ...` lines, in order, in a fresh folder, exit 0 (a `> FILE` at the end of a line
writes what it printed to FILE, as a shell would); each Python example runs; each JSON example
is JSON."""

import json
import re
import shlex
from pathlib import Path

import pytest

from helpers import invoke

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text()
#: the documentation's own pages; pages waiting in docs/_incoming/ are not part of it yet
PAGES = sorted(p for p in (ROOT / "docs").rglob("*.md")
               if "_incoming" not in p.parts and not any(part.startswith(".") for part in p.parts))


def blocks(text: str, language: str) -> list[str]:
    """The fenced code blocks of ``language`` in a Markdown text."""
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.S | re.M)


def tour_commands(text: str = README) -> list[list[str]]:
    """The `$ meeple` lines of a text's console blocks (a transcript shown as ``text``, run
    elsewhere, is not one)."""
    commands = []
    for block in blocks(text, "console"):
        for line in block.splitlines():
            if line.startswith("$ meeple "):
                words = shlex.split(line[2:], comments=True)
                commands.append(words[1:])
    return commands


def _run_in_order(commands: list[list[str]], folder: Path) -> None:
    for words in commands:
        out = None
        if ">" in words:
            at = words.index(">")
            words, out = words[:at], words[at + 1]
        result = invoke(words)
        assert result.exit_code == 0, (words, result.stdout, result.stderr)
        if out is not None:
            (folder / out).write_text(result.stdout)


def test_the_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = tour_commands()
    assert len(commands) >= 12
    _run_in_order(commands, tmp_path)


def test_the_pages_hold_examples():
    """The pages this test reads are there, and the guide's tour is the long one."""
    names = {p.relative_to(ROOT / "docs").as_posix() for p in PAGES}
    assert {"guide/playing.md", "guide/scripting.md", "guide/regression.md",
            "reference/python-api.md", "bot-protocol.md"} <= names
    assert len(tour_commands((ROOT / "docs/guide/playing.md").read_text())) >= 20


@pytest.mark.slow  # the guide's games, a command at a time (the tour stays everyday)
@pytest.mark.parametrize("page", [p for p in PAGES if tour_commands(p.read_text())],
                         ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_every_command_of_a_page_runs_as_written(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _run_in_order(tour_commands(page.read_text()), tmp_path)


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p.read_text(), "python")],
                         ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_every_python_example_of_a_page_runs(page, tmp_path, monkeypatch):
    """Each example runs as a script would, in a fresh folder (one that defines tests, as the
    pytest plug-in's page does, defines them: its imports and names must hold)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").symlink_to(ROOT / "docs")  # examples run from the project's folder
    for code in blocks(page.read_text(), "python"):
        exec(compile(code, str(page), "exec"), {"__name__": "example"})


@pytest.mark.parametrize("page", [p for p in PAGES if blocks(p.read_text(), "json")],
                         ids=lambda p: p.relative_to(ROOT / "docs").as_posix())
def test_every_json_example_of_a_page_is_json(page):
    for text in blocks(page.read_text(), "json"):
        json.loads(text)


def _command_lines(text: str) -> list[list[str]]:
    """Every `meeple ...` line of every code block of a text (a console's `$ ` taken off),
    with a line ending in a backslash joined to the next."""
    found = []
    for block in re.findall(r"^```[a-z]*\n(.*?)^```", text, re.S | re.M):
        joined = block.replace("\\\n", " ")
        for line in joined.splitlines():
            line = line.removeprefix("$ ").strip()
            if line.startswith("meeple ") or line.startswith(".venv/bin/meeple "):
                found.append(shlex.split(line, comments=True)[1:])
    return found


def test_every_command_line_in_the_documentation_names_real_commands_and_options():
    """The examples that cannot run here (a relay, keys, a bot program) still name commands
    and options that exist: an option renamed or a command removed shows in every page that
    shows it."""
    import typer.main

    from meeple.cli.app import app

    root = typer.main.get_command(app)
    context = root.context_class(root, info_name="meeple")
    root_options = {o for p in root.get_params(context) for o in p.opts}
    checked = 0
    for page in [ROOT / "README.md", *PAGES]:
        for words in _command_lines(page.read_text()):
            at = 0
            while at < len(words) and words[at] in root_options:
                at += 2 if words[at] == "--lock-timeout" else 1
            if at >= len(words):
                continue
            command = root.get_command(context, words[at])
            assert command is not None, (page.name, words)
            if hasattr(command, "list_commands"):
                at += 1
                command = command.get_command(context, words[at])
                assert command is not None, (page.name, words)
            options = {o for p in command.get_params(context) for o in p.opts + p.secondary_opts}
            for word in words[at + 1:]:
                if word.startswith("--"):
                    assert word.split("=")[0] in options | {"--help"}, (page.name, words, word)
            checked += 1
    assert checked >= 60
