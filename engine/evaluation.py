"""What a position is worth to each side, for the bots: the greedy bot's one-step value and
the search's leaf value. Edition-neutral: the points come from the edition's scoring
(``completed_points``, ``final_payment``, ``scorers``) and a figure's worth in reserve from
``Edition.reserve_worth``.

``held_value`` (the greedy bot's, RULES SW-8 / CL-6 as ``projected`` pays them): every side's
points, plus what the end of the game would pay it now for the realms its figures hold, plus
its figures in reserve at their worth.

``leaf_value`` (the search's): the same, but an open realm is worth what it may still become:
its completed points times the chance that it is completed, and its end-of-game points
otherwise. The chance falls with the ends still open and with the turns its holders have
left (``completion_chance``); a realm that cannot be completed (an open end, or a missing
neighbour of a centre feature, where no tile left fits: a dead feature) has none. Figures in
reserve count ``LEAF_RESERVE`` times their worth.

The two constants, ``MISSING_WEIGHT`` and ``LEAF_RESERVE``, were fitted by self-play: a
one-step bot valuing positions with ``leaf_value`` and candidate constants against the fixed
``greedy`` (docs/bots.md, "Fitting the leaf value by self-play").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from meeple.engine.board import neighbours_placed
from meeple.engine.geometry import SIDE_STEPS, around
from meeple.engine.realms import Realm
from meeple.engine.scoring import final_payment, held_roots, projected, scorers
from meeple.engine.state import GameState

#: how many turns of its holders each missing piece of a realm costs, in the completion
#: chance (``completion_chance``)
MISSING_WEIGHT = 3.0
#: the weight of figures in reserve in a leaf value, times ``reserve_points``
LEAF_RESERVE = 1.5


def reserve_points(state: GameState) -> dict[str, float]:
    """Each side's figures in reserve at their worth (``Edition.reserve_worth``): a figure
    counts its worth times its strength, times the share of the tiles still to draw (a
    figure kept to the end is worth nothing)."""
    edition = state.edition
    share = share_left(state)
    worth = edition.reserve_worth
    strengths = edition.strengths
    points = dict.fromkeys(state.sides, 0.0)
    for colour, left in state.reserve.items():
        side = state.side_of[colour]
        for figure, count in left.items():
            if count:
                points[side] += worth * strengths[figure] * count * share
    return points


def share_left(state: GameState) -> float:
    """The share of the game's tiles still to draw, 0 to 1."""
    total = state.tileset.total()
    return min(1.0, state.left / total) if total else 0.0


def held_value(state: GameState) -> dict[str, float]:
    """The greedy bot's value of a position, by side: ``projected`` plus the figures in
    reserve (``reserve_points``)."""
    reserve = reserve_points(state)
    return {side: points + reserve[side] for side, points in projected(state).items()}


#: a value of each side of a position (``held_value``, ``learned_value``, ...)
Evaluate = Callable[[GameState], Mapping[str, float]]


def difference(state: GameState, side: str, evaluate: Evaluate) -> float:
    """``side``'s value by ``evaluate`` minus the best other side's."""
    values = evaluate(state)
    others = max((v for s, v in values.items() if s != side), default=values[side])
    return values[side] - others


def completion_chance(missing: int, turns: float, weight: float = MISSING_WEIGHT) -> float:
    """A rough chance that a realm with ``missing`` pieces (open ends, or empty cells around
    a centre feature) is completed in the ``turns`` its holders have left: ``turns / (turns +
    weight * missing)`` while each piece has a turn, else 0.

    >>> completion_chance(2, 18.0, 1.0), completion_chance(3, 2.0), completion_chance(0, 0.0)
    (0.9, 0.0, 1.0)
    """
    if missing <= 0:
        return 1.0
    if missing > turns:
        return 0.0
    return turns / (turns + weight * missing)


