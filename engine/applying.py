"""Applying events to a state (DESIGN.md: ``evolve`` trusts and applies).

``evolve`` checks only the ``seq`` order; every other check belongs to
``decide`` and ``meeple check``. It updates the state in place and returns it,
except for ``undone`` and ``redone``, which return a state rebuilt from the
steps that remain in effect.
"""

from __future__ import annotations

from typing import assert_never

from meeple.engine.board import lay
from meeple.engine.deciding import resolve_target
from meeple.engine.history import Step
from meeple.engine.joint import apply_committed, apply_revealed, last_to_reveal
from meeple.engine.realms import Meeple
from meeple.engine.setup import start
from meeple.engine.state import Battle, GameState
from meeple.events.model import (
    AnyEvent,
    BattleEnded,
    BattleStarted,
    Committed,
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    MeeplePlaced,
    MeepleReturned,
    MeepleSkipped,
    MeepleTakenBack,
    PointsScored,
    Redone,
    Revealed,
    Spot,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    TimeoutClaimed,
    TurnEnded,
    Undone,
)


class FoldError(Exception):
    """An event that cannot follow the state it is applied to (out of ``seq`` order)."""


def node_at(state: GameState, spot: Spot) -> int:
    """The feature node a spot names on the board."""
    placed = state.board[(spot.x, spot.y)]
    return placed.nodes[placed.tile.orientations[placed.r].targets.index(spot.feature)]


_DECISIONS = frozenset({TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack})
_CHANCE = frozenset({TileDrawn, DiceRolled})
#: a remote game's commitments and reveals (``meeple.engine.joint``)
_JOINT = frozenset({Committed, Revealed, TimeoutClaimed})


