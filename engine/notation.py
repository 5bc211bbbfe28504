"""What a person types (``b2 route:E``), read into commands: labels for the legal spots of
the tile in hand, that a player can read off the board and type back (``b2``: cell ``b``,
rotation 2), and ``parse`` for a whole turn's text.

When a tile is in hand, every empty cell where it fits in some rotation gets a label:
``a`` to ``z``, then ``aa``, ``ab``, ... in reading order (the northern row first, west to
east; north is up on the board). A placement is its cell's label followed by a rotation
number, 1 to 4 for 0, 90, 180 and 270 degrees clockwise (the engine's rotation): ``b2`` is
cell ``b`` turned 90 degrees. Labels name cells of one position only: they change as the
board grows.
"""

from __future__ import annotations

import re

from meeple.engine.board import placements
from meeple.engine.commands import (
    Command,
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    SkipMeeple,
    Undo,
)
from meeple.engine.edition import a_figure
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.engine.flow import awaiting
from meeple.engine.state import GameState
from meeple.engine.tiles import TileType
from meeple.events.text import escaped

#: the column letters (``string.ascii_lowercase``, whose module a command need not load)
_LETTERS = "abcdefghijklmnopqrstuvwxyz"

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
        letters = _LETTERS[digit] + letters
    return letters


def rotation_number(degrees: int) -> int:
    """The number a player types for a rotation: 1 for 0 degrees up to 4 for 270.

    >>> [rotation_number(d) for d in (0, 90, 180, 270)]
    [1, 2, 3, 4]
    """
    return degrees // 90 + 1


def spots(state: GameState) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """Each legal cell of the tile in hand by label: (x, y, the rotations in degrees that fit
    there), in reading order (the edition's placement rule); empty unless a tile waits to be placed."""
    if state.drawn is None or awaiting(state) != "place":
        return {}
    tile = state.tileset.types[state.drawn]
    fits: dict[tuple[int, int], list[int]] = {}
    for x, y, degrees in placements(state, tile):
        fits.setdefault((x, y), []).append(degrees)
    cells = sorted(fits, key=lambda cell: (-cell[1], cell[0]))
    return {label(i): (x, y, tuple(sorted(fits[(x, y)]))) for i, (x, y) in enumerate(cells)}


def distinct_rotations(tile: TileType) -> tuple[int, ...]:
    """The rotations (in degrees) of ``tile`` that lie differently, the first of each set that
    lie the same (a tile of four like sides lies the same every way: ``(0,)``): what a list of
    choices shows, where the others are only other names of one placement.

    >>> from meeple.engine import Game
    >>> types = Game.new(["red", "blue"], "classic", seed="s").state.tileset.types
    >>> distinct_rotations(types["C"]), distinct_rotations(types["U"]), distinct_rotations(types["E"])
    ((0,), (0, 90), (0, 90, 180, 270))
    """
    seen: set[object] = set()
    kept = []
    for r, turned in enumerate(tile.orientations):
        masks = turned.masks
        layout = (turned.edges, frozenset(
            (f.kind, f.symbol, f.name, masks[f.index], frozenset(masks[c] for c in f.cities))
            for f in tile.features))
        if layout not in seen:
            seen.add(layout)
            kept.append(r * 90)
    return tuple(kept)


