"""`meeple check` on hostile input: snapshots that are no snapshot, folders without games,
files that are no files, recomputed events named field by field, and `--head`."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.cli.checking import head_report
from meeple.cli.compare import EXPECT_LIMIT, SNAPSHOT, event_differences
from meeple.events.log import line_hash

from helpers import fail, rechain, run, run_json

FIXTURES = Path(__file__).parents[2] / "fixtures"
#: a recorded game whose line 302 (seq 301) scores red's route: 9 points by the rules
GAME = FIXTURES / "random_2p_seed_0.jsonl"
SCORED_SEQ = 301
#: seconds before a command that should answer at once counts as hung
HANG = 30


def meeple(*args: object) -> subprocess.CompletedProcess:
    """The CLI as a real process: one that would hang or eat memory fails the test instead."""
    return subprocess.run(
        [sys.executable, "-c", "from meeple.cli.app import main; main()", *map(str, args)],
        capture_output=True, text=True, timeout=HANG,
    )


def one_error(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("meeple: error: "), result.stderr
    return lines[0]


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "g.jsonl"
    shutil.copy(GAME, path)
    return path


def edited(tmp_path, change, name="edited.jsonl"):
    """The recorded game with ``change(event)`` applied to its line of seq ``SCORED_SEQ``,
    every hash re-chained: only the rules can tell."""
    def on(event):
        if event["seq"] == SCORED_SEQ:
            change(event)

    path = tmp_path / name
    path.write_bytes(b"\n".join(rechain(GAME.read_bytes().splitlines(), on)) + b"\n")
    return path


# --expect


@pytest.mark.parametrize("content, kind", [
    ("null", "null, not an object"),
    ("[]", "a list, not an object"),
    ("7", "a number, not an object"),
    ('"scores"', "a string, not an object"),
    ("true", "true, not an object"),
])
def test_expect_that_is_no_json_object_is_refused(game, tmp_path, content, kind):
    snapshot = tmp_path / "expected.json"
    snapshot.write_text(content)
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line == f"meeple: error: {snapshot}: {SNAPSHOT}; this one is {kind}"


def test_expect_nested_past_any_decoder_is_refused_not_a_crash(game, tmp_path):
    snapshot = tmp_path / "deep.json"
    snapshot.write_text("[" * 100_000 + "]" * 100_000)
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line.endswith(f"{SNAPSHOT}; this one is nested too deeply")


def test_expect_object_nested_deeper_than_a_snapshot_is_refused(game, tmp_path):
    snapshot = tmp_path / "deep.json"
    snapshot.write_text('{"turn": ' + "[" * 40 + "]" * 40 + "}")
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line.endswith(f"{SNAPSHOT}; this one is nested more than 32 deep")


def test_expect_larger_than_a_log_may_be_is_refused_unread(game, tmp_path):
    snapshot = tmp_path / "huge.json"
    with open(snapshot, "wb") as handle:
        handle.truncate(EXPECT_LIMIT + 1)  # sparse: costs no disk
    line = fail("check", game, "--expect", snapshot, code=1)
    assert line == (f"meeple: error: {snapshot}: cannot read the expected snapshot: is larger "
                    f"than the limit of {EXPECT_LIMIT:,} bytes")


@pytest.mark.parametrize("what", ["dev_zero", "fifo"])
@pytest.mark.slow  # starts processes
def test_expect_that_is_no_regular_file_is_refused_at_once(game, tmp_path, what):
    """/dev/zero never ends and a FIFO's open waits for a writer: neither may be read. (A
    folder is where each game's own snapshot is looked for: tests/cli/test_check_expect.py.)"""
    path = {"dev_zero": Path("/dev/zero"), "fifo": tmp_path / "fifo"}[what]
    if what == "fifo":
        os.mkfifo(path)
    result = meeple("check", game, "--expect", path)
    assert result.returncode == 1
    kind = {"dev_zero": "a character device", "fifo": "a FIFO (named pipe)"}[what]
    assert one_error(result) == (f"meeple: error: {path}: cannot read the expected snapshot: "
                                 f"is {kind}, not a regular file")


# folders


def test_empty_folder_is_no_game_found(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "notes.txt").write_text("no game here")
    line = fail("check", folder, code=1)
    assert line == (f"meeple: error: {folder}: no game found: the folder holds no *.jsonl file; "
                    "subfolders are not searched")


