"""The pieces of `play`'s screen, from a game state: the board window stays within its
size and around the cell asked for, the last moves leave out what was undone, the tile in
hand shows each way it lies once, and the end's table puts the totals first."""

import re

import pytest

from meeple.cli.labels import distinct_rotations
from meeple.cli.screen import panels
from meeple.cli.session import open_game

from helpers import run, run_json


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A star-wars game 30 turns in, played by the greedy bot."""
    game = tmp_path_factory.mktemp("screen") / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    run("autoplay", game, "--bot", "greedy", "--turns", "30")
    return game


def _text(lines: list[panels.Line]) -> list[str]:
    return ["".join(text for _, text in line) for line in lines]


@pytest.mark.parametrize("size", panels.ZOOMS)
def test_the_board_window_fits_its_size_and_shows_the_cell_it_is_centred_on(played, size):
    state = open_game(str(played)).state
    x, y = state.placed_at
    shown = _text(panels.board_window(state, panels.View(x, y, size), 50, 14))
    assert len(shown) <= 14 and all(len(line) <= 50 for line in shown)
    whole = _text(panels.board_window(state, panels.View(x, y, size), 10_000, 10_000))
    assert len(whole) > 14 or max(len(line) for line in whole) > 50  # (it is a crop)
    assert shown[0].split()[0].lstrip("-").isdigit()  # the column numbers stay on top
    numbers = {int(found.group(1)) for line in shown[1:]
               if (found := re.match(r" *(-?[0-9]+) ", line))}
    assert y in numbers  # the row of the cell it is centred on is in view


def test_the_last_moves_leave_out_an_undone_step(played, tmp_path):
    game = tmp_path / "g.jsonl"
    game.write_bytes(played.read_bytes())
    state = open_game(str(game)).state
    before = panels.last_moves(state, 40)
    assert [move.turn for move in before] == sorted(move.turn for move in before)
    move = run_json("moves", game)[0]
    run("place", game, str(move["x"]), str(move["y"]), str(move["rotation"]))
    placed = panels.last_moves(open_game(str(game)).state, 40)
    assert placed[-1] == (state.turn, state.player,
                          f"{state.drawn} ({move['x']},{move['y']}) {move['rotation']}°")
    run("undo", game)
    assert panels.last_moves(open_game(str(game)).state, 40) == before


def test_the_tile_in_hand_shows_each_way_it_lies_once_over_where_it_fits(played):
    state = open_game(str(played)).state
    tile = state.tileset.types[state.drawn]
    lines = _text(panels.hand(state, 26))
    assert lines[0] == f"in hand: {tile.id}"
    headings = [line for line in lines if "°" in line]
    numbers = [word for line in headings for word in line.split() if word.isdigit()]
    assert len(numbers) == len(distinct_rotations(tile))
    assert all(len(line) <= 26 for line in lines)


def test_the_final_page_puts_the_totals_and_winners_first():
    table = ("Scores: red 10  black 8\n  line  side pts  for\n     3  red    4  city\n\n"
             "Points by kind:\n  side  cities total\n  red      4    10\nWinner: red\n")
    page = panels.final_page(table).splitlines()
    assert page[2:6] == ["Scores: red 10  black 8", "Points by kind:", "  side  cities total",
                         "  red      4    10"]
    assert page.index("Winner: red") < page.index("     3  red    4  city")


def test_the_help_says_the_bundled_star_wars_set_is_a_reconstruction(played):
    from meeple.cli.report import PICTURE_NOTE

    state = open_game(str(played)).state
    assert state.tileset.status == "reconstructed"
    text = panels.help_page(state, "commands: ...", compact=False)
    assert PICTURE_NOTE in " ".join(text.split())

