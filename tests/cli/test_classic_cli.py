"""The classic edition through the CLI: the same commands, with --edition classic [--fiesta]."""

import json

from meeple.cli.store import load

from helpers import fail, run, run_json


def test_a_classic_game_with_la_fiesta_runs_through_every_command(tmp_path):
    game = tmp_path / "c.jsonl"
    run("new", game, "--players", "red,blue,yellow", "--edition", "classic", "--fiesta",
        "--seed", "fx-classic-take-back-0")
    status = run_json("status", game)
    assert status["tileset"]["name"] == "classic+la-fiesta"
    assert status["tileset"]["status"] == "partly verified"
    assert status["reserves"]["red"] == {"small": 7, "large": 0}
    run("autoplay", game, "--to-end")
    assert "ok" in run("check", game).stdout
    assert "game over" in run("check", game).stdout
    assert "CL-6" in run("score", game).stdout
    run("undo", game, code=1)  # the game is over under the turn policy
    assert "farm" in run("replay", game).stdout
    run("show", game, "--ascii")
    run("show", game, "--svg", tmp_path / "b.svg")
    run("export", game, "--html", tmp_path / "b.html")
    assert load(str(game)).state.winners


def test_take_back_in_a_table_game(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,blue", "--edition", "classic", "--fiesta", "--table")
    run("draw", game, "U")
    run("place", game, 1, 0, 0, "--meeple", "road:E")
    run("draw", game, "U")
    run("place", game, -1, 0, 0, "--no-meeple")
    run("draw", game, "FE-RrRr")
    run("place", game, 2, 0, 0)
    moves = run_json("moves", game)
    assert moves[0]["take_back"] == [{"x": 1, "y": 0, "feature": "road:E"}]
    assert "take-back GAME X Y TARGET" in run("status", game).stdout
    line = fail("take-back", game, 1, 0, "road:N")
    assert "red has no follower on road:N at (1, 0) (CL-7)" in line
    result = run_json("take-back", game, 1, 0, "road:W")  # the road's other end names it too
    assert result["events"][0]["type"] == "meeple_taken_back"
    assert result["events"][0]["spot"]["feature"] == "road:E"
    assert result["status"]["reserves"]["red"] == {"small": 7, "large": 0}


def test_edition_errors_are_usage_errors(tmp_path):
    game = tmp_path / "x.jsonl"
    assert "edition 'chess' is not installed" in fail("new", game, "--players", "red,blue", "--edition",
                                             "chess", code=2)
    assert "La Fiesta belongs to the classic edition, not star-wars (CL-7)" in fail(
        "new", game, "--players", "red,black", "--fiesta", code=2)
    assert "an expansion's tiles" in fail("tiles", "--tileset", "la-fiesta", code=2)
    assert "colours of the classic edition" in fail(
        "new", game, "--players", "red,orange", "--edition", "classic")
    assert not game.exists()


def test_tiles_of_the_classic_set_as_json(tmp_path):
    listed = run_json("tiles", "--edition", "classic")
    assert listed["total"] == 72 and listed["status"] == "verified"
    with_fiesta = run_json("tiles", "--edition", "classic", "--fiesta")
    assert with_fiesta["total"] == 82
    assert sum(1 for t in with_fiesta["tiles"] if t.get("festival")) == 10


def test_simulate_classic_games(tmp_path):
    out = tmp_path / "sim"
    results = json.loads(run("simulate", "--out", out, "--players", "red,blue,yellow,green,black",
                             "--games", 2, "--edition", "classic", "--fiesta", "--jobs", 1,
                             "--json").stdout)
    assert len(results) == 2
    assert "2 valid" in run("check", out).stdout
