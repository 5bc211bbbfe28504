"""A search bot: Monte-Carlo tree search over placements and figure steps (``mcts``).

Each iteration plays a detached copy of the position (``meeple.engine.detached``) down the
tree, choosing moves by UCT (upper confidence bounds), then on with random moves for a
few turns, and scores the end with ``projected`` (the points plus what the end of the game
would pay for every realm held now). Chance is sampled, never read: draws come from the
bag of tiles left, battle dice are fair dice, so the search sees nothing a player
cannot (the order of the pile is hidden). A move's outcomes are told apart by what
chance brought (the tile drawn next, the reserves and scores after a battle): each gets its
own subtree.

The bot's own randomness is seeded from its ``seed`` and the position's ``seq``, so with an
iteration budget a game replays exactly. A budget in CPU seconds is the caller's: ``stop``
is asked before each iteration (the engine reads no clock).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from meeple.engine.board import placements
from meeple.engine.commands import Command, PlaceMeeple, PlaceTile, SkipMeeple, TakeBack
from meeple.engine.deciding import followers_to_take_back, legal_targets
from meeple.engine.detached import advance, detach, play_move, playout
from meeple.engine.flow import awaiting
from meeple.engine.scoring import projected
from meeple.engine.state import GameState

#: how many turns each iteration plays at random past the tree before it scores the position
ROLLOUT_TURNS = 8
#: the exploration constant of UCT, for rewards between 0 and 1
EXPLORATION = 0.7
#: the most iterations one search runs, whatever its budget: each keeps a few kilobytes of
#: tree, so this bounds a search's memory (about 600 MB)
MAX_ITERATIONS = 200_000
#: points of lead that count as a near-certain win in a reward (see ``_rewards``)
LEAD_SCALE = 20.0


def move_options(state: GameState) -> list[Command]:
    """The moves a search considers: every legal placement; then every figure on every free
    target, skipping, and where the tile lets one, taking a figure back.
    The same as the legal moves, in a fixed order."""
    waiting = awaiting(state)
    if waiting == "place":
        tile = state.in_hand
        return [PlaceTile(x, y, r) for x, y, r in placements(state, tile)]
    if waiting == "meeple":
        moves: list[Command] = [SkipMeeple()]
        figures = [name for name, left in state.reserve[state.player].items() if left]
        if figures:
            moves += [PlaceMeeple(target, figure) for target in legal_targets(state)
                      for figure in figures]
        moves += [TakeBack(spot.x, spot.y, spot.feature)
                  for spot in followers_to_take_back(state)]
        return moves
    raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")


class _Node:
    """A position where a side chooses: its moves and their visits and summed rewards."""

    __slots__ = ("side", "moves", "visits", "totals", "children", "seen")

    def __init__(self, state: GameState) -> None:
        self.side = state.side_of[state.player]
        self.moves = move_options(state)
        self.visits = [0] * len(self.moves)
        self.totals = [0.0] * len(self.moves)
        #: for each move, the positions it led to, by what chance brought
        self.children: list[dict[tuple, _Node]] = [{} for _ in self.moves]
        self.seen = 0

    def choose(self, rng: random.Random) -> int:
        """UCT: an untried move first (at random), else the best upper bound."""
        untried = [i for i, n in enumerate(self.visits) if not n]
        if untried:
            return untried[rng.randrange(len(untried))]
        log_seen = math.log(self.seen)
        best, best_value = 0, -1.0
        for i, (n, total) in enumerate(zip(self.visits, self.totals, strict=True)):
            value = total / n + EXPLORATION * math.sqrt(log_seen / n)
            if value > best_value:
                best, best_value = i, value
        return best


def _outcome(state: GameState) -> tuple:
    """What chance brought after a move, as far as the next choice can tell: the phase, the
    tile drawn, the player to move, every side's score and reserve."""
    return (state.phase, state.drawn, state.current, tuple(state.scores.values()),
            tuple(tuple(left.values()) for left in state.reserve.values()))


def _rewards(state: GameState) -> dict[str, float]:
    """Each side's reward for a position, 0 to 1: its projected lead over the best other
    side, squashed (a lead of ``LEAD_SCALE`` points is worth about 0.88)."""
    scores = projected(state)
    rewards = {}
    for side, points in scores.items():
        others = max((p for s, p in scores.items() if s != side), default=points)
        rewards[side] = 0.5 + 0.5 * math.tanh((points - others) / LEAD_SCALE)
    return rewards


def search(state: GameState, rng: random.Random, iterations: int | None = None,
           stop: Callable[[int], bool] | None = None) -> tuple[Command, dict]:
    """The move the search prefers for the player to act (the one it visited most), with
    what it found: iterations run and each move's visits and mean reward.

    Runs ``iterations`` iterations, or until ``stop(iterations so far)`` says so (at least
    one); needs one or the other. Never more than ``MAX_ITERATIONS``.
    """
    if iterations is None and stop is None:
        raise ValueError("a search needs a budget: iterations or a stop test")
    root = _Node(state)
    done = 0
    if len(root.moves) > 1:
        limit = min(iterations or MAX_ITERATIONS, MAX_ITERATIONS)
        while done < limit and not (done and stop and stop(done)):
            _iterate(root, state, rng)
            done += 1
    best = max(range(len(root.moves)), key=lambda i: (root.visits[i], -i))
    found = {"iterations": done, "moves": [
        {"move": repr(move), "visits": n, "mean": round(total / n, 4) if n else None}
        for move, n, total in zip(root.moves, root.visits, root.totals, strict=True)]}
    return root.moves[best], found


def _iterate(root: _Node, position: GameState, rng: random.Random) -> None:
    state = detach(position, rng)
    path: list[tuple[_Node, int]] = []
    node: _Node | None = root
    while node is not None:
        move = node.choose(rng)
        path.append((node, move))
        play_move(state, node.moves[move])
        advance(state, rng)
        if state.phase == "over":
            break
        key = _outcome(state)
        children = node.children[move]
        node = children.get(key)
        if node is None:
            children[key] = _Node(state)
            break
    if state.phase != "over":
        playout(state, rng, ROLLOUT_TURNS)
    rewards = _rewards(state)
    for node, move in path:
        node.seen += 1
        node.visits[move] += 1
        node.totals[move] += rewards[node.side]


def mcts_move(state: GameState, *, iterations: int | None = None,
              stop: Callable[[int], bool] | None = None, seed: str = "mcts") -> Command:
    """The search bot's move: ``search`` with its randomness seeded from ``seed`` and the
    position's ``seq``, never from the game's seed (which would know the pile)."""
    rng = random.Random(f"{seed}:{state.next_seq}")
    move, _ = search(state, rng, iterations, stop)
    return move
