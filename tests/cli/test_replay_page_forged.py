"""`export --html` measures a game before any rule is applied to its lines, so the measure
must not be fooled by a forged line: a scoring that claims a negative count of cities
cannot bring a game past the page's limit under it."""

import msgspec

import meeple.cli.pictures.viewer as viewer
from meeple.engine import Game, new_game, random_move
from meeple.events import log as logfile
from meeple.events.model import PointsScored, TilePlaced

from helpers import bundled, fail


def test_a_negative_count_of_cities_does_not_shrink_the_measure(tmp_path, monkeypatch):
    game = Game.begin(new_game(["red", "black"], bundled(), seed="7"))
    scored = None
    while sum(isinstance(e, TilePlaced) for e in game.events) < 30 or scored is None:
        for event in game.push(random_move(game.state)):
            if isinstance(event, PointsScored):
                scored = event
    events = list(game.events)
    _, size = viewer.page_size(events)
    forged = msgspec.structs.replace(scored, seq=len(events), cities=-10**12)
    path = tmp_path / "g.jsonl"
    logfile.create(path, [*events, forged])
    monkeypatch.setattr(viewer, "PAGE_BUDGET", size - 1)

    def folded(*args, **kwargs):
        raise AssertionError("the game was folded before it was measured")

    monkeypatch.setattr(Game, "from_log", folded)
    assert "too long for one replay page" in fail("export", path, "--html", tmp_path / "g.html")
    assert not (tmp_path / "g.html").exists()
