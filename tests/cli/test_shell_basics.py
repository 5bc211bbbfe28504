"""Shell basics: `--version`, and tile ids and colours typed in any case."""

from helpers import run, run_json


def test_version():
    assert run("--version").stdout.startswith("meeple ")


def test_tile_ids_and_colours_are_taken_in_any_case(tmp_path):
    """The README's route battle, typed carelessly."""
    game = tmp_path / "t.jsonl"
    run("new", game, "--players", "RED,White", "--table")
    for tile, x, y, rotation, meeple in (("l", -1, 0, 180, "route:e"), ("e", 0, 1, 180, None),
                                         ("ENDOR", 0, -1, 0, None),
                                         ("Tatooine", 1, 1, 0, "route:s"), ("v", 1, 0, 90, None)):
        run("draw", game, tile)
        run("place", game, x, y, rotation, *(["--meeple", meeple] if meeple else ["--no-meeple"]))
    assert run_json("status", game)["phase"] == "enter_dice"
    run("roll", game, "Red=5", "WHITE=2")
    assert run_json("check", game)["ok"]
    assert run_json("score", game)["scores"] == {"red": 4, "white": 1}


def test_the_demo_leaves_nothing_in_the_temporary_folder(tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    out = run("demo").stdout
    assert "game over" in out and "meeple demo --out" in out
    assert list(tmp_path.iterdir()) == []
