"""Shell basics: `--version`, tile ids and colours typed in any case, errors under `--json`,
the score table, the demo, labels, and failures a shell can cause (a full disk, Ctrl-C)."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from helpers import fail, interruptible, main, run, run_json


def test_version():
    assert run("--version").stdout.startswith("meeple ")


def test_tile_ids_and_colours_are_taken_in_any_case(tmp_path):
    """The README's route battle, typed carelessly."""
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "RED,White", "--table")
    for tile, x, y, rotation, meeple in (("l", -1, 0, 180, "route:e"), ("e", 0, 1, 180, None),
                                         ("ENDOR", 0, -1, 0, None),
                                         ("Tatooine", 1, 1, 0, "route:s"), ("v", 1, 0, 90, None)):
        run("draw", game, tile)
        run("place", game, x, y, rotation, *(["--meeple", meeple] if meeple else ["--no-meeple"]))
    assert run_json("status", game)["phase"] == "enter_dice"
    run("roll", game, "Red=5", "WHITE=2")
    assert run_json("check", game)["ok"]
    assert run_json("score", game)["scores"] == {"red": 4, "white": 1}


@pytest.mark.slow  # a whole demo game between search bots
def test_the_demo_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out = run("demo").stdout
    assert "game over" in out and "meeple demo --out" in out
    assert list(tmp_path.iterdir()) == []


