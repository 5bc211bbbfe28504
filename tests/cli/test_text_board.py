"""The text board of `meeple show`: its drawing in both editions (snapshots), the legend, the
glyphs that tell curves from crossings, and the labels of the legal cells (`b2`)."""

from pathlib import Path

import pytest

from meeple.cli.labels import cell_labels, parse_placement, spots
from meeple.cli.pictures.board import ASCII, SIZES, UNICODE, Size, draw, legend, render, to_plain
from meeple.cli.pictures.tilesheet import in_hand
from meeple.engine import (
    GameState,
    IllegalMove,
    InvalidCommand,
    awaiting,
    compile_tileset,
    placements,
    walk,
)
from meeple.events import log as logfile
from meeple.events.model import TurnEnded
from meeple.events.tileset import bundled

FIXTURES = Path(__file__).parents[2] / "fixtures"
STAR_WARS = FIXTURES / "random_2p_seed_0.jsonl"
CLASSIC = FIXTURES / "classic_random_2p_seed_0.jsonl"


def position(path: Path, turn: int, *, in_hand: bool = False) -> GameState:
    """The state at the end of ``turn``, or, with ``in_hand``, once the next tile is drawn."""
    ended = False

    class Reached(Exception):
        def __init__(self, state: GameState) -> None:
            self.state = state

    def visit(event, state: GameState) -> None:
        nonlocal ended
        if isinstance(event, TurnEnded) and event.turn == turn:
            if not in_hand:
                raise Reached(state)
            ended = True
        elif ended and awaiting(state) == "place":
            raise Reached(state)

    try:
        walk(logfile.read(path).events, visit=visit)
    except Reached as reached:
        return reached.state
    raise AssertionError(f"{path.stem} has no turn {turn}")


def board(state: GameState, *, unicode: bool, width: int = 120, compact: bool = False) -> str:
    lines = render(state, width=width, unicode=unicode, highlight=state.placed_at,
                   compact=compact or None)
    return to_plain(lines) + "\n" + legend(state, unicode=unicode, compact=compact)


@pytest.mark.parametrize("unicode", [True, False], ids=["unicode", "ascii"])
@pytest.mark.parametrize("path", [STAR_WARS, CLASSIC], ids=lambda p: p.stem)
def test_a_mid_game_board_snapshot(path, unicode, snapshot):
    assert board(position(path, 14), unicode=unicode) == snapshot


@pytest.mark.parametrize("unicode", [True, False], ids=["unicode", "ascii"])
@pytest.mark.parametrize("path", [STAR_WARS, CLASSIC], ids=lambda p: p.stem)
def test_a_board_with_the_labels_of_the_tile_in_hand_snapshot(path, unicode, snapshot):
    state = position(path, 8, in_hand=True)
    assert cell_labels(state)
    text = board(state, unicode=unicode)
    for name in cell_labels(state):
        assert f" {name} " in text
    assert text == snapshot


def test_a_compact_board_snapshot(snapshot):
    state = position(CLASSIC, 14, in_hand=True)
    assert board(state, unicode=False, compact=True) == snapshot


def test_the_tile_size_shrinks_to_fit_the_width_and_frames_go_last():
    state = position(CLASSIC, 30)
    widths = {len(line) for width in (200, 100, 80)
              for line in to_plain(render(state, width=width, unicode=False,
                                          highlight=None)).splitlines()}
    assert max(widths) <= 200
    narrow = to_plain(render(state, width=60, unicode=False, highlight=None))
    assert max(len(line) for line in narrow.splitlines()) <= 60
    assert ":" not in narrow  # 3 by 3 without frames


@pytest.mark.parametrize("unicode", [True, False], ids=["unicode", "ascii"])
@pytest.mark.parametrize("path", [STAR_WARS, CLASSIC], ids=lambda p: p.stem)
def test_every_legend_line_fits_80_columns(path, unicode):
    for state in (position(path, 14), position(path, 8, in_hand=True)):
        for compact in (False, True):
            text = legend(state, unicode=unicode, compact=compact)
            assert all(len(line) <= 80 for line in text.splitlines()), text
    text = legend(position(path, 8, in_hand=True), unicode=unicode)
    assert "b2 names cell b, rotation 2" in text


def test_each_legend_speaks_its_editions_words():
    star_wars = legend(position(STAR_WARS, 14), unicode=True)
    classic = legend(position(CLASSIC, 14), unicode=True)
    for word in ("routes ─ │", "curves ┌ ┐ ┘ └", "crossing ╋", "asteroid field ▒", "planet @",
                 "^ rebel", "% empire", "$ bounty hunter", "small r k, large R K",
                 "last placement: double frame"):
        assert word in star_wars
    for word in ("roads ─ │", "city ▒", "field ·", "pennant *", "cloister C", "a farmer"):
        assert word in classic
    assert "city" not in star_wars and "asteroid" not in classic and "large" not in classic


