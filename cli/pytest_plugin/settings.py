"""What a run of meeple's pytest plug-in was asked for: the folders of games and where their
snapshots are kept, read once from the options and the ini file (``docs/pytest.md``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOTS = pytest.StashKey[tuple[Path, ...]]()
#: the name of the user property by which an item says it wrote its snapshot
WRITTEN = "meeple_snapshot_written"


def read_roots(config: pytest.Config) -> tuple[tuple[Path, ...], bool]:
    """The folders of games asked for, absolute, and whether the command line named them:
    ``--meeple-games`` (relative to the invocation folder; repeated, or a comma-separated
    list) if given, else the ini setting ``meeple_games`` (relative to the ini file)."""
    given = [part.strip() for value in config.getoption("meeple_games")
             for part in value.split(",") if part.strip()]
    if given:
        return tuple(Path(os.path.abspath(part)) for part in given), True
    return tuple(Path(os.path.abspath(path)) for path in config.getini("meeple_games")), False


def game_roots(config: pytest.Config) -> tuple[Path, ...]:
    """The folders of games this run collects (empty: the plug-in is idle)."""
    return config.stash.get(ROOTS, ())


def expected_root(config: pytest.Config) -> Path | None:
    """The folder ``--meeple-expected`` (or the ini setting) names, absolute; None: each
    snapshot lies beside its game."""
    given = config.getoption("meeple_expected")
    if given:
        return Path(os.path.abspath(given))
    ini = config.getini("meeple_expected")
    return Path(os.path.abspath(ini[0])) if ini else None


def inside(path: Path, roots: tuple[Path, ...]) -> bool:
    """Whether ``path`` is one of ``roots`` or lies under one (by name, links not followed)."""
    return any(path == root or root in path.parents for root in roots)
