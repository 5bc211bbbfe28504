"""Bot seats recorded in the game (``new --bot COLOUR=BOT``): after any move of a person the
bots play until a person is to act; a log names no program to run."""

import json
import signal
import subprocess
import sys
import time

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from meeple.engine import InvalidCommand, read_spec
from meeple.events import log
from meeple.events.model import PlayerDef

from helpers import fail, interruptible, invoke, rechain, run, run_json


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


@pytest.mark.slow  # the default bot (lookahead) looks two turns ahead at every answer
def test_a_bot_in_the_first_seat_plays_at_once_and_undo_does_not_wake_it(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4", "--bot", "red")  # default bot
    assert run_json("status", game)["bots"] == {"red": "lookahead"}
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
    (["--bot", "black=greedy", "--table"], 2, "which a table game does not give it; use lookahead or mcts"),
])
def test_bad_recorded_seats_are_refused_and_nothing_is_written(tmp_path, options, code, words):
    game = tmp_path / "g.jsonl"
    assert words in fail("new", game, "--players", "red,black", *options, code=code)
    assert not game.exists()


def test_lookahead_takes_a_seat_in_a_table_game_as_mcts_does(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--bot", "black=lookahead", "--table")
    assert run_json("status", game)["bots"] == {"black": "lookahead"}


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
    recorded bot, and a shape that does is no bot of this meeple: the game is invalid."""
    hostile = _recorded(tmp_path, "cmd:/tmp/evil")
    assert "players[1].bot" in fail("status", hostile, code=3)
    hostile = _recorded(tmp_path, "cmd:5")
    before = hostile.read_bytes()
    line = fail("place", hostile, "0", "1", "0", code=1)
    assert "the bot seat players[1].bot is 'cmd:5': unknown bot" in line
    assert hostile.read_bytes() == before


@pytest.mark.parametrize("bot, words", [
    ("clever", "unknown bot 'clever'"), ("mcts:0", "iterations a move must be 1 to 200,000"),
    ("mcts:3601s", "at most 3600"), ("greedy:5", "the greedy bot takes no budget"),
    ("mcts:1.2.3s", "cannot read the budget"),
])
def test_a_recorded_bot_this_meeple_cannot_run_makes_the_game_invalid(tmp_path, bot, words):
    """Found at reading, by every command and by ``check``, never in the middle of a move."""
    hostile = _recorded(tmp_path, bot)
    before = hostile.read_bytes()
    assert f"the bot seat players[1].bot is {bot!r}: " in fail("status", hostile, code=1)
    assert words in fail("place", hostile, "0", "1", "0", code=1)
    report = run_json("check", hostile, code=1)
    assert not report["ok"] and "players[1].bot" in report["errors"][0]["message"]
    assert hostile.read_bytes() == before and len(log.read(hostile).events) > 0


@pytest.mark.parametrize("bot", ["mcts:.5s", "mcts:7", "mcts:0.25s", "mcts", "greedy"])
def test_every_bot_new_accepts_is_one_its_log_reads(tmp_path, bot):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4", "--bot", f"black={bot}")
    assert run_json("status", game)["bots"] == {"black": bot}


@pytest.mark.parametrize("bot", ["mcts:1_000", "mcts:+5", "mcts:1e-3s", "mcts:\u0665",
                                 "mcts:5 s", "mcts:+.5s", "mcts:1_0.5s", "mcts:."])
def test_specs_python_would_read_loosely_are_refused(tmp_path, bot):
    game = tmp_path / "g.jsonl"
    fail("new", game, "--players", "red,black", "--bot", f"black={bot}", code=2)
    assert not game.exists()


@given(st.from_regex(r"mcts:[0-9]{0,14}(\.[0-9]{0,14})?s?", fullmatch=True)
       | st.sampled_from(["random", "greedy", "mcts"]))
def test_every_spec_the_grammar_reads_fits_the_logs_field(spec):
    """What ``read_spec`` accepts, a log's ``players[].bot`` may hold (the shape is checked
    when a log is read): ``new`` can never write a seat its own log refuses."""
    try:
        read_spec(spec)
    except InvalidCommand:
        return
    assert msgspec.convert({"colour": "red", "name": "red", "bot": spec}, PlayerDef).bot == spec


def test_a_new_game_with_bots_in_every_seat_is_refused_and_an_existing_file_before_play(
        tmp_path):
    game = tmp_path / "g.jsonl"
    line = fail("new", game, "--players", "red,black", "--bot", "red", "--bot", "black", code=2)
    assert "a game needs a person" in line and not game.exists()
    game.write_text("kept\n")
    started = time.process_time()
    line = fail("new", game, "--players", "red,black", "--bot", "red=mcts:200000", code=1)
    assert "already exists" in line and game.read_text() == "kept\n"
    assert time.process_time() - started < 5  # refused before the bot's first move


def test_a_long_seat_is_named_only_when_it_is_to_play(tmp_path):
    """Red's move lets black (greedy) play, then green, a person, is to act: white's long
    seat does not play, so nothing is said of it."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black,green,white", "--seed", "5", "--bot",
        "black=greedy", "--bot", "white=mcts:30s")
    done = run("place", game, *_first_move(game))
    assert "may think" not in done.stderr
    assert run_json("status", game)["player"] == "green"


