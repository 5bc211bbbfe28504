"""The CLI as a real process: a reader that stops early gets no error and no traceback."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).parents[2] / "fixtures" / "random_4p_seed_0.jsonl"


def test_a_failed_check_keeps_its_exit_code_when_its_reader_is_gone(tmp_path):
    """The report is still buffered when the command ends: its write fails then, and the
    command's own exit code stands (not 0, not Python's 120)."""
    tampered = tmp_path / "t.jsonl"
    lines = FIXTURE.read_bytes().split(b"\n")
    lines[4] = lines[4].replace(b'"seq":4', b'"seq":99')
    tampered.write_bytes(b"\n".join(lines))
    read, write = os.pipe()
    os.close(read)  # a reader gone before anything was written
    try:
        done = subprocess.run([sys.executable, "-m", "meeple.cli.app", "check", str(tampered),
                               "--json"], stdout=write, stderr=subprocess.PIPE, timeout=60,
                              env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})
    finally:
        os.close(write)
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stderr)["kind"] == "check_failed"


@pytest.mark.slow  # a process replaying a whole game
def test_output_cut_short_by_the_reader_ends_quietly():
    process = subprocess.Popen(
        [sys.executable, "-c", "from meeple.cli.app import main; main()", "replay",
         str(FIXTURE), "--show"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    first = process.stdout.readline()
    process.stdout.close()
    stderr = process.stderr.read()
    assert process.wait(timeout=30) == 0
    assert first.strip().startswith(b"0  Game started")
    assert stderr == b""
