"""Fit and try the learned leaf value (``meeple.engine.evaluation_learned``) by self-play.

``python docs/fit_learned.py data EDITION GAMES OUT`` plays GAMES 2-player games (seeds
``fit-0`` on; even seeds ``greedy`` against itself, odd ones a one-step bot valuing positions
with ``leaf_value`` against ``greedy``) and writes, for the player to place at every
placement, its features minus its opponent's and the final score difference, one JSON list a
line. ``python docs/fit_learned.py fit FILE...`` fits the weights by least squares (no
constant: the features are differences) and prints them. ``python docs/fit_learned.py duel
EDITION SEEDS [WEIGHTS]`` plays a one-step bot (``greedy``'s turn, the same ties, positions
valued by ``learned_value`` with the weights given as a JSON list, else ``WEIGHTS``) against
``greedy`` on seeds ``t0`` to ``tN-1``, both seatings, and prints its wins and mean margin
(WEIGHTS ``leaf``: the one-step bot of ``leaf_value``, for comparison; ``-``: ``WEIGHTS``; a
fourth argument replaces the seeds' prefix ``t``). ``data`` takes a
fifth argument, a rate of random moves (0 unless given) played by both seats, to see
positions the bots would not choose.
``python docs/fit_learned.py cost SPEC...`` times each bot's turn (placement and figure
step, ``time.process_time``) on 16 fixed positions (``greedy`` self-play, seeds ``c0`` and
``c1`` of each edition, turns 8, 24, 40 and 56), the bots taking turns so that they share
the machine's load. ``python docs/fit_learned.py tally FOLDER`` tallies an arena's folder
from its logs, as far as its games go: the first bot's wins (a tie half) with Wilson's 95%
interval, whole seeds, mean margin and each bot's CPU a turn (``results.ndjson``: CPU
seconds over half the moves).
Everything is seeded: the same command writes the same figures (``cost`` aside).
"""

import functools
import json
import math
import pathlib
import random
import sys
import time

from meeple.engine import Game, bot_named, greedy_move, move_options
from meeple.engine import play as play_turn
from meeple.engine.evaluation import leaf_value  # noqa: TID251
from meeple.engine.evaluation_learned import WEIGHTS, features, learned_value  # noqa: TID251

PLAYERS = {"star-wars": ["red", "black"], "classic": ["red", "blue"]}


def one_step(evaluate):
    """``greedy``'s choice with positions valued by ``evaluate``."""
    return functools.partial(greedy_move, evaluate=evaluate)


def play(edition, seed, bots, watch=None):
    game = Game.new(PLAYERS[edition], edition, seed=seed)
    seats = dict(zip(PLAYERS[edition], bots, strict=True))
    while not game.over:
        state = game.state
        if watch is not None and state.phase == "place":
            watch(state)
        game.push(seats[state.player](state))
    return game


def explored(bot, rng, rate):
    """``bot``, but a random legal move at a rate of ``rate`` (``rng`` seeded by the caller)."""
    def move(state):
        if rate and rng.random() < rate:
            options = move_options(state)
            return options[rng.randrange(len(options))]
        return bot(state)
    return move


def data(edition, games, out, rate=0.0):
    rng = random.Random(f"fit-{edition}-{rate}")
    greedy = explored(bot_named("greedy"), rng, rate)
    leaf = explored(one_step(leaf_value), rng, rate)
    with open(out, "w") as file:
        for n in range(games):
            bots = [greedy, greedy] if n % 2 == 0 else ([leaf, greedy] if n % 4 == 1
                                                        else [greedy, leaf])
            seen = []

            def watch(state, seen=seen):
                side = state.side_of[state.player]
                rows = features(state)
                other = next(s for s in rows if s != side)
                seen.append((side, other, [a - b for a, b in zip(rows[side], rows[other],
                                                                 strict=True)]))

            game = play(edition, f"fit-{n}", bots, watch)
            final = game.state.scores
            for side, other, row in seen:
                file.write(json.dumps([row, final[side] - final[other]]) + "\n")


def fit(paths, ridge=1.0):
    """Least squares with a ridge (``(X'X + ridge I) w = X'y``), solved by numpy (``pip
    install numpy``: the fitting alone needs it, meeple does not)."""
    try:
        import numpy
    except ImportError:
        sys.exit("fit needs numpy: pip install numpy")
    rows = []
    for path in paths:
        with open(path) as file:
            rows += [json.loads(line) for line in file]
    x = numpy.array([features for features, _ in rows], dtype=float)
    y = numpy.array([label for _, label in rows], dtype=float)
    weights = numpy.linalg.solve(x.T @ x + ridge * numpy.eye(x.shape[1]), x.T @ y)
    residual = float(numpy.mean((y - x @ weights) ** 2))
    total = float(numpy.mean(y * y))
    print(f"{len(rows)} positions, mean squared error {residual:.1f} (of {total:.1f})")
    print(json.dumps([round(float(w), 3) for w in weights]))