#: a realm that figures hold, as ``held_realms`` gives it: the realm; the sides its figures
#: would pay that it has not paid yet; what the end of the game would pay for it now; its
#: open ends (the empty cells around a centre feature; -1 for a field); whether an open end
#: faces a cell no tile left fits (a dead feature); its completion chance
#: (``completion_chance``; 0 when dead or a field)
HeldRealm = tuple[Realm, list[str], int, int, bool, float]


def held_realms(state: GameState) -> Iterator[HeldRealm]:
    """Every realm that figures hold and that would still pay a side, once each (a plain
    tuple each: the search asks this at every leaf)."""
    data = state.realms.data
    vocabulary = state.tileset.vocabulary
    field, centre = vocabulary.field, vocabulary.centre
    turns = state.left / max(1, len(state.players))
    dead_cells: set[tuple[int, int]] | None = None
    for root in held_roots(state):
        realm: Realm = data[root]
        holders = scorers(state, realm)
        if realm.paid:
            paid = realm.paid
            holders = [side for side in holders if side not in paid]
        if not holders:
            continue
        payment = final_payment(state, realm)
        end = payment.points if payment is not None else 0
        if realm.kind == field:
            yield realm, holders, end, -1, False, 0.0
            continue
        if realm.kind == centre:
            (x, y), = realm.tiles
            missing = 8 - neighbours_placed(state, x, y)
        else:
            missing = realm.open
        dead = False
        if missing > 0:
            if dead_cells is None:
                dead_cells = _dead_cells(state)
            dead = bool(dead_cells) and _faces_dead(state, realm, root, dead_cells)
        yield realm, holders, end, missing, dead, (0.0 if dead else
                                                  completion_chance(missing, turns))


def leaf_value(state: GameState) -> dict[str, float]:
    """The search's value of a position, by side (see the module's docstring)."""
    scores: dict[str, float] = {side: float(points) for side, points in state.scores.items()}
    reserve = reserve_points(state)
    for side, points in reserve.items():
        scores[side] += LEAF_RESERVE * points
    completed_points = state.edition.completed_points
    for realm, holders, end, missing, _, chance in held_realms(state):
        if missing < 0:
            worth = float(end)
        else:
            worth = chance * completed_points(realm)[0] + (1 - chance) * end
        for side in holders:
            scores[side] += worth
    return scores


def _dead_cells(state: GameState) -> set[tuple[int, int]]:
    """The frontier cells that no tile still to draw fits (the frontier's groups by need: a
    need is dead once every tile type left lacks it)."""
    pending = set(state.groups)
    types = state.tileset.types
    for name, count in state.remaining.items():
        if not pending:
            return set()
        if count:
            fitting = types[name].fitting
            pending = {need for need in pending if need not in fitting}
    groups = state.groups
    return {cell for need in pending for cell in groups[need]}


def _faces_dead(state: GameState, realm: Realm, root: int,
                dead_cells: set[tuple[int, int]]) -> bool:
    """Whether an open end of the realm (an empty cell around a centre feature) is a dead
    cell. An empty cell around a centre feature that is not on the frontier yet (a diagonal
    neighbour) takes a need only once a tile is beside it: it is not dead."""
    if realm.kind == state.tileset.vocabulary.centre:
        (x, y), = realm.tiles
        return any(cell in dead_cells for cell in around(x, y))
    return any(cell in dead_cells for cell in _open_cells(state, realm, root))


def _open_cells(state: GameState, realm: Realm, root: int) -> list[tuple[int, int]]:
    """The empty cells a path's or an area's open ends face."""
    board = state.board
    find = state.realms.find
    cells = []
    for x, y in realm.tiles:
        placed = board[(x, y)]
        ports = placed.tile.orientations[placed.r].ports
        for side, dx, dy in SIDE_STEPS:
            cell = (x + dx, y + dy)
            if cell in board:
                continue
            feature = ports[side * 3 + 1]
            if feature >= 0 and find(placed.nodes[feature]) == root:
                cells.append(cell)
    return cells
