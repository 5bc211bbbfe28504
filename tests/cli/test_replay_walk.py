"""`replay --show` folds the game once (it refolded it at every turn), and `replay --heads`
prints the head after each turn, the hashes players write down."""

import hashlib
import importlib
import re
from pathlib import Path

from meeple.engine import Game
from meeple.engine.notation import spots

from helpers import run, run_json

play_module = importlib.import_module("meeple.engine.playing")


def test_replay_show_folds_the_log_once(tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"  # the first 120 lines of a recorded game
    recorded = (Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes()
    game.write_bytes(b"".join(recorded.splitlines(keepends=True)[:120]))
    lines = 120
    calls = []
    real = play_module.evolve

    def counting(state, event):
        calls.append(event.seq)
        return real(state, event)

    monkeypatch.setattr(play_module, "evolve", counting)
    out = run("replay", game, "--show").stdout
    assert out.count("End of turn") >= 25
    assert len(calls) <= lines, f"{len(calls)} events applied to replay {lines} lines"


def test_replay_heads_are_the_line_hashes_after_each_turn(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    run("autoplay", game, "--turns", "3")
    raw = game.read_bytes().rstrip(b"\n").split(b"\n")
    out = run("replay", game, "--heads").stdout
    shown = re.findall(r"head after line (\d+): ([0-9a-f]{64})", out)
    assert len(shown) >= 3
    for line, head in shown:
        assert hashlib.sha256(raw[int(line) - 1]).hexdigest() == head
    assert shown[-1] == (str(len(raw)), run_json("status", game)["head"])
    rows = run_json("replay", game, "--heads")
    assert [r["head"] for r in rows] == [hashlib.sha256(x).hexdigest() for x in raw]


check_module = importlib.import_module("meeple.engine.check")


def _counting_walks(monkeypatch) -> list:
    """Every walk of a log, counted: those that check it (``verify``) and those that only
    fold it (``fold``, ``walk``)."""
    calls: list = []
    real = play_module.walk

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(check_module, "walk", counting)
    monkeypatch.setattr(play_module, "walk", counting)
    return calls


def test_place_by_label_reads_and_verifies_the_log_once(tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    cell, (_, _, turns) = next(iter(spots(Game.load(game).state).items()))
    calls = _counting_walks(monkeypatch)
    run("place", game, f"{cell}{turns[0] // 90 + 1}", "--no-meeple")
    assert len(calls) == 1
    assert len(Game.load(game).events) > 4


def test_show_at_and_turn_walk_the_log_once(tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    run("autoplay", game, "--turns", "6")
    calls = _counting_walks(monkeypatch)
    at_5 = run_json("show", game, "--at", "5")
    turn_3 = run_json("show", game, "--turn", "3")
    assert len(calls) == 2
    assert at_5 != turn_3


def test_a_move_encodes_each_event_it_writes_once(tmp_path, monkeypatch):
    """Saving encodes each new line once: the lines' hashes and ``prev`` links come from the
    bytes written, not from encoding the events again."""
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "4")
    before = len(game.read_bytes().splitlines())
    encoded = []
    for name in ("meeple.events.writing", "meeple.events.chain"):
        module = importlib.import_module(name)
        real = module.encode_as

        def counting(event, schema, real=real):
            encoded.append(event.seq)
            return real(event, schema)

        monkeypatch.setattr(module, "encode_as", counting)
    run("autoplay", game, "--turns", "2")
    written = len(game.read_bytes().splitlines()) - before
    assert written > 4 and sorted(encoded) == list(range(before, before + written))
