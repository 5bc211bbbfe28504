"""Search bots: Monte-Carlo tree search over placements and figure steps (``mcts``, and
``mcts-v1``, the first search).

Each iteration plays a detached copy of the position (``meeple.engine.detached``) down the
tree, choosing moves by UCT (upper confidence bounds), then on with random moves for a
few turns, and scores the end with a leaf value. Chance is sampled, never read: each
iteration draws its own pile from the bag of tiles left (a uniform tile of the bag at each
draw, the same as shuffling the bag once an iteration: a determinization), battle dice
are fair dice, so the search sees nothing a player cannot (the order of the pile is hidden).
A move's outcomes are told apart by what chance brought (the tile drawn next, the reserves
and scores after a battle): each gets its own subtree.

The two searches differ in their ``Settings``: ``mcts-v1`` scores a leaf with ``projected``
(the points plus what the end of the game would pay for every realm held now) after 8
random turns, and runs every budget to its end, from scratch at each step. ``mcts`` scores
a leaf with ``meeple.engine.evaluation.leaf_value`` (completion chances of the realms held,
dead realms, figures in reserve) after fewer random turns, starts its root's moves from
their one-step values (``greedy``'s) and searches only the best placements by that value,
stops a search once no other move can overtake the most visited one in the budget left, and
(``Searcher``) carries the tree of its placement on to its figure step.

The bot's own randomness is seeded from its ``seed`` and the position's ``seq``, so with an
iteration budget a game replays exactly. A budget in CPU seconds is the caller's: ``stop``
is asked before each iteration (the engine reads no clock).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from typing import NamedTuple

from meeple.engine.commands import Command, PlaceTile
from meeple.engine.detached import advance, detach, play_move, playout
from meeple.engine.evaluation import held_value, leaf_value
from meeple.engine.evaluation_learned import learned_value
from meeple.engine.greedy import one_step_values
from meeple.engine.moves import move_options, same_step, step_after
from meeple.engine.scoring import projected
from meeple.engine.state import GameState

#: how many turns each iteration of ``mcts-v1`` plays at random past the tree before it
#: scores the position
ROLLOUT_TURNS = 8
#: the exploration constant of UCT, for rewards between 0 and 1
EXPLORATION = 0.7
#: the most iterations one search runs, whatever its budget: each keeps a few kilobytes of
#: tree, so this bounds a search's memory (about 600 MB)
MAX_ITERATIONS = 200_000
#: points of lead that count as a near-certain win in a reward (see ``_rewards``)
LEAD_SCALE = 20.0


class Settings(NamedTuple):
    """What sets one search apart from another."""

    #: turns played at random past the tree before a leaf is valued
    rollout_turns: int
    #: a position's value by side
    evaluate: Callable[[GameState], Mapping[str, float]]
    #: stop once the most visited move cannot be overtaken in the iterations left
    early_stop: bool
    #: at a fresh root, each move starts with this many visits of the reward its one-step
    #: value difference (``meeple.engine.greedy.one_step_values``) gives: 0 for none
    prior_visits: int = 0
    #: and only the placements of the best one-step values are searched, at most this many
    widest: int = 0
    #: the exploration constant of UCT
    exploration: float = EXPLORATION
    #: the value of a position the prior's one step ahead is measured by
    prior_value: Callable[[GameState], Mapping[str, float]] = held_value


#: the first search (``mcts-v1``)
V1 = Settings(ROLLOUT_TURNS, projected, early_stop=False)
#: the search of ``mcts``
V2 = Settings(2, leaf_value, early_stop=True, prior_visits=10, widest=10, prior_value=leaf_value)
#: the search of ``mcts-learned``: ``mcts``'s, with the learned value
#: (``meeple.engine.evaluation_learned``) at its leaves and in its prior
LEARNED = V2._replace(evaluate=learned_value, prior_value=learned_value)
#: how often (in iterations) a search asks whether it may stop early
CHECK_EVERY = 8

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

    def choose(self, rng: random.Random, exploration: float = EXPLORATION) -> int:
        """UCT: an untried move first (at random), else the best upper bound."""
        untried = [i for i, n in enumerate(self.visits) if not n]
        if untried:
            return untried[rng.randrange(len(untried))]
        log_seen = math.log(self.seen)
        best, best_value = 0, -1.0
        for i, (n, total) in enumerate(zip(self.visits, self.totals, strict=True)):
            value = total / n + exploration * math.sqrt(log_seen / n)
            if value > best_value:
                best, best_value = i, value
        return best


def _outcome(state: GameState) -> tuple:
    """What chance brought after a move, as far as the next choice can tell: the phase, the
    tile drawn, the player to move, every side's score and reserve."""
    return (state.phase, state.drawn, state.current, tuple(state.scores.values()),
            tuple(tuple(left.values()) for left in state.reserve.values()))


