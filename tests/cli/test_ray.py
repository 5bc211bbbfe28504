"""`--ray`: arena, simulate and check spread their games over a Ray cluster (here a local
instance each command starts and stops) with the same results and files as a local run."""

import json
import os
import subprocess
import sys

import pytest

from helpers import fail, run

pytest.importorskip("ray", reason="Ray is the optional extra meeple[ray]")

MEEPLE = [sys.executable, "-m", "meeple.cli.app"]


def _meeple(*args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([*MEEPLE, *map(str, args)], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.slow  # three commands, each starting and stopping a Ray cluster
def test_ray_gives_the_games_a_local_run_gives(tmp_path):
    local, spread = tmp_path / "local", tmp_path / "ray"
    run("simulate", "--out", local, "--games", "3", "--seed", "r", "--bot", "greedy")
    _meeple("simulate", "--out", spread, "--games", "3", "--seed", "r", "--bot", "greedy",
            "--ray")
    assert sorted(os.listdir(local)) == sorted(os.listdir(spread))
    for name in os.listdir(local):
        assert (local / name).read_bytes() == (spread / name).read_bytes()
    reports = [json.loads(_meeple("arena", "--bots", "greedy,random", "--games", "4", "--seed",
                                  "a", "--out", tmp_path / f"arena{i}", "--json",
                                  *(["--ray"] if i else [])).stdout) for i in (0, 1)]
    plain = [[{k: v for k, v in g.items() if k not in ("file", "seconds")}
              for g in report["games"]] for report in reports]
    assert plain[0] == plain[1]
    checked = _meeple("check", tmp_path / "arena1", "--ray").stdout
    assert "4 valid, 0 invalid" in checked


def test_a_ray_address_needs_ray(tmp_path):
    assert "--ray-address goes with --ray" in fail("check", tmp_path, "--ray-address", "x",
                                                   code=2)
