"""Figures as a named kind (schema 2): `--figure`, `--large` as its short form, and the
figures the player has left in `moves --json` (SW-1.6, SW-4.4, CL-2)."""

import json

from helpers import fail, run, run_json


def _placed_with_small_meeples_used(tmp_path):
    """Red has put the four small meeples on planets; the large one is left."""
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,black", "--table")
    red = [("hoth", 0, -1), ("endor", 1, -1), ("dagobah", -1, -1), ("coruscant", 2, -1)]
    black = [("U", 1, 0), ("U", 2, 0), ("U", -1, 0), ("U", -2, 0)]
    for (tile, x, y), (other, bx, by) in zip(red, black, strict=True):
        run("draw", path, tile)
        run("place", path, x, y, 0, "--meeple", "planet", "--figure", "small")
        run("draw", path, other)
        run("place", path, bx, by, 90, "--no-meeple")
    run("draw", path, "naboo")
    return path


def test_moves_say_when_only_the_large_meeple_is_left(tmp_path):
    path = _placed_with_small_meeples_used(tmp_path)
    assert run_json("status", path)["reserves"]["red"] == {"small": 0, "large": 1}
    moves = run_json("moves", path)
    assert moves and all(m["figures"] == ["large"] for m in moves if m["targets"])
    message = fail("place", path, "-2", "-1", "0", "--meeple", "planet")
    assert "red has no small meeple in reserve (SW-4.4); 1 large left" in message
    assert run("place", path, "-2", "-1", "0", "--meeple", "planet", "--figure", "LARGE")
    placed = [json.loads(line) for line in path.read_text().splitlines()
              if '"meeple_placed"' in line]
    assert [p["figure"] for p in placed] == ["small"] * 4 + ["large"]
    assert "large" not in placed[-1]
    assert run_json("check", path)["ok"]


def test_a_figure_the_edition_has_not_is_refused_with_the_ones_it_has(tmp_path):
    path = tmp_path / "t.jsonl"
    run("new", path, "--players", "red,black", "--table")
    run("draw", path, "U")
    run("place", path, "1", "0", "90")
    assert "Carcassonne: Star Wars Edition has no giant meeple (SW-4.4); figures: small, large" \
        in fail("deploy", path, "route:E", "--figure", "giant")
    assert "--large and --figure name two figures" in fail(
        "deploy", path, "route:E", "--large", "--figure", "small", code=2)
    classic = tmp_path / "c.jsonl"
    run("new", classic, "--edition", "classic", "--players", "red,blue", "--table")
    run("draw", classic, "E")
    run("place", classic, "0", "1", "180")
    assert "followers are all alike: there is no large one (CL-2); place a small follower" \
        in fail("deploy", classic, "city:N", "--figure", "large")
    moves = run_json("moves", classic)
    assert moves[0]["figures"] == ["small"]