def is_input(state: GameState, event: Event) -> bool:
    """Whether an event begins a step of its own: a player's decision, or chance entered
    by hand in table mode. Digital draws and dice are consequences."""
    kind = type(event)
    if kind in _DECISIONS or kind in _JOINT:
        return True
    if kind in _CHANCE:
        return not state.digital
    return False


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one event; returns the state to use from now on.

    :raises FoldError: if ``event.seq`` is not the next one.
    """
    if state.closed or event.seq != state.next_seq:
        _refuse(state, event)
    kind = type(event)
    if kind in _CONSEQUENCES or kind in _CHANCE and state.digital:
        step = state.history.steps[-1]  # a consequence joins the last step (``_record``, inline)
        step.events.append(event)
        if kind in _REVEALS and state.digital:
            step.chance = True
        _apply(state, event)  # (which forgets ``next_event``'s answer)
    elif kind is Undone:
        state = _undo(state, event)
        state.memo.next = None
    elif kind is Redone:
        state = _redo(state, event)
        state.memo.next = None
    else:
        _record(state, event, kind, redoing=False)
        _apply(state, event)
    state.next_seq = event.seq + 1
    return state


def _refuse(state: GameState, event: Event) -> None:
    if state.search is not None:
        raise FoldError("this state was detached from its log for a search (playout): it "
                        "takes no events")
    if state.closed:
        raise FoldError("this state was replaced by an undo: go on from the state evolve "
                        "returned for it")
    raise FoldError(f"event seq {event.seq} where {state.next_seq} was expected")


def apply_unrecorded(state: GameState, event: Event) -> None:
    """Apply one event to a state detached from its log (``meeple.engine.detached``): the
    same change ``evolve`` makes, with no undo step kept and no ``seq`` check."""
    _apply(state, event)
    state.next_seq = event.seq + 1


#: consequences that reveal chance in a digital game: the step they end cannot be undone
_REVEALS = frozenset({TileDrawn, DiceRolled, TileSetAside})
#: events that are consequences in every game (draws and dice are in a digital one)
_CONSEQUENCES = frozenset({TurnEnded, PointsScored, MeepleReturned, TileSetAside, BattleStarted,
                           BattleEnded, GameEnded})


def _record(state: GameState, event: Event, kind: type, *, redoing: bool) -> None:
    """Keep ``event`` (of type ``kind``) in the undo steps: an input begins a step (see
    ``is_input``, inline: this runs for every event), a consequence joins the last one."""
    if kind in _DECISIONS or kind in _CHANCE and not state.digital:
        state.history.steps.append(Step([event], state.player, state.turn))
        if not redoing:
            state.history.redo.clear()
        return
    if kind in _JOINT:  # a step of its own, which reveals chance: no undo goes past it
        step = Step([event], state.player, state.turn)
        step.chance = True
        state.history.steps.append(step)
        if not redoing:
            state.history.redo.clear()
        return
    step = state.history.steps[-1]
    step.events.append(event)
    if kind in _REVEALS and state.digital:
        step.chance = True


def _undo(state: GameState, event: Event) -> GameState:
    """The state after the steps that stay in effect: from the nearest snapshot of them (or
    the start), replaying only the steps after it; costs what it takes back, not the game.
    The state undone is kept for a redo of the same steps."""
    assert isinstance(event, Undone)
    count = len(event.steps)
    kept, undone = state.history.steps[:-count], state.history.steps[-count:]
    state.history.kept.stash(state.history.steps, state)
    found = state.history.kept.nearest(kept)
    if found is not None:
        begin, fresh = found[0], found[1].copy()
    else:
        begin, fresh = 0, start(state.setup, state.secret)
    fresh.history.kept = state.history.kept  # the same line of play
    _play_steps(fresh, kept[begin:])
    fresh.next_seq = state.next_seq
    if begin < len(kept):
        state.history.kept.keep(kept, fresh)
    fresh.history.redo = state.history.redo + list(reversed(undone))
    return fresh


def _redo(state: GameState, event: Event) -> GameState:
    """The state with the undone steps in effect again: a copy of the state they were undone
    in, while it is kept, else the steps played again."""
    assert isinstance(event, Redone)
    count = len(event.steps)
    again = [state.history.redo[-1 - i] for i in range(count)]
    redo = state.history.redo[:-count]
    steps = state.history.steps + again
    found = state.history.kept.nearest(steps)
    if found is not None and found[0] > len(state.history.steps):
        fresh = found[1].copy()
        fresh.history.kept = state.history.kept
        fresh.next_seq = state.next_seq
        _play_steps(fresh, steps[found[0]:])
    else:
        fresh = state
        _play_steps(fresh, again)
    fresh.history.redo = redo
    return fresh


def _play_steps(state: GameState, steps: list[Step]) -> None:
    """Apply the events of steps already decided (undo and redo), recording them again."""
    for step in steps:
        for past in step.events:
            if past.seq == 0:
                continue  # game_started: start() has applied it
            _record(state, past, type(past), redoing=True)
            _apply(state, past)


def _apply(state: GameState, event: Event) -> None:
    """Change the state as one recorded event says (already recorded as a step)."""
    state.memo.next = None
    any_event: AnyEvent = event  # type: ignore[assignment]  # (typing.cast is a call: hot path)
    match any_event:  # the most frequent first (a case that misses costs an isinstance); a
        # playout applies the first alone
        case TurnEnded():
            _turn_ended(state, any_event)
        case TileDrawn():
            draw_tile(state, any_event.tile)
        case TilePlaced():
            place_tile(state, any_event.x, any_event.y, any_event.rotation // 90)
        case MeepleSkipped():
            skip_meeple(state)
        case MeeplePlaced():
            _meeple_placed(state, any_event)
        case PointsScored():
            _points_scored(state, any_event)
        case MeepleReturned():
            _meeple_returned(state, any_event)
        case TileSetAside():
            _tile_set_aside(state, any_event)
        case BattleStarted():
            _battle_started(state, any_event)
        case DiceRolled():
            _dice_rolled(state, any_event)
        case BattleEnded():
            _battle_ended(state, any_event)
        case MeepleTakenBack():
            _meeple_taken_back(state, any_event)
        case Committed():
            joint = state.joint
            assert joint is not None
            apply_committed(joint, state.players.index(any_event.player), any_event)
        case Revealed():
            joint = state.joint
            assert joint is not None
            apply_revealed(joint, state.players.index(any_event.player), any_event)
        case TimeoutClaimed():
            joint = state.joint
            assert joint is not None
            seat = state.players.index(any_event.against)
            if joint.remote.timeout == "bot" and joint.gone.count(False) > 2 \
                    and not last_to_reveal(state, seat):
                # RM-5: the seat is given up, a bot plays on (while two seats or more are
                # left to make chance together; one alone would foresee every draw)
                joint.give_up(seat)
            else:
                state.forfeit = any_event.against
                state.phase = "forfeit"
        case GameEnded():
            _game_ended(state, any_event)
        case GameStarted() | Undone() | Redone():
            raise FoldError(f"{type(event).__name__} is not applied as a step's event")
        case _:
            assert_never(any_event)


def draw_tile(state: GameState, tile: str) -> None:
    """The player to move draws ``tile`` (trusted: the draw the rules or the players made)."""
    state.memo.next = None
    state.remaining[tile] -= 1
    state.left -= 1
    if state.joint is not None:
        state.joint.draws += 1
    search = state.search  # (``state.sampled``, inline: once a draw)
    if search is not None and search.sampled:  # (its chance is never known: checked first)
        state.pile.remove(tile)
    elif state.digital and state.chance_known:
        state.pile.pop()
    state.drawn = tile
    state.phase = "place"


def _tile_set_aside(state: GameState, event: TileSetAside) -> None:
    state.drawn = None
    state.phase = "draw"
    if event.disposition == "reshuffled":
        state.remaining[event.tile] += 1
        state.left += 1
        if event.position is not None:
            if state.chance_known:
                state.pile.insert(len(state.pile) - event.position, event.tile)
            state.reinserts += 1
        elif state.sampled:
            state.pile.append(event.tile)
    else:
        state.set_aside.append(event.tile)


def place_tile(state: GameState, x: int, y: int, r: int) -> None:
    """Lay the drawn tile at (x, y) turned ``r`` quarter turns (trusted: checked before)."""
    state.memo.next = None
    drawn = state.drawn
    assert drawn is not None
    lay(state, state.tileset.types[drawn], x, y, r)
    state.drawn = None
    state.placed_at = (x, y)
    state.attacked = None
    state.phase = "meeple"


def _meeple_placed(state: GameState, event: MeeplePlaced) -> None:
    place_meeple(state, event.player, event.target, event.figure)


def place_meeple(state: GameState, colour: str, target: str, figure: str) -> None:
    """``colour`` puts a figure on a target of the tile just placed (trusted: checked before)."""
    state.memo.next = None
    if "@" in target:
        spot, attacked = resolve_target(state, target)
        node = node_at(state, spot)
    else:  # a feature of the tile just placed
        cell = state.placed_at
        assert cell is not None
        placed = state.board[cell]
        node = placed.nodes[placed.tile.orientations[placed.r].targets.index(target)]
        attacked = None
    state.reserve[colour][figure] -= 1
    state.realms.changing(node).meeples += ((colour, figure, node),)  # type: ignore[operator]
    state.memo.held_nodes.append(node)
    state.attacked = attacked
    state.phase = "resolve"


def skip_meeple(state: GameState) -> None:
    """The player to move places no figure this turn."""
    state.memo.next = None
    state.phase = "resolve"


def _meeple_taken_back(state: GameState, event: MeepleTakenBack) -> None:
    take_back(state, event.player, event.spot)


def take_back(state: GameState, colour: str, spot: Spot) -> None:
    """``colour`` takes a follower back from ``spot`` (trusted: checked before)."""
    state.memo.next = None
    node = node_at(state, spot)
    realm = state.realms.changing(node)
    mine = next(m for m in realm.meeples if m[0] == colour and m[2] == node)
    realm.meeples = _without(realm.meeples, mine)
    state.reserve[colour][mine[1]] += 1
    state.phase = "resolve"


def _battle_started(state: GameState, event: BattleStarted) -> None:
    state.battle = Battle(
        root=state.realms.find(node_at(state, event.realm)),
        spot=event.realm,
        dice={s.side: s.dice for s in event.sides},
        active=[s.side for s in event.sides],
    )


def _dice_rolled(state: GameState, event: DiceRolled) -> None:
    battle = state.battle
    assert battle is not None
    battle.roll = {r.side: r.values for r in event.rolls}
    battle.tie_paid.clear()
    rolled = sum(len(r.values) for r in event.rolls)
    state.dice_used += rolled
    if state.joint is not None:
        state.joint.dice += rolled


def _points_scored(state: GameState, event: PointsScored) -> None:
    state.scores[event.side] += event.points
    if event.reason == "defeat":
        assert state.battle is not None
        state.battle.active.remove(event.side)
    elif event.reason == "tie":
        assert state.battle is not None
        state.battle.tie_paid.add(event.side)
    else:
        realm = state.realms.changing(node_at(state, event.realm))
        if realm.paid is None:
            realm.paid = set()
        realm.paid.add(event.side)


def _meeple_returned(state: GameState, event: MeepleReturned) -> None:
    node = node_at(state, event.spot)
    realm = state.realms.changing(node)
    realm.meeples = _without(realm.meeples, (event.player, event.figure, node))
    state.reserve[event.player][event.figure] += 1


def _without(meeples: tuple[Meeple, ...], meeple: Meeple) -> tuple[Meeple, ...]:
    """``meeples`` less the first that is ``meeple``."""
    at = meeples.index(meeple)
    return meeples[:at] + meeples[at + 1:]


def _battle_ended(state: GameState, event: BattleEnded) -> None:
    state.battle = None


def _turn_ended(state: GameState, event: TurnEnded) -> None:
    if state.joint is not None:
        state.joint.turn_ended(state.current)
    state.turn += 1
    state.current = (state.current + 1) % len(state.players)
    state.player = state.players[state.current]  # type: ignore[assignment]
    state.attacked = None
    state.phase = "draw"


def _game_ended(state: GameState, event: GameEnded) -> None:
    state.winners = event.winners
    state.phase = "over"