def test_the_demo_refuses_an_unknown_colour_before_it_plays(tmp_path, monkeypatch):
    """The demo's options are read before its game is played (the game itself: slow, above)."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert "unknown colour 'pink'" in fail("demo", "--players", "pink", code=1)
    assert list(tmp_path.iterdir()) == []


def test_status_names_the_editions_figures_and_the_tiles_left_by_type(tmp_path):
    classic_game, star_wars = tmp_path / "c.jsonl", tmp_path / "s.jsonl"
    run("new", classic_game, "--players", "red,blue", "--edition", "classic", "--seed", "2")
    run("new", star_wars, "--players", "red,black", "--seed", "2")
    text = run("status", classic_game).stdout
    assert "reserve  red 7  blue 7\n" in text and "small+large" not in text
    wrapped = [line for line in text.splitlines() if line.startswith(("  tiles    ", " " * 11))]
    assert len(wrapped) >= 2 and all(len(line) <= 80 for line in wrapped)
    left = run_json("status", classic_game)["remaining"]
    assert all(f"{tile}×{count}" in text for tile, count in left.items())
    assert "red 4+1  black 4+1  (small+large)" in run("status", star_wars).stdout


@pytest.mark.slow  # starts processes
def test_the_shell_completes_commands_and_options():
    import os
    import subprocess
    import sys

    def complete(words: str) -> list[str]:
        env = {**os.environ, "_MEEPLE_COMPLETE": "complete_bash", "COMP_WORDS": words,
               "COMP_CWORD": str(len(words.split()) - 1)}
        done = subprocess.run([sys.executable, "-m", "meeple.cli.app"], env=env,
                              capture_output=True, text=True, timeout=60)
        return done.stdout.split()

    assert complete("meeple sta") == ["status"]
    assert "--bots" in complete("meeple arena --bo")
    assert "--install-completion" in run("--help").stdout


def test_moves_and_status_draw_the_tile_in_hand_in_its_numbered_rotations(tmp_path):
    """Each rotation that lies differently, numbered as typed; `moves --json` keeps every
    legal placement, the text lists those that lie differently."""
    from meeple.cli.labels import distinct_rotations
    from meeple.engine import Game

    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5")
    for _ in range(6):
        listed = run_json("moves", game)
        text = run("moves", game).stdout.splitlines()
        tile = run_json("status", game)["tile"]
        shown = distinct_rotations(Game.load(game).state.tileset.types[tile])
        assert text[0].startswith(f"tile in hand: {tile},")
        assert text[1].split() == [w for d in shown for w in (str(d // 90 + 1), "=", f"{d}°")]
        assert len({len(line) for line in text[2:7]}) == 1
        labelled = [line.split() for line in text if re.match(r"    [a-z]+[1-4] ", line)]
        assert [[int(n) for n in words[1:4]] for words in labelled] == sorted(
            ([m["x"], m["y"], m["rotation"]] for m in listed if m["rotation"] in shown),
            key=lambda m: (-m[1], m[0], m[2]))
        assert text[0] in run("status", game).stdout
        run("autoplay", game, "--bot", "greedy")


def test_the_board_legend_is_the_games_own_and_fits_80_columns(tmp_path):
    classic_game, star_wars = tmp_path / "c.jsonl", tmp_path / "s.jsonl"
    run("new", classic_game, "--players", "red,blue", "--edition", "classic", "--seed", "2")
    run("new", star_wars, "--players", "red,black", "--seed", "2")
    for game, present, absent in ((classic_game, ["city #", "cloister C", "followers: r red",
                                                  "field ,", "pennant *", "a farmer"],
                                   ["asteroid", "planet"]),
                                  (star_wars, ["asteroid field #", "planet @", "meeples: r red",
                                               "large R K", "symbols: % empire"],
                                   ["city", "cloister"])):
        text = run("show", game, "--ascii").stdout
        legend = text[text.index("\nroutes " if game == star_wars else "\nroads "):]
        assert all(word in legend for word in present), legend
        assert not any(word in legend for word in absent), legend
        assert all(len(line) <= 80 for line in legend.splitlines()
                   if not line.startswith("note:"))


def test_the_score_table_has_headers_formulas_farm_cities_and_totals(tmp_path):
    game = tmp_path / "game.jsonl"  # a recorded random game with farms scored
    shutil.copyfile(Path(__file__).parents[2] / "fixtures" / "classic_random_3p_seed_1.jsonl",
                    game)
    report = run_json("score", game)
    text = run("score", game).stdout
    lines = text.splitlines()
    assert lines[1].split() == ["line", "side", "pts", "for", "realm", "rule", "points"]
    farms = [row for row in report["breakdown"] if row["reason"] == "farm"]
    assert farms and all(row["cities"] * 3 == row["points"] for row in farms)
    for row in report["breakdown"]:
        at = next(i for i, line in enumerate(lines) if line.split()[:1] == [str(row["seq"] + 1)])
        assert lines[at].endswith(f"  {row['formula']}") and row["formula"].endswith(
            f"= {row['points']}")
        if row["reason"] == "farm":
            assert len(row["counted_cities"]) == row["cities"]
            assert lines[at + 1].split()[:2] == ["cities", "counted:"]
            assert lines[at + 1].count("city:") == row["cities"]
    assert "symbols" not in text and "pennant" in text
    header = lines.index("Points by kind:") + 1
    assert lines[header].split() == ["side", "roads", "cities", "cloisters", "farms", "at",
                                     "the", "end", "total"]
    for side, kinds in report["totals"].items():
        assert sum(kinds.values()) == report["scores"][side]
        row = next(line.split() for line in lines[header + 1:] if line.split()[0] == side)
        assert int(row[-1]) == report["scores"][side] == sum(map(int, row[1:-1]))


def test_the_team_variant_scores_by_team_naming_its_players(tmp_path):
    run("simulate", "--out", tmp_path, "--games", "1", "--seed", "4", "--team", "--players",
        "red,black,green,white", "--jobs", "1")
    text = run("score", tmp_path / "game-4-0.jsonl").stdout
    assert text.startswith("Scores: rebel (red, green) ")
    assert "empire (black, white) " in text.splitlines()[0]
    totals = text.split("Points by kind:\n")[1].splitlines()
    assert totals[0].split() == ["side", "routes", "asteroid", "fields", "planets", "battles",
                                 "at", "the", "end", "total"]
    assert [line.split("(")[0].strip() for line in totals[1:3]] == ["rebel", "empire"]


def _meeple(*args: object):
    return main(*args)


def _json_error(result, code: int) -> dict:
    import json

    assert result.returncode == code and "Traceback" not in result.stderr, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    error = json.loads(lines[0])
    assert list(error) == ["error", "kind", "code", "rule", "legal"] and error["code"] == code
    return error


def test_errors_under_json_are_one_json_object_on_stderr(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    illegal = _json_error(_meeple("place", game, 9, 9, 0, "--json"), 1)
    assert illegal["kind"] == "illegal_move" and illegal["rule"] == "SW-3.1"
    assert "fits at" in illegal["legal"] and illegal["error"].startswith("illegal move: (9, 9)")
    usage = _json_error(_meeple("status", game, "--bogus", "--json"), 2)
    assert usage["kind"] == "usage" and "--bogus" in usage["error"] and usage["rule"] is None
    missing = _json_error(_meeple("status", tmp_path / "none.jsonl", "--json"), 3)
    assert missing["kind"] == "log_missing"
    setup = _json_error(_meeple("new", tmp_path / "n.jsonl", "--players", "red,red", "--json"), 1)
    assert setup["kind"] == "invalid_command" and setup["rule"] == "SW-1.5"
    text = _meeple("place", game, 9, 9, 0)  # without --json: the one text line, as before
    assert text.returncode == 1 and text.stderr.startswith("meeple: error: illegal move: (9, 9)")
    assert game.read_text().count("\n") == len(run_json("replay", game))


def test_place_takes_a_label_read_off_the_board(tmp_path):
    from meeple.cli.labels import spots
    from meeple.cli.session import open_game

    game, twin = tmp_path / "g.jsonl", tmp_path / "t.jsonl"
    for path in (game, twin):
        run("new", path, "--players", "red,black", "--seed", "8")
    name, (x, y, turns) = list(spots(open_game(str(game)).state).items())[-1]
    label = f"{name.upper()}{turns[-1] // 90 + 1}"
    assert f"{name}:" in run("moves", game).stdout
    by_label = run_json("place", game, label, "--no-meeple")["events"]
    by_coordinates = run_json("place", twin, x, y, turns[-1], "--no-meeple")["events"]
    assert by_label == by_coordinates
    assert "place takes X Y ROTATION or a label" in fail("place", game, "1", "2", code=2)
    assert "must be integers" in fail("place", game, "a", "b", "c", code=2)
    assert "rotation 7 is not 1-4" in fail("place", game, "a7", code=1)


@pytest.mark.slow  # a whole demo game between search bots
def test_the_demo_game_shows_a_battle_an_attack_a_completed_planet_and_the_final_scoring(
        tmp_path):
    """Pins the demo's seed and bots: the game must still show each of these moments."""
    from meeple.cli.demo import DEMO_BOT, highlights
    from meeple.cli.session import open_game

    game = tmp_path / "demo.jsonl"
    text = run("demo", "--out", game).stdout
    loaded = open_game(str(game))
    moments = dict(highlights(loaded.events, loaded.state))
    assert list(moments) == ["a planet attacked", "a battle", "a planet completed",
                             "the final scoring"]
    assert [type(e).__name__ for e in moments["a battle"]] == ["BattleStarted", "DiceRolled"]
    for what, events in moments.items():
        assert f"  {what}:\n    {events[0].seq + 1:>4}  " in text
    assert {p.bot for p in loaded.state.setup.players} == {DEMO_BOT}
    assert "Try next:" in text and f"meeple export {game} --html demo.html" in text
    assert "meeple play my.jsonl" in text and f"{game}: ok" in text


