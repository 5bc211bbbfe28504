"""The board and the tile set as SVG, drawn from the tile data alone (``show --svg``, ``tiles --svg``).

Every tile is a 100 by 100 square, north up: asteroid fields are rocky shapes
reaching the edges they hold, trade routes are lines from edge to edge (or to
an intersection, a planet or an asteroid field), planets are discs with their
names, faction symbols small icons (SW-1.4), meeples figures in player colours,
large ones half as big again (SW-1.6). Classic tiles are green fields with roads,
walled cities (pennants as blue shields), cloisters, and farmers lying down in
their fields (CL-4). Output is deterministic: the same state gives the same
bytes, so boards can be compared and pinned by snapshot tests.
"""

from __future__ import annotations

import functools
import re
from html import escape

from meeple.cli.pictures.board import ROLE
from meeple.engine import SIDES, GameState, Target, TileSet, TileType
from meeple.events.text import escaped

T = 100  # tile size in user units
MARGIN = 28

COLOUR = {"red": "#d62828", "green": "#2b9348", "black": "#1d1d1d", "white": "#f5f5f5",
          "orange": "#f77f00", "blue": "#1d4ed8", "yellow": "#facc15"}
SYMBOL_NAME = {"rebel": "Rebel Alliance symbol", "empire": "Galactic Empire symbol",
               "bounty_hunter": "bounty hunter symbol", "pennant": "pennant"}

#: shared definitions: patterns, gradients, the meeple figure and the faction icons
DEFS = (
    '<pattern id="stars" width="100" height="100" patternUnits="userSpaceOnUse">'
    '<circle cx="13" cy="21" r="0.9" fill="#c9d6ff"/><circle cx="71" cy="9" r="0.6" fill="#fff"/>'
    '<circle cx="88" cy="64" r="0.8" fill="#c9d6ff"/><circle cx="37" cy="83" r="0.6" fill="#fff"/>'
    '<circle cx="58" cy="42" r="0.5" fill="#fff"/></pattern>'
    '<pattern id="rocks" width="24" height="24" patternUnits="userSpaceOnUse">'
    '<rect width="24" height="24" fill="#6f655b"/><circle cx="6" cy="7" r="3.2" fill="#857a6e"/>'
    '<circle cx="17" cy="15" r="4" fill="#5a5249"/><circle cx="9" cy="19" r="2" fill="#948878"/>'
    '</pattern>'
    '<radialGradient id="planet" cx="0.35" cy="0.35" r="0.7">'
    '<stop offset="0" stop-color="#8ec5ff"/><stop offset="1" stop-color="#1d4e9e"/></radialGradient>'
    '<path id="meeple" d="M-2.6,-5.2 A3.8,3.8 0 1 1 2.6,-5.2 L8.2,-2.2 Q10.4,-0.4 8,1.2 L4.2,1.8 '
    'L7.4,9 L1.6,9 L0,5.4 L-1.6,9 L-7.4,9 L-4.2,1.8 L-8,1.2 Q-10.4,-0.4 -8.2,-2.2 Z"/>'
    '<g id="sym-rebel"><circle r="7" fill="#c1121f" stroke="#fff" stroke-width="1.2"/>'
    '<path d="M0,-4.5 L3.2,3 L0,1.2 L-3.2,3 Z" fill="#fff"/></g>'
    '<g id="sym-empire"><path d="M7,0 L3.5,6.1 L-3.5,6.1 L-7,0 L-3.5,-6.1 L3.5,-6.1 Z" '
    'fill="#adb5bd" stroke="#212529" stroke-width="1.2"/><circle r="2.6" fill="#212529"/></g>'
    '<g id="sym-bounty_hunter"><rect x="-6.5" y="-6.5" width="13" height="13" rx="3" '
    'fill="#e9c46a" stroke="#3d2c00" stroke-width="1.2"/>'
    '<path d="M-4.5,-2.5 H4.5 V-0.5 H1 V4.5 H-1 V-0.5 H-4.5 Z" fill="#3d2c00"/></g>'
    '<g id="sym-pennant"><path d="M-6,-6 H6 V1 Q6,6 0,8 Q-6,6 -6,1 Z" fill="#1e40af" '
    'stroke="#fff" stroke-width="1.2"/><path d="M-2.5,-3 H2.5 V2 L0,4 L-2.5,2 Z" fill="#fff"/></g>'
    '<g id="cloister"><rect x="-11" y="-6" width="22" height="17" fill="#e7dcc0" stroke="#5b4636" '
    'stroke-width="1.2"/><path d="M-14,-5 L0,-17 L14,-5 Z" fill="#b3261e" stroke="#5b4636" '
    'stroke-width="1.2"/><rect x="-3" y="2" width="6" height="9" fill="#5b4636"/></g>'
)

