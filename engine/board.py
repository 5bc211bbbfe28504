"""The board: laying tiles, legal placements and meeple targets.

The frontier maps every empty cell next to a placed tile to what its sides
must match, a *need* (an int holding an edge kind's code per side, 0 where no
tile touches; see ``meeple.engine.tiles.need_bits``), and groups the frontier
cells by need. Each tile type knows the needs it fits and with which rotations,
so whether a tile can be placed asks at most the few dozen needs there are, and
its placements are read from the groups of the needs it fits: the cost follows
the placements, not the size of the board.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import islice

from meeple.engine.geometry import AROUND_INDEX, SIDE_STEPS, around
from meeple.engine.state import GameState, Placed
from meeple.engine.tiles import NEED_BITS, TileType


def lay(state: GameState, tile: TileType, x: int, y: int, r: int) -> Placed:
    """Put a tile on the board (trusted), uniting realms across every touching edge; keeps
    the frontier and its groups, a detached state's list of frontier cells, and the centres
    around each cell."""
    o = tile.orientations[r]
    xy = (x, y)
    board = state.board
    frontier = state.frontier
    groups = state.groups
    need = frontier.pop(xy, None)
    if need is not None:  # the cell leaves the frontier, and the group of its need
        left = groups[need]
        del left[xy]
        if not left:
            del groups[need]
    search = state.search
    if search is not None:  # and a search's list of cells (the last takes its place)
        cells, cell_at = search.cells, search.cell_at
        at = cell_at.pop(xy)
        last = cells.pop()
        if last != xy:
            cells[at] = last
            cell_at[last] = at
    joins = []
    offers = o.offers
    side_ports = o.side_ports
    for side, dx, dy in SIDE_STEPS:
        cell = (x + dx, y + dy)
        other = board.get(cell)
        if other is None:
            need = frontier.get(cell)
            if need is None:  # the cell joins the frontier
                need = offers[side]
                if search is not None:
                    search.cell_at[cell] = len(search.cells)
                    search.cells.append(cell)
            else:
                left = groups[need]  # the cell leaves the group of its old need
                del left[cell]
                if not left:
                    del groups[need]
                need |= offers[side]
            frontier[cell] = need
            group = groups.get(need)
            if group is None:
                groups[need] = {cell: None}
            else:
                group[cell] = None
            continue
        theirs = other.tile.orientations[other.r].ports
        their_nodes = other.nodes
        first = second = None  # one join per pair of features; a side has 3 ports
        for facing, mine in side_ports[side]:
            their = theirs[facing]
            if their >= 0:
                pair = (mine, their)
                if pair != first and pair != second:
                    if first is None:
                        first = pair
                    else:
                        second = pair
                    joins.append((mine, their_nodes[their]))
    placed = board[xy] = Placed(tile, r, state.realms.add_tile(tile.features, xy, o.targets,
                                                                joins))
    state.placements.append(xy)
    if tile.centre >= 0:
        near = state.centres_near
        for at, cell in enumerate(around(x, y)):
            found = near.get(cell)
            # (seen from the cell ``at`` steps round, this tile is 4 steps further round)
            near[cell] = (xy,) if found is None else _with_centre(cell, found, xy, at + 4 & 7)
        if tile.attackable:
            state.attackable_cells.append(xy)
    return placed


def _with_centre(cell: tuple[int, int], found: tuple[tuple[int, int], ...], xy: tuple[int, int],
                 index: int) -> tuple[tuple[int, int], ...]:
    """``found``, the centres around ``cell`` in ``AROUND`` order, with ``xy`` added where it
    comes (``index``: its place in ``AROUND`` seen from ``cell``)."""
    x, y = cell
    for at, (cx, cy) in enumerate(found):
        if AROUND_INDEX[cx - x, cy - y] > index:
            return found[:at] + (xy,) + found[at:]
    return found + (xy,)


def placements(state: GameState, tile: TileType) -> list[tuple[int, int, int]]:
    """Every legal (x, y, rotation in degrees) for ``tile`` on this board, in the
    order cells joined the frontier."""
    degrees = tile.degrees
    return [(x, y, d) for (x, y), need in state.frontier.items() if need in degrees
            for d in degrees[need]]


def placement_count(state: GameState, tile: TileType) -> int:
    """How many legal placements ``tile`` has (``len(placements(...))``), from the counts of
    the needs it fits, without listing them."""
    fitting = tile.fitting
    total = 0
    for need, group in state.groups.items():
        rotations = fitting.get(need)
        if rotations is not None:
            total += len(group) * len(rotations)
    return total


def placement_at(state: GameState, tile: TileType, index: int) -> tuple[int, int, int]:
    """``placements(state, tile)[index]`` (frontier order), found by walking the frontier
    only up to it, without listing the others."""
    degrees = tile.degrees
    for (x, y), need in state.frontier.items():
        turns = degrees.get(need)
        if turns is not None:
            if index < len(turns):
                return x, y, turns[index]
            index -= len(turns)
    raise IndexError(f"tile {tile.id} has no placement {index}")


def fitting_groups(state: GameState, tile: TileType) -> list[
        tuple[int, dict[tuple[int, int], None], tuple[int, ...]]]:
    """The frontier cells where ``tile`` fits, a group of cells per need it fits with the
    need and the rotation indexes (0-3) that fit there, read from the groups of those needs
    (no frontier walk), in no set order."""
    fitting = tile.fitting
    groups = state.groups
    if len(groups) <= len(fitting):
        return [(need, cells, rotations) for need, cells in groups.items()
                if (rotations := fitting.get(need))]
    return [(need, cells, rotations) for need, rotations in fitting.items()
            if (cells := groups.get(need))]


@cache
def touched_sides(need: int) -> tuple[tuple[int, int, int], ...]:
    """(side, dx, dy) of each side of a frontier cell with this need that a tile touches
    (the sides whose edge kind the need names), N, E, S, W."""
    return tuple((side, dx, dy) for side, dx, dy in SIDE_STEPS
                 if need >> NEED_BITS * side & (1 << NEED_BITS) - 1)


def nth_placement(state: GameState, tile: TileType,
                  pick: Callable[[int], int]) -> tuple[int, int, int]:
    """One legal (x, y, rotation in degrees) for ``tile``, the ``pick(n)``-th of the ``n``
    there are (the random bot's and a playout's uniform choice), in the order of the needs
    (smallest first), then of the cells of each need, then of the rotations: found from the
    counts of the needs the tile fits and one walk of the cells of the need picked, not from
    the frontier. The tile must be placeable (``placeable``)."""
    widths = tile.widths
    groups = state.groups
    needs = sorted(groups.keys() & widths.keys())
    total = 0
    for need in needs:
        total += len(groups[need]) * widths[need]
    index = pick(total)
    for need in needs:
        group = groups[need]
        width = widths[need]
        count = len(group) * width
        if index < count:
            x, y = next(islice(group, index // width, None))
            return x, y, tile.degrees[need][index % width]
        index -= count
    raise ValueError(f"tile {tile.id} has no legal placement")


#: how many cells a playout's sampling tries before it counts the placements instead
SAMPLE_TRIES = 32


def sample_placement(state: GameState, tile: TileType, uniform: Callable[[], float],
                     tries: int = SAMPLE_TRIES) -> tuple[int, int, int]:
    """A uniformly random legal (x, y, rotation in degrees) for ``tile`` on a detached state
    (``detach`` lists its frontier cells): a frontier cell and one of ``most_rotations``
    rotation slots drawn with ``uniform`` (a float in [0, 1)), kept when the tile fits there
    with more rotations than the slot's number (so each legal placement is as likely on every
    try), else drawn again; after ``tries`` misses, or on an empty board, ``nth_placement``
    picks. Costs a few tries where the tile fits often, not a count of every cell it fits.
    The tile must be placeable."""
    search = state.search
    if search is not None and 0 not in state.groups:
        cells = search.cells
        frontier = state.frontier
        degrees = tile.degrees
        most = tile.most_rotations
        slots = most * len(cells)
        for _ in range(tries):
            slot = int(uniform() * slots)
            cell = cells[slot // most]
            turns = degrees.get(frontier[cell])
            if turns is not None:
                turn = slot % most
                if turn < len(turns):
                    return cell[0], cell[1], turns[turn]
    return nth_placement(state, tile, lambda n: int(uniform() * n))


def placeable(state: GameState, tile: TileType) -> bool:
    """Whether ``tile`` has at least one legal placement: some frontier need is one
    it fits. Costs at most the number of distinct needs (a few dozen), not the frontier."""
    return not state.groups.keys().isdisjoint(tile.fitting)


def attackable_around(state: GameState, x: int, y: int) -> list[tuple[int, int]]:
    """Cells around (x, y), N then clockwise, whose tile has a centre feature the edition lets
    figures attack from around it (``Edition.attack``)."""
    board = state.board
    return [cell for cell in state.centres_near.get((x, y), ()) if board[cell].tile.attackable]


def centres_around(state: GameState, x: int, y: int) -> list[tuple[int, int]]:
    """Cells around (x, y), N then clockwise, whose tile has a centre feature."""
    return list(state.centres_near.get((x, y), ()))


def neighbours_placed(state: GameState, x: int, y: int) -> int:
    """How many of the 8 cells around (x, y) hold a tile."""
    return sum(map(state.board.__contains__, around(x, y)))
