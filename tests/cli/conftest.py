"""Fixtures of the attack tests (``test_attack_*.py``, the battery of ``tests/battery.py``):
the library of games in every phase, and the log locks given back after each test."""

import shutil
from pathlib import Path

import pytest
from battery import BATTLE, OVER, PHASE_OF, cut_last_line, play_first_move

from helpers import run, run_json


@pytest.fixture
def default_locks():
    """``--lock-timeout`` configures this process's log locks: give the defaults back after
    each test, whatever it ran."""
    from meeple.events import log as logfile

    yield
    logfile.configure_locks()


@pytest.fixture(scope="module")
def library(tmp_path_factory) -> dict[str, Path]:
    """One valid game in every phase, made once: digital, table mode and sealed (the copies
    of the sealed game have no seed file: only ``sealed_holder.jsonl.seed`` is made)."""
    root = tmp_path_factory.mktemp("library")
    made = {name: root / f"{name}.jsonl" for name in PHASE_OF}

    def derive(name: str, source: str, *commands: tuple[str, ...]) -> None:
        shutil.copy(made[source], made[name])
        for command, *args in commands:
            run(command, made[name], *args)

    run("new", made["place_tile"], "--players", "red,black", "--seed", "1")
    derive("place_meeple", "place_tile")
    play_first_move(made["place_meeple"])
    derive("undone", "place_meeple", ("undo",))
    run("new", made["enter_draw"], "--players", "red,white", "--table")
    derive("enter_dice", "enter_draw", *BATTLE)
    shutil.copy(OVER, made["over"])
    run("new", made["sealed_holder"], "--players", "red,black", "--sealed")
    derive("sealed_without_seed", "sealed_holder")
    derive("awaiting_seed_holder", "sealed_holder")
    play_first_move(made["awaiting_seed_holder"], "--no-meeple")
    derive("resolving", "place_meeple", ("skip",))
    cut_last_line(made["resolving"], made["resolving"])
    cut_last_line(made["enter_dice"], made["resolving_battle"])

    for name, phase in PHASE_OF.items():
        assert run_json("status", made[name])["phase"] == phase, name
    assert run_json("status", made["sealed_without_seed"])["sealed"]
    assert not Path(f"{made['sealed_without_seed']}.seed").exists()
    return made



@pytest.fixture
def relay(tmp_path):
    """A real `meeple serve` on a free 127.0.0.1 port, stopped after the test."""
    from relay_helpers import Relay

    server = Relay(tmp_path).start()
    yield server
    server.stop()
