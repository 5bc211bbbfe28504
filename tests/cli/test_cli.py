"""The CLI through typer's runner: whole games, JSON shapes, and every error path."""

import json

import msgspec
import pytest

from helpers import fail, mini_set, run, run_json


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "g.jsonl"
    run("new", path, "--players", "red,black", "--seed", "42")
    return path


@pytest.fixture
def battle_tiles(tmp_path):
    """The tiles of the route-battle worked example, and nothing else."""
    path = tmp_path / "battle-tiles.json"
    counts = {"D": 1, "L": 1, "E": 1, "endor": 1, "tatooine": 1, "V": 1}
    path.write_bytes(msgspec.json.encode(mini_set(counts)))
    return path


@pytest.mark.slow  # a whole game, a command at a time
def test_a_digital_game_played_to_the_end_with_commands_only(game):
    turns = 0
    while True:
        status = run_json("status", game)
        if status["phase"] == "over":
            break
        assert status["phase"] == "place_tile"
        move = run_json("moves", game)[0]
        args = ["place", game, move["x"], move["y"], move["rotation"]]
        if move["targets"] and turns % 3 == 0:
            args += ["--meeple", move["targets"][0]]
            if not status["reserves"][status["player"]]["small"]:
                args += ["--large"]
        else:
            args += ["--no-meeple"]
        run(*args)
        turns += 1
    assert turns == 75
    assert status["winners"] and status["tiles_left"] == 0
    report = run_json("check", game)
    assert report["ok"] and report["errors"] == [] and report["head"] == status["head"]


def test_a_table_game_with_a_battle_played_to_the_end(tmp_path, battle_tiles):
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,white", "--table", "--tileset", battle_tiles)
    for tile, x, y, r, meeple in [("L", -1, 0, 180, "route:E"), ("E", 0, 1, 180, None),
                                  ("endor", 0, -1, 0, None), ("tatooine", 1, 1, 0, "route:S")]:
        run("draw", path, tile)
        run("place", path, x, y, r, *(["--meeple", meeple] if meeple else ["--no-meeple"]))
    run("draw", path, "V")
    out = run("place", path, 1, 0, 90, "--no-meeple").stdout
    assert "Battle for the route" in out and "meeple roll GAME red=N white=N" in out
    assert run_json("status", path)["phase"] == "enter_dice"
    out = run("roll", path, "red=5", "white=2").stdout
    assert "white scores 1" in out and "red scores 4" in out
    assert "Game over" in out
    score = run_json("score", path)
    assert score["over"] and score["winners"] == ["red"]
    assert score["scores"] == {"red": 4, "white": 1}
    assert {"side", "points", "kind", "tiles", "symbols", "rule"} <= set(score["breakdown"][0])
    assert run_json("check", path)["ok"]


@pytest.mark.slow
def test_a_full_size_table_game_played_to_the_end(tmp_path):
    """Every one of the 75 tiles is typed in; unplaceable ones are set aside by the rules."""
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,black", "--table")
    while (status := run_json("status", path))["phase"] != "over":
        assert status["phase"] == "enter_draw"
        run("draw", path, sorted(status["remaining"])[0])
        if run_json("status", path)["phase"] != "place_tile":
            continue
        move = run_json("moves", path)[-1]
        run("place", path, move["x"], move["y"], move["rotation"], "--no-meeple")
    assert status["tiles_left"] == 0 and status["remaining"] == {}
    assert run_json("check", path)["ok"]


def test_no_meeple_left(tmp_path):
    """SW-4.4 through the CLI: red has put all five meeples on planets."""
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,black", "--table")
    red = [("hoth", 0, -1, []), ("endor", 1, -1, []), ("dagobah", -1, -1, []),
           ("coruscant", 2, -1, []), ("naboo", -2, -1, ["--large"])]
    black = [("U", 1, 0), ("U", 2, 0), ("U", -1, 0), ("U", -2, 0), ("U", 3, 0)]
    for (tile, x, y, large), (other, bx, by) in zip(red, black, strict=True):
        run("draw", path, tile)
        run("place", path, x, y, 0, "--meeple", "planet", *large)
        run("draw", path, other)
        run("place", path, bx, by, 90, "--no-meeple")
    assert run_json("status", path)["reserves"]["red"] == {"small": 0, "large": 0}
    run("draw", path, "tatooine")
    run("place", path, 3, -1, 0)
    assert run_json("moves", path)[0]["targets"] == []
    message = fail("deploy", path, "planet")
    assert "red has no small meeple in reserve (SW-4.4); none left: skip" in message
    run("skip", path)


