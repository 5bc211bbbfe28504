"""Board geometry (DESIGN.md, "Engine"): x grows east, y grows north, start tile at (0, 0).

Sides are numbered N=0, E=1, S=2, W=3. Rotation is clockwise in quarter turns:
rotating by 90 degrees moves what was on N to E. Each side has three ports,
left, middle and right as seen from the tile's centre looking out through it,
numbered ``side * 3 + position``; a route uses the middle port, an asteroid
field all three (fields use the left and right ones).
"""

from __future__ import annotations

SIDES = "NESW"
SIDE_INDEX = {letter: index for index, letter in enumerate(SIDES)}
ROTATIONS = (0, 90, 180, 270)

#: (dx, dy) of the neighbour across each side.
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))

#: (side, dx, dy) of each side's neighbour, N, E, S, W
SIDE_STEPS = tuple((side, dx, dy) for side, (dx, dy) in enumerate(STEP))

#: The 8 cells around a tile, clockwise from north: N, NE, E, SE, S, SW, W, NW.
AROUND = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))

#: where each step of ``AROUND`` comes in that order
AROUND_INDEX = {step: index for index, step in enumerate(AROUND)}


def around(x: int, y: int) -> tuple[tuple[int, int], ...]:
    """The 8 cells around (x, y) in ``AROUND`` order (one tuple built at once: a hot path)."""
    return ((x, y + 1), (x + 1, y + 1), (x + 1, y), (x + 1, y - 1),
            (x, y - 1), (x - 1, y - 1), (x - 1, y), (x - 1, y + 1))


def opposite(side: int) -> int:
    """The side facing ``side`` across an edge.

    >>> SIDES[opposite(SIDE_INDEX["E"])]
    'W'
    """
    return (side + 2) % 4


def turned(side: int, rotation: int) -> int:
    """Where a printed side lies after turning the tile ``rotation`` degrees clockwise.

    >>> SIDES[turned(SIDE_INDEX["N"], 90)]
    'E'
    """
    return (side + rotation // 90) % 4


def facing_port(port: int) -> int:
    """The port of the neighbouring tile that touches ``port`` across the edge.

    My left touches the neighbour's right: ``(side, pos) -> (opposite(side), 2 - pos)``.
    """
    side, pos = divmod(port, 3)
    return opposite(side) * 3 + (2 - pos)


#: For each of the 12 ports, the neighbour's port facing it.
FACING = tuple(facing_port(port) for port in range(12))
