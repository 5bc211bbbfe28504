"""JCloisterZone's recorded engine tests for the base game, imported, their assertions
checked on the game meeple replays (tests/interop/data/SOURCES.md)."""

import json
import re
from pathlib import Path

import pytest

from meeple.engine import Game, projected
from meeple.events.model import PointsScored

from helpers import fail, run

DATA = Path(__file__).parent / "data"
KINDS = {"road": "road", "city": "city", "field": "field", "monastery": "cloister"}


def _assertions(save: dict) -> tuple[dict[str, int], list[tuple[str, str, int]]]:
    totals, scored = {}, []
    for line in save["test"]["assertions"]:
        if m := re.fullmatch(r"(\w+) has (\d+) points", line):
            totals[m[1]] = int(m[2])
        elif m := re.fullmatch(r"(\w+) scored (\w+) for (\d+) points", line):
            scored.append((m[1], KINDS[m[2]], int(m[3])))
        else:
            raise AssertionError(f"an assertion this test cannot read: {line}")
    return totals, scored


@pytest.mark.parametrize("name", ["city-and-road-scoring", "field-scoring", "monastery-scoring"])
def test_an_engine_test_imports_with_its_scores(name, tmp_path):
    save = json.loads((DATA / f"{name}.jcz").read_text())
    out = tmp_path / "game.jsonl"
    run("import", DATA / f"{name}.jcz", "--out", out)
    run("check", out)
    game = Game.load(out)
    names = {p.colour: p.name for p in game.setup.players}
    totals, scored = _assertions(save)
    ended_early = "endTurn" in save.get("gameAnnotations", {})
    # JCloisterZone ended these games after endTurn draws, and scored the end there
    scores = projected(game.state) if ended_early else game.scores
    assert {names[colour]: points for colour, points in scores.items()} == {
        player["name"]: totals.get(player["name"], 0) for player in save["players"]}
    during = [(names[e.side], e.realm.feature.partition(":")[0], e.points)
              for e in game.events if isinstance(e, PointsScored)]
    at_the_end = [s for s in scored if s not in during]
    if not ended_early:
        assert not at_the_end
    for player in {s[0] for s in at_the_end}:
        colour = next(c for c, n in names.items() if n == player)
        assert sum(s[2] for s in at_the_end if s[0] == player) == \
            projected(game.state)[colour] - game.scores[colour]


def test_a_one_player_engine_test_is_refused(tmp_path):
    line = fail("import", DATA / "tiny-city-rule.jcz", "--out", tmp_path / "g.jsonl", code=3)
    assert "1 players" in line and "2 to 5" in line
    assert not (tmp_path / "g.jsonl").exists()


def test_the_two_tile_city_rule_is_read_from_the_save(tmp_path):
    """The same tiny-city game with two players: JCloisterZone's rule "2" is meeple's 2011
    rule (2 points), and its default (4 points) is refused once a two-tile city scores."""
    save = json.loads((DATA / "tiny-city-rule.jcz").read_text())
    save["players"].append({"name": "Zoe", "slot": 1})
    for i, message in enumerate(m for m in save["replay"] if m["type"] == "DEPLOY_MEEPLE"):
        message["payload"]["meepleId"] = f"{i % 2}.small.1"
    path = tmp_path / "two.jcz"
    path.write_text(json.dumps(save))
    run("import", path, "--out", tmp_path / "two.jsonl")
    game = Game.load(tmp_path / "two.jsonl")
    # JCloisterZone's assertions: "scored city for 6 points", "scored city for 2 points"
    assert [e.points for e in game.events if isinstance(e, PointsScored)] == [6, 2]
    del save["setup"]["rules"]["tiny-city-scoring"]
    path.write_text(json.dumps(save))
    line = fail("import", path, "--out", tmp_path / "four.jsonl", code=3)
    assert "two-tile city 4 points" in line
    assert not (tmp_path / "four.jsonl").exists()


def test_import_says_what_it_wrote_as_json(tmp_path):
    out = tmp_path / "game.jsonl"
    result = run("import", DATA / "city-and-road-scoring.jcz", "--out", out, "--json")
    said = json.loads(result.stdout)
    game = Game.load(out)
    assert said == {"game": str(out), "lines": len(game.events), "over": False,
                    "turn": game.turn, "player": game.player, "phase": "draw",
                    "scores": game.scores, "head": game.head}
