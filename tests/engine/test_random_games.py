"""Seeded random games to the end, with invariants checked after every event (issue: rules).

Invariants: the log round-trips through JSON and replays to the same state; meeples are
conserved; no score ever decreases; every tile is placed or set aside exactly once.
"""

from collections import Counter

import pytest

from meeple.engine.bots import random_move
from meeple.engine.evolve import evolve
from meeple.engine.flow import awaiting
from meeple.engine.play import play, settle
from meeple.engine.setup import new_game
from meeple.engine.state import GameState, start
from meeple.events.model import decode, encode

from helpers import bundled

GAMES = 1000
SETUPS = [
    dict(players=["red", "black"]),
    dict(players=["red", "black", "orange"]),
    dict(players=["red", "black", "green", "white"]),
    dict(players=["red", "black", "green", "white", "orange"]),
    dict(players=["red", "black", "green", "white"], team=True),
]


def fingerprint(state: GameState) -> tuple:
    meeples = sorted((c, large, state.realms.spots[n].x, state.realms.spots[n].y)
                     for realm in state.realms.data if realm for c, large, n in realm.meeples)
    return (state.turn, state.current, state.phase, state.drawn, tuple(state.scores.items()),
            tuple((c, tuple(r)) for c, r in state.reserve.items()), len(state.board),
            tuple(sorted(state.remaining.items())), state.next_seq, tuple(meeples),
            state.battle is not None)


def check_invariants(state: GameState, before: dict[str, int]) -> None:
    on_board = Counter()
    for realm in state.realms.data:
        if realm:
            for colour, large, _ in realm.meeples:
                on_board[(colour, large)] += 1
    for colour, (small, large) in state.reserve.items():
        assert small + on_board[(colour, False)] == 4
        assert large + on_board[(colour, True)] == 1
    for side, points in state.scores.items():
        assert points >= before[side]


@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_their_invariants(block):
    tileset = bundled()
    full = Counter({t.id: t.count for t in tileset.tiles})
    for g in range(block * GAMES // 10, (block + 1) * GAMES // 10):
        setup = SETUPS[g % len(SETUPS)]
        first = new_game(setup["players"], tileset, seed=f"inv-{g}", team=setup.get("team", False),
                         unplaceable="reshuffle" if g % 2 else "discard")
        live = start(first)
        replay = start(decode(encode(first)))
        live, events = settle(live)
        while True:
            for event in events:
                before = dict(replay.scores)
                replay = evolve(replay, decode(encode(event)))
                check_invariants(replay, before)
            assert fingerprint(replay) == fingerprint(live)
            if awaiting(live) == "over":
                break
            live, events = play(live, random_move(live))
        placed = Counter(p.tile.id for p in live.board.values())
        assert placed + Counter(live.set_aside) == full
        assert live.tiles_left() == 0 and live.winners
