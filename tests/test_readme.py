"""The README's tour works as written: every `$ meeple ...` line, in order, exits 0."""

import shlex
from pathlib import Path

from helpers import invoke

README = (Path(__file__).parents[1] / "README.md").read_text()


def tour_commands() -> list[list[str]]:
    commands = []
    for line in README.splitlines():
        if line.startswith("$ meeple "):
            words = shlex.split(line[2:], comments=True)
            commands.append(words[1:])
    return commands


def test_the_tour_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = tour_commands()
    assert len(commands) >= 20
    for words in commands:
        result = invoke(words)
        assert result.exit_code == 0, (words, result.stdout, result.stderr)