@pytest.mark.slow  # a process, interrupted while its bot searches
def test_ctrl_c_while_a_recorded_bot_thinks_keeps_the_persons_move(tmp_path):
    hostile = _recorded(tmp_path, "mcts:60s")
    before = hostile.read_bytes()
    move = _first_move(hostile)
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli.app", "place", str(hostile),
                                *map(str, move)], stderr=subprocess.PIPE, text=True,
                               preexec_fn=interruptible)
    assert process.stderr is not None
    first = process.stderr.readline()  # said before the bot thinks: then Ctrl-C
    process.send_signal(signal.SIGINT)
    stderr = first + process.communicate(timeout=60)[1]
    assert process.returncode == 130, stderr
    assert "interrupted while the bot seats played: every move before is written" in stderr
    assert "black's bot seat (mcts:60s, recorded in the game) may think up to 60 s a move; " \
           "Ctrl-C stops it and keeps every move before" in stderr  # said before it thinks
    assert hostile.read_bytes().startswith(before) and len(hostile.read_bytes()) > len(before)
    status = run_json("status", hostile)
    assert status["player"] == "black" and status["turn"] == 2  # red's turn stands
    assert "a bot seat (mcts:60s)" in run("status", hostile).stdout
    assert run_json("check", hostile)["ok"]


def test_after_an_undo_lands_on_a_bot_seat_the_next_line_says_how_it_plays(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3", "--bot", "black=greedy",
        "--undo", "any")
    run("place", game, *_first_move(game))
    run("undo", game, "--steps", "2")
    said = run("redo", game).stdout
    assert "black, a bot seat (greedy), to play: `meeple continue GAME` lets it play" in said
    done = run_json("continue", game)
    assert done["status"]["player"] == "red"
    assert "may think" not in run("place", game, *_first_move(game)).stderr  # a quick seat


@pytest.mark.slow  # a whole game between bots
def test_session_bot_seats_and_recorded_seats_take_turns(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4", "--bot", "black=greedy")
    done = invoke(["play", game, "--bot", "red=greedy"], input="")
    assert done.exit_code == 0, done.stderr
    assert run_json("status", game)["phase"] == "over"
    assert run_json("check", game)["ok"]


def test_a_log_with_a_bot_in_every_seat_is_refused_as_new_refuses_it(tmp_path):
    """A received log that seats a bot in every seat, with budgets of an hour a move, would
    have `continue` play for days unasked: it is read as `new` reads the same seats."""
    from meeple.engine import Game

    path = tmp_path / "all-bots.jsonl"
    Game.new(["red", "blue"], "classic", seed="b",
             bots={"red": "mcts:3600s", "blue": "mcts:3600s"}).save(path)
    before = path.read_bytes()
    said = fail("continue", path, code=3)
    assert "records a bot in every seat (red mcts:3600s, blue mcts:3600s)" in said
    assert "`new` refuses such a game" in said and path.read_bytes() == before
    said = run("autoplay", path, "--bot", "random", "--turns", "2").stdout  # (as it says)
    assert "every seat is a bot: `meeple autoplay GAME --bot BOT` plays it" in said
    assert run_json("status", path)["turn"] == 3
