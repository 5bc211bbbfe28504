"""The CLI as a real process: a reader that stops early gets no error and no traceback."""

import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parents[2] / "fixtures" / "random_4p_seed_0.jsonl"


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
