"""A text sheet of every tile type with its id and count (``meeple tiles``), and the tile in
hand in its four rotations (``status``, ``moves``), drawn as the board draws tiles."""

from __future__ import annotations

from rich.cells import cell_len

from meeple.cli.labels import distinct_rotations, rotation_number, shown_spots
from meeple.cli.pictures.board import SIZES, draw
from meeple.engine import Edition, GameState, TileSet, edition_named
from meeple.events.text import escaped

#: the columns a sheet keeps within
WIDTH = 80
#: the tile size of the sheet and of the tile in hand (9 by 5)
SIZE = SIZES[0]


def _art(tile, r: int, edition: Edition) -> list[str]:
    """A tile drawn in ASCII, framed by ``[`` and ``]``."""
    return ["[" + "".join(ch for ch, _ in row) + "]"
            for row in draw(tile, r, [], unicode=False, size=SIZE, edition=edition)]


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` terminal columns (wide letters take two, combining marks
    none), so that the columns of the sheet stay under their tiles."""
    return text + " " * max(0, width - cell_len(text))


def sheet(tileset: TileSet) -> str:
    """Tile types drawn unrotated, as many to a row as fit 80 columns, each labelled
    ``id xcount``; ids and feature names from the tile set file have their control characters
    escaped, so that none can add a line or move the cursor."""
    edition = edition_named(tileset.definition.edition)
    cells = []
    for tile in tileset.types.values():
        label = f"{escaped(tile.id)} x{tile.count}"
        names = [escaped(f.name) for f in tile.features if f.name]
        cells.append((_art(tile, 0, edition), label, names[0] if names else ""))
    width = max(SIZE.width + 4, max(cell_len(label) for _, label, _ in cells) + 2,
                max(cell_len(name) for _, _, name in cells) + 2)
    per_row = max(1, WIDTH // width)
    lines = []
    for start in range(0, len(cells), per_row):
        row = cells[start:start + per_row]
        for r in range(SIZE.height):
            lines.append("".join(_pad(art[r], width) for art, _, _ in row).rstrip())
        lines.append("".join(_pad(label, width) for _, label, _ in row).rstrip())
        if any(name for _, _, name in row):
            lines.append("".join(_pad(name, width) for _, _, name in row).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip()


def in_hand(state: GameState) -> str:
    """The tile in hand (ASCII, as the board draws it) in its rotations side by side (those
    that lie differently: a tile of four like sides shows one), each under the number to
    type after a cell's label (1 = 0°, 2 = 90°, 3 = 180°, 4 = 270°, clockwise) and over the
    cells where it fits; empty when no tile is in hand."""
    found = shown_spots(state)
    if state.drawn is None or not found:
        return ""
    tile = state.tileset.types[state.drawn]
    numbers = [rotation_number(d) for d in distinct_rotations(tile)]
    gap = "  "
    arts = [_art(tile, n - 1, state.edition) for n in numbers]
    width = SIZE.width + 2
    ways = (f"in its {len(numbers)} rotations that lie differently" if len(numbers) > 1
            else "which lies the same every way round")
    lines = [f"tile in hand: {escaped(tile.id)}, {ways}, over the cells where each fits "
             "(b2: cell b, rotation 2)"]
    lines.append(gap.join(f"{n} = {(n - 1) * 90}°".center(width) for n in numbers).rstrip())
    for row in range(SIZE.height):
        lines.append(gap.join(art[row] for art in arts))
    cells = [[name for name, (_, _, turns) in found.items()
              if any(rotation_number(d) == n for d in turns)] for n in numbers]
    shown = []
    for names in cells:
        text = " ".join(names) if names else "nowhere"
        if len(text) > width:
            text = text[:width - 3].rsplit(" ", 1)[0] + " .."
        shown.append(text.center(width))
    lines.append(gap.join(shown).rstrip())
    return "\n".join(lines)
