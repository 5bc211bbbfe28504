"""Bot seats recorded in the game (``new --bot COLOUR=BOT``): after any move of a person the
bots play until a person is to act; a log names no program to run."""

import json

import pytest

from meeple.events import log

from helpers import fail, rechain, run, run_json


def _first_move(game):
    move = run_json("moves", game)[0]
    return [move["x"], move["y"], move["rotation"], "--no-meeple"]


def test_a_recorded_bot_seat_answers_each_move_and_the_log_says_who_it_is(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4", "--bot", "black=greedy")
    first = json.loads(game.read_text().splitlines()[0])
    assert first["players"] == [{"colour": "red", "name": "red"},
                                {"colour": "black", "name": "black", "bot": "greedy"}]
    status = run_json("status", game)
    assert status["bots"] == {"black": "greedy"} and status["player"] == "red"
    assert "bots     black (greedy)" in run("status", game).stdout
    for turn in (3, 5):
        done = run_json("place", game, *_first_move(game))
        assert {e["player"] for e in done["events"] if e["type"] == "tile_placed"} == \
            {"red", "black"}
        assert done["status"]["turn"] == turn and done["status"]["player"] == "red"
    assert run_json("check", game)["ok"]


def test_a_bot_in_the_first_seat_plays_at_once_and_undo_does_not_wake_it(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4", "--bot", "red")  # default bot
    assert run_json("status", game)["bots"] == {"red": "mcts:500"}
    assert run_json("status", game)["player"] == "black"
    move = _first_move(game)
    run("place", game, *move[:3])  # the meeple step follows: undo it
    run("undo", game)
    status = run_json("status", game)
    assert (status["turn"], status["player"], status["phase"]) == (2, "black", "place_tile")
    run("place", game, *move)
    assert run_json("status", game)["player"] == "black"  # red (mcts) answered
    assert run_json("check", game)["ok"]


@pytest.mark.parametrize("options, code, words", [
    (["--bot", "black=cmd:/bin/true"], 2, "a bot program cannot be recorded in the game"),
    (["--bot", "green=greedy"], 2, "green does not play"),
    (["--bot", "black=clever"], 2, "unknown bot"),
    (["--bot", "black=greedy", "--table"], 2, "which a table game does not give it; use mcts"),
])
def test_bad_recorded_seats_are_refused_and_nothing_is_written(tmp_path, options, code, words):
    game = tmp_path / "g.jsonl"
    assert words in fail("new", game, "--players", "red,black", *options, code=code)
    assert not game.exists()


def _recorded(tmp_path, bot: str):
    """A game whose log was edited (and rechained) to seat ``bot`` for black."""
    game = tmp_path / f"g-{len(list(tmp_path.iterdir()))}.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")

    def seat(data):
        if data["type"] == "game_started":
            data["players"][1]["bot"] = bot

    hostile = tmp_path / f"h-{game.name}"
    hostile.write_bytes(b"\n".join(rechain(game.read_bytes().splitlines(), seat)) + b"\n")
    return hostile


def test_a_log_that_seats_a_program_runs_nothing(tmp_path):
    """A received log cannot make meeple run a program: ``cmd:PATH`` does not decode as a
    recorded bot, and a shape that does is refused before any move is written."""
    hostile = _recorded(tmp_path, "cmd:/tmp/evil")
    assert "players[1].bot" in fail("status", hostile, code=3)
    hostile = _recorded(tmp_path, "cmd:5")
    before = hostile.read_bytes()
    line = fail("place", hostile, *_first_move(hostile), code=1)
    assert "a bot program cannot be recorded in the game" in line
    assert hostile.read_bytes() == before


def test_an_unknown_recorded_bot_stops_the_move_whole(tmp_path):
    hostile = _recorded(tmp_path, "clever")
    before = hostile.read_bytes()
    assert "unknown bot 'clever'" in fail("place", hostile, *_first_move(hostile), code=1)
    assert hostile.read_bytes() == before and len(log.read(hostile).events) > 0
