"""The pieces of ``play``'s screen as styled lines, from a game state alone: the score line,
the last moves, the tile in hand and the part of the board a window shows.

A styled line is a list of ``(style, text)`` pairs (prompt_toolkit's formatted text); the
board's style names (``meeple.cli.pictures.board.style_named``) become prompt_toolkit's
styles here.
"""

from __future__ import annotations

import functools
import textwrap
from typing import NamedTuple

from prompt_toolkit.formatted_text import StyleAndTextTuples

from meeple.cli.labels import cell_labels, distinct_rotations, rotation_number, shown_spots
from meeple.cli.pictures.board import COMPACT, SIZES, UNICODE, Grid, Size, draw, render, style_named
from meeple.engine import GameState
from meeple.events.model import (
    BattleStarted,
    GameEnded,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    PointsScored,
    TilePlaced,
)
from meeple.events.text import escaped

#: a line of styled text: (style, text) pairs
Line = StyleAndTextTuples

#: the drawings the zoom key steps through, the largest first; the last is the compact one
ZOOMS = (*SIZES, COMPACT)


@functools.cache
def screen_style(name: str | None) -> str:
    """prompt_toolkit's style for a board style name (a rich style: ``bold red``,
    ``bold black on yellow``, ``grey35``)."""
    if not name:
        return ""
    from rich.errors import StyleSyntaxError
    from rich.style import Style

    try:
        parsed = Style.parse(style_named(name))
    except StyleSyntaxError:  # a name the looks give no style (drawn plain, as rich does)
        return ""
    parts = [word for word, on in (("bold", parsed.bold), ("reverse", parsed.reverse),
                                   ("italic", parsed.italic)) if on]
    if parsed.color is not None:
        parts.append("fg:" + parsed.color.get_truecolor().hex)
    if parsed.bgcolor is not None:
        parts.append("bg:" + parsed.bgcolor.get_truecolor().hex)
    return " ".join(parts)


def styled(row: list[tuple[str, str | None]]) -> Line:
    """A row of board cells as a styled line, each cell's control characters escaped."""
    line: Line = []
    for ch, style in row:
        shown = ch if ch.isprintable() else escaped(ch)
        line.append((screen_style(style), shown))
    return line


def score_line(state: GameState) -> str:
    """Each side's score, the turn, the tiles left and the figures each colour has in
    reserve, on one line."""
    scores = " · ".join(f"{side} {points}" for side, points in state.scores.items())
    reserve = " ".join(f"{colour} {sum(state.reserve[colour].values())}"
                       for colour in state.players)
    return (f"Score: {scores} · tiles left {state.tiles_left()} · turn {state.turn} · "
            f"in reserve: {reserve}")


class Move(NamedTuple):
    """One turn's moves told in short: who, on which turn, and what."""

    turn: int
    player: str
    text: str


def last_moves(state: GameState, count: int) -> list[Move]:
    """The last ``count`` turns in effect (an undone step is not shown), oldest first: the
    tile placed and where, the figure placed or taken back, the points scored."""
    turns: list[Move] = []
    figure = state.edition.figure
    for step in state.history.steps:
        parts = []
        for event in step.events:
            if isinstance(event, TilePlaced):
                parts.append(f"{escaped(event.tile)} ({event.x},{event.y}) {event.rotation}°")
            elif isinstance(event, MeeplePlaced):
                parts.append(f"{figure} on {escaped(event.target)}")
            elif isinstance(event, MeepleSkipped):
                parts.append(f"no {figure}")
            elif isinstance(event, MeepleTakenBack):
                parts.append(f"{figure} back from ({event.spot.x},{event.spot.y})")
            elif isinstance(event, BattleStarted):
                parts.append("battle")
            elif isinstance(event, PointsScored) and event.points:
                parts.append(f"{event.side} +{event.points}")
            elif isinstance(event, GameEnded):
                parts.append("game over")
        if not parts:
            continue
        if turns and turns[-1].turn == step.turn and turns[-1].player == step.player:
            last = turns.pop()
            parts = [last.text, *parts]
        turns.append(Move(step.turn, step.player, ", ".join(parts)))
    return turns[-count:] if count > 0 else []


def move_line(move: Move) -> str:
    """A turn as the moves list shows it: ``2 black H (0,1) 180°, no meeple``."""
    return f"{move.turn:>3} {move.player} {move.text}"


def fitted(text: str, width: int) -> str:
    """``text`` cut to ``width`` columns, with ``…`` where it was cut."""
    if len(text) <= width:
        return text
    return text[:max(0, width - 1)] + "…"


#: the size of the tile in hand on a narrow screen and on a wide one
HAND_SIZES = (Size(7, 3, True), Size(9, 5, True))


