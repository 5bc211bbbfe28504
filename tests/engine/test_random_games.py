"""Seeded random games to the end, both editions, with invariants checked after every event.

Invariants: the log round-trips through JSON and replays to the same state; meeples are
conserved; no score ever decreases; the count of tiles left is the sum of those left of
each type; every tile is placed or set aside exactly once.
"""

from collections import Counter

import pytest

from meeple.engine import GameState, awaiting, evolve, new_game, play, random_move, settle, start
from meeple.events.model import decode, encode

from helpers import bundled, classic

#: the 8 cells around a cell, N then clockwise (y grows to the north)
AROUND = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
GAMES = 400
CLASSIC_GAMES = 200
SETUPS = [
    dict(players=["red", "black"]),
    dict(players=["red", "black", "orange"]),
    dict(players=["red", "black", "green", "white"]),
    dict(players=["red", "black", "green", "white", "orange"]),
    dict(players=["red", "black", "green", "white"], team=True),
]
CLASSIC_SETUPS = [
    dict(players=["red", "blue"]),
    dict(players=["red", "blue", "yellow"], fiesta=True),
    dict(players=["red", "blue", "yellow", "green"]),
    dict(players=["red", "blue", "yellow", "green", "black"], fiesta=True),
]


def fingerprint(state: GameState) -> tuple:
    meeples = sorted((c, figure, state.realms.spot(n).x, state.realms.spot(n).y)
                     for realm in state.realms.data if realm for c, figure, n in realm.meeples)
    return (state.turn, state.current, state.phase, state.drawn, tuple(state.scores.items()),
            tuple((c, tuple(r.items())) for c, r in state.reserve.items()), len(state.board),
            tuple(sorted(state.remaining.items())), state.next_seq, tuple(meeples),
            state.battle is not None)


def check_invariants(state: GameState, before: dict[str, int]) -> None:
    on_board = Counter()
    for realm in state.realms.data:
        if realm:
            for colour, figure, _ in realm.meeples:
                on_board[(colour, figure)] += 1
    for colour, left in state.reserve.items():
        for figure in state.edition.figures:
            assert left[figure.name] + on_board[(colour, figure.name)] == figure.count
    for side, points in state.scores.items():
        assert points >= before[side]
    assert state.tiles_left() == sum(state.remaining.values())  # (kept as tiles are drawn)


def check_kept(state: GameState) -> None:
    """What the board and realms keep as tiles are laid agrees with what they hold: the
    centres around each cell in AROUND order, the frontier's groups, the realms holding
    figures."""
    board = state.board
    expected: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for (x, y), placed in board.items():
        if placed.tile.centre >= 0:
            for dx, dy in AROUND:
                expected.setdefault((x + dx, y + dy), []).append((x, y))
    assert state.centres_near == {
        (x, y): tuple(sorted(cells, key=lambda c: AROUND.index((c[0] - x, c[1] - y))))
        for (x, y), cells in expected.items()}
    empty_next_to_a_tile = {(x + dx, y + dy) for x, y in board for dx, dy in AROUND[::2]} - set(board)
    assert set(state.frontier) == empty_next_to_a_tile
    assert {cell: need for need, group in state.groups.items() for cell in group} == state.frontier
    realms = state.realms
    held = {root for root, realm in enumerate(realms.data) if realm and realm.meeples}
    assert held == {realms.find(node) for node in state.memo.held_nodes} & held


def play_to_the_end(first) -> None:
    """Play a random game, replaying every event through JSON and checking the invariants."""
    full = Counter({t.id: t.count for t in first.tileset.definition.tiles})
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
    check_kept(live)
    check_kept(replay)


#: games a test plays: the everyday run plays the first block of each edition, the full run all
BLOCK = 10


def _blocks(games: int) -> list:
    return [0, *(pytest.param(b, marks=pytest.mark.slow) for b in range(1, games // BLOCK))]


@pytest.mark.parametrize("block", _blocks(GAMES))
def test_random_games_keep_their_invariants(block):
    tileset = bundled()
    for g in range(block * BLOCK, (block + 1) * BLOCK):
        setup = SETUPS[g % len(SETUPS)]
        play_to_the_end(new_game(setup["players"], tileset, seed=f"inv-{g}",
                                 team=setup.get("team", False),
                                 unplaceable="reshuffle" if g % 2 else "discard"))


@pytest.mark.parametrize("block", _blocks(CLASSIC_GAMES))
def test_random_classic_games_keep_their_invariants(block):
    sets = {False: classic(), True: classic(fiesta=True)}
    for g in range(block * BLOCK, (block + 1) * BLOCK):
        setup = CLASSIC_SETUPS[g % len(CLASSIC_SETUPS)]
        play_to_the_end(new_game(setup["players"], sets[setup.get("fiesta", False)],
                                 seed=f"classic-{g}"))  # (CL-3 only removes a tile)
