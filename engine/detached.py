"""Playing on without a log, for search bots: the playout path.

``detach`` copies a state for a search. Moves are applied by the same code that applies
their events in a game (``place_tile``, ``place_meeple``, ``skip_meeple``, ``take_back`` of
``meeple.engine.applying``), but they are not decided again, since the move generator
(``placements``, ``legal_targets``) already guarantees them, and they write no event and
keep no undo step. Everything that follows a move is the rules' own: ``next_event`` and the
appliers ``evolve`` uses. Nothing here is a second copy of a rule.

Chance: without a random generator, the game's seed draws and rolls exactly as in the game
(used to check this path against the referee's). With one, draws come from the bag of tiles
left and dice are fair dice, so a search sees nothing a player could not: the order of the
pile is hidden, and a bag built in the tile set's order knows nothing of it.
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import TYPE_CHECKING, assert_never

from meeple.engine.applying import (
    apply_unrecorded,
    draw_tile,
    place_meeple,
    place_tile,
    skip_meeple,
    take_back,
)
from meeple.engine.board import sample_placement
from meeple.engine.commands import (
    ClaimTimeout,
    Command,
    Commit,
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    Reveal,
    RollDice,
    SkipMeeple,
    TakeBack,
    Undo,
)
from meeple.engine.deciding import legal_targets
from meeple.engine.flow import consequence
from meeple.engine.state import GameState, Search
from meeple.engine.targets import Target
from meeple.events.model import DiceRolled, Roll, Spot

if TYPE_CHECKING:
    import random


def detach(state: GameState, rng: random.Random | None = None) -> GameState:
    """A copy of ``state`` to play on without a log. With ``rng`` (the search's own, seeded),
    the copy samples draws from the tiles left and rolls fair dice; without, it draws and
    rolls from the game's seed as the game itself would.

    :raises ValueError: no ``rng`` where the seed is not known here (table mode, or a sealed
        game without its secret).
    """
    if rng is None and not (state.digital and state.chance_known):
        raise ValueError("this game's draws and dice are not known here: a playout samples "
                         "them (pass a random generator)")
    copy = state.copy()
    copy.history.steps, copy.history.redo = [], []
    copy.search = Search(list(copy.frontier), sampled=rng is not None)
    copy.closed = True
    if rng is not None:
        copy.chance_known = False
        copy.joint = None  # (a remote game's chance, unknown ahead, is sampled like a sealed one)
        copy.memo.next = None
        remaining = copy.remaining  # (in the tile set's order: nothing of the pile's)
        copy.pile = list(chain.from_iterable(map(repeat, remaining, remaining.values())))
    return copy


def advance(state: GameState, rng: random.Random | None = None, *, draw: bool = True) -> None:
    """Apply what the rules do until a player must place a tile or a figure, or the game is
    over; a sampling state draws and rolls with ``rng``. ``draw=False`` stops where a tile
    would be drawn (dice rolled, no tile drawn). Changes ``state``."""
    while True:
        event = consequence(state)
        if event is None:
            if not state.sampled or state.phase == "over":
                return
            assert rng is not None, "a sampling state draws and rolls with the search's rng"
            if state.phase == "draw" and state.pile and draw:
                pile = state.pile
                draw_tile(state, pile[int(rng.random() * len(pile))])
                state.next_seq += 1
                continue
            if state.phase == "resolve" and state.battle is not None:
                battle = state.battle
                event = DiceRolled(seq=state.next_seq, rolls=tuple(
                    Roll(side=side, values=tuple(rng.randint(1, 6)
                                                 for _ in range(battle.dice[side])))
                    for side in battle.active))
            else:
                return
        apply_unrecorded(state, event)


def play_move(state: GameState, command: Command) -> None:
    """Apply a move taken from the legal ones (``legal_moves``, ``placements``,
    ``legal_targets``) without deciding it again. Changes ``state``; then call ``advance``."""
    match command:
        case PlaceTile():
            place_tile(state, command.x, command.y, command.rotation // 90)
        case PlaceMeeple():
            place_meeple(state, state.player, command.target,
                         command.figure or state.edition.figures[0].name)
        case SkipMeeple():
            skip_meeple(state)
        case TakeBack():
            spot = Spot(x=command.x, y=command.y,
                        feature=Target.parse(command.target, state.edition).feature)
            take_back(state, state.player, spot)
        case DrawTile() | RollDice() | Undo() | Redo() | Commit() | Reveal() | ClaimTimeout():
            raise ValueError(f"{type(command).__name__} is not a move of a playout")
        case _:
            assert_never(command)
    state.next_seq += 1


def playout(state: GameState, rng: random.Random, turns: int | None = None) -> GameState:
    """Play a detached state to the end (or for ``turns`` turns) with uniformly random moves:
    a uniform legal placement, then half the time a figure on a uniform free target (the
    everyday figure while one is left). Changes and returns ``state``."""
    uniform = rng.random
    advance(state, rng)
    last = None if turns is None else state.turn + turns
    while state.phase != "over" and (last is None or state.turn < last):
        if state.phase == "place":
            x, y, rotation = sample_placement(state, state.in_hand, uniform)
            place_tile(state, x, y, rotation // 90)
            state.next_seq += 1
            continue  # the game now waits for the player's figure: nothing to advance
        figure = None
        for name, count in state.reserve[state.player].items():
            if count:
                figure = name
                break
        targets = legal_targets(state) if figure is not None and uniform() < 0.5 else ()
        if targets and figure is not None:
            place_meeple(state, state.player, targets[int(uniform() * len(targets))], figure)
        else:
            skip_meeple(state)
        state.next_seq += 1
        advance(state, rng)
    return state
