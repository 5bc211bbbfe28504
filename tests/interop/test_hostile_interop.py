"""Saves and links from anywhere are hostile: each is refused in one line naming what and
where (exit 3; 2 for a bad argument), and nothing is written."""

import json
from pathlib import Path

import pytest

from helpers import fail, run

DATA = Path(__file__).parent / "data"
FIXTURES = Path(__file__).parents[2] / "fixtures"


def _save() -> dict:
    return json.loads((DATA / "city-and-road-scoring.jcz").read_text())


def _refused(tmp_path, save, *words: str) -> str:
    path = tmp_path / "in.jcz"
    path.write_text(save if isinstance(save, str) else json.dumps(save))
    line = fail("import", path, "--out", tmp_path / "out.jsonl", code=3)
    assert not (tmp_path / "out.jsonl").exists()
    for word in words:
        assert word in line, line
    return line


def _edit(change) -> dict:
    save = _save()
    change(save)
    return save


@pytest.mark.parametrize("save, words", [
    ("not json at all", ["not JSON"]),
    ("[1, 2]", ["not a JSON object"]),
    ('{"foo": 1}', ["not a JCloisterZone save"]),
    ("[" * 100_000, ["not JSON"]),
    (_edit(lambda s: s.update(appVersion="4.4.0")), ["4.4.0", "5.7.0"]),
    (_edit(lambda s: s.pop("initialRandom")), ["set-up only", "initialRandom"]),
    (_edit(lambda s: s["setup"]["sets"].update({"abbey-and-mayor:1": 1})), ["abbey-and-mayor:1"]),
    (_edit(lambda s: s["setup"]["elements"].update(abbot=1)), ["abbot"]),
    (_edit(lambda s: s["setup"]["rules"].update({"farmers-rule": "x"})), ["farmers-rule"]),
    (_edit(lambda s: s["replay"][0]["payload"].update(tileId="BA/ZZZ")), ["replay[0]", "BA/ZZZ"]),
    (_edit(lambda s: s["replay"][0]["payload"].update(position=[5000, 0])),
     ["replay[0]", "coordinate"]),
    (_edit(lambda s: s["replay"][0]["payload"].update(position=[7, 7])), ["replay[0]"]),
    (_edit(lambda s: s["replay"][0]["payload"].update(rotation="R45")), ["replay[0]", "R90"]),
    (_edit(lambda s: s["replay"][4]["payload"]["pointer"].update(location="NL.SR")),
     ["replay[4]", "NL.SR"]),
    (_edit(lambda s: s["replay"][4]["payload"]["pointer"].update(feature="Garden")),
     ["replay[4]", "Garden"]),
    (_edit(lambda s: s["replay"][4]["payload"].update(meepleId="0.small.1")),
     ["replay[4]", "seat 1"]),
    (_edit(lambda s: s["replay"].insert(0, {"type": "UNDO", "payload": {}})), ["replay[0]", "UNDO"]),
    (_edit(lambda s: s["replay"].insert(0, {"type": "FLY", "payload": {}})), ["replay[0]", "FLY"]),
    (_edit(lambda s: s["gameAnnotations"].update(drawOrder=["BA/RRRR", "BA/RRRR"])),
     ["BA/RRRR"]),
    (_edit(lambda s: s.update(initialRandom=7)), ["initialRandom"]),
    (_edit(lambda s: s["players"].__setitem__(0, {"name": "x" * 500})), ["players[0]"]),
    (_edit(lambda s: s["players"].__setitem__(0, {"name": "Da\nvid"})), ["players[0]", "U+000A"]),
    (_edit(lambda s: s["gameAnnotations"].update(drawOrder=["FE/CcCc"])), ["drawOrder"]),
    (_edit(lambda s: s["replay"].__setitem__(4, {"type": "RETURN_MEEPLE", "payload": {
        "source": "FESTIVAL", "pointer": {"position": [0, 0], "feature": "Road", "location": "WE",
                                          "meepleId": "1.small.1"}}})), ["replay[3]"]),
    (_edit(lambda s: s["replay"].__setitem__(4, {"type": "RETURN_MEEPLE", "payload": {
        "source": "PRINCESS", "pointer": {"position": [0, 0], "feature": "Road", "location": "WE",
                                          "meepleId": "1.small.1"}}})), ["replay[4]", "festival"]),
    (_edit(lambda s: s["replay"][4]["payload"]["pointer"].update(position=[3, 3])),
     ["replay[4]", "no tile at 3,3"]),
])
def test_a_hostile_save_is_refused(tmp_path, save, words):
    _refused(tmp_path, save, *words)


