"""Regression use of ``check``: a folder of games each compared with its own snapshot
(``--expect FOLDER``), ``--failures-only``, and differences named element by element."""

import json
import os
import subprocess
import sys

import pytest

from helpers import fail, run, run_json


@pytest.fixture
def games(tmp_path):
    """Three finished games, each with its snapshot beside it."""
    folder = tmp_path / "games"
    run("simulate", "--out", folder, "--games", 3, "--seed", 9, "--jobs", 1)
    for game in sorted(folder.glob("*.jsonl")):
        snapshot = folder / (game.name[: -len(".jsonl")] + ".expected.json")
        snapshot.write_text(run("show", game, "--json").stdout)
    return folder


@pytest.mark.slow  # starts processes
def test_each_game_is_compared_with_its_own_snapshot(games):
    assert run_json("check", games, "--expect", games)["summary"]["valid"] == 3
    first = games / "game-9-0.expected.json"
    other = games / "game-9-1.expected.json"
    first.write_text(other.read_text())  # the wrong game's snapshot: this one alone fails
    report = run_json("check", games, "--expect", games, code=1)
    assert [g["ok"] for g in report["games"]] == [False, True, True]
    assert {e["kind"] for e in report["games"][0]["errors"]} == {"expect"}


@pytest.mark.slow  # starts processes
def test_a_missing_or_broken_snapshot_fails_its_game_and_names_it(games):
    (games / "game-9-1.expected.json").unlink()
    (games / "game-9-2.expected.json").write_text("[]")
    result = run("check", games, "--expect", games, code=1)
    assert "game-9-0.jsonl: ok" in result.stdout
    assert (f"game-9-1.jsonl: expect: no expected snapshot {games}/game-9-1.expected.json "
            f"(write it with `meeple show {games}/game-9-1.jsonl --json > ") in result.stdout
    assert "game-9-2.jsonl: expect: " in result.stdout and "this one is a list" in result.stdout
    assert "3 games: 1 valid, 2 invalid" in result.stdout


@pytest.mark.slow  # starts processes
def test_a_fifo_for_a_snapshot_fails_its_game_without_waiting(games):
    snapshot = games / "game-9-1.expected.json"
    snapshot.unlink()
    os.mkfifo(snapshot)
    done = subprocess.run([sys.executable, "-m", "meeple.cli.app", "check", str(games),
                           "--expect", str(games), "--jobs", "1"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "a FIFO (named pipe), not a regular file" in done.stdout


def test_one_snapshot_file_for_several_games_is_refused(games):
    snapshot = games / "game-9-0.expected.json"
    line = fail("check", games, "--expect", snapshot, code=2)
    assert "is one game's snapshot, but a folder was given" in line
    line = fail("check", games / "game-9-0.jsonl", games / "game-9-1.jsonl", "--expect",
                snapshot, code=2)
    assert "but 2 games were given" in line


@pytest.mark.slow  # starts processes
def test_failures_only_reports_the_failing_games_and_the_whole_summary(games):
    snapshot = json.loads((games / "game-9-2.expected.json").read_text())
    snapshot["scores"]["red"] += 1
    (games / "game-9-2.expected.json").write_text(json.dumps(snapshot))
    text = run("check", games, "--expect", games, "--failures-only", code=1).stdout
    assert "game-9-0" not in text and "game-9-1" not in text
    assert "game-9-2.jsonl: expect: scores.red: expected" in text
    assert "3 games: 2 valid, 1 invalid, 0 unreadable or corrupt" in text
    report = run_json("check", games, "--expect", games, "--failures-only", code=1)
    assert [g["file"] for g in report["games"]] == [str(games / "game-9-2.jsonl")]
    assert report["summary"] == {"games": 3, "valid": 2, "invalid": 1, "unreadable": 0}
    assert run("check", games, "--failures-only").stdout.strip() == \
        "3 games: 3 valid, 0 invalid, 0 unreadable or corrupt"


def test_differences_in_lists_are_named_element_by_element(games):
    snapshot = json.loads((games / "game-9-0.expected.json").read_text())
    last = snapshot["board"].pop()
    snapshot["board"][0]["rotation"] = (snapshot["board"][0]["rotation"] + 90) % 360
    (games / "game-9-0.expected.json").write_text(json.dumps(snapshot))
    errors = run_json("check", games / "game-9-0.jsonl", "--expect",
                      games / "game-9-0.expected.json", code=1)["errors"]
    n = len(snapshot["board"])
    assert [e["field"] for e in errors] == ["board[0].rotation", f"board[{n}]"]
    assert errors[1]["message"] == (f"board[{n}]: expected nothing, found "
                                    f"{json.dumps(last, separators=(',', ':'))}")


def test_a_file_name_with_a_newline_cannot_forge_a_report_line(games, tmp_path):
    forged = tmp_path / "forged"
    forged.mkdir()
    name = "x.jsonl: ok · 1 lines · game over · head 000000000000\nzz.jsonl"
    (forged / name).write_bytes((games / "game-9-0.jsonl").read_bytes())
    text = run("check", forged).stdout
    assert text.count("\n") == 1 and "\\nzz.jsonl: ok" in text


def test_an_expect_folder_that_does_not_exist_is_named_so(games, tmp_path):
    line = fail("check", games, "--expect", tmp_path / "none", code=2)
    assert f"--expect {tmp_path / 'none'}: no such folder" in line


def test_differences_are_counted_in_full_but_listed_up_to_twenty():
    import inspect

    from meeple.cli.compare import _paths, diff

    shown, count = diff({"board": [0] * 1000}, {"board": [1] * 1000})
    assert len(shown) == 20 and count == 1000 and shown[0] == ("board[0]", "0", "1")
    assert inspect.isgeneratorfunction(_paths)  # nothing but the twenty is kept