def test_move_commands_help_names_the_targets_of_both_editions():
    for command in ("place", "deploy"):
        text = " ".join(run(command, "--help").stdout.split())
        assert "route:E" in text and "road:E" in text and "field:Nw" in text, command


def test_numbers_too_long_to_read_are_refused_not_crashed_on(tmp_path):
    game, table = tmp_path / "g.jsonl", tmp_path / "t.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    run("new", table, "--players", "red,white", "--table")
    digits = "9" * 5000
    assert "is not 1-4" in fail("place", game, f"b{digits}", code=1)
    assert "cannot read dice" in fail("roll", table, f"red={digits}", code=2)


#: command lines whose output a full device refuses (GAME: a game's log), each printing
#: through another path: JSON, a board, typer's help and version, an SVG written to stdout
_TO_A_FULL_DEVICE = [["status", "GAME", "--json"], ["status", "GAME"], ["replay", "GAME"],
                     ["moves", "GAME", "--json"], ["show", "GAME", "--svg", "-"], ["--version"],
                     ["--help"], ["status", "--help"], []]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full here")
@pytest.mark.parametrize("buffered", [pytest.param(True, id="buffered"),
                                      pytest.param(False, id="unbuffered", marks=pytest.mark.slow)])
@pytest.mark.parametrize("argv", [
    pytest.param(a, id=" ".join(a) or "no-arguments", marks=[pytest.mark.slow] if i else [])
    for i, a in enumerate(_TO_A_FULL_DEVICE)])