def test_an_oversized_save_is_refused(tmp_path):
    path = tmp_path / "big.jcz"
    path.write_bytes(b" " * (8 * 1024 * 1024 + 1))
    line = fail("import", path, "--out", tmp_path / "out.jsonl", code=3)
    assert "limit" in line and not (tmp_path / "out.jsonl").exists()


def test_an_undo_is_followed(tmp_path):
    """A follower deployed then undone, and a pass instead: the game of the save without them."""
    save = _save()
    assert save["replay"][1]["type"] == "PASS"
    save["replay"][1:1] = [
        {"type": "DEPLOY_MEEPLE", "payload": {"pointer": {"position": [0, 1], "feature": "City",
                                                         "location": "N"},
                                              "meepleId": "0.small.1"}},
        {"type": "UNDO", "payload": {}}]
    (tmp_path / "undo.jcz").write_text(json.dumps(save))
    run("import", tmp_path / "undo.jcz", "--out", tmp_path / "undo.jsonl")
    run("import", DATA / "city-and-road-scoring.jcz", "--out", tmp_path / "plain.jsonl")
    assert (tmp_path / "undo.jsonl").read_bytes() == (tmp_path / "plain.jsonl").read_bytes()


def test_import_never_writes_over_a_file(tmp_path):
    out = tmp_path / "game.jsonl"
    out.write_text("mine\n")
    line = fail("import", DATA / "city-and-road-scoring.jcz", "--out", out, code=1)
    assert "exists" in line and out.read_text() == "mine\n"


def test_a_missing_source_is_a_bad_argument(tmp_path):
    line = fail("import", tmp_path / "nowhere.jcz", "--out", tmp_path / "g.jsonl", code=2)
    assert "no such file" in line


def test_export_takes_one_format(tmp_path):
    game = FIXTURES / "classic_random_2p_seed_0.jsonl"
    fail("export", game, code=2)
    fail("export", game, "--carcassonnelab", "--jcz", tmp_path / "x.jcz", code=2)
    assert not (tmp_path / "x.jcz").exists()


def test_export_never_writes_over_a_file(tmp_path):
    out = tmp_path / "x.jcz"
    out.write_text("mine\n")
    fail("export", FIXTURES / "classic_random_2p_seed_0.jsonl", "--jcz", out, code=1)
    assert out.read_text() == "mine\n"


def test_what_the_formats_cannot_hold_is_not_exported(tmp_path):
    line = fail("export", FIXTURES / "classic_random_3p_seed_1.jsonl", "--carcassonnelab")
    assert "2-player" in line
    line = fail("export", FIXTURES / "random_2p_seed_0.jsonl", "--jcz", tmp_path / "x.jcz")
    assert "classic" in line and not (tmp_path / "x.jcz").exists()


LINK = "https://www.carcassonnelab.com/#/0/0/"


def _link() -> str:
    return run("export", FIXTURES / "classic_random_2p_seed_0.jsonl",
               "--carcassonnelab").stdout.strip()


@pytest.mark.parametrize("mangle, words", [
    (lambda link: link.split("?")[0][:-1], ["4 a turn", "truncated"]),
    (lambda link: link.replace("#/0/0/", "#/1/0/"), ["1/0"]),
    (lambda link: link.replace("#/0/0/", "#/0/0/!"), ["base64"]),
    (lambda link: link.replace("#/0/0/", "#/0/0/A"), ["tile types"]),
    (lambda link: link.replace("#/0/0/", "#/0/0/") + "&players=a,b,c", ["2 players"]),
    (lambda link: link.replace("colors=red,blue", "colors=red,red"), ["colours"]),
    (lambda link: link.replace("?", "#", 1), ["link"]),
    (lambda link: LINK + "Fg/34L5", ["zone 5", "type 17"]),
    (lambda link: LINK + "Fg/11E0", ["rotation"]),
    (lambda link: LINK + "Fg/ZZ10", ["turn 1", "does not touch"]),
    (lambda link: "#/0/0/" + "Fg/" + "1" * 70_000, ["longer than"]),
    (lambda link: link.replace("players=red,", "players=%0A,"), ["U+000A"]),
])
def test_a_hostile_link_is_refused(tmp_path, mangle, words):
    line = fail("import", mangle(_link()), "--out", tmp_path / "out.jsonl", code=3)
    assert not (tmp_path / "out.jsonl").exists()
    for word in words:
        assert word in line, line