def _rewards(state: GameState, evaluate: Callable[[GameState], Mapping[str, float]]
             ) -> dict[str, float]:
    """Each side's reward for a position, 0 to 1: its lead in value (``evaluate``) over the
    best other side, squashed (a lead of ``LEAD_SCALE`` points is worth about 0.88)."""
    scores = evaluate(state)
    rewards = {}
    for side, points in scores.items():
        others = max((p for s, p in scores.items() if s != side), default=points)
        rewards[side] = 0.5 + 0.5 * math.tanh((points - others) / LEAD_SCALE)
    return rewards


def search(state: GameState, rng: random.Random, iterations: int | None = None,
           stop: Callable[[int], bool] | None = None, *, settings: Settings = V1,
           root: _Node | None = None, left: Callable[[int], float] | None = None,
           ) -> tuple[Command, dict]:
    """The move the search prefers for the player to act (the one it visited most), with
    what it found: iterations run and each move's visits and mean reward.

    Runs ``iterations`` iterations, or until ``stop(iterations so far)`` says so (at least
    one); needs one or the other. Never more than ``MAX_ITERATIONS``. ``root``: a tree of
    this position grown before (its iterations count in ``iterations``). With
    ``settings.early_stop``, stops once the most visited move leads the next by more
    iterations than are left: of ``iterations``, or as many as ``left(iterations so far)``
    says still fit a budget in time.
    """
    move, found, _ = _search(state, rng, iterations, stop, settings, root, left)
    return move, found


def _search(state: GameState, rng: random.Random, iterations: int | None,
            stop: Callable[[int], bool] | None, settings: Settings, root: _Node | None,
            left: Callable[[int], float] | None) -> tuple[Command, dict, _Node]:
    if iterations is None and stop is None:
        raise ValueError("a search needs a budget: iterations or a stop test")
    grown = 0
    if root is None:
        root = _Node(state)
        if settings.prior_visits and len(root.moves) > 1:
            _seed_root(root, state, settings)
    else:
        grown = root.seen
    done = 0
    if len(root.moves) > 1:
        limit = min(iterations or MAX_ITERATIONS, MAX_ITERATIONS) - grown
        while done < limit and not (done and stop and stop(done)):
            _iterate(root, state, rng, settings)
            done += 1
            if settings.early_stop and not done % CHECK_EVERY:
                to_go = limit - done if left is None else min(limit - done, left(done))
                if _decided(root, to_go):
                    break
    best = max(range(len(root.moves)), key=lambda i: (root.visits[i], -i))
    found = {"iterations": done, "moves": [
        {"move": repr(move), "visits": n, "mean": round(total / n, 4) if n else None}
        for move, n, total in zip(root.moves, root.visits, root.totals, strict=True)]}
    if grown:
        found["reused"] = grown
    return root.moves[best], found, root


def _seed_root(root: _Node, state: GameState, settings: Settings) -> None:
    """Progressive bias from one step ahead: every move starts with ``prior_visits`` visits
    of the reward of its one-step value difference, and a placement root keeps only its
    ``widest`` best placements (in their order among the moves)."""
    values = one_step_values(state, root.moves, settings.prior_value)
    keep = sorted(range(len(values)), key=lambda i: (-values[i], i))
    if settings.widest and isinstance(root.moves[0], PlaceTile):
        keep = keep[:settings.widest]
    keep.sort()
    root.moves = [root.moves[i] for i in keep]
    root.children = [{} for _ in keep]
    n = settings.prior_visits
    root.visits = [n] * len(keep)
    root.totals = [n * _squash(values[i]) for i in keep]
    root.seen = n * len(keep)


