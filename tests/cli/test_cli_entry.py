"""`meeple` as a user runs it (the console script's ``main``, run in this process): a usage
error is one ``meeple: error:`` line naming the help to read, exit 2, like every other
error; help itself is typer's."""

import json
import subprocess
import sys

import pytest

from helpers import main

MEEPLE = [sys.executable, "-m", "meeple.cli.app"]


def _run(*argv: str) -> subprocess.CompletedProcess:
    return main(*argv)


def test_the_console_script_is_main_in_a_process_of_its_own():
    """What ``main`` does in this process, a real ``meeple`` process does."""
    argv = ["undo", "g.jsonl", "--steps", "x"]
    real = subprocess.run([*MEEPLE, *argv], capture_output=True, text=True, timeout=60)
    here = main(*argv)
    assert (real.returncode, real.stdout, real.stderr) == (here.returncode, here.stdout,
                                                            here.stderr) == (2, "", here.stderr)
    assert here.stderr.startswith("meeple: error: Invalid value for '--steps'")


@pytest.mark.parametrize("argv, said", [
    (["place"], "meeple: error: Missing argument 'GAME'. (see `meeple place --help`)"),
    (["--lock-timeout", "-1", "status", "g.jsonl"],
     "meeple: error: Invalid value for '--lock-timeout': -1.0 is not in the range x>=0. "
     "(see `meeple --help`)"),
    (["undo", "g.jsonl", "--steps", "x"], "meeple: error: Invalid value for '--steps': 'x' is "
                                          "not a valid int. (see `meeple undo --help`)"),
    (["bogus"], "meeple: error: No such command 'bogus'. (see `meeple --help`)"),
    (["status", "g.jsonl", "--frobnicate"], "meeple: error: No such option: --frobnicate"),
])
def test_a_usage_error_is_one_line_with_exit_2(argv, said):
    done = _run(*argv)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [done.stderr.strip()], done.stderr
    assert done.stderr.startswith(said), done.stderr


def test_under_json_a_usage_error_is_one_json_object():
    done = _run("status", "--json")
    error = json.loads(done.stderr)
    assert (done.returncode, error["kind"], error["code"]) == (2, "usage", 2)
    assert error["error"] == "Missing argument 'GAME'. (see `meeple status --help`)"


@pytest.mark.parametrize("argv, code", [([], 2), (["--help"], 0), (["place", "--help"], 0)])
def test_help_is_typers_whole_page(argv, code):
    done = _run(*argv)
    assert done.returncode == code
    assert "Usage: meeple" in done.stdout + done.stderr and "--help" in done.stdout + done.stderr
