"""A bot program asked from Python (``meeple.cli.bots.api``) and interrupted while it thinks
(Ctrl-C, an alarm, any exception in ``Bot.play``) is stopped there and then: its answer to
the interrupted request can never be read as the answer to the next one."""

import signal
from pathlib import Path

import pytest

from meeple.cli.bots.api import Bot
from meeple.cli.store import load_tileset
from meeple.engine import Game, move_options, new_game

from helpers import process_gone

pytestmark = pytest.mark.slow  # (starts bot programs)

#: a version 1 bot that notes its pid; the first run thinks for a minute before its first
#: answer (move 1), later runs answer move 0 at once
SLOW_ONCE = """\
import json, os, sys, time
first = not os.path.exists(sys.argv[0] + ".ran")
open(sys.argv[0] + ".ran", "a").close()
with open(sys.argv[0] + ".pid", "w") as f:
    f.write(str(os.getpid()))
for line in sys.stdin:
    if json.loads(line)["type"] == "move":
        if first:
            time.sleep(60)
        print(json.dumps({"move": 1 if first else 0}), flush=True)
"""

class Interrupted(Exception):
    pass



def test_an_interrupted_move_stops_the_program_at_once(tmp_path):
    program = tmp_path / "slow.py"
    program.write_text(SLOW_ONCE)
    game = Game.begin(new_game(["red", "black"], load_tileset(None), seed="7"))

    def alarm(signum, frame):
        raise Interrupted

    previous = signal.signal(signal.SIGALRM, alarm)
    try:
        with Bot.open(f"cmd:{program}", move_time=120) as bot:
            signal.setitimer(signal.ITIMER_REAL, 1.0)
            with pytest.raises(Interrupted):
                bot.play(game)
            pid = int(Path(str(program) + ".pid").read_text())
            assert process_gone(pid)  # inside the with: stopped by the interruption itself
            assert bot.play(game) == move_options(game.state)[0]
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