def test_a_full_output_device_is_a_failed_write_not_a_bug(tmp_path, argv, buffered):
    """Output to a file is buffered unless PYTHONUNBUFFERED is set: the full device may
    first refuse it when the buffer is flushed, after the command returned."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "3")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "meeple.cli.app",
                               *(str(game) if a == "GAME" else a for a in argv)], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60, env=env)
    assert done.returncode == 3, done.stderr
    said = done.stderr.strip().splitlines()
    if "--json" in argv:
        assert [json.loads(line) for line in said] == [
            {"error": "cannot write the output: No space left on device", "kind": "write",
             "code": 3, "rule": None, "legal": None}], done.stderr
    else:
        assert said == ["meeple: error: cannot write the output: No space left on device"], \
            done.stderr


@pytest.mark.slow  # a process, simulating games until it is interrupted
def test_ctrl_c_under_json_is_a_json_error(tmp_path):
    out = tmp_path / "g"
    process = subprocess.Popen([sys.executable, "-m", "meeple.cli.app", "simulate", "--out",
                                str(out), "--games", "50", "--bot", "mcts:20", "--jobs", "1",
                                "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, preexec_fn=interruptible)
    end = time.monotonic() + 60
    while not list(out.glob("*.jsonl")):  # Ctrl-C once the games are being played
        assert time.monotonic() < end and process.poll() is None
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert _json_error_line(stderr) == {"error": "interrupted (Ctrl-C)", "kind": "interrupted",
                                        "code": 130, "rule": None, "legal": None}


def _json_error_line(stderr: str) -> dict:
    return json.loads(stderr.strip().splitlines()[-1])


@pytest.mark.slow  # a demo game and a simulated one
def test_demo_and_simulate_take_colours_in_any_case(tmp_path):
    run("simulate", "--out", tmp_path / "s", "--games", "1", "--players", "RED,Black",
        "--jobs", "1")
    assert run_json("status", tmp_path / "s" / "game-1-0.jsonl")["scores"].keys() == \
        {"red", "black"}
    said = run("demo", "--players", "RED,Black").stdout
    assert "Played a 2-player demo game" in said
    # (a game not kept is not named by a path that is gone once the demo ends)
    assert "not kept (`meeple demo --out demo.jsonl`" in said and "meeple-demo-" not in said
    assert "--out ''" in fail("demo", "--out", "", code=2)


def test_the_reconstruction_note_names_the_bundled_set_only_for_the_bundled_set(tmp_path):
    import msgspec

    from meeple.events.tileset import bundled

    own = tmp_path / "own.json"
    definition = msgspec.to_builtins(bundled("star-wars"))
    definition["name"] = "my-box"
    own.write_text(json.dumps(definition))
    mine = run("tiles", "--tileset", own).stdout
    assert "this tile set is marked reconstructed" in mine and "bundled" not in mine
    assert "the bundled Star Wars tile set is a reconstruction" in run("tiles").stdout
