"""The ``greedy`` bot: the whole turn (placement, then figure step) with the best one-step
value difference: its side's value after the turn minus the best other side's, each side's
value as ``meeple.engine.evaluation.held_value`` counts it (points, what the end of the game
would pay for the realms its figures hold, figures in reserve at the edition's worth).

The turn is played on a detached copy (``meeple.engine.detached``) up to the next draw or
dice roll, which are chance and not looked at: a realm the turn completes is scored, a
contest waiting for dice counts as ``projected`` counts it. Ties are broken by the game's
seeded ``bot`` stream, as ``random`` and ``greedy-v1`` break theirs, so a game replays
identically.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from meeple.engine import chance
from meeple.engine.applying import apply_unrecorded
from meeple.engine.commands import Command
from meeple.engine.detached import detach, play_move
from meeple.engine.evaluation import Evaluate, difference, held_value
from meeple.engine.flow import awaiting, consequence
from meeple.engine.moves import move_options
from meeple.engine.state import GameState

#: values closer than this count as equal (they are sums of a few fractions)
TIE = 1e-9


def settle_certain(state: GameState) -> None:
    """Apply what the rules do next until chance (a draw, dice) or a player is needed."""
    while (event := consequence(state)) is not None:
        apply_unrecorded(state, event)


def _pick(state: GameState, what: str, n: int) -> int:
    return chance.below_bytes(state.bot_seed.encode(), f"greedy-{what}".encode(),
                              state.next_seq, n)


def whole_turns(state: GameState, options: list[Command], value: Callable[[GameState], float]
                ) -> Iterator[tuple[int, Command, Command | None, GameState, float]]:
    """Every whole turn that starts with one of ``options`` from a detached state: the
    option's index, the option, the figure step after it (None where no step follows it, or
    where the state already waits for a step), and the position after the turn, played up to
    the next chance, with ``value`` of it. ``lookahead`` values the same turns."""
    placing = awaiting(state) == "place"
    for index, first in enumerate(options):
        after = state.copy()
        play_move(after, first)
        settle_certain(after)
        if placing and awaiting(after) == "meeple":
            for step in move_options(after):
                done = after.copy()
                play_move(done, step)
                settle_certain(done)
                yield index, first, step, done, value(done)
        else:
            yield index, first, None, after, value(after)


def one_step_values(state: GameState, options: list[Command],
                    evaluate: Evaluate = held_value) -> list[float]:
    """The one-step value difference of each of ``options`` for the player's side (see the
    module): a placement's with its best figure step after it. ``evaluate`` values a
    position by side (``greedy``'s ``held_value`` unless given)."""
    side = state.side_of[state.player]
    values = [float("-inf")] * len(options)
    # (a detached copy samples nothing here: it stops at the next draw or roll)
    turns = whole_turns(detach(state, random.Random(0)), options,
                        lambda after: difference(after, side, evaluate))
    for index, _, _, _, value in turns:
        values[index] = max(values[index], value)
    return values


def _best(options: list[Command], values: list[float]) -> list[Command]:
    """The options of the best value (ties within ``TIE``)."""
    best = max(values)
    return [option for option, value in zip(options, values, strict=True)
            if value >= best - TIE]


def greedy_move(state: GameState, evaluate: Evaluate = held_value) -> Command:
    """The move of the best whole turn for the player's side (see the module): at the
    placement, the placement whose best figure step is best; at the figure step, the best
    step for the tile as it lies. ``evaluate`` values a position by side (``held_value``,
    ``greedy``'s, unless given)."""
    waiting = awaiting(state)
    if waiting not in ("place", "meeple"):
        raise ValueError(f"a bot cannot act now (the game waits for: {waiting})")
    options = move_options(state)
    top = _best(options, one_step_values(state, options, evaluate))
    return top[_pick(state, "place" if waiting == "place" else "step", len(top))]
