"""Sealed seeds (commit-reveal): the log commits to the seed's SHA-256; the end reveals it;
`check` then verifies every draw and die against it."""

import hashlib
import json
import os
import shutil
import stat

import pytest

from helpers import rechain, run


@pytest.fixture
def host(tmp_path):
    path = tmp_path / "host" / "g.jsonl"
    path.parent.mkdir()
    run("new", path, "--players", "red,black", "--sealed")
    return path


def lines(path):
    return path.read_bytes().rstrip(b"\n").split(b"\n")


def test_the_log_holds_only_the_commitment_and_the_seed_file_is_private(host):
    first = json.loads(lines(host)[0])
    seed = (host.parent / "g.jsonl.seed").read_text().strip()
    assert first["seed"] is None
    assert first["seed_sha256"] == hashlib.sha256(seed.encode()).hexdigest()
    assert stat.S_IMODE(os.stat(f"{host}.seed").st_mode) == 0o600
    assert seed not in host.read_text()


def test_without_the_seed_a_guest_checks_and_moves_but_cannot_draw(host, tmp_path):
    guest = tmp_path / "g.jsonl"
    shutil.copy(host, guest)
    report = json.loads(run("check", guest, "--json").stdout)
    assert report["ok"] and report["chance"] == "sealed"
    move = json.loads(run("moves", guest, "--json").stdout)[0]
    run("place", guest, move["x"], move["y"], move["rotation"], "--no-meeple")
    assert json.loads(run("status", guest, "--json").stdout)["phase"] == "awaiting_seed_holder"
    result = run("autoplay", guest, code=1)
    assert "only its holder has" in result.stderr


def test_a_guest_cannot_choose_the_next_tile_of_a_sealed_game(host, tmp_path):
    """The draw a guest waits for is the seed holder's to write: a guest's `draw` (or a
    library `DrawTile`) is refused and the log left as it was, not taken as the draw."""
    from meeple.engine import DrawTile, Game, IllegalMove

    guest = tmp_path / "g.jsonl"
    shutil.copy(host, guest)
    move = json.loads(run("moves", guest, "--json").stdout)[0]
    run("place", guest, move["x"], move["y"], move["rotation"], "--no-meeple")
    before = guest.read_bytes()
    tile = "U"  # (a tile the Star Wars set holds many of: one is left to draw)
    result = run("draw", guest, tile, code=1)
    assert "only its holder has" in result.stderr and guest.read_bytes() == before
    game = Game.load(guest)
    with pytest.raises(IllegalMove, match="only its holder has"):
        game.push(DrawTile(tile))
    assert not game.unsaved


def test_the_end_reveals_the_seed_and_check_verifies_every_draw(host, tmp_path):
    run("autoplay", host, "--to-end")
    seed = (host.parent / "g.jsonl.seed").read_text().strip()
    assert json.loads(lines(host)[-1])["seed"] == seed
    guest = tmp_path / "g.jsonl"
    shutil.copy(host, guest)
    report = json.loads(run("check", guest, "--json").stdout)
    assert report["ok"] and report["chance"] == "revealed"


def test_a_host_who_swaps_a_draw_is_caught_once_the_seed_is_revealed(host, tmp_path):
    run("autoplay", host, "--to-end")
    draws = [(n, json.loads(line)["tile"]) for n, line in enumerate(lines(host))
             if b'"type":"tile_drawn"' in line]
    (i, a), (j, b) = next((x, y) for x, y in zip(draws[10:-1], draws[11:], strict=True)
                          if x[1] != y[1])

    def swap(data):
        if data["type"] == "tile_drawn" and data["seq"] in (i, j):
            data["tile"] = b if data["tile"] == a else a

    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"\n".join(rechain(lines(host), swap)) + b"\n")
    report = json.loads(run("check", forged, "--json", code=1).stdout)
    assert report["errors"][0]["line"] == i + 1


def test_a_revealed_seed_must_match_the_commitment(host, tmp_path):
    run("autoplay", host, "--to-end")

    def other_seed(data):
        if data["type"] == "game_ended":
            data["seed"] = "not-the-seed"

    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(b"\n".join(rechain(lines(host), other_seed)) + b"\n")
    report = json.loads(run("check", forged, "--json", code=1).stdout)
    assert "not the one committed to" in report["errors"][0]["message"]


def test_a_wrong_seed_file_is_refused(host):
    (host.parent / "g.jsonl.seed").write_text("guess\n")
    result = run("status", host, code=1)
    assert "not the one the game committed to" in result.stderr


def test_sealed_and_table_exclude_each_other(tmp_path):
    run("new", tmp_path / "t.jsonl", "--players", "red,black", "--table", "--sealed", code=2)
    assert not (tmp_path / "t.jsonl").exists()
