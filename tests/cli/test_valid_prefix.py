"""A log with a fault can still be looked at for a dispute: `replay`, `score` and `show` take
`--valid-prefix` to read the lines before the first fault and say where it stops and why
(issue: trust under attack, section 6)."""

import json
from pathlib import Path

from helpers import fail, rechain, run

GAME = Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl"


def _lines():
    return GAME.read_bytes().rstrip(b"\n").split(b"\n")


def _write(tmp_path, lines, tail=b"\n"):
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"\n".join(lines) + tail)
    return path


def test_an_altered_byte_stops_the_prefix_at_its_line(tmp_path):
    lines = _lines()
    lines[40] = lines[40] + b" "  # still the same JSON, but no longer the line line 42 links to
    game = _write(tmp_path, lines)
    fail("replay", game, code=3)
    result = run("replay", game, "--valid-prefix")
    told = [line for line in result.stdout.splitlines() if line.strip()]
    assert int(told[-1].split()[0]) < 40
    assert "valid prefix" in result.stderr and "line 41" in result.stderr
    assert run("score", game, "--valid-prefix").stdout.startswith("Scores:")
    run("show", game, "--valid-prefix", "--ascii")


def test_a_move_the_rules_refuse_stops_the_prefix_before_it(tmp_path):
    lines = _lines()
    scored = next(i for i, line in enumerate(lines) if b'"points_scored"' in line)

    def inflate(data):
        if data["seq"] == scored:
            data["points"] += 10

    game = _write(tmp_path, rechain(lines, inflate))
    fail("score", game, code=1)
    result = run("score", game, "--valid-prefix", "--json")
    breakdown = json.loads(result.stdout)["breakdown"]
    assert all(row["seq"] < scored for row in breakdown)
    assert f"line {scored + 1}" in result.stderr
    events = json.loads(run("replay", game, "--valid-prefix", "--json").stdout)
    assert events[-1]["seq"] == scored - 1


def test_a_sound_log_reads_whole_and_a_broken_first_line_is_still_refused(tmp_path):
    result = run("score", GAME, "--valid-prefix")
    assert "valid prefix" not in result.stderr
    lines = _lines()
    game = _write(tmp_path, [lines[0][:-5]] + lines[1:])
    fail("replay", game, "--valid-prefix", code=3)