def test_status_json_shape(game):
    status = run_json("status", game)
    assert {"turn", "player", "phase", "tile", "scores", "reserves", "head"} <= set(status)
    assert status["turn"] == 1 and status["player"] == "red" and status["phase"] == "place_tile"
    assert status["scores"] == {"red": 0, "black": 0}
    assert status["reserves"]["red"] == {"small": 4, "large": 1}
    assert len(status["head"]) == 64


def test_moves_json_shape_in_both_steps(game):
    moves = run_json("moves", game)
    assert moves and set(moves[0]) == {"x", "y", "rotation", "targets", "figures"}
    assert moves[0]["figures"] == ["small", "large"]
    first = moves[0]
    run("place", game, first["x"], first["y"], first["rotation"])
    after = run_json("moves", game)
    assert after == [first]


def test_check_json_shape_and_tamper_detection(game, tmp_path):
    report = run_json("check", game)
    assert {"ok", "head", "errors"} <= set(report)
    original = game.read_bytes()
    lines = original.split(b"\n")
    lines[1] = lines[1].replace(b'"player":"red"', b'"player":"black"')
    game.write_bytes(b"\n".join(lines))
    # the last line has no successor to hold its hash: the rules re-check catches it
    last = run_json("check", game, code=1)
    assert last["errors"][0]["line"] == 2 and last["errors"][0]["kind"] == "rules"
    game.write_bytes(original)
    run("autoplay", game)
    lines = game.read_bytes().split(b"\n")
    lines[1] = lines[1].replace(b'"player":"red"', b'"player":"black"')
    game.write_bytes(b"\n".join(lines))
    bad = run_json("check", game, code=3)
    assert not bad["ok"] and bad["errors"][0]["line"] == 2
    assert bad["errors"][0]["kind"] == "tampered"
    assert {"line", "seq", "message"} <= set(bad["errors"][0])


def test_check_several_files_summarises_and_takes_the_worst_code(game, tmp_path):
    other = tmp_path / "broken.jsonl"
    other.write_text("not json\n")
    out = run("check", game, other, code=3).stdout
    assert "2 games: 1 valid, 0 invalid, 1 unreadable or corrupt" in out


def test_check_expect_round_trip(game, tmp_path):
    snapshot = tmp_path / "expected.json"
    snapshot.write_text(run("show", game, "--json").stdout)
    assert run_json("check", game, "--expect", snapshot)["ok"]
    data = json.loads(snapshot.read_text())
    data["scores"]["red"] = 99
    snapshot.write_text(json.dumps(data))
    report = run_json("check", game, "--expect", snapshot, code=1)
    assert report["errors"][0]["field"] == "scores.red"


def test_undo_and_redo_are_appended(game):
    move = run_json("moves", game)[0]
    run("place", game, move["x"], move["y"], move["rotation"])
    lines_before = len(game.read_bytes().splitlines())
    run("undo", game)
    assert run_json("status", game)["phase"] == "place_tile"
    run("redo", game)
    assert run_json("status", game)["phase"] == "place_meeple"
    assert len(game.read_bytes().splitlines()) == lines_before + 2
    run("skip", game)
    message = fail("undo", game)
    assert "before anything random is revealed" in message
    replay = run("replay", game).stdout
    assert "Undone" in replay and "Redone" in replay