STYLE = (
    ".route{fill:none;stroke:#efe6c4;stroke-width:7;stroke-linecap:round}"
    ".route-dash{fill:none;stroke:#9c7c1c;stroke-width:1.6;stroke-dasharray:5 5}"
    ".asteroid{fill:url(#rocks);stroke:#3f3830;stroke-width:1.5}"
    ".city{fill:#c8a46a;stroke:#6b4a24;stroke-width:2.5}"
    ".road{fill:none;stroke:#f4efe1;stroke-width:7;stroke-linecap:round}"
    ".road-edge{fill:none;stroke:#8a7a5a;stroke-width:9;stroke-linecap:round}"
    ".planet-name{font:bold 11px sans-serif;fill:#fff;text-anchor:middle;"
    "paint-order:stroke;stroke:#0b1030;stroke-width:3}"
    ".axis{font:16px sans-serif;fill:#9aa4c7;text-anchor:middle}"
    ".label{font:12px sans-serif;fill:#dfe6ff;text-anchor:middle}"
    ".note{font:12px sans-serif;fill:#ffd166}"
    ".heading{font:bold 13px sans-serif;fill:#9aa4c7}"
    ".side-name,.legend-label{font:13px sans-serif;fill:#dfe6ff}"
    ".points{font:bold 13px sans-serif;fill:#dfe6ff;text-anchor:end}"
    ".winner{font:bold 13px sans-serif;fill:#ffd166}"
)

Point = tuple[float, float]

#: characters XML 1.0 cannot hold even as references (control characters are escaped before)
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")


def xml_text(value: str) -> str:
    """Text from a log or tile set (a tile id, a planet, set or player name) made safe for SVG
    character data and quoted attributes: control characters written as visible escapes,
    ``& < > " '`` as character references, anything XML cannot hold as U+FFFD."""
    return escape(_NOT_XML.sub("\ufffd", escaped(value)), quote=True)


def _turn(p: Point, quarters: int) -> Point:
    """A point of a tile turned ``quarters`` quarter turns clockwise about its centre."""
    x, y = p
    for _ in range(quarters % 4):
        x, y = T - y, x
    return x, y


def _path(commands: list[tuple[str, list[Point]]], quarters: int) -> str:
    parts = []
    for op, points in commands:
        coords = " ".join(f"{_n(x)},{_n(y)}" for x, y in (_turn(p, quarters) for p in points))
        parts.append(f"{op}{coords}")
    return " ".join(parts) + " Z"


