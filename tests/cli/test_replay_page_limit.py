"""`export --html` of a game past the page's limit is refused before any rule is applied to
its lines, naming the game's size and the limit (it used to fold the game for 44-66 s and
then name the size where it stopped)."""

import os
import subprocess
import sys

import pytest

import meeple.cli.pictures.viewer as viewer
from meeple.engine import Game, new_game, random_move, walk
from meeple.events import log as logfile
from meeple.events.model import PointsScored, TilePlaced

from helpers import bundled, fail, run


def _game(tmp_path, *, placements: int, replaced: int = 0, undo_pairs: int = 0):
    """A Star Wars game up to its ``placements``-th placement, the first ``replaced`` of them
    undone and made again, then ``undo_pairs`` undo/redo pairs of the last."""
    game = Game.begin(new_game(["red", "black"], bundled(), seed="7"))
    for k in range(placements):
        while not any(isinstance(e, TilePlaced) for e in game.push(random_move(game.state))):
            pass
        if k < replaced:
            game.undo()
            game.push(random_move(game.state))
    for _ in range(undo_pairs):
        game.undo()
        game.redo()
    path = tmp_path / "g.jsonl"
    logfile.create(path, list(game.events))
    return path


def test_a_game_past_the_limit_is_refused_before_its_moves_are_checked(tmp_path, monkeypatch):
    path = _game(tmp_path, placements=12)
    _, size = viewer.page_size(logfile.read(path).events)
    monkeypatch.setattr(viewer, "PAGE_BUDGET", size - 1)

    def folded(*args, **kwargs):
        raise AssertionError("the game was folded before it was measured")

    monkeypatch.setattr(Game, "from_log", folded)
    error = fail("export", path, "--html", tmp_path / "g.html")
    lines = len(path.read_bytes().splitlines())
    assert f"its {lines} lines, on a board of up to 13 tiles, would draw up to {size:,} " in error
    assert f"a page holds at most {size - 1:,}" in error
    assert not (tmp_path / "g.html").exists()


def test_a_game_at_the_limit_is_drawn(tmp_path, monkeypatch):
    path = _game(tmp_path, placements=12)
    _, size = viewer.page_size(logfile.read(path).events)
    monkeypatch.setattr(viewer, "PAGE_BUDGET", size)
    run("export", path, "--html", tmp_path / "g.html")
    assert (tmp_path / "g.html").stat().st_size > 0


def test_the_size_counts_the_boards_the_walk_makes_through_undo_and_redo(tmp_path):
    path = _game(tmp_path, placements=20, undo_pairs=3, replaced=4)
    events = logfile.read(path).events
    boards: list[int] = []
    drawn = 0

    def visit(event, state):
        nonlocal drawn
        if boards:
            cities = event.cities if isinstance(event, PointsScored) else -1
            drawn += len(state.board) * (2 + cities)
        boards.append(len(state.board))

    walk(events, visit=visit)
    assert any(later < earlier for earlier, later in zip(boards, boards[1:], strict=False))
    assert viewer.page_size(events) == (max(boards), drawn)


#: runs meeple in a grandchild and prints that process's CPU seconds alone
_MEASURE = """
import resource, subprocess, sys
result = subprocess.run(sys.argv[1:], capture_output=True, text=True, timeout=300)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.stderr.write(result.stderr)
print(result.returncode, usage.ru_utime + usage.ru_stime)
"""


@pytest.mark.slow
def test_a_real_game_past_the_limit_is_refused_in_well_under_a_second(tmp_path):
    path = _game(tmp_path, placements=70, undo_pairs=15_000)
    _, size = viewer.page_size(logfile.read(path).events)
    assert size > viewer.PAGE_BUDGET
    result = subprocess.run([sys.executable, "-c", _MEASURE, sys.executable, "-m",
                             "meeple.cli.app", "export", str(path), "--html",
                             str(tmp_path / "g.html")], capture_output=True, text=True,
                            timeout=600, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    code, cpu = result.stdout.split()
    assert int(code) == 1 and "too long for one replay page" in result.stderr
    assert result.stderr.count("\n") == 1
    assert float(cpu) < 1.0, f"the refusal took {float(cpu):.2f} s of CPU"
    assert not (tmp_path / "g.html").exists()