def centre_of(tile_id: str, edition: str, unicode: bool) -> str:
    tile = compile_tileset(bundled(edition)).types[tile_id]
    size = SIZES[0]
    return draw(tile, 0, [], unicode=unicode, size=size)[size.height // 2][size.width // 2][0]


@pytest.mark.parametrize("glyphs", [UNICODE, ASCII], ids=["unicode", "ascii"])
@pytest.mark.parametrize("edition", ["star-wars", "classic"])
def test_curves_and_crossings_have_different_glyphs(edition, glyphs):
    unicode = glyphs is UNICODE
    curve = centre_of("V", edition, unicode)  # one route from S to W
    straight = centre_of("U", edition, unicode)
    three, four = centre_of("W", edition, unicode), centre_of("X", edition, unicode)
    corners = {glyphs.line[frozenset(pair)] for pair in ({0, 1}, {1, 2}, {2, 3}, {0, 3})}
    assert curve in corners
    assert three not in corners and four not in corners and curve not in (three, four)
    assert straight not in corners | {three, four}
    if unicode:
        assert (curve, three, four) == ("┐", "┳", "╋")


def test_a_city_is_a_filled_area_and_a_field_fills_the_rest():
    tile = compile_tileset(bundled("classic")).types["E"]  # a city cap on N, field below
    art = ["".join(ch for ch, _ in row) for row in draw(tile, 0, [], unicode=False)]
    assert art[0] == ",#######," and art[1] == ",,,###,,,"
    assert all(set(row) == {","} for row in art[2:])
    wide = draw(tile, 0, [], unicode=False, size=Size(7, 3, True))
    assert "".join(ch for ch, _ in wide[0]) == ",#####,"


def test_a_large_meeple_is_a_capital_and_a_small_one_is_not():
    tile = compile_tileset(bundled("star-wars")).types["U"]
    small = draw(tile, 0, [("red", False, 0)], unicode=False)
    large = draw(tile, 0, [("red", True, 0)], unicode=False)
    assert any(ch == "r" for row in small for ch, _ in row)
    assert any(ch == "R" for row in large for ch, _ in row)


# -- labels ----------------------------------------------------------------------------------


@pytest.fixture
def hand():
    state = position(STAR_WARS, 8, in_hand=True)
    return state, state.tileset.types[state.drawn]


def test_cell_labels_name_every_legal_cell_in_reading_order(hand):
    state, tile = hand
    labels = cell_labels(state)
    legal = {(x, y) for x, y, _ in placements(state, tile)}
    assert set(labels.values()) == legal and len(labels) == len(legal)
    assert list(labels) == [chr(ord("a") + i) for i in range(len(labels))]
    cells = list(labels.values())
    assert cells == sorted(cells, key=lambda cell: (-cell[1], cell[0]))


def test_a_legal_label_names_its_placement_in_any_case(hand):
    state, tile = hand
    for name, (x, y, turns) in spots(state).items():
        for degrees in turns:
            number = degrees // 90 + 1
            assert parse_placement(state, f"{name}{number}") == (x, y, degrees)
            assert parse_placement(state, f" {name.upper()}{number} ") == (x, y, degrees)
    assert sorted(parse_placement(state, f"{name}{d // 90 + 1}")
                  for name, (_, _, turns) in spots(state).items()
                  for d in turns) == sorted(placements(state, tile))


@pytest.mark.parametrize("text", ["", "3 -1 90", "b", "2", "b2x", "-b2", "place", "b 2",
                                  "abcd1", "route:E"])
def test_a_text_not_shaped_like_a_label_is_none(hand, text):
    state, _ = hand
    assert parse_placement(state, text) is None


def test_a_rotation_number_outside_1_to_4_is_refused(hand):
    state, _ = hand
    for text in ("a5", "a0", "A12"):
        with pytest.raises(InvalidCommand) as error:
            parse_placement(state, text)
        assert f"{text.lower()}: rotation {int(text[1:])} is not 1-4" in str(error.value)
        assert "2 = 90°" in str(error.value)


def test_a_cell_that_is_no_legal_spot_is_refused_with_the_legal_ones(hand):
    state, _ = hand
    labels = cell_labels(state)
    with pytest.raises(IllegalMove) as error:
        parse_placement(state, "zz1")
    message = str(error.value)
    assert message.startswith(f"cell zz is not a legal spot for {state.drawn} ")
    assert message.endswith("legal: " + " ".join(labels))


def test_a_rotation_that_does_not_fit_its_cell_is_refused_with_those_that_do(hand):
    state, _ = hand
    name, (_, _, turns) = next((n, s) for n, s in spots(state).items() if len(s[2]) < 4)
    wrong = next(d for d in (0, 90, 180, 270) if d not in turns)
    with pytest.raises(IllegalMove) as error:
        parse_placement(state, f"{name}{wrong // 90 + 1}")
    message = str(error.value)
    assert f"{state.drawn} does not fit cell {name} turned {wrong}°" in message
    assert message.endswith("it fits " + " ".join(f"{name}{d // 90 + 1}" for d in turns))


def test_labels_need_a_tile_in_hand():
    state = position(STAR_WARS, 8)
    assert cell_labels(state) == {}
    with pytest.raises(IllegalMove, match="no tile in hand"):
        parse_placement(state, "a1")


def test_the_tile_in_hand_shows_its_rotations_over_the_cells_where_each_fits(hand):
    """Each rotation that lies differently, once (a tile of like sides shows fewer), numbered
    as typed, over the cells where it fits; every label shown is taken when typed."""
    from meeple.cli.labels import distinct_rotations, shown_spots

    state, tile = hand
    lines = in_hand(state).splitlines()
    shown = distinct_rotations(tile)
    assert lines[1].split() == [word for d in shown for word in (str(d // 90 + 1), "=", f"{d}°")]
    found = shown_spots(state)
    width = SIZES[0].width + 2
    for at, degrees in enumerate(shown):
        column = at * (width + 2)
        names = lines[-1][column:column + width].split()
        expected = [n for n, (_, _, turns) in found.items() if degrees in turns]
        assert names == (expected or ["nowhere"])
        for name in expected:
            assert parse_placement(state, f"{name}{degrees // 90 + 1}") is not None


def test_rotations_that_lie_the_same_are_listed_once_and_each_still_taken():
    """A planet tile alone (hoth: like sides all round) offers one choice a cell, not four;
    typing any rotation that fits is still taken."""
    from meeple.cli.labels import distinct_rotations, shown_spots, spots
    from meeple.engine import Game

    game = Game.new(["red", "black"], "star-wars", seed="1")
    types = game.state.tileset.types
    assert distinct_rotations(types["hoth"]) == (0,)
    assert distinct_rotations(types["U"]) == (0, 90)
    assert len(distinct_rotations(types["E"])) == 4
    state = position(STAR_WARS, 8, in_hand=True)
    for name, (_, _, turns) in shown_spots(state).items():
        every = spots(state)[name][2]
        assert set(turns) <= set(every) and turns == tuple(
            d for d in every if d in distinct_rotations(types[state.drawn]))


def test_column_numbers_wider_than_a_compact_cell_are_written_whole():
    """A board reaching x = 100 and beyond: no number is cut to its cell's 3 characters."""
    from meeple.engine import Game, PlaceTile, SkipMeeple

    from helpers import mini_set

    game = Game.new(["red", "black"], tileset=mini_set({"D": 140}), seed="1")
    for x in range(1, 120):
        game.push(PlaceTile(x, 0, 0))
        game.push(SkipMeeple())
    header = to_plain(render(game.state, width=10_000, unicode=False, highlight=None,
                             size=Size(3, 3, False))).splitlines()[0]
    # every other column is numbered, each number whole and over its own column
    assert [int(word) for word in header.split()] == list(range(-1, 120, 2)), header
    assert header.index(" 101 ") > header.index(" 99 ")


def test_the_tile_sheet_keeps_wide_and_combining_ids_over_their_tiles():
    """Columns are counted in terminal cells: a CJK letter takes two, a combining mark none."""
    import msgspec
    from rich.cells import cell_len

    from meeple.cli.pictures.tilesheet import sheet
    from meeple.engine import compile_tileset

    definition = bundled("star-wars")
    ids = {t.id: new for t, new in zip(definition.tiles[:3], ["漢字漢字", "e\u0301e\u0301", "🚀🚀"],
                                       strict=False)}
    tiles = tuple(msgspec.structs.replace(t, id=ids.get(t.id, t.id)) for t in definition.tiles)
    start = ids.get(definition.start, definition.start)
    text = sheet(compile_tileset(msgspec.structs.replace(definition, tiles=tiles, start=start)))
    lines = text.splitlines()
    labels = next(i for i, line in enumerate(lines) if "漢字漢字" in line)
    art = lines[labels - 1]
    for word in ("e\u0301e\u0301", "🚀🚀"):
        column = cell_len(lines[labels][: lines[labels].index(word)])
        assert art[column] == "[", (word, column, lines[labels], art)
