"""Run one unit of `meeple bench` N times, for instruction counts under callgrind (docs,
Performance): ``python docs/units.py UNIT EDITION N`` with UNIT one of copy, apply, replay,
check, game. It runs on this code and on 02cf531 (before one ``Game``), to compare the two."""

import os
import sys
import tempfile

from meeple.engine.bots import random_move
from meeple.engine.check import command_of
from meeple.engine.playing import fold
from meeple.events import log as logfile
from meeple.events.model import MeeplePlaced, MeepleSkipped, MeepleTakenBack, TilePlaced
from meeple.events.tileset import bundled

try:
    from meeple.engine import Game
    NEW = hasattr(Game, "begin")
except ImportError:
    NEW = False

unit, edition, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
players = ["red", "black"] if edition == "star-wars" else ["red", "blue"]
tileset = bundled(edition)


def random_game(seed):
    if NEW:
        game = Game.new(players, tileset=tileset, seed=seed)
        while not game.over:
            game.push(random_move(game.state))
        return list(game.events)
    from meeple.engine import awaiting, new_game, play, settle, start
    first = new_game(players, tileset, seed=seed)
    state, log = settle(start(first))
    log = [first, *log]
    while awaiting(state) != "over":
        state, events = play(state, random_move(state))
        log += events
    return log


log = random_game("bench-0")
placed = [i for i, e in enumerate(log) if isinstance(e, TilePlaced)]
mid = fold(log[: placed[35]])
moves = (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack)
commands = [c for e in log[1:] if isinstance(e, moves) and (c := command_of(e)) is not None]
first = log[0]
path = os.path.join(tempfile.mkdtemp(prefix="units-"), "game.jsonl")
logfile.create(path, log)


def apply():
    if NEW:
        game = Game.begin(first)
        for command in commands:
            game.push(command)
        return
    from meeple.engine import play, settle, start
    state, _ = settle(start(first))
    for command in commands:
        state, _ = play(state, command)


def check():
    if NEW:
        Game.load(path)
        return
    from meeple.engine import verify
    verify(logfile.read(path).events)


units = {"copy": lambda: mid.copy(), "apply": apply,
         "replay": lambda: fold(logfile.read(path).events), "check": check,
         "game": lambda: random_game("g")}
run = units[unit]
run()  # a warm-up, in the process counted with N = 0 too
for _ in range(n):
    run()