def shown_spots(state: GameState) -> dict[str, tuple[int, int, tuple[int, ...]]]:
    """``spots`` as a list of choices shows them: each cell's rotations that lie differently
    (``distinct_rotations``); every rotation that fits is still taken when typed."""
    found = spots(state)
    if not found:
        return found
    distinct = set(distinct_rotations(state.tileset.types[str(state.drawn)]))
    return {name: (x, y, tuple(d for d in turns if d in distinct) or turns[:1])
            for name, (x, y, turns) in found.items()}


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
        not fit at that cell (the edition's placement rule); the message lists what would be legal.
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
    return {"meeple": f"place {a_figure(state.edition)} or skip", "draw": "enter a draw",
            "dice": "enter dice", "over": "do nothing: the game is over"}.get(
        awaiting(state) or "", "let the rules write what follows")


#: the longest text ``parse`` reads: a turn is a few words
MAX_TEXT = 200
#: words that skip the meeple step
_SKIP = ("skip", "-", "none")


def parse(state: GameState, text: str) -> list[Command]:
    """The commands a person's text names, read against the game as it stands (nothing is
    played): a placement by label (``b2``) or by numbers (``1 0 90``: x, y, degrees), followed
    or not by a target and a figure (``b2 route:E``, ``b2 planet large``) or ``skip``; in the
    meeple step a target (``route:E``) or ``skip``; ``undo``/``redo`` with a count; in table
    mode ``draw TILE``. Case does not matter.

    :raises InvalidCommand: text that names no command, with what could be typed now.
    :raises IllegalMove: a label that is no legal spot now (the edition's placement rule).
    """
    words = text.split() if len(text) <= MAX_TEXT else []
    if not words:
        raise InvalidCommand("nothing to read" if len(text) <= MAX_TEXT else
                             f"a text of {len(text)} characters is no move", legal=_typeable(state))
    verb = words[0].lower()
    if verb in ("undo", "redo"):
        count = _count(words[1:], verb, state)
        return [Undo(count) if verb == "undo" else Redo(count)]
    if verb == "draw" and len(words) == 2:
        return [DrawTile(words[1])]
    if awaiting(state) == "meeple" and len(words) <= 2:
        second = words[-1].lower()
        if len(words) == 2 and _SHAPE.fullmatch(words[0]) is not None \
                and state.edition.figure_named(second) is None \
                and second.partition(":")[0].partition("@")[0] in state.edition.vocabulary.kinds:
            raise InvalidCommand(f"the tile is placed already: type the target alone "
                                 f"({escaped(words[1])!r}), with a figure if you like, or skip",
                                 rule=state.rule("meeple"), legal=_typeable(state))
        return [_deploy(words, state)]
    placed = parse_placement(state, verb)
    rest = words[1:]
    if placed is None and len(words) >= 3 and all(_is_int(w) for w in words[:3]):
        placed, rest = (int(words[0]), int(words[1]), int(words[2])), words[3:]
    if placed is None:
        raise InvalidCommand(f"cannot read {escaped(text.strip())!r}", legal=_typeable(state))
    commands: list[Command] = [PlaceTile(*placed)]
    if rest:
        if len(rest) > 2:
            raise InvalidCommand(f"too many words after the placement: {escaped(' '.join(rest))!r}",
                                 legal="a target and a figure at most, or skip")
        commands.append(_deploy(rest, state))
    return commands


def _deploy(words: list[str], state: GameState) -> Command:
    if words[0].lower() in _SKIP and len(words) == 1:
        return SkipMeeple()
    figures = state.edition.figures
    figure = words[1].lower() if len(words) == 2 else figures[0].name
    if state.edition.figure_named(figure) is None:
        raise InvalidCommand(f"no figure called {escaped(figure)!r}", rule=state.rule("meeple"),
                             legal="figures: " + ", ".join(f.name for f in figures))
    return PlaceMeeple(words[0], figure)


def _count(words: list[str], verb: str, state: GameState) -> int:
    if not words:
        return 1
    if len(words) == 1 and words[0].isdigit() and len(words[0]) <= 4 and int(words[0]) > 0:
        return int(words[0])
    raise InvalidCommand(f"{verb} takes a number of steps, not {escaped(' '.join(words))!r}",
                         legal=f"{verb} or {verb} 2")


def _is_int(word: str) -> bool:
    return word.lstrip("-").isdigit() and len(word) <= 6


def _typeable(state: GameState) -> str:
    """What a person could type now, for an error message."""
    waiting = awaiting(state)
    if waiting == "place":
        labels = " ".join(spots(state))
        return f"a placement: a label ({labels}) with a rotation 1-4 (e.g. a1), or x y degrees"
    if waiting == "meeple":
        return f"a target ({state.edition.target_syntax}) and a figure, or skip"
    if waiting == "draw":
        return "draw TILE"
    return f"the game waits for {state.player} to {_waiting(state)}"