def test_folder_with_games_only_in_subfolders_names_them(tmp_path):
    folder = tmp_path / "games"
    for sub in ("monday", "tuesday"):
        (folder / sub).mkdir(parents=True)
        shutil.copy(GAME, folder / sub / "g.jsonl")
    line = fail("check", folder, "--json", code=1)
    assert line == (f"meeple: error: {folder}: no game found: the folder holds no *.jsonl file; "
                    "subfolders are not searched: 2 skipped (name them to check them)")


@pytest.mark.slow  # starts processes
def test_fifo_and_link_to_dev_zero_in_a_folder_are_unreadable_games_not_a_hang(tmp_path):
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(GAME, folder / "a.jsonl")
    os.mkfifo(folder / "b.jsonl")
    os.symlink("/dev/zero", folder / "c.jsonl")
    result = meeple("check", folder, "--json")
    assert result.returncode == 3, result.stderr
    report = json.loads(result.stdout)
    assert report["summary"] == {"games": 3, "valid": 1, "invalid": 0, "unreadable": 2}
    fifo, zero = report["games"][1:]
    assert fifo["errors"][0]["kind"] == zero["errors"][0]["kind"] == "unreadable"
    assert fifo["errors"][0]["message"] == "is a FIFO (named pipe), not a game log (a regular file)"
    assert zero["errors"][0]["message"] == "is a character device, not a game log (a regular file)"
    assert fifo["lines"] == zero["lines"] == 0


# the lines of a log that cannot be read


def test_check_json_counts_the_lines_of_a_tampered_log(tmp_path):
    path = tmp_path / "tampered.jsonl"
    shutil.copy(FIXTURES / "broken" / "tampered_byte_in_line_6.jsonl", path)
    report = run_json("check", path, code=3)
    assert report["errors"][0]["kind"] == "tampered"
    assert report["lines"] == path.read_bytes().count(b"\n") == 28


def test_check_json_counts_a_torn_last_line(game):
    data = game.read_bytes()
    game.write_bytes(data + data.splitlines()[-1][:30])
    report = run_json("check", game, code=3)
    assert report["errors"][0]["kind"] == "torn"
    assert report["lines"] == report["errors"][0]["line"] == data.count(b"\n") + 1


# recomputed events, field by field


def test_an_edited_score_is_named_field_by_field(tmp_path):
    path = edited(tmp_path, lambda event: event.update(points=19))
    out = run("check", path, code=1).stdout
    assert out.splitlines() == [
        f"{path}:302: rules: the recorded consequence differs from the rules' (SW-7.2)",
        "    points: recorded 19, the rules give 9",
    ]
    error = run_json("check", path, code=1)["errors"][0]
    assert error["differences"] == [{"field": "points", "recorded": 19, "rules": 9}]
    assert json.loads(error["found"])["points"] == 19
    assert json.loads(error["expected"])["points"] == 9


def test_nested_and_several_fields_are_each_named(tmp_path):
    def change(event):
        event["realm"]["x"] = 5
        event["tiles"] += 1

    path = edited(tmp_path, change)
    error = run_json("check", path, code=1)["errors"][0]
    # in the order of the event's fields
    assert error["differences"] == [{"field": "realm.x", "recorded": 5, "rules": 0},
                                    {"field": "tiles", "recorded": 8, "rules": 7}]
    out = run("check", path, code=1).stdout
    assert "    realm.x: recorded 5, the rules give 0\n" in out
    assert "expected:" not in out and "found:" not in out


def test_events_of_different_types_or_not_json_keep_their_whole_lines():
    scored = '{"type":"points_scored","seq":4,"prev":"aa","points":3}'
    assert event_differences(scored, '{"type":"turn_ended","seq":4,"prev":"aa"}') == []
    assert event_differences("legal rotations of L at (-1, 0): 0, 180", scored) == []
    assert event_differences("[" * 100_000, scored) == []
    # the link to the line before is no difference of the events themselves
    assert event_differences(scored, scored.replace('"aa"', '"bb"')) == []
    assert event_differences(scored, scored.replace('"points":3', '"points":4')) == [
        {"field": "points", "recorded": 4, "rules": 3}]


# the verdict


@pytest.mark.slow  # starts processes
def test_a_failed_check_ends_with_one_error_line(tmp_path):
    path = edited(tmp_path, lambda event: event.update(points=19))
    assert fail("check", path, code=1) == (
        f"meeple: error: check failed: {path}:302: rules: the recorded consequence differs "
        "from the rules' (SW-7.2) — see `meeple rules SW-7.2`")
    folder = tmp_path / "games"
    folder.mkdir()
    shutil.copy(GAME, folder / "a.jsonl")
    (folder / "b.jsonl").write_text("not json\n")
    result = run("check", folder, "--json", code=3)
    assert json.loads(result.stdout)["summary"]["unreadable"] == 1
    assert result.stderr.count("\n") == 1  # under --json, one JSON object
    error = json.loads(result.stderr)
    assert error["error"].startswith(
        "check failed: 1 of 2 games: 0 invalid, 1 unreadable or corrupt; the "
        f"first: {folder}/b.jsonl:1: corrupt: not a meeple game log: its first line is not "
        "JSON")
    assert (error["kind"], error["code"]) == ("check_failed", 3)
    assert run("check", GAME).stderr == ""


