"""`meeple rules`: every rule id the code can cite has its text, every id in the text is one
the code or the README cites (or a section of them), errors point to it, and inside `play`
errors name what to type there."""

import json
import re
from pathlib import Path

import pytest

from helpers import fail, invoke, run, run_json

ROOT = Path(__file__).parents[2]
#: a rule id as the code writes one
RULE_ID = re.compile(r"\b[A-Z]{2,4}-\d+(?:\.\d+)*\b")
#: words shaped like a rule id that are none: hashes, encodings, seeds in a docstring
NOT_RULES = {"SHA", "UTF", "SEED"}
#: the rules text itself, which cites the ids it explains
SHIPPED = ROOT / "cli" / "rulebook"


def _ids_in(text: str) -> set[str]:
    return {found for found in RULE_ID.findall(text) if found.split("-")[0] not in NOT_RULES}


def cited_by_code() -> dict[str, str]:
    """Every rule id in the source of engine/, cli/ and events/ (strings, docstrings and
    comments; the rules text excluded), and in the table of rule ids of every edition meeple
    ships, each with one place that cites it."""
    from meeple.engine import EDITIONS

    cited: dict[str, str] = {}
    for folder in ("engine", "cli", "events"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if SHIPPED in path.parents:
                continue
            for found in _ids_in(path.read_text(encoding="utf-8")):
                cited.setdefault(found, str(path.relative_to(ROOT)))
    for edition in EDITIONS.values():
        if not type(edition).__module__.startswith("meeple."):
            continue  # an edition another package registered (a test's) ships its own rules
        for found in [*edition.rules.values(), edition.team_rule]:
            if found:
                cited.setdefault(found, f"the {edition.name} edition's rules table")
    return cited


def test_the_code_cites_rule_ids_and_the_scan_finds_them():
    """The scan below is not vacuous: it finds the ids of both editions and of remote play."""
    cited = cited_by_code()
    assert {"SW-4.2", "SW-5.2", "CL-6", "CL-7", "RM-1", "RM-5"} <= set(cited)


def test_every_rule_id_the_code_cites_has_its_text():
    missing = []
    for rule_id, where in sorted(cited_by_code().items()):
        done = invoke(["rules", rule_id, "--json"])
        if done.exit_code != 0:
            missing.append(f"{rule_id} (cited in {where})")
            continue
        shown = json.loads(done.stdout)[0]
        assert shown["id"] == rule_id and shown["title"] and len(shown["text"]) > 40, shown
    assert not missing, "no text for: " + ", ".join(missing)


def test_every_id_in_the_rules_text_is_a_real_one():
    """An id in the text (a rule's own, or one its text cites) is cited by the code, the
    README, the documentation's pages or the tests, or is a section whose rules are there."""
    from meeple.cli import rulebook

    known = set(cited_by_code())
    for text in [(ROOT / "README.md").read_text(encoding="utf-8"),
                 *(p.read_text(encoding="utf-8") for p in (ROOT / "docs").rglob("*.md")),
                 *(p.read_text(encoding="utf-8") for p in (ROOT / "tests").rglob("*.py")
                   if p != Path(__file__))]:
        known |= _ids_in(text)
    shipped = rulebook.by_id()
    sections = {key.split(".")[0] for key in shipped if "." in key}
    mentioned = set(shipped)
    for rule in shipped.values():
        mentioned |= _ids_in(rule.text)
    for group in rulebook.groups():
        mentioned |= _ids_in(group.intro)
    stray = sorted(m for m in mentioned if m not in known and m not in sections)
    assert not stray, stray
    assert all(m in shipped for m in mentioned), sorted(mentioned - set(shipped))
    # a rule under a section has its section
    assert all(key.split(".")[0] in shipped for key in shipped)


def test_the_list_names_every_group_and_rule():
    from meeple.cli import rulebook

    out = run("rules").stdout
    for group in rulebook.groups():
        assert group.name in out
    for rule in rulebook.by_id().values():
        assert re.search(rf"^ +{re.escape(rule.id)} +{re.escape(rule.title)}$", out, re.M), rule
    assert "reconstruction" in out  # the Star Wars tile set is said to be one
    for group in ("Star Wars", "Classic", "La Fiesta", "Remote play"):
        assert group in out
    listed = run_json("rules")
    assert [r["id"] for r in listed] == list(rulebook.by_id())
    assert all(set(r) == {"id", "title", "text"} for r in listed)


def test_one_rule_by_its_id_in_any_case():
    out = run("rules", "sw-4.2").stdout
    assert out.startswith("SW-4.2  ") and "Example:" in out
    assert "SW-4.3" not in out.splitlines()[0]
    section = [r["id"] for r in run_json("rules", "SW-5")]
    assert section == ["SW-5", "SW-5.1", "SW-5.2", "SW-5.3", "SW-5.4", "SW-5.5", "SW-5.6"]


def test_a_word_finds_the_rules_that_mention_it():
    found = [r["id"] for r in run_json("rules", "Battle")]
    assert "SW-5" in found and "SW-5.1" in found and not any(f.startswith("CL") for f in found)
    assert [r["id"] for r in run_json("rules", "festival")] == ["CL-7"]


@pytest.mark.parametrize(("asked", "closest"), [("SW-4.9", "SW-4, SW-4.1"), ("CL-9", "CL-")])
def test_an_unknown_id_is_a_usage_error_naming_the_closest(asked, closest):
    line = fail("rules", asked, code=2)
    assert f"no rule '{asked}'; the closest: {closest}" in line


def test_a_word_nothing_mentions_is_a_usage_error():
    assert "no rule mentions 'zebra'" in fail("rules", "zebra", code=2)


def test_an_error_citing_a_rule_points_to_its_text_once(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "1")
    line = fail("place", game, "9", "9", "0")
    assert "(SW-3.1)" in line and line.endswith(" — see `meeple rules SW-3.1`")
    assert line.count("meeple rules") == 1
    error = json.loads(invoke(["place", game, "9", "9", "0", "--json"]).stderr)
    assert error["rule"] == "SW-3.1" and "meeple rules" not in error["error"]


def test_an_error_citing_no_rule_points_nowhere(tmp_path):
    assert "meeple rules" not in fail("status", tmp_path / "missing.jsonl", code=3)


def _play(game, lines: str):
    return invoke(["play", game], input=lines)


def test_play_errors_name_what_to_type_in_play(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "1")
    done = _play(game, "place 9 9 0\nfrob\nquit\n")
    errors = [line for line in done.stderr.splitlines() if line.startswith("meeple: error")]
    assert errors[0].endswith(" — see `rules SW-3.1`"), errors
    assert errors[1] == "meeple: error: unknown command 'frob' (`help` lists the commands)"
    assert "`meeple moves`" not in done.stdout and "(`moves` lists where)" in done.stdout
    assert "SW-4.1  One figure, or none" in _play(game, "rules SW-4.1\nquit\n").stdout


def test_play_words_keep_shell_only_commands():
    from meeple.cli.interactive import in_play_words

    said = in_play_words("g.jsonl", "run `meeple continue GAME`, then `meeple send g.jsonl` "
                                    "(see `meeple moves`)")
    assert said == "run `continue`, then `meeple send g.jsonl` (see `moves`)"


@pytest.mark.parametrize("typed", ["{label}", "p {label}", "P {label}"])
def test_a_bare_label_or_p_in_play_places_the_tile(tmp_path, typed):
    from meeple.cli.session import open_game
    from meeple.engine.notation import spots

    game = tmp_path / "g.jsonl"
    run("new", game, "--players", "red,black", "--seed", "1")
    name, (x, y, rotations) = next(iter(spots(open_game(str(game)).state).items()))
    rotation = rotations[0]
    done = _play(game, typed.format(label=f"{name}{rotation // 90 + 1}") + "\nquit\n")
    assert done.exit_code == 0, done.stderr
    placed = [json.loads(line) for line in game.read_text().splitlines()]
    tile = next(e for e in placed if e["type"] == "tile_placed")
    assert (tile["x"], tile["y"], tile["rotation"]) == (x, y, rotation)