def test_new_refuses_to_overwrite(game):
    before = game.read_bytes()
    assert "never overwritten" in fail("new", game, "--players", "red,black")
    assert game.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "code", "needle"),
    [
        (["place", "{g}", "a", "0", "90"], 2, None),
        (["place", "{g}", "5", "5", "90"], 1, "does not touch a placed tile"),
        (["place", "{g}", "1", "0", "270"], 1, "legal rotations of W at (1, 0): 0, 90, 180"),
        (["place", "{g}", "1", "0", "45"], 1, "rotation 45"),
        (["deploy", "{g}", "route:E"], 1, "waits for red to place the drawn tile"),
        (["draw", "{g}", "U"], 1, "come from the seed"),
        (["status", "{missing}"], 3, "no such game log"),
        (["new", "{new}", "--players", "red,blue"], 1, "unknown colour 'blue'"),
        (["new", "{new}", "--players", "red"], 1, "takes 2 to 5"),
        (["autoplay", "{g}", "--bot", "clever"], 2, "unknown bot"),
    ],
)
def test_errors_are_one_line_with_the_documented_code(game, tmp_path, args, code, needle):
    values = {"g": game, "missing": tmp_path / "missing.jsonl", "new": tmp_path / "n.jsonl"}
    args = [a.format(**{k: str(v) for k, v in values.items()}) for a in args]
    if code == 2:
        run(*args, code=2)
        return
    assert needle in fail(*args, code=code)


def test_meeple_errors_occupied_realm_and_empty_reserve(tmp_path, battle_tiles):
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,white", "--table", "--tileset", battle_tiles)
    run("draw", path, "L")
    run("place", path, -1, 0, 180, "--meeple", "route:E")
    run("draw", path, "E")
    run("place", path, 0, 1, 180, "--no-meeple")
    run("draw", path, "V")
    run("place", path, 1, 0, 90)
    message = fail("deploy", path, "route:W")
    assert "already held by red" in message and "SW-4.2" in message
    assert "legal targets:" in message


def test_corrupt_log_is_exit_3_and_never_appended_to(game):
    data = game.read_bytes()
    game.write_bytes(data[:-5])
    assert "torn write" in fail("place", game, "1", "0", "0", "--no-meeple", code=3)
    assert game.read_bytes() == data[:-5]


def test_show_replay_tiles_schema(game):
    board = run("show", game, "--ascii").stdout
    assert "reconstruction" in board and "#" in board
    assert run("replay", game).stdout.splitlines()[0].strip().startswith("0  Game started")
    tiles = run("tiles").stdout
    assert "status reconstructed" in tiles and "tatooine x1" in tiles
    assert run_json("tiles")["total"] == 76
    schema = json.loads(run("schema").stdout)
    assert "tile_placed" in schema["discriminator"]["mapping"]


@pytest.mark.slow  # simulate starts a pool of worker processes
def test_autoplay_and_simulate(game, tmp_path):
    run("autoplay", game, "--turns", "3")
    assert run_json("status", game)["turn"] == 4
    run("autoplay", game, "--bot", "greedy", "--to-end")
    assert run_json("status", game)["phase"] == "over"
    out = tmp_path / "sim"
    results = run_json("simulate", "--out", out, "--players", "red,green,orange", "--games", 2,
                       "--seed", "s")
    assert len(results) == 2
    assert run("check", out).stdout.endswith("2 games: 2 valid, 0 invalid, 0 unreadable or corrupt\n")
    serial = run_json("check", out, "--jobs", 1)
    parallel = run_json("check", out, "--jobs", 2)
    assert serial == parallel and serial["summary"]["valid"] == 2


@pytest.mark.slow  # every recorded game
def test_every_recorded_game_shows_within_80_columns():
    """`show` picks 5 or 3 characters per tile so that a full game fits an 80-column terminal."""
    from pathlib import Path

    from meeple.cli.pictures.board import render, to_plain
    from meeple.engine import fold
    from meeple.events import log as logfile

    for path in sorted((Path(__file__).parents[2] / "fixtures").glob("*.jsonl")):
        state = fold(logfile.read(path).events)
        text = to_plain(render(state, width=80, unicode=False, highlight=state.placed_at))
        assert max(len(line) for line in text.splitlines()) <= 80, path.stem
