"""`replay --show` folds the game once (it refolded it at every turn), and `replay --heads`
prints the head after each turn, the hashes players write down."""

import hashlib
import importlib
import re
from pathlib import Path

from helpers import run, run_json

play_module = importlib.import_module("meeple.engine.playing")


def test_replay_show_folds_the_log_once(tmp_path, monkeypatch):
    game = tmp_path / "g.jsonl"  # a whole recorded game
    game.write_bytes((Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl").read_bytes())
    lines = len(game.read_bytes().splitlines())
    calls = []
    real = play_module.evolve

    def counting(state, event):
        calls.append(event.seq)
        return real(state, event)

    monkeypatch.setattr(play_module, "evolve", counting)
    out = run("replay", game, "--show").stdout
    assert out.count("End of turn") >= 70
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