# --head


def test_head_of_the_log(game):
    lines = game.read_bytes().count(b"\n")
    head = run_json("status", game)["head"]
    out = run("check", game, "--head", head[:12]).stdout.splitlines()
    assert out[0].startswith(f"{game}: ok · {lines} lines")
    assert out[1] == f"{head[:12]} is the head of {game}: line {lines}, the last"
    report = run_json("check", game, "--head", head.upper())
    assert report["ok"]
    assert {k: report[k] for k in ("file", "head_given", "matches", "line", "lines")} == {
        "file": str(game), "head_given": head, "matches": "head", "line": lines, "lines": lines}


def test_head_after_an_earlier_line(game):
    lines = game.read_bytes().splitlines()
    earlier = line_hash(lines[4])[:20]
    out = run("check", game, "--head", earlier, code=1).stdout.splitlines()
    assert out[1] == (f"{earlier} is the head after line 5 of {len(lines)}: the log has "
                      f"{len(lines) - 5} lines more since")
    report = run_json("check", game, "--head", earlier, code=1)
    assert (report["ok"], report["matches"], report["line"]) == (True, "earlier", 5)


def test_head_of_no_line(game):
    out = run("check", game, "--head", "0" * 12, code=1).stdout.splitlines()
    assert out[1] == f"000000000000 is no head of {game}: none of its 310 lines hashes to it"
    report = run_json("check", game, "--head", "0" * 64, code=1)
    assert (report["matches"], report["line"], report["lines"]) == ("none", None, 310)


def test_head_is_told_besides_a_rules_finding(tmp_path):
    path = edited(tmp_path, lambda event: event.update(points=19))
    head = line_hash(path.read_bytes().splitlines()[-1])
    result = run("check", path, "--head", head, code=1)
    assert result.stdout.splitlines() == [
        f"{path}:302: rules: the recorded consequence differs from the rules' (SW-7.2)",
        "    points: recorded 19, the rules give 9",
        f"{head} is the head of {path}: line 310, the last",
    ]


def test_head_of_an_unreadable_log_cannot_be_told(tmp_path):
    path = tmp_path / "tampered.jsonl"
    shutil.copy(FIXTURES / "broken" / "tampered_byte_in_line_6.jsonl", path)
    report = run_json("check", path, "--head", "a" * 12, code=3)
    assert (report["head_given"], report["matches"], report["line"]) == ("a" * 12, None, None)
    assert run("check", path, "--head", "a" * 12, code=3).stdout.splitlines()[-1] == (
        f"aaaaaaaaaaaa: cannot tell whether it is a head of {path}: the log is unreadable")


def test_a_prefix_of_several_lines_hashes_says_so():
    hashes = ["ab" * 32, "cd" * 32, "ab" * 31 + "ff", "ef" * 32]
    assert head_report(hashes, "abababababab") == {
        "head_given": "abababababab", "matches": "ambiguous", "line": None, "lines": 4,
        "candidates": [1, 3]}
    assert head_report(hashes, "ab" * 32)["matches"] == "earlier"


@pytest.mark.parametrize("given", ["44d9ddeced9", "44d9ddeced9g", "-" * 12, "4" * 65, ""])
def test_head_must_be_twelve_hex_digits_or_more(game, given):
    line = fail("check", game, "--head", given, code=2)
    assert line == ("meeple: error: --head takes a head hash: 12 to 64 hex digits (as `meeple "
                    f"status` shows), not {given!r}")


def test_head_takes_one_game_file(game, tmp_path):
    assert fail("check", game, game, "--head", "a" * 12, code=2) == (
        "meeple: error: --head compares with one GAME file; got 2 paths")
    assert fail("check", tmp_path, "--head", "a" * 12, code=2) == (
        "meeple: error: --head compares with one GAME file; got 1 folder")


@pytest.mark.parametrize("jobs", [-1, 257])
def test_jobs_out_of_range_is_a_usage_error(game, jobs):
    assert fail("check", game, "--jobs", jobs, code=2) == (
        f"meeple: error: --jobs must be 0 (one process per core) to 256; got {jobs}")