def _n(value: float) -> str:
    """A coordinate with at most one decimal, without a trailing ``.0``."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


#: asteroid field outlines with their sides N (one side), N+E, N+S, N+E+W (three), all four
_CAP = [("M", [(0, 0)]), ("L", [(100, 0), (78, 24)]), ("Q", [(50, 36), (22, 24)])]
_CORNER = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100)]), ("Q", [(48, 52), (0, 0)])]
_BAND = [("M", [(0, 0)]), ("L", [(100, 0)]), ("Q", [(66, 50), (100, 100)]), ("L", [(0, 100)]),
         ("Q", [(34, 50), (0, 0)])]
_THREE = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100)]), ("Q", [(50, 58), (0, 100)])]
_FULL = [("M", [(0, 0)]), ("L", [(100, 0), (100, 100), (0, 100)])]


def _field_shape(sides: tuple[int, ...]) -> tuple[list, int]:
    """The canonical outline of an asteroid field reaching ``sides`` and its quarter turns."""
    held = set(sides)
    if len(held) == 1:
        return _CAP, sides[0]
    if len(held) == 4:
        return _FULL, 0
    if len(held) == 3:
        missing = ({0, 1, 2, 3} - held).pop()
        return _THREE, missing - 2
    a, b = sorted(held)
    if b - a == 2:
        return _BAND, a
    return _CORNER, (3 if (a, b) == (0, 3) else a)


def _field_anchor(sides: tuple[int, ...], has_planet: bool) -> Point:
    held = set(sides)
    if len(held) == 1:
        return _turn((50, 13), sides[0])
    if len(held) == 4:
        return (50, 50) if not has_planet else (50, 16)
    if len(held) == 3:
        missing = ({0, 1, 2, 3} - held).pop()
        return _turn((50, 26), missing + 2)
    a, b = sorted(held)
    if b - a == 2:
        return _turn((50, 16), a) if has_planet else (50, 50)
    return _turn((76, 24), 3 if (a, b) == (0, 3) else a)


_MID = ((50, 0), (100, 50), (50, 100), (0, 50))


def _route_anchor(sides: tuple[int, ...]) -> Point:
    if len(sides) == 1:
        return _turn((50, 24), sides[0])
    a, b = sorted(sides)
    if b - a == 2:
        return _turn((50, 27), a)
    return _turn((62.5, 37.5), 3 if (a, b) == (0, 3) else a)


def _route_path(sides: tuple[int, ...], end: Point) -> str:
    start = _MID[sides[0]]
    finish = _MID[sides[1]] if len(sides) == 2 else end
    return f"M{_n(start[0])},{_n(start[1])} Q50,50 {_n(finish[0])},{_n(finish[1])}"


def anchors(tile: TileType, r: int) -> list[Point]:
    """Where each feature's meeple stands on the tile turned ``r`` quarter turns."""
    o = tile.orientations[r]
    has_planet = tile.planet >= 0
    found: list[Point] = []
    for f in tile.features:
        sides = o.feature_sides[f.index]
        role = ROLE[f.kind]
        if role == "centre":
            found.append((50, 50))
        elif role == "path":
            found.append(_route_anchor(sides))
        elif role == "field":
            held = [p for p in range(12) if o.ports[p] == f.index]
            found.append(_HALF_POINT[held[0]] if held else (50, 50))
        else:
            found.append(_field_anchor(sides, has_planet))
    return found


#: where a farmer lies, by the first edge half its field touches (port index)
_HALF_POINT = {0: (27, 9), 2: (73, 9), 3: (91, 27), 5: (91, 73), 6: (73, 91), 8: (27, 91),
               9: (9, 73), 11: (9, 27)}


def tile_fragment(tile: TileType, r: int) -> str:
    """The SVG of a tile type turned ``r`` quarter turns, in tile coordinates (0 to 100)."""
    o = tile.orientations[r]
    classic = any(f.kind in ("road", "city", "cloister", "field") for f in tile.features) \
        or "field" in o.edges
    if classic:
        out = ['<rect width="100" height="100" fill="#6a9a3c" stroke="#4c7429" stroke-width="0.8"/>']
    else:
        out = ['<rect width="100" height="100" fill="#111a45"/>',
               '<rect width="100" height="100" fill="url(#stars)" stroke="#28336e" '
               'stroke-width="0.8"/>']
    routes = [f for f in tile.features if ROLE[f.kind] == "path"]
    fields = [f for f in tile.features if ROLE[f.kind] == "area"]
    has_planet = tile.planet >= 0
    hub = has_planet or len(routes) >= 3
    for f in routes:
        sides = o.feature_sides[f.index]
        end: Point = (50, 50)
        if len(sides) == 1 and not hub and fields:
            end = _turn((50, 30), o.feature_sides[fields[0].index][0])
        d = _route_path(sides, end)
        if classic:
            out.append(f'<path class="road-edge" d="{d}"/><path class="road" d="{d}"/>')
        else:
            out.append(f'<path class="route" d="{d}"/><path class="route-dash" d="{d}"/>')
    for f in fields:
        shape, quarters = _field_shape(o.feature_sides[f.index])
        out.append(f'<path class="{"city" if classic else "asteroid"}" d="{_path(shape, quarters)}"/>')
    if has_planet and tile.features[tile.planet].kind == "cloister":
        out.append('<use href="#cloister" x="50" y="52"><title>cloister</title></use>')
    elif has_planet:
        out.append('<circle cx="50" cy="50" r="19" fill="url(#planet)" stroke="#bfe0ff" '
                   'stroke-width="1.5"/>')
        name = tile.features[tile.planet].name
        if name:
            out.append(f'<text class="planet-name" x="50" y="86">{xml_text(name)}</text>')
    elif len(routes) >= 3:
        fill, ring = ("#8a7a5a", "#f4efe1") if classic else ("#2a2f4a", "#efe6c4")
        out.append(f'<circle cx="50" cy="50" r="8" fill="{fill}" stroke="{ring}" '
                   'stroke-width="3"><title>intersection</title></circle>')
    for symbol, (x, y) in symbol_points(tile, r):
        out.append(f'<use href="#sym-{symbol}" x="{_n(x)}" y="{_n(y)}">'
                   f'<title>{SYMBOL_NAME[symbol]}</title></use>')
    return "".join(out)