def hand(state: GameState, width: int) -> list[Line]:
    """The tile in hand in the board's glyphs, in its rotations that lie differently, each
    over the number to type after a cell's label and the cells where it fits; as many side
    by side as ``width`` holds. Empty when no tile is in hand or it fits nowhere."""
    found = shown_spots(state)
    if state.drawn is None or not found:
        return []
    tile = state.tileset.types[state.drawn]
    size = HAND_SIZES[1] if width >= 4 * (HAND_SIZES[1].width + 3) else HAND_SIZES[0]
    block = size.width + 3
    per_row = max(1, width // block)
    numbers = [rotation_number(d) for d in distinct_rotations(tile)]
    lines: list[Line] = [[("bold", fitted(f"in hand: {escaped(tile.id)}", width))]]
    for start in range(0, len(numbers), per_row):
        row = numbers[start:start + per_row]
        arts = [draw(tile, n - 1, [], unicode=True, size=size, edition=state.edition)
                for n in row]
        lines.append([("bold", "".join(f"{n} {(n - 1) * 90}°".ljust(block) for n in row))])
        for r in range(size.height):
            line: Line = []
            for art in arts:
                line += [(screen_style("grid"), UNICODE.frame[0])] + styled(art[r])
                line.append((screen_style("grid"), UNICODE.frame[0] + " "))
            lines.append(line)
        fits = []
        for n in row:
            cells = [name for name, (_, _, turns) in found.items()
                     if any(rotation_number(d) == n for d in turns)]
            fits.append(fitted(" ".join(cells) or "nowhere", block - 1).ljust(block))
        lines.append([(screen_style("turns"), "".join(fits))])
    return lines


class View(NamedTuple):
    """Where the board window looks: the cell at its centre and the drawing's size."""

    x: int
    y: int
    size: Size


def whole_board(state: GameState, size: Size) -> Grid:
    """The whole board drawn with tiles of ``size``, the last placement marked."""
    return render(state, width=1 << 30, unicode=True, highlight=state.placed_at, size=size)


def board_window(state: GameState, view: View, width: int, height: int,
                 grid: Grid | None = None) -> list[Line]:
    """The part of the board ``width`` by ``height`` around ``view``'s cell, the column
    numbers kept on the first line and the row numbers on the left as it moves; ``grid``
    the whole board drawn at ``view``'s size (``whole_board``) if it was drawn already."""
    if grid is None:
        grid = whole_board(state, view.size)
    cells = [*state.board, *cell_labels(state).values()]
    x0 = min(x for x, _ in cells)
    y1 = max(y for _, y in cells)
    y0 = min(y for _, y in cells)
    margin = max(len(str(y0)), len(str(y1))) + 1
    size = view.size
    step_c, step_r = size.width + size.framed, size.height + size.framed
    body = grid[1:]
    body_w = len(grid[1]) - margin if len(grid) > 1 else 0
    wide, tall = max(0, width - margin), max(0, height - 1)
    centre_c = (view.x - x0) * step_c + size.framed + size.width // 2
    centre_r = (y1 - view.y) * step_r + size.framed + size.height // 2
    left = _start(centre_c, wide, body_w)
    top = _start(centre_r, tall, len(body))
    lines = [styled(grid[0][:margin] + grid[0][margin + left:margin + left + wide])]
    for row in body[top:top + tall]:
        lines.append(styled(row[:margin] + row[margin + left:margin + left + wide]))
    return lines


def _start(centre: int, shown: int, whole: int) -> int:
    """The first row or column shown of ``whole`` so that ``centre`` is in the middle of
    ``shown``, the drawing kept in view."""
    if whole <= shown:
        return 0
    return min(max(0, centre - shown // 2), whole - shown)


def default_size(width: int, height: int) -> Size:
    """The drawing a screen starts with: the largest framed tiles on a large screen."""
    return SIZES[0] if width >= 100 and height >= 32 else SIZES[1]


def wrapped(line: str, width: int) -> list[str]:
    """A line of a page in lines of ``width``, each as indented as the line was."""
    text = line.lstrip(" ")
    indent = " " * min(len(line) - len(text), width // 2)
    return textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent + "  ",
                         break_on_hyphens=False) or [""]


def help_page(state: GameState, commands: str, compact: bool) -> str:
    """The help shown on ``?``: the commands (``commands``, as the line-by-line session
    lists them), the keys, the legend of the board as drawn now, and where the rules are."""
    from meeple.cli.pictures.board import legend
    from meeple.cli.report import PICTURE_NOTE

    return "\n".join([
        "Help (? or Esc closes it; Up and Down scroll)", "",
        commands.replace("Up and Down recall", "Ctrl-P and Ctrl-N recall")
        .replace(" · hint · quit", " · quit")
        + " · hint: what the default bot would play, and the change to your projected "
        "score (the points scored and what the end would pay for the realms held) · "
        "zoom · centre", "",
        "Keys: arrows pan the board · F2 zooms between the framed and the compact "
        "drawing · F3 centres on the last placement · Ctrl-P and Ctrl-N recall a line · "
        "Ctrl-C or Ctrl-D ends the session (the log keeps every move)", "",
        "What the board shows:", legend(state, unicode=True, compact=compact), "",
        *([PICTURE_NOTE + ".", ""] if state.tileset.status == "reconstructed" else []),
        "Rules: `rules` lists them, `rules ID` (as cited, e.g. "
        f"{state.edition.rule('meeple')}) or `rules WORD` shows one.",
    ])


def final_page(table: str) -> str:
    """The final score table (``meeple score``'s text) as the end shows it: the scores, the
    points by kind and the winners first, then each scoring."""
    lines = table.splitlines()
    if "Points by kind:" in lines:
        at = lines.index("Points by kind:")
        lines = [*lines[:1], *lines[at:], "", *lines[1:at]]
    return "\n".join(["Final scores (Up and Down scroll)", "", *lines])