def duel(edition, seeds, weights, prefix="t"):
    greedy = bot_named("greedy")
    mine = one_step(leaf_value if weights == "leaf" else
                    lambda state: learned_value(state, weights))
    wins = margin = games = 0.0
    for n in range(seeds):
        for seat in (0, 1):
            bots = [mine, greedy] if seat == 0 else [greedy, mine]
            game = play(edition, f"{prefix}{n}", bots)
            scores = [game.state.scores[game.state.side_of[c]] for c in PLAYERS[edition]]
            lead = scores[seat] - scores[1 - seat]
            wins += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
            margin += lead
            games += 1
    print(f"{edition}: {wins:g} of {games:g} ({100 * wins / games:.1f}%), "
          f"margin {margin / games:+.1f}")


def cost(specs):
    greedy = bot_named("greedy")
    positions = {edition: [] for edition in PLAYERS}
    for edition, states in positions.items():
        for seed in ("c0", "c1"):
            game = Game.new(PLAYERS[edition], edition, seed=seed)
            while not game.over and game.turn <= 56:
                if game.turn in (8, 24, 40, 56) and game.state.phase == "place":
                    states.append(game.state.copy())
                game.push(greedy(game.state))
    for edition, states in positions.items():
        totals = dict.fromkeys(specs, 0.0)
        for state in states:
            for spec in specs:
                bot = bot_named(spec)
                begin = time.process_time()
                after, _ = play_turn(state.copy(), bot(state))
                if after.phase == "meeple":
                    bot(after)
                totals[spec] += time.process_time() - begin
        for spec, total in totals.items():
            print(f"{edition} {spec}: {total / len(states):.3f} s of CPU a turn "
                  f"({len(states)} positions)")


def tally(folder):
    folder = pathlib.Path(folder)
    first, second = json.loads((folder / "arena.json").read_text())["bots"]
    wins = margin = games = 0.0
    cpu = {first: [], second: []}
    seeds = {}
    for line in (folder / "results.ndjson").read_text().splitlines():
        result = json.loads(line)
        events = (folder / result["file"]).read_text().splitlines()
        start, end = json.loads(events[0]), json.loads(events[-1])
        if end["type"] != "game_ended":
            continue
        seats = {p["name"]: p["colour"] for p in start["players"]}
        scores = {s["side"]: s["points"] for s in end["scores"]}
        lead = scores[seats[first]] - scores[seats[second]]
        won = 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        wins, margin, games = wins + won, margin + lead, games + 1
        index = int(result["file"].rsplit("-", 1)[1].split(".")[0])
        seeds.setdefault(index // 2, []).append(won)
        for player, seconds, moves in zip(start["players"], result["seconds"], result["moves"],
                                          strict=True):
            cpu[player["name"]].append(seconds / (moves / 2))
    share, z = wins / games, 1.96
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (
        1 + z * z / games)
    whole = [sum(pair) / 2 for pair in seeds.values() if len(pair) == 2] or [share]
    mean = sum(whole) / len(whole)
    error = math.sqrt(sum((x - mean) ** 2 for x in whole) / max(1, len(whole) - 1) / len(whole))
    print(f"{first} vs {second}: {games:g} games, {first} wins {wins:g} = {100 * share:.1f}% "
          f"({100 * (centre - half):.1f} to {100 * (centre + half):.1f}%), {len(whole)} whole "
          f"seeds {100 * mean:.1f}% ± {100 * error:.1f}, margin {margin / games:+.1f}")
    for bot, turns in cpu.items():
        print(f"  {bot}: {sum(turns) / len(turns):.3f} s of CPU a turn "
              f"({min(turns):.2f} to {max(turns):.2f} a game)")


if __name__ == "__main__":
    verb, *args = sys.argv[1:]
    if verb == "data":
        data(args[0], int(args[1]), args[2], float(args[3]) if len(args) > 3 else 0.0)
    elif verb == "fit":
        fit(args)
    elif verb == "cost":
        cost(args)
    elif verb == "tally":
        tally(args[0])
    else:
        weights = (WEIGHTS if len(args) < 3 or args[2] == "-" else
                   "leaf" if args[2] == "leaf" else json.loads(args[2]))
        duel(args[0], int(args[1]), tuple(weights) if weights != "leaf" else weights,
             *args[3:])