def symbol_points(tile: TileType, r: int) -> list[tuple[str, Point]]:
    """The symbols on a tile turned ``r`` quarter turns, each with the point it is drawn at."""
    spots = anchors(tile, r)
    found = []
    for f in tile.features:
        if f.symbol:
            x, y = spots[f.index]
            found.append((f.symbol, (x - 16, y) if ROLE[f.kind] != "centre" else (x - 24, y - 24)))
    return found


#: where figures on a planet would stand, in order: its holder's, then the attackers' (SW-4.3);
#: ``laid_out`` moves any that would cover another or the planet's name
_PLANET_SLOTS = ((50, 44), (30, 58), (70, 58), (50, 64))

#: the meeple figure's outline about its centre (left, top, right, bottom), halo included
_FIGURE_BOX = (-12.6, -14.0, 12.6, 11.2)
LARGE = 1.45

Box = tuple[float, float, float, float]


def figure_box(point: Point, large: bool, lying: bool) -> Box:
    """The rectangle a figure drawn at ``point`` covers (a lying one turned a quarter clockwise)."""
    left, top, right, bottom = _FIGURE_BOX
    if lying:
        left, top, right, bottom = -bottom, left, -top, right
    k = LARGE if large else 1.0
    x, y = point
    return x + k * left, y + k * top, x + k * right, y + k * bottom


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def name_box(name: str) -> Box:
    """About where a planet's name is written under it (bold 11 px, centred at x 50, baseline 86)."""
    half = min(50.0, 3.4 * len(name) + 2)
    return 50 - half, 76.5, 50 + half, 89.5


def keep_out(tile: TileType, r: int) -> tuple[tuple[Box, ...], tuple[Box, ...]]:
    """What figures on the tile must not cover (the planet's name), and what they had better not
    (the faction symbols and pennants)."""
    name = tile.features[tile.planet].name if tile.planet >= 0 else None
    hard = (name_box(name),) if name else ()
    soft = tuple((x - 8, y - 8, x + 8, y + 8) for _, (x, y) in symbol_points(tile, r))
    return hard, soft


#: steps away from a wanted point, nearest first, over a grid of 2 units reaching any point of a tile
_STEPS = sorted(((dx, dy) for dx in range(-100, 101, 2) for dy in range(-100, 101, 2)),
                key=lambda d: (d[0] ** 2 + d[1] ** 2, d))


@functools.lru_cache(maxsize=4096)
def laid_out(wanted: tuple[tuple[Point, bool, bool], ...], hard: tuple[Box, ...],
             soft: tuple[Box, ...]) -> tuple[Point, ...]:
    """Where figures stand on one tile: each as near its wanted point (point, large, lying) as it
    can be while inside the tile, clear of the figures laid out before it and of the ``hard``
    boxes, and if it can be of the ``soft`` ones too. Deterministic."""
    placed: list[Box] = []
    found: list[Point] = []
    for (x, y), large, lying in wanted:
        best: tuple[float, float, int] | None = None
        best_point = (x, y)
        for dx, dy in _STEPS:
            box = figure_box((x + dx, y + dy), large, lying)
            if box[0] < 0 or box[1] < 0 or box[2] > T or box[3] > T:
                continue
            cost = (sum(_overlap(box, other) for other in [*placed, *hard]),
                    sum(_overlap(box, other) for other in soft), dx * dx + dy * dy)
            if best is None or cost < best:
                best, best_point = cost, (x + dx, y + dy)
            if cost[0] == cost[1] == 0:
                break
        found.append(best_point)
        placed.append(figure_box(best_point, large, lying))
    return tuple(found)


