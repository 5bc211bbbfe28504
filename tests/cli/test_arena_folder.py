"""``meeple arena --resume`` on a folder someone else made: it starts no program the user did
not name, bounds what it reads, says in one line what is wrong with a damaged or foreign
folder (exit 3; 2 for a usage error), and writes nothing through a link planted there."""

import json
import os
import stat

import pytest

from meeple.cli.bots import record

from helpers import fail, run_json


@pytest.fixture(scope="module")
def arena(tmp_path_factory):
    """A finished arena of greedy-v1 and random (the quickest bots), 4 games."""
    out = tmp_path_factory.mktemp("arena") / "a"
    run_json("arena", "--bots", "greedy-v1,random", "--games", "4", "--seed", "h", "--out", out,
             "--jobs", "1")
    return out


def copy_of(arena, tmp_path):
    out = tmp_path / "copy"
    out.mkdir()
    for path in arena.iterdir():
        (out / path.name).write_bytes(path.read_bytes())
    return out


def edit_record(out, **changes):
    settings = json.loads((out / "arena.json").read_text())
    settings.update(changes)
    (out / "arena.json").write_text(json.dumps(settings))


def test_a_recorded_program_bot_runs_only_if_the_command_line_names_it(tmp_path):
    marker = tmp_path / "ran"
    program = tmp_path / "evil.sh"
    program.write_text(f"#!/bin/sh\ntouch {marker}\nexit 1\n")
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    out = tmp_path / "a"
    run_json("arena", "--bots", f"cmd:{program},random", "--games", "4", "--seed", "p",
             "--out", out, "--jobs", "1")
    marker.unlink()
    # a finished arena is tallied without --bots, and starts no program
    assert run_json("arena", "--resume", out, "--jobs", "1")["summary"]["games"] == 4
    assert not marker.exists()
    (out / "arena-p-3.jsonl").unlink()
    error = fail("arena", "--resume", out, "--jobs", "1", code=2)
    assert "never starts a program on its own" in error and f"--bots cmd:{program},random" \
        in error
    assert not marker.exists()
    assert "this arena's bots are" in fail("arena", "--resume", out, "--bots",
                                           "greedy,random", "--jobs", "1", code=2)
    assert not marker.exists() and not (out / "arena-p-3.jsonl").exists()
    report = run_json("arena", "--resume", out, "--bots", f"cmd:{program},random", "--jobs",
                      "1")
    assert marker.exists() and report["summary"]["games"] == 4


def test_a_recorded_bot_above_the_seat_ceiling_needs_naming_too(arena, tmp_path):
    out = tmp_path / "slow"
    out.mkdir()
    (out / "arena.json").write_text((arena / "arena.json").read_text())
    edit_record(out, bots=["greedy", "mcts:3600s"])
    error = fail("arena", "--resume", out, "--jobs", "1", code=2)
    assert "above the ceiling" in error and "--bots greedy,mcts:3600s" in error
    assert sorted(p.name for p in out.iterdir()) == ["arena.json"]


def test_a_seed_with_a_control_character_is_refused_before_anything_is_written(tmp_path):
    for command in (["arena", "--bots", "greedy,random"], ["simulate"]):
        out = tmp_path / command[0]
        error = fail(*command, "--games", "2", "--seed", "a\x1b[31mb", "--out", out, code=2)
        assert "control character U+001B" in error
        assert not out.exists() or not list(out.iterdir())


@pytest.mark.parametrize(("text", "words"), [
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": 1000000000000000000, '
     '"ladder": false, "edition": "star-wars", "move_time": 10.0, "sprt": null}', "'seeds'"),
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": "2", "ladder": false, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": null}', "'seeds'"),
    ('{"bots": ["greedy", "random"], "seed": "../../h", "seeds": 2, "ladder": false, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": null}', "seed cannot name"),
    ('{"bots": ["greedy", "random"], "seed": "h\\u001b[2J", "seeds": 2, "ladder": false, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": null}', "seed cannot name"),
    ('{"bots": "greedy", "seed": "h", "seeds": 2, "ladder": false, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": null}', "'bots'"),
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": 2, "ladder": 0, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": null}', "'ladder'"),
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": 2, "ladder": false, '
     '"edition": "star-wars", "move_time": "fast", "sprt": null}', "'move_time'"),
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": 2, "ladder": false, '
     '"edition": "star-wars", "move_time": 10.0, "sprt": [0.7, 0.2]}', "'sprt'"),
    ('{"bots": ["greedy", "random"], "seed": "h", "seeds": 2, "ladder": false, '
     '"edition": 7, "move_time": 10.0, "sprt": null}', "'edition'"),
    ("[" * 10_000, "cannot read"),
    ("[" * 100_000, "larger than 65,536 bytes"),
    ("not json", "cannot read"),
    ('{"bots": []}', "not an arena's record"),
])
def test_a_damaged_record_is_named_in_one_line(arena, tmp_path, text, words):
    out = copy_of(arena, tmp_path)
    (out / "arena.json").write_text(text)
    assert words in fail("arena", "--resume", out, "--jobs", "1", code=3)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in arena.iterdir())


