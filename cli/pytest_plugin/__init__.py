"""meeple's pytest plug-in: a folder of recorded games as test items (``docs/pytest.md``).

Registered through the ``pytest11`` entry point, it does nothing unless asked: only with
``--meeple-games DIR`` or the ini setting ``meeple_games`` does it collect games. Each
``*.jsonl`` under such a folder is one item, named after its file, that checks the game as
``meeple check`` does and compares its state with its snapshot ``X.expected.json``, as
``meeple check --expect`` does. Markers: the game's edition (its name, ``-`` written ``_``) and
its outcome (``finished``, ``unfinished``).

This module is imported at every pytest start-up where meeple is installed, so it imports
nothing of meeple's own: the collectors, the checks and the helpers are imported inside the
hooks that need them (``meeple.cli.pytest_plugin.games``, ``.replay``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from meeple.cli.pytest_plugin.settings import ROOTS, WRITTEN, game_roots, inside, read_roots

if TYPE_CHECKING:
    from meeple.engine import Game

#: the markers of a game's outcome; each installed edition adds its own (``edition_markers``)
MARKERS = {
    "finished": "a recorded game that has ended: its last line is game_ended (meeple)",
    "unfinished": "a recorded game still in progress, or whose last line cannot be read (meeple)",
}


def edition_markers() -> dict[str, str]:
    """A marker for each edition registered or declared by an installed package (its name,
    ``-`` written ``_``), so that ``--strict-markers`` accepts every game's edition; a name a
    log could not hold is left out, and a title is shown escaped."""
    from meeple.cli.pytest_plugin.games import EDITION_NAME
    from meeple.engine import EDITIONS, installed
    from meeple.events.text import escaped

    markers = {}
    for name in installed():
        if EDITION_NAME.fullmatch(name):
            title = escaped(EDITIONS[name].title)[:80] if name in EDITIONS else name
            markers[name.replace("-", "_")] = f"a recorded game of {title} (meeple)"
    return markers

def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("meeple", "recorded games of meeple (docs/pytest.md)")
    group.addoption("--meeple-games", action="append", default=[], metavar="DIR",
                    help="collect each *.jsonl under DIR as a test of a recorded game "
                         "(repeat it, or give a comma-separated list)")
    group.addoption("--meeple-expected", default=None, metavar="DIR",
                    help="where the games' snapshots X.expected.json are kept, mirroring "
                         "the games' folders (default: beside each game)")
    group.addoption("--meeple-update", action="store_true", default=False,
                    help="write the snapshot of each valid game whose snapshot is missing "
                         "or differs")
    parser.addini("meeple_games", type="paths", default=[],
                  help="folders of recorded games, each *.jsonl a test (meeple)")
    parser.addini("meeple_expected", type="paths", default=[],
                  help="where the games' snapshots are kept (meeple; default: beside each "
                       "game)")


def pytest_configure(config: pytest.Config) -> None:
    roots, given = read_roots(config)
    config.stash[ROOTS] = roots
    if not roots:
        return
    for root in roots:
        if not os.path.lexists(root):
            from meeple.events.text import escaped

            source = "--meeple-games" if given else "the ini setting meeple_games"
            raise pytest.UsageError(f"{source}: no such folder of games: {escaped(str(root))}")
    for name, words in {**edition_markers(), **MARKERS}.items():
        config.addinivalue_line("markers", f"{name}: {words}")
    config.pluginmanager.register(SnapshotsWritten(config), "meeple-snapshots-written")
    # the folders are collected beside the tests pytest would run anyway; where the command
    # line names what to run, the ini setting adds nothing (the option still does)
    if given or config.args_source != pytest.Config.ArgsSource.ARGS:
        named = [Path(os.path.abspath(arg.split("::")[0])) for arg in config.args]
        for root in roots:
            if not any(root == path or path in root.parents for path in named):
                config.args.append(str(root))


def pytest_collect_directory(path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A folder of games is listed by meeple, not by pytest: every ``*.jsonl`` entry is an
    item, even one that is no regular file (a FIFO, a link to a device), which then fails
    with the reason instead of being passed over."""
    roots = game_roots(parent.config)
    if not roots or not inside(Path(os.path.abspath(path)), roots):
        return None
    from meeple.cli.pytest_plugin.games import GameFolder

    return GameFolder.from_parent(parent, path=path)


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """A game named as a folder of games by itself (``--meeple-games one.jsonl``)."""
    roots = game_roots(parent.config)
    if file_path.suffix != ".jsonl" or not roots \
            or not inside(Path(os.path.abspath(file_path)), roots):
        return None
    from meeple.cli.pytest_plugin.games import GameFile

    return GameFile.from_parent(parent, path=file_path)


class SnapshotsWritten:
    """Counts the snapshots ``--meeple-update`` wrote (each item says so in its report's
    ``user_properties``, which pytest-xdist carries back) and names them at the end."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.written: list[str] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when == "call":
            self.written += [str(value) for name, value in report.user_properties
                             if name == WRITTEN]

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.config.getoption("meeple_update"):
            terminalreporter.write_line(f"meeple: {len(self.written)} snapshot(s) written")
            for path in sorted(self.written):
                terminalreporter.write_line(f"  {path}")


@pytest.fixture
def meeple_game() -> Callable[..., Game]:
    """A factory of games: ``meeple_game(path)`` loads a recorded game (every move checked);
    ``meeple_game(players=[...], edition=..., seed=...)`` starts a new one (``Game.new``,
    whose other options it passes on)."""
    from meeple.cli.pytest_plugin.replay import make_game

    return make_game
