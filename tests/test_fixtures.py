"""Recorded games as regression tests: each fixture replays, verifies, and matches its snapshot.

The snapshot holds the final state (the format of ``show --json``) and a per-turn
playthrough a reviewer can read: turn, player, placement and scores, with the board row
by row every ten turns and at the end. A fixture without a
snapshot fails; so does a snapshot without a fixture (syrupy's unused check).
"""

from pathlib import Path

import msgspec
import pytest
from syrupy.extensions.json import JSONSnapshotExtension

from meeple.engine import GameState, export, verify, walk
from meeple.events import log as logfile
from meeple.events.model import TilePlaced, TurnEnded

from scenarios import SCENARIOS, build_scenario

FIXTURES = sorted((Path(__file__).parent.parent / "fixtures").glob("*.jsonl"))


@pytest.fixture
def snapshot_json(snapshot):
    return snapshot.use_extension(JSONSnapshotExtension)


#: a compact board is shown at every this many turns, and at the last
BOARD_EVERY = 10


def compact_board(state: GameState) -> list[str]:
    """The board row by row, north first: ``x:TILE/ROTATION`` for each tile, followed by its
    meeples as ``colour:target`` (``+`` for a large one)."""
    rows: dict[int, list[str]] = {}
    for (x, y), placed in sorted(state.board.items()):
        o = placed.tile.orientations[placed.r]
        cell = f"{x}:{placed.tile.id}/{placed.r * 90}"
        for index, node in enumerate(placed.nodes):
            for colour, figure, at in state.realms.realm(node).meeples:
                if at == node:
                    cell += f" {colour}{'+' if figure == 'large' else ''}:{o.targets[index]}"
        rows.setdefault(y, []).append(cell)
    return [f"y={y}: " + " | ".join(cells) for y, cells in sorted(rows.items(), reverse=True)]


def playthrough(events) -> list[dict]:
    """Each turn's placement and scores; every ``BOARD_EVERY`` turns and at the end, the board."""
    turns: list[dict] = []
    placed = None

    def visit(event, state) -> None:
        nonlocal placed
        if isinstance(event, TilePlaced):
            placed = f"{event.tile} at {event.x},{event.y} turned {event.rotation}"
        if isinstance(event, TurnEnded):
            turns.append({"turn": event.turn, "player": event.player, "placed": placed,
                          "scores": dict(state.scores)})
            if event.turn % BOARD_EVERY == 0:
                turns[-1]["board"] = compact_board(state)

    state = walk(events, visit=visit)
    if turns:
        turns[-1]["board"] = compact_board(state)
    return turns


def test_there_are_enough_fixtures():
    assert len(FIXTURES) >= 40


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_fixture_replays_to_its_snapshot(path, snapshot_json):
    log = logfile.read(path)
    verdict = verify(log.events)
    assert verdict.finding is None, verdict.finding
    assert {"head": log.head, "final": export(verdict.state),
            "playthrough": playthrough(log.events)} == snapshot_json


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_each_scenario_played_today_gives_its_recorded_fixture(name):
    """The scenarios the builder wrote are the ones the tests play: played again by today's
    rules, each gives the events of its recorded file. Set aside: the schema (recorded in 1)
    and the bundled set's notes, reworded since (its tiles are compared)."""
    players, options, steps = SCENARIOS[name]
    played = build_scenario(name, players, options, steps)
    recorded = logfile.read(FIXTURES[0].parent / f"{name}.jsonl").events
    assert played[0].tileset.definition.tiles == recorded[0].tileset.definition.tiles
    assert played[0].tileset.definition.start == recorded[0].tileset.definition.start
    assert played[0] == msgspec.structs.replace(recorded[0], schema=played[0].schema, prev=None,
                                                tileset=played[0].tileset)
    assert [msgspec.structs.replace(e, prev=None) for e in recorded[1:]] == played[1:]
