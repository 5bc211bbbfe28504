"""Move commands' `--json` show each event as it stands in the log, `prev` included."""

import json

from helpers import run_json


def test_the_events_a_move_prints_are_the_lines_it_wrote(tmp_path):
    game = tmp_path / "g.jsonl"
    started = run_json("new", game, "--players", "red,black", "--seed", "5")
    move = run_json("moves", game)[0]
    placed = run_json("place", game, move["x"], move["y"], move["rotation"], "--no-meeple")
    lines = [json.loads(line) for line in game.read_text().splitlines()]
    printed = started["events"] + placed["events"]
    assert printed == lines
    assert all(event["prev"] is not None for event in printed[1:])
