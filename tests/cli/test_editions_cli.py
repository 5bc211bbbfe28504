"""Editions and expansions from the command line: `--expansion NAME` (repeatable, `--fiesta`
its alias) and rule ids that belong to the game's edition."""

from helpers import fail, run, run_json


def test_expansion_la_fiesta_is_what_fiesta_was(tmp_path):
    by_name = run_json("tiles", "--edition", "classic", "--expansion", "la-fiesta")
    by_alias = run_json("tiles", "--edition", "classic", "--fiesta")
    assert by_name["sha256"] == by_alias["sha256"] and by_name["total"] == 82
    twice = run_json("tiles", "--edition", "classic", "--fiesta", "--expansion", "la-fiesta")
    assert twice["total"] == 82


def test_unknown_or_foreign_expansions_are_usage_errors():
    assert "unknown expansion 'nope'" in fail("tiles", "--expansion", "nope", code=2)
    assert "belongs to the classic edition" in fail("tiles", "--expansion", "la-fiesta", code=2)
    assert "edition 'chess' is not installed" in fail("tiles", "--edition", "chess", code=2)


def test_a_classic_table_game_cites_classic_rules(tmp_path):
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "red,blue", "--edition", "classic", "--table")
    line = fail("place", game, 0, 1, 0)
    assert "(CL-3)" in line and "SW-" not in line
    run("draw", game, "E")
    run("place", game, 0, 1, 180)
    line = fail("deploy", game, "city:N", "--large")
    assert "(CL-2)" in line and "SW-" not in line


def test_the_narrative_cites_the_games_own_edition():
    from meeple.cli.pictures.narrate import tell
    from meeple.engine import EDITIONS
    from meeple.events.model import MeeplePlaced, MeepleSkipped, TileSetAside

    aside = TileSetAside(seq=9, player="red", tile="X", disposition="discarded")
    assert tell(aside, EDITIONS["classic"]).endswith("(CL-3)")
    assert tell(aside, EDITIONS["star-wars"]).endswith("(SW-3.2)")
    farmer = MeeplePlaced(seq=9, player="red", target="field:Nw")
    assert tell(farmer, EDITIONS["classic"]) == "red places a follower on field:Nw as a farmer (CL-4)"
    assert tell(MeepleSkipped(seq=9, player="red"), EDITIONS["classic"]) == "red places no follower"


def test_a_classic_sealed_game_cites_the_classic_chance_rule(tmp_path):
    """Every rule id a user sees belongs to the game's edition: a bot asked to play a classic
    sealed game without its seed cites CL-3, not the Star Wars SW-5.6."""
    game = tmp_path / "c.jsonl"
    run("new", game, "--edition", "classic", "--players", "red,blue", "--sealed")
    (tmp_path / "c.jsonl.seed").rename(tmp_path / "elsewhere.seed")
    message = fail("autoplay", game)
    assert "(CL-3)" in message and "SW-" not in message