def test_timings_too_large_or_of_the_wrong_shape(arena, tmp_path):
    out = copy_of(arena, tmp_path)
    with open(out / "results.ndjson", "ab") as f:
        f.truncate(record.MAX_RESULTS_BYTES + 1)  # sparse: costs no disk
    assert "more than an arena writes" in fail("arena", "--resume", out, "--jobs", "1",
                                               code=3)
    lines = (arena / "results.ndjson").read_text().splitlines()
    forged = [json.loads(line) for line in lines]
    forged[0]["seconds"] = ["x", 1]
    forged[1]["seconds"] = [float("nan"), 1.0]
    forged[2]["moves"] = "many"
    forged[3]["reason"] = {"a": 1}
    (out / "results.ndjson").write_text("".join(json.dumps(f) + "\n" for f in forged)
                                        + "[" * 50_000 + "\n")
    report = run_json("arena", "--resume", out, "--jobs", "1")
    assert report["summary"]["games"] == 4
    text = json.dumps(report)
    assert "NaN" not in text and "Infinity" not in text


def test_nothing_is_written_through_a_link_in_the_folder(arena, tmp_path):
    out = copy_of(arena, tmp_path)
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (out / "summary.json").unlink()
    (out / "summary.json").symlink_to(victim)
    run_json("arena", "--resume", out, "--jobs", "1")
    assert victim.read_text() == "keep me\n"
    assert not os.path.islink(out / "summary.json")
    assert (out / "summary.json").stat().st_mode & 0o777 == (arena / "arena.json").stat().st_mode & 0o777
    assert json.loads((out / "summary.json").read_text())["games"] == 4

    (out / "results.ndjson").unlink()
    (out / "results.ndjson").symlink_to(victim)
    (out / "arena-h-3.jsonl").unlink()
    assert "timings" in fail("arena", "--resume", out, "--jobs", "1", code=3)
    assert victim.read_text() == "keep me\n"
    assert not (out / "arena-h-3.jsonl").exists()


def test_a_game_of_another_arena_is_not_tallied(arena, tmp_path):
    out = copy_of(arena, tmp_path)
    other = tmp_path / "other"
    run_json("arena", "--bots", "greedy-v1,random", "--games", "2", "--seed", "x", "--out", other,
             "--jobs", "1")
    log = (other / "arena-x-0.jsonl").read_bytes()
    (out / "arena-h-0.jsonl").write_bytes(log)
    assert "not a game of this arena" in fail("arena", "--resume", out, "--jobs", "1", code=3)
    assert (out / "arena-h-0.jsonl").read_bytes() == log


def test_a_pipe_or_a_folder_where_a_file_should_be(arena, tmp_path):
    out = copy_of(arena, tmp_path)
    (out / "arena.json").unlink()
    os.mkfifo(out / "arena.json")  # opened as a file, it would wait for a writer for ever
    assert "not a plain file" in fail("arena", "--resume", out, "--jobs", "1", code=3)
    (tmp_path / "again").mkdir()
    out = copy_of(arena, tmp_path / "again")
    (out / "summary.json").unlink()
    (out / "summary.json").mkdir()
    assert "cannot write the arena's summary" in fail("arena", "--resume", out, "--jobs", "1",
                                                     code=3)
    assert sorted(p.name for p in out.iterdir()) == sorted(p.name for p in arena.iterdir())


def test_a_new_arena_plays_nothing_when_its_timings_cannot_be_written(tmp_path):
    out = tmp_path / "n"
    out.mkdir()
    victim = tmp_path / "victim"
    victim.write_text("keep me\n")
    (out / "results.ndjson").symlink_to(victim)
    assert "nothing was played" in fail("arena", "--bots", "greedy,random", "--games", "2",
                                        "--out", out, "--jobs", "1", code=3)
    assert victim.read_text() == "keep me\n"
    assert sorted(p.name for p in out.iterdir()) == ["results.ndjson"]


def test_one_seed_gives_no_error_over_seeds_rather_than_zero(tmp_path):
    """Two games are one seed in both seatings: no spread over seeds to measure."""
    from helpers import run

    out = tmp_path / "one"
    report = run_json("arena", "--bots", "greedy-v1,random", "--games", "2", "--seed", "h",
                      "--out", out, "--jobs", "1")["summary"]
    assert [row["paired_se"] for row in report["bots"]] == [None, None]
    assert report["pairings"][0]["se"] is None and report["score_difference"]["se"] is None
    text = run("arena", "--resume", out).stdout
    assert "per seed - s.e." in text and "standard error over seeds -," in text
