"""Points for realms and who scores them, as the game's edition says (``Edition``).

All functions read a realm's data and the board; none changes anything.
"""

from __future__ import annotations

from meeple.engine.board import neighbours_placed
from meeple.engine.edition import Payment
from meeple.engine.realms import Realm
from meeple.engine.state import GameState


def complete(state: GameState, realm: Realm) -> bool:
    """A path or area with no open end left; a centre feature with all 8 neighbours placed;
    a field never."""
    vocabulary = state.tileset.vocabulary
    if realm.kind == vocabulary.centre:
        (x, y), = realm.tiles
        return neighbours_placed(state, x, y) == 8
    if realm.kind == vocabulary.field:
        return False
    return realm.open == 0


def completed_points(state: GameState, realm: Realm) -> tuple[int, int, int]:
    """(points, tiles, symbols) for a completed realm, as the edition scores it."""
    return state.edition.completed_points(realm)


def final_points(state: GameState, realm: Realm) -> tuple[int, int, int]:
    """(points, tiles, symbols) for an incomplete realm at the end."""
    neighbours = 0
    if realm.kind == state.tileset.vocabulary.centre:
        (x, y), = realm.tiles
        neighbours = neighbours_placed(state, x, y)
    return state.edition.final_points(realm, neighbours)


def final_payment(state: GameState, realm: Realm) -> Payment | None:
    """What the end of the game pays for an incomplete realm holding figures, or None: as
    the edition pays it (``Edition.final_payment``)."""
    neighbours = 0
    if realm.kind == state.tileset.vocabulary.centre:
        (x, y), = realm.tiles
        neighbours = neighbours_placed(state, x, y)
    return state.edition.final_payment(state, realm, neighbours)


def held_roots(state: GameState) -> set[int]:
    """The realms holding a figure now, as union-find roots: found from the nodes figures were
    placed on (``GameState.held_nodes``), not from every realm."""
    nodes = state.memo.held_nodes
    return set(state.realms.held(nodes, range(len(nodes))))


def scorers(state: GameState, realm: Realm) -> list[str]:
    """Who scores a realm, in seating order, as the edition settles it: the one side left
    after battles, or every side with the most followers."""
    return state.edition.scorers(realm, state.side_of, state.sides)


def projected(state: GameState) -> dict[str, int]:
    """The scores if the game ended now: every side's points plus what the end of the game
    would pay it for the realms its figures hold, as ``_final`` pays them.
    A search's cheap evaluation of a position."""
    scores = dict(state.scores)
    data = state.realms.data
    for root in held_roots(state):
        realm: Realm = data[root]
        paid = realm.paid or ()
        payment = final_payment(state, realm)
        if payment is None:
            continue
        points = payment.points
        for side in scorers(state, realm):
            if side not in paid:
                scores[side] += points
    return scores
