"""The ``lookahead`` bot: two turns ahead, the opponent's reply included.

Every whole turn of the player (a placement and its figure step) is played on a detached
copy (``meeple.engine.detached``) up to the next draw or dice roll and valued by its side's
learned value (``meeple.engine.evaluation_learned``) minus the best other side's; a turn that
ends waiting for dice (a contest the edition settles by dice) is worth the mean over
``PAIRS`` pairs of opposite rolls (each die of the second roll shows the face opposite the
first's, so that a pair favours no seat), the same rolls for every turn of the position. The
``CANDIDATES`` best turns are then looked at one turn further: for each of ``DRAWS`` tiles
drawn from the bag of tiles left (the pile's order is hidden; dice are fair dice), the next
player takes the whole turn that is best for their own side by the same value, and the turn
is worth the player's value difference after that reply, averaged over the draws. Each
candidate meets the same draws (each draw has its own generator, and dice have theirs), so
chance does not favour one over another; a tile that cannot be placed is drawn again, as the
rules say, which only a candidate's own board decides. The best such
turn is played; its figure step is kept for the step that follows (``Lookahead``).

Where the next player is the same side, or the game ends first, a draw counts the position
as it stands. What it sees is what a player sees: the draws are its own, seeded from its
``seed`` and the position's ``seq``, so a game replays exactly, and a sealed game may seat it.
"""

from __future__ import annotations

import random

from meeple.engine.commands import Command, PlaceTile
from meeple.engine.detached import advance, detach
from meeple.engine.evaluation import Evaluate, difference
from meeple.engine.evaluation_learned import learned_value
from meeple.engine.flow import awaiting
from meeple.engine.greedy import whole_turns
from meeple.engine.moves import move_options, same_step, step_after
from meeple.engine.state import GameState

#: the turns of the best one-step values that are looked at a turn further
CANDIDATES = 5
#: the tiles drawn for the next player's reply to each candidate
DRAWS = 7
#: the pairs of opposite rolls a turn waiting for dice is valued over
PAIRS = 3


class _Chance(random.Random):
    """The chance of one draw: tiles from this generator, dice from one of their own, so
    that a battle one candidate starts and another does not shifts no tile."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.dice = random.Random(f"{seed}:dice")

    def randint(self, a: int, b: int) -> int:
        return self.dice.randint(a, b)


class _Opposite(random.Random):
    """The twin of ``random.Random(seed)`` whose every die shows the opposite face (7 - v on
    a six-sided die): over a roll and its twin, no seat's dice come out higher."""

    def randint(self, a: int, b: int) -> int:
        return a + b - super().randint(a, b)


class _Turn:
    """A whole turn on a detached copy: its first move, its figure step (if it has one), the
    position after it and that position's value difference for a side."""

    __slots__ = ("first", "step", "after", "value")

    def __init__(self, first: Command, step: Command | None, after: GameState,
                 value: float) -> None:
        self.first, self.step, self.after, self.value = first, step, after, value


def turns(state: GameState, side: str, evaluate: Evaluate,
          rolls: tuple[str, ...] = ()) -> list[_Turn]:
    """Every whole turn of a detached state waiting for a placement (or the figure steps of
    one waiting for a step), each played up to the next chance and valued for ``side`` (a
    turn waiting for dice over the pairs of rolls seeded by ``rolls``; with none, as it
    stands)."""
    return [_Turn(first, step, after, value) for _, first, step, after, value in whole_turns(
        state, move_options(state), lambda after: _worth(after, side, evaluate, rolls))]


def _worth(after: GameState, side: str, evaluate: Evaluate, rolls: tuple[str, ...]) -> float:
    """``side``'s value difference after a whole turn: if it waits for dice, the mean over
    each seed of ``rolls`` of its roll and the opposite roll."""
    if not rolls or awaiting(after) != "dice":
        return difference(after, side, evaluate)
    total = 0.0
    for seed in rolls:
        for dice in (random.Random(seed), _Opposite(seed)):
            rolled = after.copy()
            advance(rolled, dice, draw=False)
            total += difference(rolled, side, evaluate)
    return total / (2 * len(rolls))


def rolls_for(state: GameState, seed: str, pairs: int = PAIRS) -> tuple[str, ...]:
    """The seeds of the rolls of the turns looked at from ``state``: the bot's seed and the
    position's ``seq``, so that they differ from one position to the next."""
    return tuple(f"{seed}:{state.next_seq}:roll:{k}" for k in range(pairs))


def _reply_value(position: GameState, side: str, evaluate: Evaluate,
                 rng: random.Random, rolls: tuple[str, ...]) -> float:
    """``side``'s value difference after chance and the next player's best whole turn."""
    advance(position, rng)
    if position.phase == "over" or awaiting(position) not in ("place", "meeple"):
        return difference(position, side, evaluate)
    replier = position.side_of[position.player]
    if replier == side:
        return difference(position, side, evaluate)
    replies = turns(position, replier, evaluate, rolls)
    best = max(replies, key=lambda turn: turn.value)
    return difference(best.after, side, evaluate)


def choose(state: GameState, seed: str = "lookahead", candidates: int = CANDIDATES,
           draws: int = DRAWS, evaluate: Evaluate = learned_value) -> _Turn:
    """The turn the bot plays from ``state`` (see the module)."""
    side = state.side_of[state.player]
    # (the bag is sampled only by ``advance`` below, with the bot's own generator)
    rolls = rolls_for(state, seed)
    mine = turns(detach(state, random.Random(0)), side, evaluate, rolls)
    ranked = sorted(range(len(mine)), key=lambda i: (-mine[i].value, i))
    top = [mine[i] for i in ranked[:candidates]]
    if len(top) == 1:
        return top[0]
    best, best_value = top[0], float("-inf")
    for turn in top:
        value = sum(_reply_value(turn.after.copy(), side, evaluate,
                                 _Chance(f"{seed}:{state.next_seq}:{k}"), rolls)
                    for k in range(draws)) / draws
        if value > best_value:
            best, best_value = turn, value
    return best


class Lookahead:
    """The ``lookahead`` bot of one game: at a placement, ``choose`` the whole turn and keep
    its figure step for the step that follows; a step asked of a bot that did not choose the
    placement is chosen afresh. The same calls in the same order give the same moves."""

    def __init__(self, seed: str = "lookahead") -> None:
        self.seed = seed
        #: the figure step kept: the step it follows (``moves.step_after``), and the step
        self.kept: tuple[tuple, Command] | None = None

    def __call__(self, state: GameState) -> Command:
        waiting = awaiting(state)
        if waiting not in ("place", "meeple"):
            raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")
        kept, self.kept = self.kept, None
        if kept is not None and same_step(kept[0], state) and kept[1] in move_options(state):
            return kept[1]
        turn = choose(state, self.seed)
        if turn.step is not None and isinstance(turn.first, PlaceTile):
            self.kept = (step_after(state, turn.first), turn.step)
        return turn.first
