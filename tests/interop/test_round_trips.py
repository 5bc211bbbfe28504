"""Recorded classic games through JCloisterZone saves and CarcassonneLab links and back:
the same moves, draws and scores; a link read and written again is the same link."""

import json
from pathlib import Path

import pytest

from meeple.cli.interop.moves import fiesta_of, new_table_game, play_turn, turns_of
from meeple.engine import Game
from meeple.events.model import MeepleTakenBack

from helpers import run

FIXTURES = Path(__file__).parents[2] / "fixtures"
#: the recorded classic games played with the whole classic tile set, no tile set aside
BASE = ["classic_random_2p_seed_0", "classic_random_3p_seed_1", "classic_random_4p_seed_2",
        "classic_random_5p_seed_3", "classic_greedy_bots_4p_seed_0",
        "classic_table_mode_complete_3p_seed_0",
        # La Fiesta: followers taken back (RETURN_MEEPLE) in all but the 4-player game
        "classic_la_fiesta_random_2p_seed_0", "classic_la_fiesta_random_3p_seed_1",
        "classic_la_fiesta_random_4p_seed_2", "classic_la_fiesta_random_5p_seed_3"]


def _as_table_game(game: Game, colours=None) -> Game:
    table = new_table_game([p.name for p in game.setup.players], fiesta_of(game), colours)
    for number, turn in enumerate(turns_of(game), 1):
        play_turn(table, turn, f"turn {number}")
    return table


def _saved(game: Game, path: Path) -> list[str]:
    """The lines of ``game`` as a log file holds them."""
    game.save(path)
    return path.read_text().splitlines()


@pytest.mark.parametrize("name", [pytest.param(name, marks=[pytest.mark.slow] if at > 1 else [])
                                  for at, name in enumerate(BASE)])
def test_a_recorded_game_goes_to_jcloisterzone_and_back(name, tmp_path):
    original = Game.load(FIXTURES / f"{name}.jsonl")
    run("export", FIXTURES / f"{name}.jsonl", "--jcz", tmp_path / "out.jcz")
    save = json.loads((tmp_path / "out.jcz").read_text())
    assert save["setup"]["rules"] == {"tiny-city-scoring": "2"}
    assert ("festival" in save["setup"]["sets"]) == ("la_fiesta" in name)
    taken_back = sum(isinstance(event, MeepleTakenBack) for event in original.events)
    assert sum(1 for m in save["replay"] if m["type"] == "RETURN_MEEPLE") == taken_back
    assert [p["name"] for p in save["players"]] == [p.name for p in original.setup.players]
    run("import", tmp_path / "out.jcz", "--out", tmp_path / "back.jsonl")
    run("check", tmp_path / "back.jsonl")
    back = Game.load(tmp_path / "back.jsonl")
    assert list(back.scores.values()) == list(original.scores.values())
    assert back.over == original.over
    assert (tmp_path / "back.jsonl").read_text().splitlines() == _saved(
        _as_table_game(original), tmp_path / "expected.jsonl")


def test_the_random_numbers_alone_draw_the_tiles(tmp_path):
    """Without drawOrder (an online game's save), each COMMIT's random draws the same tile."""
    name = "classic_random_2p_seed_0"
    run("export", FIXTURES / f"{name}.jsonl", "--jcz", tmp_path / "out.jcz")
    save = json.loads((tmp_path / "out.jcz").read_text())
    del save["gameAnnotations"]
    (tmp_path / "random.jcz").write_text(json.dumps(save))
    run("import", tmp_path / "random.jcz", "--out", tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_text().splitlines() == _saved(
        _as_table_game(Game.load(FIXTURES / f"{name}.jsonl")), tmp_path / "expected.jsonl")


def test_a_two_player_game_goes_to_a_link_and_back(tmp_path):
    name = "classic_random_2p_seed_0"
    original = Game.load(FIXTURES / f"{name}.jsonl")
    link = run("export", FIXTURES / f"{name}.jsonl", "--carcassonnelab").stdout.strip()
    assert link.startswith("https://www.carcassonnelab.com/#/0/0/")
    assert link.endswith("?players=red,blue&colors=red,blue")
    run("import", link, "--out", tmp_path / "back.jsonl")
    back = Game.load(tmp_path / "back.jsonl")
    assert back.scores == original.scores
    colours = [p.colour for p in original.setup.players]
    assert (tmp_path / "back.jsonl").read_text().splitlines() == _saved(
        _as_table_game(original, colours), tmp_path / "expected.jsonl")
    again = run("export", tmp_path / "back.jsonl", "--carcassonnelab").stdout.strip()
    assert again == link


def test_a_link_read_and_written_is_the_same_link(tmp_path):
    """A link whose moves place followers on every kind of feature, read and written again."""
    name = "classic_random_2p_seed_0"
    link = run("export", FIXTURES / f"{name}.jsonl", "--carcassonnelab").stdout.strip()
    moves = link.split("/")[-1].split("?")[0]
    assert {moves[i + 3] for i in range(0, len(moves), 4)} >= {"0", "1", "2", "3"}
    fragment = "#" + link.split("#", 1)[1]
    run("import", fragment, "--out", tmp_path / "game.jsonl")
    assert run("export", tmp_path / "game.jsonl", "--carcassonnelab").stdout.strip() == link


def test_undone_steps_are_not_exported(tmp_path):
    """A game with steps undone and redone goes out as it stands: the turns in effect."""
    from meeple.engine import DrawTile, Redo, SkipMeeple, Undo

    game = Game.new(["red", "green"], "classic", table=True, undo="any", names=["Ann", "Bob"])
    game.push(DrawTile("U"))
    game.push(game.legal_moves()[0])
    game.push(SkipMeeple())
    game.push(DrawTile("V"))
    undone = game.legal_moves()[0]
    game.push(undone)
    game.push(Undo(2))  # the placement of V and its draw
    game.push(Redo(1))  # the draw of V again
    chosen = game.legal_moves()[-1]
    assert (chosen.x, chosen.y, chosen.rotation) != (undone.x, undone.y, undone.rotation)
    game.push(chosen)
    game.push(SkipMeeple())
    game.save(tmp_path / "undo.jsonl")
    expected = new_table_game(["Ann", "Bob"], False)
    for turn in turns_of(game):
        play_turn(expected, turn, "turn")
    last = turns_of(game)[-1]
    assert [t.tile for t in turns_of(game)] == ["U", "V"]
    assert (last.x, last.y, last.rotation) == (chosen.x, chosen.y, chosen.rotation)
    run("export", tmp_path / "undo.jsonl", "--jcz", tmp_path / "undo.jcz")
    run("import", tmp_path / "undo.jcz", "--out", tmp_path / "back.jsonl")
    assert (tmp_path / "back.jsonl").read_text().splitlines() == _saved(
        expected, tmp_path / "expected.jsonl")
