"""The board and the tile set as SVG documents (``show --svg``, ``tiles --svg``): the tiles and
figures of ``meeple.cli.pictures.svgtile`` under coordinate margins, with the sides' scores and
a legend of the edition's features, symbols and figures. Output is deterministic."""

from __future__ import annotations

import math

from meeple.cli.pictures.looks import roles
from meeple.cli.pictures.svgtile import (
    DARK,
    MARGIN,
    OUTLINE_WIDTH,
    T,
    defs_and_style,
    extent,
    is_large,
    kind_svg,
    lying,
    meeple_spots,
    meeple_svg,
    meeple_title,
    tile_fragment,
    tile_title,
    xml_text,
)
from meeple.cli.pictures.textwidth import text_width
from meeple.engine import SIDES, Edition, GameState, TileSet, TileType, edition_named
from meeple.events.text import escaped

#: (what tests and the replay take from the tile drawing is named here too)
__all__ = ["board_svg", "legend", "meeple_svg", "sheet_svg", "tile_fragment", "xml_text"]


def board_svg(state: GameState, *, highlight: tuple[int, int] | None, note: str | None = None) -> str:
    """The whole board as a standalone SVG document, with coordinate margins and titles, and
    under it the sides with their colours, names and scores (the winners once the game is
    over), a legend of what the pictures mean in this edition, and ``note``."""
    x0, y0, x1, y1 = extent(state.board)
    board_height = MARGIN + (y1 - y0 + 1) * T + 8
    panel = _panel(state, MARGIN + (x1 - x0 + 1) * T + 8, board_height, highlight is not None)
    width = panel.width
    height = panel.bottom
    note_lines = _wrapped(note, width - 2 * PAD, NOTE_SIZE) if note else []
    height += 18 * len(note_lines) + 8
    out = [_open(width, height, state.edition),
           f"<title>meeple board: {len(state.board)} tiles</title>",
           f'<rect width="{width}" height="{height}" fill="#05070f"/>']
    for x in range(x0, x1 + 1):
        out.append(f'<text class="axis" x="{MARGIN + (x - x0) * T + 50}" y="20">{x}</text>')
    for y in range(y1, y0 - 1, -1):
        out.append(f'<text class="axis" x="13" y="{MARGIN + (y1 - y) * T + 54}">{y}</text>')
    for (x, y) in sorted(state.board, key=lambda c: (-c[1], c[0])):
        placed = state.board[(x, y)]
        left, top = MARGIN + (x - x0) * T, MARGIN + (y1 - y) * T
        out.append(f'<g class="tile" transform="translate({left},{top})">'
                   f'<title>{xml_text(tile_title(x, y, placed.tile, placed.r))}</title>'
                   f'{tile_fragment(placed.tile, placed.r, state.edition)}')
        for (px, py), colour, figure, target in meeple_spots(state, x, y):
            out.append(meeple_svg(px, py, colour, is_large(state.edition, figure),
                                  meeple_title(state.edition, colour, figure, target, x, y),
                                  lying=lying(state.edition, target)))
        out.append("</g>")
    if highlight is not None and highlight in state.board:
        hx, hy = highlight
        out.append(f'<rect x="{MARGIN + (hx - x0) * T + 2}" y="{MARGIN + (y1 - hy) * T + 2}" '
                   'width="96" height="96" fill="none" stroke="#ffd60a" stroke-width="4">'
                   f'<title>last placement ({hx}, {hy})</title></rect>')
    out.extend(panel.parts)
    for i, line in enumerate(note_lines):
        out.append(f'<text class="note" x="{PAD}" y="{panel.bottom + 14 + 18 * i}">'
                   f"{xml_text(line)}</text>")
    out.append("</svg>\n")
    return "".join(out)


#: the narrowest a board picture is drawn, so that its scores and legend fit under it
PANEL_WIDTH = 520
PAD = 12
#: where the points column of the scores ends, unless a side's name needs more room
POINTS_X = 400
#: font sizes of the picture's texts (``svgtile.STYLE``), and the room kept between two texts
LABEL_SIZE, NOTE_SIZE, GAP = 13, 12, 16
#: a legend entry's icon spans this far either side of its centre; its label starts after it
ICON, LABEL_X = 12, 20


class _Panel:
    """The SVG under the board (``parts``), where it ends, and the width the picture needs."""

    def __init__(self, parts: list[str], bottom: int, width: int) -> None:
        self.parts = parts
        self.bottom = bottom
        self.width = width


