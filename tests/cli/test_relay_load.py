"""``meeple bench --relay`` (docs/guide/relay.md, "Load"): a real relay on 127.0.0.1, a few
games of bots through it, and the report's figures with no line lost or duplicated."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("ssh-keygen") is None,
                                 reason="OpenSSH's ssh-keygen is not installed")]

MEEPLE = str(Path(sys.executable).with_name("meeple"))


@pytest.mark.parametrize("workers", [1, 2])
def test_the_load_benchmark_reports_its_figures_and_loses_no_line(workers):
    done = subprocess.run([MEEPLE, "bench", "--relay", "--games", "3", "--seconds", "30",
                           "--pace", "0", "--workers", str(workers), "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["clock"] == "wall" and report["workers"] == workers
    assert report["games"] == 3 and report["failed"] == 0, report["errors"]
    assert report["finished"] == 3 and report["relay_cpu_s"] > 0
    assert report["machine"]["cpus"] >= 1 and len(report["machine"]["load_average"]) == 3
    assert report["appends"] > 0 and report["appends_per_second"] > 0
    latency = report["latency_ms"]
    assert 0 < latency["p50"] <= latency["p99"] <= latency["max"]
    assert report["lines_stored"] > report["appends"]
    assert report["lost"] == 0 and report["duplicated"] == 0


def test_lines_the_relay_lacks_or_holds_twice_are_counted(tmp_path):
    from meeple.cli.relay.load import Played, _compare

    written = [b"a", b"b", b"c"]
    (tmp_path / ("1" * 32 + ".jsonl")).write_bytes(b"a\nb\n")
    (tmp_path / ("2" * 32 + ".jsonl")).write_bytes(b"a\nb\nc\nc\n")
    (tmp_path / ("3" * 32 + ".jsonl")).write_bytes(b"a\nb\nc\n")
    played = [Played(game=digit * 32, lines=list(written)) for digit in "123"]
    assert _compare(str(tmp_path), played) == (1, 1)
