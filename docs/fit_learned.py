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
(WEIGHTS ``leaf``: the one-step bot of ``leaf_value``, for comparison). ``data`` takes a
fifth argument, a rate of random moves (0 unless given) played by both seats, to see
positions the bots would not choose.
Everything is seeded: the same command writes the same figures.
"""

import json
import random
import sys

from meeple.engine import Game, bot_named, move_options
from meeple.engine.evaluation import leaf_value  # noqa: TID251
from meeple.engine.evaluation_learned import WEIGHTS, features, learned_value
from meeple.engine.greedy import _best, _pick, one_step_values  # noqa: TID251

PLAYERS = {"star-wars": ["red", "black"], "classic": ["red", "blue"]}


def one_step(evaluate):
    """``greedy``'s choice with positions valued by ``evaluate``."""
    def move(state):
        options = move_options(state)
        top = _best(options, one_step_values(state, options, evaluate))
        what = "place" if state.phase == "place" else "step"
        return top[_pick(state, what, len(top))]
    return move


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


def solve(matrix, vector):
    """Gaussian elimination with partial pivoting."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col and a[col][col]:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] if a[i][i] else 0.0 for i in range(n)]


def fit(paths, ridge=1.0):
    rows = []
    for path in paths:
        with open(path) as file:
            rows += [json.loads(line) for line in file]
    k = len(rows[0][0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for x, y in rows:
        for i in range(k):
            xi = x[i]
            if xi:
                xty[i] += xi * y
                line = xtx[i]
                for j in range(k):
                    line[j] += xi * x[j]
    for i in range(k):
        xtx[i][i] += ridge
    weights = solve(xtx, xty)
    residual = sum((y - sum(w * v for w, v in zip(weights, x, strict=True))) ** 2
                   for x, y in rows) / len(rows)
    total = sum(y * y for _, y in rows) / len(rows)
    print(f"{len(rows)} positions, mean squared error {residual:.1f} (of {total:.1f})")
    print(json.dumps([round(w, 3) for w in weights]))


def duel(edition, seeds, weights):
    greedy = bot_named("greedy")
    mine = one_step(leaf_value if weights == "leaf" else
                    lambda state: learned_value(state, weights))
    wins = margin = games = 0.0
    for n in range(seeds):
        for seat in (0, 1):
            bots = [mine, greedy] if seat == 0 else [greedy, mine]
            game = play(edition, f"t{n}", bots)
            scores = [game.state.scores[game.state.side_of[c]] for c in PLAYERS[edition]]
            lead = scores[seat] - scores[1 - seat]
            wins += 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
            margin += lead
            games += 1
    print(f"{edition}: {wins:g} of {games:g} ({100 * wins / games:.1f}%), "
          f"margin {margin / games:+.1f}")


if __name__ == "__main__":
    verb, *args = sys.argv[1:]
    if verb == "data":
        data(args[0], int(args[1]), args[2], float(args[3]) if len(args) > 3 else 0.0)
    elif verb == "fit":
        fit(args)
    else:
        weights = WEIGHTS if len(args) < 3 else "leaf" if args[2] == "leaf" else json.loads(args[2])
        duel(args[0], int(args[1]), tuple(weights) if weights != "leaf" else weights)
