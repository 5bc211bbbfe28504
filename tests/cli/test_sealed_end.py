"""A sealed game never ends without its seed revealed; its seed is its own, 256 bits, and
kept in a file that a failed start never leaves behind. The host and the guest hand the
game back and forth with `meeple continue` (issue: trust under attack, section 3 and 4)."""

import hashlib
import json
import os
import re
import shutil

import msgspec
import pytest

from helpers import fail, mini_set, rechain, run, run_json


def _set(tmp_path, counts):
    path = tmp_path / "set.json"
    path.write_bytes(msgspec.json.encode(mini_set(counts)))
    return path


def _lines(path):
    return path.read_bytes().rstrip(b"\n").split(b"\n")


def _guest_copy(host, guest):
    shutil.copy(host, guest)


def _place_first(game):
    move = run_json("moves", game)[0]
    run("place", game, move["x"], move["y"], move["rotation"], "--no-meeple")


def test_the_guest_placing_the_last_tile_leaves_the_end_to_the_seed_holder(tmp_path):
    host = tmp_path / "host" / "g.jsonl"
    host.parent.mkdir()
    guest = tmp_path / "g.jsonl"
    run("new", host, "--players", "red,black", "--sealed", "--tileset",
        _set(tmp_path, {"D": 1, "E": 1, "U": 1}))
    _guest_copy(host, guest)
    _place_first(guest)                       # red's move, made where the seed is not
    shutil.copy(guest, host)
    assert "`meeple continue" in fail("place", host, 0, 1, 0)  # the next draw is unseen
    run("continue", host)                     # the holder writes black's draw
    shutil.copy(host, guest)
    _place_first(guest)                       # black places the last tile
    status = run_json("status", guest)
    assert status["phase"] == "awaiting_seed_holder" and status["tiles_left"] == 0
    assert "game_ended" not in guest.read_text()
    assert not run_json("check", guest)["over"]
    assert "only its holder" in fail("continue", guest)
    shutil.copy(guest, host)
    run("continue", host)
    seed = (host.parent / "g.jsonl.seed").read_text().strip()
    last = json.loads(_lines(host)[-1])
    assert last["type"] == "game_ended" and last["seed"] == seed
    shutil.copy(host, guest)
    report = run_json("check", guest)
    assert report["ok"] and report["over"] and report["chance"] == "revealed"


def test_a_finished_sealed_game_without_the_seed_revealed_is_invalid(tmp_path):
    host = tmp_path / "g.jsonl"
    run("new", host, "--players", "red,black", "--sealed")
    run("autoplay", host, "--to-end")

    def hide_seed(data):
        if data["type"] == "game_ended":
            data["seed"] = None

    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"\n".join(rechain(_lines(host), hide_seed)) + b"\n")
    report = run_json("check", forged, code=1)
    assert report["errors"][0]["line"] == len(_lines(host))
    assert "reveals no seed" in report["errors"][0]["message"]


def test_an_undo_after_the_end_keeps_one_reading_of_the_revealed_seed(tmp_path):
    host = tmp_path / "host" / "g.jsonl"
    host.parent.mkdir()
    run("new", host, "--players", "red,black", "--sealed", "--undo", "any")
    run("autoplay", host, "--to-end")
    run("undo", host)
    guest = tmp_path / "g.jsonl"
    _guest_copy(host, guest)
    assert run_json("check", guest)["ok"]     # the seed revealed before the undo counts
    assert run_json("check", host)["ok"]
    assert run_json("status", host)["phase"] == run_json("status", guest)["phase"]
    run("redo", host)
    assert run_json("check", host)["over"]


def test_sealed_refuses_a_chosen_seed_and_makes_a_256_bit_one(tmp_path):
    game = tmp_path / "g.jsonl"
    for seed in ("1234", ""):
        assert "exclude each other" in fail("new", game, "--players", "red,black", "--sealed",
                                            "--seed", seed, code=2)
    assert not game.exists()
    run("new", game, "--players", "red,black", "--sealed")
    seed = (tmp_path / "g.jsonl.seed").read_text().strip()
    assert re.fullmatch("[0-9a-f]{64}", seed), seed  # 256 bits, as hexadecimal digits
    first = json.loads(game.read_text().splitlines()[0])
    assert first["seed_sha256"] == hashlib.sha256(seed.encode()).hexdigest()
    assert first.get("seed") is None  # the log holds only the commitment
    other = tmp_path / "other.jsonl"
    run("new", other, "--players", "red,black", "--sealed")
    assert (tmp_path / "other.jsonl.seed").read_text().strip() != seed  # drawn, not fixed


def test_a_failed_sealed_start_leaves_no_seed_file_and_a_retry_works(tmp_path):
    game = tmp_path / "g.jsonl"
    game.write_text("")                       # the name is taken: the start fails
    fail("new", game, "--players", "red,black", "--sealed")
    assert sorted(os.listdir(tmp_path)) == ["g.jsonl"]
    game.unlink()
    run("new", game, "--players", "red,black", "--sealed")
    assert sorted(os.listdir(tmp_path)) == ["g.jsonl", "g.jsonl.seed"]


def test_an_existing_seed_file_is_never_overwritten_and_no_log_is_left(tmp_path):
    game = tmp_path / "g.jsonl"
    (tmp_path / "g.jsonl.seed").write_text("someone else's\n")
    assert "never overwritten" in fail("new", game, "--players", "red,black", "--sealed")
    assert (tmp_path / "g.jsonl.seed").read_text() == "someone else's\n"
    assert sorted(os.listdir(tmp_path)) == ["g.jsonl.seed"]


def test_after_repair_status_names_continue_which_writes_the_missing_consequences(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "9")
    _place_first(game)                        # ends the turn: turn_ended, then black's draw
    lines = _lines(game)
    assert json.loads(lines[-1])["type"] == "tile_drawn"
    game.write_bytes(b"\n".join(lines[:-2]) + b"\n")   # as if cut off before the two
    status = run_json("status", game)
    assert status["phase"] == "resolving"
    assert "meeple continue" in run("status", game).stdout
    assert "`meeple continue" in fail("skip", game)
    run("continue", game)
    assert _lines(game) == lines[:-2] + _lines(game)[-2:]
    assert [json.loads(x)["type"] for x in _lines(game)[-2:]] == ["turn_ended", "tile_drawn"]
    assert run_json("check", game)["ok"]
    assert "nothing to write" in run("continue", game).stdout


@pytest.mark.slow  # starts processes
def test_a_disk_that_fills_during_a_sealed_start_leaves_nothing_behind(tmp_path):
    """A file size limit (EFBIG, as a full disk would) stops the log's first line: no log, no
    seed file, no temporary file is left, and the command says why (exit 3)."""
    import subprocess
    import sys

    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))\n"
        "from meeple.cli.app import main\n"
        "sys.argv = ['meeple', 'new', 'g.jsonl', '--players', 'red,black', '--sealed']\n"
        "main()\n"
    )
    result = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 3, result.stderr
    assert result.stderr.startswith("meeple: error:") and "nothing was written" in result.stderr
    assert os.listdir(tmp_path) == []
