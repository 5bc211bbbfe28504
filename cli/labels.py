"""Short names for the legal spots of the tile in hand, that a player can read off the board
and type back (``b2``: cell ``b``, rotation 2).

When a tile is in hand, every empty cell where it fits in some rotation gets a label:
``a`` to ``z``, then ``aa``, ``ab``, ... in reading order (the northern row first, west to
east; north is up on the board). A placement is its cell's label followed by a rotation
number, 1 to 4 for 0, 90, 180 and 270 degrees clockwise (the engine's rotation): ``b2`` is
cell ``b`` turned 90 degrees. Labels name cells of one position only: they change as the
board grows.
"""

from __future__ import annotations

import re
from string import ascii_lowercase

from meeple.engine import GameState, IllegalMove, InvalidCommand, awaiting, placements
from meeple.events.text import escaped

#: a text shaped like a placement label: letters, then a number
_SHAPE = re.compile(r"([a-z]+)([0-9]+)", re.IGNORECASE)
#: the longest label ``parse_placement`` reads (``zzz`` names 18,278 cells)
_MAX_LETTERS = 3


def label(index: int) -> str:
    """The label of the ``index``-th legal cell (0 up): ``a`` ... ``z``, ``aa``, ``ab`` ...

    >>> [label(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)]
    ['a', 'b', 'z', 'aa', 'ab', 'az', 'ba', 'zz', 'aaa']
    """
    letters = ""
    index += 1
    while index:
        index, digit = divmod(index - 1, 26)
        letters = ascii_lowercase[digit] + letters
    return letters


def rotation_number(degrees: int) -> int:
    """The number a player types for a rotation: 1 for 0 degrees up to 4 for 270.

    >>> [rotation_number(d) for d in (0, 90, 180, 270)]
    [1, 2, 3, 4]
    """
    return degrees // 90 + 1


def spots(state: GameState) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """Each legal cell of the tile in hand by label: (x, y, the rotations in degrees that fit
    there), in reading order; empty unless a tile waits to be placed."""
    if state.drawn is None or awaiting(state) != "place":
        return {}
    tile = state.tileset.types[state.drawn]
    fits: dict[tuple[int, int], list[int]] = {}
    for x, y, degrees in placements(state, tile):
        fits.setdefault((x, y), []).append(degrees)
    cells = sorted(fits, key=lambda cell: (-cell[1], cell[0]))
    return {label(i): (x, y, tuple(sorted(fits[(x, y)]))) for i, (x, y) in enumerate(cells)}


def cell_labels(state: GameState) -> dict[str, tuple[int, int]]:
    """Label -> (x, y) of every empty cell where the tile in hand fits in some rotation, in
    reading order (north row first, west to east); empty when no tile is in hand."""
    return {name: (x, y) for name, (x, y, _) in spots(state).items()}


def parse_placement(state: GameState, text: str) -> tuple[int, int, int] | None:
    """The placement a label names, as (x, y, rotation in degrees): ``b2`` is cell ``b``
    turned 90 degrees; case does not matter. None when ``text`` is not shaped like a label
    (letters then a number), so that a caller can read it another way.

    :raises InvalidCommand: a rotation number other than 1 to 4.
    :raises IllegalMove: no tile in hand, a cell that is no legal spot, or a rotation that does
        not fit at that cell; the message lists what would be legal.
    """
    shape = _SHAPE.fullmatch(text.strip())
    if shape is None or len(shape.group(1)) > _MAX_LETTERS:
        return None
    digits = shape.group(2)
    name, number = shape.group(1).lower(), int(digits) if len(digits) <= 3 else 0
    shown = f"{name}{digits if len(digits) <= 12 else digits[:12] + '…'}"
    rule = state.rule("place")
    if not 1 <= number <= 4:
        raise InvalidCommand(f"{shown}: rotation {shown[len(name):]} is not 1-4", rule=rule,
                             legal="1 = 0°, 2 = 90°, 3 = 180°, 4 = 270° (clockwise)")
    found = spots(state)
    if not found:
        raise IllegalMove(f"{shown}: there is no tile in hand to place now", rule=rule,
                          legal=f"the game waits for {state.player} to {_waiting(state)}")
    tile = escaped(str(state.drawn))
    if name not in found:
        raise IllegalMove(f"cell {name} is not a legal spot for {tile}", rule=rule,
                          legal="legal: " + " ".join(found))
    x, y, turns = found[name]
    degrees = (number - 1) * 90
    if degrees not in turns:
        fitting = " ".join(f"{name}{rotation_number(d)}" for d in turns)
        raise IllegalMove(f"{shown}: {tile} does not fit cell {name} turned {degrees}°",
                          rule=rule, legal=f"it fits {fitting}")
    return x, y, degrees


def _waiting(state: GameState) -> str:
    return {"meeple": "place a meeple or skip", "draw": "enter a draw",
            "dice": "enter dice", "over": "do nothing: the game is over"}.get(
        awaiting(state) or "", "let the rules write what follows (`meeple continue GAME`)")