def meeple_spots(state: GameState, x: int, y: int) -> list[tuple[Point, str, bool, str]]:
    """The figures on the tile at (x, y): local point, colour, large, and the feature target.
    Figures sharing a tile are laid out apart and off the planet's name (``laid_out``)."""
    placed = state.board[(x, y)]
    o = placed.tile.orientations[placed.r]
    spots = anchors(placed.tile, placed.r)
    figures: list[tuple[str, bool, str]] = []
    wanted: list[tuple[Point, bool, bool]] = []
    slot = 0
    for index, node in enumerate(placed.nodes):
        for colour, figure, where in state.realms.realm(node).meeples:
            if where != node:
                continue
            point = spots[index]
            role = ROLE[placed.tile.features[index].kind]
            if role == "centre":
                point = _PLANET_SLOTS[min(slot, len(_PLANET_SLOTS) - 1)]
                slot += 1
            large = figure == "large"
            figures.append((colour, large, o.targets[index]))
            wanted.append((point, large, role == "field"))
    if not figures:
        return []
    points = laid_out(tuple(wanted), *keep_out(placed.tile, placed.r))
    return [(point, colour, large, target) for point, (colour, large, target)
            in zip(points, figures, strict=True)]


def _luminance(colour: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (WCAG 2)."""
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two ``#rrggbb`` colours, 1 to 21 (WCAG 2)."""
    lighter, darker = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


LIGHT, DARK = "#f4f4f4", "#101010"


def figure_colours(colour: str) -> tuple[str, str, str]:
    """A player's figure colours: fill, outline and halo. The outline is whichever of light and
    dark stands out more from the fill, the halo around it the other, so that a figure of any
    colour stands out on dark space, rocks, planets, routes, fields and cities alike."""
    fill = COLOUR[colour]
    if contrast(fill, LIGHT) >= contrast(fill, DARK):
        return fill, LIGHT, DARK
    return fill, DARK, LIGHT


#: stroke widths of a figure's outline and of the halo drawn under it (tile units)
OUTLINE_WIDTH, HALO_WIDTH = 1.4, 4.6


def meeple_svg(px: float, py: float, colour: str, large: bool, title: str,
               lying: bool = False) -> str:
    """One figure centred at (px, py), outlined and haloed (``figure_colours``); a large one is
    drawn half as big again, a farmer lying down (CL-4)."""
    turn = " rotate(90)" if lying else ""
    fill, outline, halo = figure_colours(colour)
    return (f'<g class="figure" transform="translate({_n(px)},{_n(py)}) '
            f'scale({LARGE if large else 1}){turn}">'
            f'<title>{xml_text(title)}</title>'
            f'<use href="#meeple" class="halo" fill="none" stroke="{halo}" '
            f'stroke-width="{HALO_WIDTH}" stroke-linejoin="round"/>'
            f'<use href="#meeple" fill="{fill}" stroke="{outline}" stroke-width="{OUTLINE_WIDTH}" '
            'stroke-linejoin="round"/></g>')


def meeple_title(colour: str, large: bool, target: str, x: int, y: int) -> str:
    kind = Target.of(target).kind
    if kind == "field":
        return f"{colour} farmer on {target} at ({x}, {y})"
    if kind in ("road", "city", "cloister"):
        return f"{colour} follower on {target} at ({x}, {y})"
    return f"{colour} {'large' if large else 'small'} meeple on {target} at ({x}, {y})"


def tile_title(x: int, y: int, tile: TileType, r: int) -> str:
    """A placed tile's tooltip, as plain text (the SVG and the HTML page each escape it)."""
    return f"({x}, {y}) {escaped(tile.id)} turned {r * 90}"


def extent(cells) -> tuple[int, int, int, int]:
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    return min(xs), min(ys), max(xs), max(ys)


def board_svg(state: GameState, *, highlight: tuple[int, int] | None, note: str | None = None) -> str:
    """The whole board as a standalone SVG document, with coordinate margins and titles, and
    under it the sides with their colours, names and scores (the winners once the game is
    over), a legend of what the pictures mean in this edition, and ``note``."""
    x0, y0, x1, y1 = extent(state.board)
    board_height = MARGIN + (y1 - y0 + 1) * T + 8
    width = max(MARGIN + (x1 - x0 + 1) * T + 8, PANEL_WIDTH)
    panel = _panel(state, width, board_height, highlight is not None)
    height = panel.bottom
    note_lines = _wrapped(note, (width - 2 * PAD) // 7) if note else []
    height += 18 * len(note_lines) + 8
    out = [_open(width, height), f"<title>meeple board: {len(state.board)} tiles</title>",
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
                   f'{tile_fragment(placed.tile, placed.r)}')
        for (px, py), colour, large, target in meeple_spots(state, x, y):
            out.append(meeple_svg(px, py, colour, large, meeple_title(colour, large, target, x, y),
                                  lying=target.startswith("field:")))
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
#: where the points column of the scores ends
POINTS_X = 400
LEGEND_COLUMN = 170


class _Panel:
    """The SVG under the board (``parts``) and where it ends."""

    def __init__(self, parts: list[str], bottom: int) -> None:
        self.parts = parts
        self.bottom = bottom


def _panel(state: GameState, width: int, top: int, marked: bool) -> _Panel:
    """The sides' names, colours and scores, then the legend, from ``top`` down."""
    out = ['<g class="scores">']
    y = top + 20
    heading = "Final scores" if state.winners else f"Scores at turn {state.turn}"
    out.append(f'<text class="heading" x="{PAD}" y="{y}">{heading}</text>')
    for side in state.sides:
        y += 24
        members = [c for c in state.players if state.side_of[c] == side]
        names = [state.name_of(c) for c in members]
        label = side if names == [side] else f"{side} ({', '.join(names)})"
        won = state.winners is not None and side in state.winners
        out.append(f'<g class="side"><title>{xml_text(label)}: {state.scores[side]} points'
                   f'{" (winner)" if won else ""}</title>')
        for k, colour in enumerate(members):
            out.append(meeple_svg(PAD + 10 + 22 * k, y - 4, colour, False, colour))
        left = PAD + 22 * len(members) + 6
        out.append(f'<text class="side-name{" winner" if won else ""}" x="{left}" y="{y}">'
                   f"{xml_text(label)}</text>"
                   f'<text class="points{" winner" if won else ""}" x="{POINTS_X}" y="{y}">'
                   f"{state.scores[side]}</text></g>")
    if state.winners:
        y += 24
        plural = "s" if len(state.winners) > 1 else ""
        out.append(f'<text class="winner" x="{PAD}" y="{y}">'
                   f"Winner{plural}: {xml_text(', '.join(state.winners))}</text>")
    out.append("</g>")
    entries = legend(state, marked)
    columns = max(1, (width - 2 * PAD) // LEGEND_COLUMN)
    y += 34
    out.append(f'<g class="legend"><text class="heading" x="{PAD}" y="{y}">Legend</text>')
    for i, (icon, label) in enumerate(entries):
        cx = PAD + 12 + (i % columns) * LEGEND_COLUMN
        cy = y + 22 + (i // columns) * 28
        out.append(f'<g class="legend-entry" transform="translate({cx},{cy})">{icon}'
                   f'<text class="legend-label" x="20" y="4">{xml_text(label)}</text></g>')
    rows = (len(entries) + columns - 1) // columns
    out.append("</g>")
    return _Panel(out, y + 8 + 28 * rows)


#: what the legend calls each feature kind
KIND_LABEL = {"route": "trade route", "asteroid": "asteroid field", "planet": "planet",
              "road": "road", "city": "city", "cloister": "cloister", "field": "field"}


def legend(state: GameState, marked: bool) -> list[tuple[str, str]]:
    """The legend of a board in this game's edition: an icon (SVG about its origin) and a label
    for each feature kind of its tiles, each kind of symbol on them, each figure, and the last
    placement's frame when the picture marks one."""
    vocabulary = state.tileset.vocabulary
    classic = vocabulary.field is not None
    entries = []
    for kind in vocabulary.kinds:
        role = ROLE[kind]
        if role == "path":
            d = "M-11,0 L11,0"
            icon = (f'<path class="road-edge" d="{d}"/><path class="road" d="{d}"/>' if classic
                    else f'<path class="route" d="{d}"/><path class="route-dash" d="{d}"/>')
            entries.append((icon, KIND_LABEL.get(kind, kind)))
            ring, hub = ("#f4efe1", "#8a7a5a") if classic else ("#efe6c4", "#2a2f4a")
            entries.append((f'<circle r="6" fill="{hub}" stroke="{ring}" stroke-width="2.5"/>',
                            "intersection"))
        elif role == "area":
            entries.append((f'<rect class="{"city" if classic else "asteroid"}" x="-11" y="-9" '
                            'width="22" height="18"/>', KIND_LABEL.get(kind, kind)))
        elif role == "centre" and classic:
            entries.append(('<use href="#cloister" transform="translate(0,3) scale(0.75)"/>',
                            KIND_LABEL.get(kind, kind)))
        elif role == "centre":
            entries.append(('<circle r="10" fill="url(#planet)" stroke="#bfe0ff" '
                            'stroke-width="1.2"/>', f"{KIND_LABEL.get(kind, kind)} (named below)"))
        else:
            entries.append(('<rect x="-11" y="-9" width="22" height="18" fill="#6a9a3c" '
                            'stroke="#4c7429"/>', KIND_LABEL.get(kind, kind)))
    symbols = sorted({f.symbol for t in state.tileset.types.values() for f in t.features
                      if f.symbol}, key=list(SYMBOL_NAME).index)
    for symbol in symbols:
        entries.append((f'<use href="#sym-{symbol}"/>', SYMBOL_NAME[symbol]))
    edition = state.edition
    for figure in edition.figures:
        large = figure.name == "large"
        name = edition.figure if len(edition.figures) == 1 else f"{figure.name} {edition.figure}"
        entries.append((_legend_figure(large, False), name))
    if vocabulary.field is not None:
        farmer = edition.roles.get(vocabulary.field, "farmer")
        entries.append((_legend_figure(False, True), f"{farmer} (lying in a {vocabulary.field})"))
    if marked:
        entries.append(('<rect x="-10" y="-10" width="20" height="20" fill="none" '
                        'stroke="#ffd60a" stroke-width="2.5"/>', "last placement"))
    return entries


def _legend_figure(large: bool, lying: bool) -> str:
    k = 1.15 if large else 0.85
    turn = " rotate(90)" if lying else ""
    return (f'<use href="#meeple" transform="scale({k}){turn}" fill="#c9d1ea" stroke="{DARK}" '
            f'stroke-width="{OUTLINE_WIDTH}"/>')


def _wrapped(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` characters, broken between words."""
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= columns:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


SHEET_COLUMNS = 8


def sheet_svg(tileset: TileSet, *, note: str | None = None) -> str:
    """Every tile type unrotated with its id, count and planet name, eight to a row."""
    types = list(tileset.types.values())
    cell_w, cell_h = 120, 140
    rows = (len(types) + SHEET_COLUMNS - 1) // SHEET_COLUMNS
    width = SHEET_COLUMNS * cell_w + 20
    header = 48 if note else 30
    height = header + rows * cell_h + 10
    heading = (f"Tile set {tileset.name}: {tileset.total()} tiles in {len(types)} types, "
               f"start tile {tileset.start}, status {tileset.status}, sha256 {tileset.sha256[:12]}")
    out = [_open(width, height), f"<title>{xml_text(heading)}</title>",
           f'<rect width="{width}" height="{height}" fill="#05070f"/>',
           f'<text class="label" x="{width // 2}" y="20">{xml_text(heading)}</text>']
    if note:
        out.append(f'<text class="note" x="10" y="40">{xml_text(note)}</text>')
    for i, tile in enumerate(types):
        left = 20 + (i % SHEET_COLUMNS) * cell_w
        top = header + (i // SHEET_COLUMNS) * cell_h
        start = " (start)" if tile.id == tileset.start else ""
        out.append(f'<g transform="translate({left},{top})"><title>{xml_text(tile.id)} x{tile.count}'
                   f'{start}: {xml_text(_describe(tile))}</title>{tile_fragment(tile, 0)}'
                   f'<rect width="100" height="100" fill="none" stroke="#3a4270"/>'
                   f'<text class="label" x="50" y="118">{xml_text(tile.id)} x{tile.count}{start}</text>'
                   "</g>")
    out.append("</svg>\n")
    return "".join(out)


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


def _open(width: int, height: int) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif">'
            f"<defs>{DEFS}<style>{STYLE}</style></defs>")