def _measured(text: str, size: float = LABEL_SIZE) -> int:
    """The room ``text`` takes in whatever sans-serif font draws it (``text_width``)."""
    return math.ceil(text_width(escaped(text), size))


def _panel(state: GameState, board_width: int, top: int, marked: bool) -> _Panel:
    """The sides' names, colours and scores, then the legend, from ``top`` down, laid out by
    the widest their texts can be drawn, so that none runs into another: the points column
    moves right of the longest name, the legend's columns are as wide as its longest label,
    and the picture widens (past ``board_width``) where one column needs it."""
    out = ['<g class="scores">']
    y = top + 20
    heading = "Final scores" if state.winners else f"Scores at turn {state.turn}"
    out.append(f'<text class="heading" x="{PAD}" y="{y}">{heading}</text>')
    rows = []
    for side in state.sides:
        members = [c for c in state.players if state.side_of[c] == side]
        names = [state.name_of(c) for c in members]
        label = side if names == [side] else f"{side} ({', '.join(names)})"
        rows.append((side, members, label, PAD + 22 * len(members) + 6))
    points_x = max([POINTS_X, *(left + _measured(label) + GAP + _measured(str(state.scores[side]))
                                for side, _, label, left in rows)])
    width = max(board_width, PANEL_WIDTH, points_x + PAD)
    for side, members, label, left in rows:
        y += 24
        won = state.winners is not None and side in state.winners
        out.append(f'<g class="side"><title>{xml_text(label)}: {state.scores[side]} points'
                   f'{" (winner)" if won else ""}</title>')
        for k, colour in enumerate(members):
            out.append(meeple_svg(PAD + 10 + 22 * k, y - 4, colour, False, colour))
        out.append(f'<text class="side-name{" winner" if won else ""}" x="{left}" y="{y}">'
                   f"{xml_text(label)}</text>"
                   f'<text class="points{" winner" if won else ""}" x="{points_x}" y="{y}">'
                   f"{state.scores[side]}</text></g>")
    if state.winners:
        y += 24
        plural = "s" if len(state.winners) > 1 else ""
        line = f"Winner{plural}: {', '.join(state.winners)}"
        width = max(width, 2 * PAD + _measured(line))
        out.append(f'<text class="winner" x="{PAD}" y="{y}">{xml_text(line)}</text>')
    out.append("</g>")
    entries = legend(state, marked)
    entry_width = LABEL_X + ICON + max((_measured(label) for _, label in entries), default=0)
    width = max(width, 2 * PAD + entry_width)
    columns = 1 + (width - 2 * PAD - entry_width) // (entry_width + GAP)
    y += 34
    out.append(f'<g class="legend"><text class="heading" x="{PAD}" y="{y}">Legend</text>')
    for i, (icon, label) in enumerate(entries):
        cx = PAD + ICON + (i % columns) * (entry_width + GAP)
        cy = y + 22 + (i // columns) * 28
        out.append(f'<g class="legend-entry" transform="translate({cx},{cy})">{icon}'
                   f'<text class="legend-label" x="{LABEL_X}" y="4">{xml_text(label)}</text></g>')
    lines = (len(entries) + columns - 1) // columns
    out.append("</g>")
    return _Panel(out, y + 8 + 28 * lines, width)


def legend(state: GameState, marked: bool) -> list[tuple[str, str]]:
    """The legend of a board in this game's edition: an icon (SVG about its origin) and a label
    for each feature kind of its tiles, each kind of symbol on them, each figure, and the last
    placement's frame when the picture marks one."""
    edition = state.edition
    look = edition.look
    vocabulary = edition.vocabulary
    role_of = roles(edition)
    entries = []
    for kind in vocabulary.kinds:
        label = look.legend_words.get(kind, kind)
        if role_of[kind] == "path":
            entries.append((kind_svg(look, kind, "M-11,0 L11,0"), label))
            hub, ring = look.svg_hub
            entries.append((f'<circle r="6" fill="{hub}" stroke="{ring}" stroke-width="2.5"/>',
                            "intersection"))
        else:
            entries.append(look.svg_legend.get(kind) or (
                '<rect x="-11" y="-9" width="22" height="18" fill="#888" stroke="#333"/>', label))
    order = list(look.symbol_names)
    symbols = sorted({f.symbol for t in state.tileset.types.values() for f in t.features
                      if f.symbol}, key=lambda s: (order.index(s) if s in order else len(order), s))
    for symbol in symbols:
        entries.append((f'<use href="#sym-{symbol}"/>',
                        look.symbol_names.get(symbol, symbol.replace("_", " "))))
    for figure in edition.figures:
        name = edition.figure if len(edition.figures) == 1 or figure.name == edition.figure \
            else f"{figure.name} {edition.figure}"
        entries.append((_legend_figure(figure.strength > 1, False), name))
    if vocabulary.field is not None:
        role = edition.roles.get(vocabulary.field, edition.figure)
        entries.append((_legend_figure(False, True), f"{role} (lying in a {vocabulary.field})"))
    if marked:
        entries.append(('<rect x="-10" y="-10" width="20" height="20" fill="none" '
                        'stroke="#ffd60a" stroke-width="2.5"/>', "last placement"))
    return entries


def _legend_figure(large: bool, lying: bool) -> str:
    k = 1.15 if large else 0.85
    turn = " rotate(90)" if lying else ""
    return (f'<use href="#meeple" transform="scale({k}){turn}" fill="#c9d1ea" stroke="{DARK}" '
            f'stroke-width="{OUTLINE_WIDTH}"/>')


def _wrapped(text: str, room: int, size: float) -> list[str]:
    """``text`` in lines that take at most ``room`` at font size ``size`` however drawn
    (``text_width``), broken between words."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and _measured(f"{lines[-1]} {word}", size) <= room:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


SHEET_COLUMNS = 8


def sheet_svg(tileset: TileSet, *, note: str | None = None) -> str:
    """Every tile type unrotated with its id, count and feature names, eight to a row."""
    edition = edition_named(tileset.definition.edition)
    types = list(tileset.types.values())
    cell_w, cell_h = 120, 140
    rows = (len(types) + SHEET_COLUMNS - 1) // SHEET_COLUMNS
    width = SHEET_COLUMNS * cell_w + 20
    header = 48 if note else 30
    height = header + rows * cell_h + 10
    heading = (f"Tile set {tileset.name}: {tileset.total()} tiles in {len(types)} types, "
               f"start tile {tileset.start}, status {tileset.status}, sha256 {tileset.sha256[:12]}")
    out = [_open(width, height, edition), f"<title>{xml_text(heading)}</title>",
           f'<rect width="{width}" height="{height}" fill="#05070f"/>',
           f'<text class="label" x="{width // 2}" y="20">{xml_text(heading)}</text>']
    if note:
        out.append(f'<text class="note" x="10" y="40">{xml_text(note)}</text>')
    for i, tile in enumerate(types):
        left = 20 + (i % SHEET_COLUMNS) * cell_w
        top = header + (i // SHEET_COLUMNS) * cell_h
        start = " (start)" if tile.id == tileset.start else ""
        out.append(f'<g transform="translate({left},{top})"><title>{xml_text(tile.id)} x{tile.count}'
                   f'{start}: {xml_text(_describe(tile))}</title>{tile_fragment(tile, 0, edition)}'
                   f'<rect width="100" height="100" fill="none" stroke="#3a4270"/>'
                   f'{_fitted(f"{tile.id} x{tile.count}{start}", cell_w - 4)}</g>')
    out.append("</svg>\n")
    return "".join(out)


def _fitted(text: str, room: int) -> str:
    """A tile's caption centred under it, squeezed into ``room`` (``textLength``) when it may
    be drawn wider, so that it never runs into its neighbour's."""
    squeeze = (f' textLength="{room}" lengthAdjust="spacingAndGlyphs"'
               if _measured(text, NOTE_SIZE) > room else "")
    return f'<text class="label" x="50" y="118"{squeeze}>{xml_text(text)}</text>'


def _describe(tile: TileType) -> str:
    parts = []
    for f in tile.features:
        where = "".join(SIDES[s] for s in f.sides)
        text = f.kind + (f" {where}" if where else "")
        if f.name:
            text += f" {f.name}"
        if f.symbol:
            text += f" ({f.symbol.replace('_', ' ')})"
        parts.append(text)
    return ", ".join(parts) or "space"


def _open(width: int, height: int, edition: Edition) -> str:
    defs, style = defs_and_style(edition)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f"<defs>{defs}<style>{style}</style></defs>")
