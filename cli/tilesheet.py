"""A text sheet of every tile type with its id and count (``meeple tiles``)."""

from __future__ import annotations

from meeple.cli.board import draw
from meeple.engine import GameState, TileSet, placements
from meeple.events.text import escaped

PER_ROW = 8


def sheet(tileset: TileSet) -> str:
    """Tile types drawn unrotated, eight to a row, each labelled ``id xcount``; ids and
    planet names from the tile set file have their control characters escaped, so that
    none can add a line or move the cursor."""
    cells = []
    for tile in tileset.types.values():
        grid = draw(tile, 0, [], unicode=False)
        art = ["".join(ch for ch, _ in row) for row in grid]
        label = f"{escaped(tile.id)} x{tile.count}"
        names = [escaped(f.name) for f in tile.features if f.name]
        cells.append((art, label, names[0] if names else ""))
    width = max(12, max(len(label) for _, label, _ in cells) + 2,
                max(len(name) for _, _, name in cells) + 2)
    lines = []
    for start in range(0, len(cells), PER_ROW):
        row = cells[start:start + PER_ROW]
        for r in range(3):
            lines.append("".join(("[" + art[r] + "]").ljust(width) for art, _, _ in row).rstrip())
        lines.append("".join(label.ljust(width) for _, label, _ in row).rstrip())
        if any(name for _, _, name in row):
            lines.append("".join(name.ljust(width) for _, _, name in row).rstrip())
        lines.append("")
    return "\n".join(lines).rstrip()


def in_hand(state: GameState) -> str:
    """The tile in hand (ASCII, as the board draws it) in each rotation that fits somewhere,
    side by side, each labelled with the ROTATION to type; empty when no tile is in hand."""
    if state.drawn is None:
        return ""
    tile = state.tileset.types[state.drawn]
    turns = sorted({rotation for _, _, rotation in placements(state, tile)})
    if not turns:
        return ""
    arts = [["".join(ch for ch, _ in row) for row in draw(tile, r // 90, [], unicode=False)]
            for r in turns]
    lines = [f"tile in hand: {escaped(tile.id)}, as it fits (rotation to type below)"]
    for row in range(3):
        lines.append("  " + "   ".join(f"[{art[row]}]" for art in arts))
    lines.append("  " + "   ".join(f"{r:^7}" for r in turns).rstrip())
    return "\n".join(lines)
