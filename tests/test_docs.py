"""The documentation: the JSON Schemas under docs/schemas/ are what meeple's types generate,
and the README stays a front door (its two commands first, at most 200 lines, the tile set's
reconstruction said)."""

import importlib.util
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]

pytest_plugins = ["pytester"]


def _generator():
    spec = importlib.util.spec_from_file_location("make_schemas", ROOT / "docs" / "make_schemas.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_schemas_in_the_documentation_are_those_the_types_generate():
    folder = ROOT / "docs" / "schemas"
    generated = _generator().schemas()
    assert {"log-line.json", "tileset.json", "relay-receipt.json", "watch-games.json"} <= set(generated)
    for name, text in generated.items():
        assert (folder / name).read_text(encoding="utf-8") == text, \
            f"{name} is out of date: python docs/make_schemas.py docs/schemas"
    from meeple.cli.bot_messages import schemas as bot_schemas

    assert sorted(os.listdir(folder)) == sorted([*generated, *bot_schemas()])


def test_the_log_schema_is_what_meeple_schema_prints():
    import json

    from helpers import run

    printed = json.loads(run("schema").stdout)
    assert printed == json.loads((ROOT / "docs" / "schemas" / "log-line.json").read_text())


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    assert lines[2] == "```sh" and lines[5] == "```"
    assert lines[3].startswith("python3 ") and lines[3].endswith("meeple demo")
    assert lines[4].startswith("python3 ") and lines[4].endswith("pytest -n 2")
    assert "*reconstruction*" in "\n".join(lines)


def test_the_readmes_links_lead_to_files_that_exist():
    """The README is read on its own (the site checks its pages' links when it is built)."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = [t.split("#")[0] for t in re.findall(r"\]\(([^)\s]+)\)", text)
               if not t.startswith(("http://", "https://", "#"))]
    assert len(targets) >= 15
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert not missing, missing


def test_the_pytest_pages_example_passes_on_games_it_names(pytester):
    """docs/pytest.md's example tests, run by pytest with meeple's plug-in on a project whose
    `games/` holds a recorded game and a game the greedy bots played."""
    import re

    from test_pytest_plugin import run_bounded

    page = (ROOT / "docs" / "pytest.md").read_text(encoding="utf-8")
    (example,) = re.findall(r"^```python\n(.*?)^```", page, re.S | re.M)
    games = pytester.path / "games"
    games.mkdir()
    fixtures = ROOT / "fixtures"
    (games / "club_final.jsonl").write_bytes((fixtures / "random_2p_seed_0.jsonl").read_bytes())
    (games / "arena_1.jsonl").write_bytes((fixtures / "greedy_bots_3p_seed_0.jsonl").read_bytes())
    pytester.makepyfile(test_example=example)
    run_bounded(pytester, "test_example.py").assert_outcomes(passed=2)


@pytest.mark.parametrize("unit", ["copy", "apply", "replay", "check"])
def test_the_instruction_counting_script_of_the_performance_page_runs_each_unit(
        unit, tmp_path, monkeypatch):
    """``docs/units.py`` is how the page's figures were counted: it must run on this code."""
    import runpy
    import tempfile
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.setattr(sys, "argv", ["units.py", unit, "classic", "1"])
    runpy.run_path(str(ROOT / "docs" / "units.py"), run_name="__main__")
    assert list(tmp_path.glob("units-*/game.jsonl"))
