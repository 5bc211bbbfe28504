"""Bots from Python (``meeple.cli.bots.api``): programs and engine bots through one
interface, options, info lines, and a program stopped with its process group whatever the
way out of ``with``."""

import contextlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.cli.bots.api import Bot, BotError
from meeple.engine import Game, move_options

from helpers import process_gone

ROOT = Path(__file__).parents[2]

pytestmark = pytest.mark.slow  # (starts bot programs)

#: a version 1 bot that notes its pid and a child's, then answers move 0 to every request
NOTED = """\
import json, os, subprocess, sys
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
with open(sys.argv[0] + ".pids", "w") as f:
    f.write(f"{os.getpid()} {child.pid}")
for line in sys.stdin:
    if json.loads(line)["type"] == "move":
        print(json.dumps({"move": 0}), flush=True)
"""

def _noted(tmp_path) -> tuple[str, Path]:
    program = tmp_path / "noted.py"
    program.write_text(NOTED)
    return f"cmd:{program}", Path(str(program) + ".pids")



@pytest.mark.skipif(shutil.which("node") is None, reason="the example's program is in node")
def test_the_documented_example_runs_as_written(tmp_path):
    (tmp_path / "docs" / "bots").mkdir(parents=True)
    shutil.copy(ROOT / "docs" / "bots" / "first_bot.js", tmp_path / "docs" / "bots")
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "bots" / "api_example.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "red: {'name': 'first', 'author': 'meeple', 'version': '1.0'}" in done.stdout
    assert "said: ['1 moves" in done.stdout and "winners:" in done.stdout
    Game.load(tmp_path / "api-bots.jsonl")  # a whole, valid game


def test_an_engine_bot_and_a_program_answer_through_one_interface(tmp_path):
    spec, _ = _noted(tmp_path)
    game = Game.new(["red", "blue"], "classic", seed="api")
    with Bot.open("greedy") as engine, Bot.open(spec, move_time=5) as program:
        for bot in (engine, program, engine, program):
            move = bot.play(game)
            assert move in move_options(game.state)
            game.push(move)
        assert engine.id == {"name": "greedy", "author": "meeple", "version": ""}
        assert program.id is None and program.info == []  # a version 1 program says neither
        with pytest.raises(BotError, match="takes no options"):
            engine.configure(depth=3)
        with pytest.raises(BotError, match="a name is a letter"):
            program.configure(**{"de:pth": 3})
    with pytest.raises(BotError, match="unknown bot"):
        Bot.open("clever")


@pytest.mark.parametrize("way_out", ["close", "exception", "ctrl-c"])
def test_a_program_is_stopped_with_what_it_started_whatever_the_way_out(tmp_path, way_out):
    spec, pids = _noted(tmp_path)
    game = Game.new(["red", "blue"], "classic", seed="api")
    raised = {"close": None, "exception": RuntimeError, "ctrl-c": KeyboardInterrupt}[way_out]
    with pytest.raises(raised) if raised else contextlib.nullcontext():
        with Bot.open(spec, move_time=5) as bot:
            game.push(bot.play(game))
            if way_out == "exception":
                raise RuntimeError("the script failed")
            if way_out == "ctrl-c":
                raise KeyboardInterrupt
    noted = [int(p) for p in pids.read_text().split()]
    assert len(noted) == 2 and all(process_gone(pid) for pid in noted)


def test_a_program_never_closed_is_stopped_when_the_script_ends(tmp_path):
    spec, pids = _noted(tmp_path)
    script = ("from meeple.cli.bots.api import Bot\nfrom meeple.engine import Game\n"
              "game = Game.new(['red', 'blue'], 'classic', seed='api')\n"
              f"bot = Bot.open({spec!r})\ngame.push(bot.play(game))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    noted = [int(p) for p in pids.read_text().split()]
    assert len(noted) == 2 and all(process_gone(pid) for pid in noted)


def test_a_program_that_fails_raises_a_bot_error_and_is_stopped(tmp_path):
    program = tmp_path / "cheat.py"
    program.write_text("import json, sys\nfor line in sys.stdin:\n"
                       "    if json.loads(line)['type'] == 'move':\n"
                       "        print(json.dumps({'move': 9999}), flush=True)\n")
    game = Game.new(["red", "blue"], "classic", seed="api")
    with Bot.open(f"cmd:{program}", move_time=5) as bot:
        with pytest.raises(BotError, match="not one of the"):
            bot.play(game)
        assert bot._program is None
