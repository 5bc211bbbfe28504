"""Holes an independent hostile review found after the first round of hardening, each kept."""

import json
import os
import shutil
from pathlib import Path

import pytest

from helpers import fail, rechain, run, run_json


@pytest.mark.slow  # starts processes
def test_names_and_file_names_that_are_no_utf8_text_are_refused_or_escaped(tmp_path):
    game = tmp_path / "g.jsonl"
    assert "U+DCFF" in fail("new", game, "--players", "red,black", "--names", "Ann\udcff,Bob")
    run("new", game, "--players", "red,black", "--seed", "1")
    odd = tmp_path / "bad\udcff.jsonl"
    shutil.copy(game, odd)
    report = run_json("check", odd)
    assert report["ok"] and report["file"].endswith("bad\\udcff.jsonl")
    assert run_json("check", tmp_path)["summary"]["games"] == 2


def test_check_uses_a_sealed_games_seed_file_as_every_command_does(tmp_path):
    host = tmp_path / "g.jsonl"
    run("new", host, "--players", "red,black", "--sealed")
    run("autoplay", host, "--turns", "3")
    lines = host.read_bytes().rstrip(b"\n").split(b"\n")
    drawn = max(i for i, line in enumerate(lines) if b'"tile_drawn"' in line)
    tile = json.loads(lines[drawn])["tile"]
    other = "W" if tile != "W" else "V"

    def swap(data):
        if data["seq"] == drawn:
            data["tile"] = other

    host.write_bytes(b"\n".join(rechain(lines, swap)) + b"\n")
    report = run_json("check", host, code=1)
    assert report["errors"][0]["line"] == drawn + 1
    assert "invalid game" in fail("status", host)


def test_status_counts_the_undo_steps_undo_allows_while_consequences_are_pending(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "5")
    move = run_json("moves", game)[0]
    run("place", game, move["x"], move["y"], move["rotation"], "--no-meeple")
    lines = game.read_bytes().splitlines(keepends=True)
    game.write_bytes(b"".join(lines[:4]))
    assert run_json("status", game)["undo"]["steps"] == 0
    fail("undo", game)


def test_dice_given_twice_for_one_side_are_refused(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,white", "--table")
    for tile, x, y, rotation, meeple in (("L", -1, 0, 180, "route:E"), ("E", 0, 1, 180, None),
                                         ("endor", 0, -1, 0, None),
                                         ("tatooine", 1, 1, 0, "route:S"), ("V", 1, 0, 90, None)):
        run("draw", game, tile)
        run("place", game, x, y, rotation, *(["--meeple", meeple] if meeple else ["--no-meeple"]))
    before = game.read_bytes()
    assert "given twice" in fail("roll", game, "red=1", "red=6", "white=2", code=2)
    assert game.read_bytes() == before


def test_pictures_and_boards_of_a_game_too_long_to_draw_are_refused_at_a_bound(tmp_path,
                                                                                monkeypatch):
    import meeple.cli.pictures.viewer as viewer
    import meeple.cli.report as report

    game = tmp_path / "g.jsonl"  # a whole game, as recorded
    shutil.copy(Path(__file__).parents[2] / "fixtures" / "random_2p_seed_2.jsonl", game)
    monkeypatch.setattr(viewer, "PAGE_BUDGET", 1000)
    monkeypatch.setattr(report, "SHOW_BUDGET", 1000)
    assert "too long for one replay page" in fail("export", game, "--html", tmp_path / "g.html")
    assert not os.path.exists(tmp_path / "g.html")
    assert "meeple show --turn N" in fail("replay", game, "--show")


@pytest.mark.slow  # starts processes
def test_a_seed_file_that_is_a_fifo_or_a_device_is_refused_not_waited_on(tmp_path):
    import subprocess
    import sys

    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--sealed")
    seed = tmp_path / "g.jsonl.seed"
    for make in (lambda: os.mkfifo(seed), lambda: os.symlink("/dev/zero", seed)):
        seed.unlink()
        make()
        result = subprocess.run([sys.executable, "-m", "meeple.cli.app", "status", str(game)],
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 3, result.stderr
        assert result.stderr.count("\n") == 1 and "not a regular file" in result.stderr
