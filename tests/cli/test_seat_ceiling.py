"""The ceiling on a bot seat's budget (``meeple.cli.seat_ceiling``): ``new`` records no
seat above it, and a received log whose seat is above it is refused before the seat thinks
(exit 3, nothing written), or asked about at a terminal."""

import pytest

from meeple.cli.seat_ceiling import CEILING_SECONDS, check_recorded_seats
from meeple.cli.store import Failure
from meeple.engine import Game

from helpers import fail, run, run_json


def _first_move(game):
    move = run_json("moves", game)[0]
    return [move["x"], move["y"], move["rotation"], "--no-meeple"]


def test_new_records_no_seat_above_the_ceiling(tmp_path):
    game = tmp_path / "g.jsonl"
    said = fail("new", game, "--players", "red,black", "--bot", "black=mcts:121s", code=2)
    assert f"at most {CEILING_SECONDS:g} s a move (the ceiling on seat budgets)" in said
    assert not game.exists()
    run("new", game, "--players", "red,black", "--bot", "black=mcts:120s")
    assert run_json("status", game)["bots"] == {"black": "mcts:120s"}


def test_a_received_seat_above_the_ceiling_is_refused_before_it_thinks(tmp_path):
    path = tmp_path / "received.jsonl"
    Game.new(["red", "blue"], "classic", seed="c", bots={"blue": "mcts:3600s"}).save(path)
    before = path.read_bytes()
    said = fail("place", path, *_first_move(path), code=3)
    assert "above the ceiling of 120 s a move (blue mcts:3600s)" in said
    assert "nothing was written" in said and path.read_bytes() == before
    assert run_json("check", path)["ok"]


def test_at_a_terminal_the_seat_above_the_ceiling_is_asked_about(monkeypatch):
    import sys

    import typer

    asked = []
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    answers = iter([False, True])
    monkeypatch.setattr(typer, "confirm", lambda text, **_: asked.append(text) or next(answers))
    with pytest.raises(Failure) as refused:
        check_recorded_seats("g.jsonl", {"blue": "mcts:600s", "red": "mcts:2s"})
    assert refused.value.code == 3 and "blue mcts:600s" in refused.value.message
    check_recorded_seats("g.jsonl", {"blue": "mcts:600s"})  # allowed when the answer is yes
    assert len(asked) == 2 and "ceiling of 120 s a move (blue mcts:600s)" in asked[0]
    check_recorded_seats("g.jsonl", {"blue": "mcts:120s", "red": "greedy"})  # nothing asked
    assert len(asked) == 2