def _squash(lead: float) -> float:
    """A lead in points as a reward, 0 to 1 (see ``_rewards``)."""
    return 0.5 + 0.5 * math.tanh(lead / LEAD_SCALE)


def _decided(root: _Node, to_go: float) -> bool:
    """Whether no move can overtake the most visited one in ``to_go`` more iterations."""
    first = second = 0
    for n in root.visits:
        if n > first:
            first, second = n, first
        elif n > second:
            second = n
    return first - second > to_go


def _iterate(root: _Node, position: GameState, rng: random.Random, settings: Settings) -> None:
    state = detach(position, rng)
    path: list[tuple[_Node, int]] = []
    node: _Node | None = root
    while node is not None:
        move = node.choose(rng, settings.exploration)
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
    if state.phase != "over" and settings.rollout_turns:
        playout(state, rng, settings.rollout_turns)
    rewards = _rewards(state, settings.evaluate)
    for node, move in path:
        node.seen += 1
        node.visits[move] += 1
        node.totals[move] += rewards[node.side]


def mcts_move(state: GameState, *, iterations: int | None = None,
              stop: Callable[[int], bool] | None = None, seed: str = "mcts",
              settings: Settings = V1) -> Command:
    """A search bot's move: ``search`` with its randomness seeded from ``seed`` and the
    position's ``seq``, never from the game's seed (which would know the pile). The
    ``settings`` are ``mcts-v1``'s unless given; each move searches from scratch."""
    rng = random.Random(f"{seed}:{state.next_seq}")
    move, _ = search(state, rng, iterations, stop, settings=settings)
    return move


class Searcher:
    """The ``mcts`` bot of one game (``mcts-learned``'s with ``LEARNED``): searches with
    ``settings`` and carries the tree of the placement it chose on to its figure step, where
    the iterations already spent below that placement count in the step's budget.

    A budget of ``iterations`` a move, or (with ``clock``, CPU seconds) of ``seconds`` a
    move. The same calls in the same order give the same moves; a figure step asked of a
    bot that did not choose the placement searches afresh, and may choose another step.
    """

    def __init__(self, iterations: int | None = None, seconds: float | None = None,
                 clock: Callable[[], float] | None = None, seed: str = "mcts",
                 settings: Settings = V2) -> None:
        if (iterations is None) == (seconds is None or clock is None):
            raise ValueError("a searcher needs a budget: iterations, or seconds and a clock")
        self.iterations, self.seconds, self.clock, self.seed = iterations, seconds, clock, seed
        self.settings = settings
        #: the placement's subtrees, by outcome, and the figure step they serve
        #: (``moves.step_after``)
        self.kept: tuple[tuple, dict[tuple, _Node]] | None = None
        #: what the last search found
        self.found: dict = {}

    def __call__(self, state: GameState) -> Command:
        rng = random.Random(f"{self.seed}:{state.next_seq}")
        root = None
        kept, self.kept = self.kept, None
        if kept is not None and same_step(kept[0], state):
            root = kept[1].get(_outcome(state))
        stop: Callable[[int], bool] | None = None
        left: Callable[[int], float] | None = None
        if self.seconds is not None and self.clock is not None:
            stop, left = _time_budget(self.clock, self.seconds)
        move, self.found, tree = _search(state, rng, self.iterations, stop, self.settings,
                                         root, left)
        if isinstance(move, PlaceTile):
            index = tree.moves.index(move)
            self.kept = (step_after(state, move), tree.children[index])
        return move


def _time_budget(clock: Callable[[], float], seconds: float
                 ) -> tuple[Callable[[int], bool], Callable[[int], float]]:
    """A budget of ``seconds`` from now on ``clock``: whether it is spent, and how many more
    iterations fit it at the pace of those done so far."""
    begin = clock()
    deadline = begin + seconds

    def stop(_: int) -> bool:
        return clock() >= deadline

    def left(done: int) -> float:
        now = clock()
        return (deadline - now) * done / max(now - begin, 1e-9)

    return stop, left
