"""Full re-verification: every input re-decided, every consequence recomputed."""

import msgspec
import pytest

from meeple.engine import Game, new_game, random_move, verify
from meeple.events.model import (
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    MeepleSkipped,
    PointsScored,
    Roll,
    TileDrawn,
    TilePlaced,
)

from helpers import bundled, classic, route_battle


def _battle_game():
    t = route_battle()
    t.roll(red=(5,), white=(2,))
    return t.events


def test_a_legal_game_verifies():
    verdict = verify(_battle_game())
    assert verdict.finding is None and not verdict.pending
    assert verdict.state.scores == {"red": 4, "white": 1}


def test_a_changed_score_is_reported_with_expected_and_found():
    events = _battle_game()
    i = max(i for i, e in enumerate(events) if isinstance(e, PointsScored))
    events[i] = msgspec.structs.replace(events[i], points=40)
    finding = verify(events).finding
    assert finding.seq == events[i].seq and finding.rule == "SW-6.3"
    assert '"points":4' in finding.expected and '"points":40' in finding.found


def test_an_illegal_placement_is_reported_with_its_rule():
    events = _battle_game()
    i = next(i for i, e in enumerate(events) if isinstance(e, TilePlaced))
    events[i] = msgspec.structs.replace(events[i], rotation=90)
    finding = verify(events).finding
    assert finding.seq == events[i].seq and finding.rule == "SW-3.1"
    assert finding.message.startswith("illegal")


def test_a_wrong_dice_count_is_reported():
    events = _battle_game()
    i = next(i for i, e in enumerate(events) if isinstance(e, DiceRolled))
    events[i] = msgspec.structs.replace(events[i], rolls=(Roll(side="red", values=(5, 5)),
                                                          Roll(side="white", values=(2,))))
    finding = verify(events).finding
    assert finding.rule == "SW-5.2" and "rolls 1 dice" in finding.message


def finished_game(first: GameStarted) -> list[Event]:
    """The events of a random game played to its end from ``first``."""
    game = Game.begin(first)
    while not game.over:
        game.push(random_move(game.state))
    return list(game.events)


def test_a_draw_written_after_the_end_is_reported_as_following_a_finished_game():
    """Nothing the rules do follows game_ended: the finding says the game was over, not that
    it waited for a move."""
    events = finished_game(new_game(["red", "black"], bundled(), seed="over-1"))
    draw = next(e for e in events if isinstance(e, TileDrawn))
    events.append(msgspec.structs.replace(draw, seq=len(events)))
    finding = verify(events).finding
    assert finding.seq == len(events) - 1
    assert finding.message.startswith("the game was over here")


@pytest.mark.parametrize(("tileset", "players", "rule"), [
    (bundled, ["red", "black"], "SW-7.3"),
    (classic, ["red", "blue"], "CL-6"),
])
def test_forged_winners_cite_the_rule_of_the_winners(tileset, players, rule):
    events = finished_game(new_game(players, tileset(), seed="winners-1"))
    end = events[-1]
    assert isinstance(end, GameEnded)
    losers = tuple(s for s in players if s not in end.winners)
    events[-1] = msgspec.structs.replace(end, winners=losers or end.winners[:1] + end.winners)
    finding = verify(events).finding
    assert finding.seq == end.seq and finding.rule == rule
    assert finding.message == "the recorded consequence differs from the rules'"


def test_a_move_written_after_the_end_says_the_game_is_over():
    events = finished_game(new_game(["red", "black"], bundled(), seed="over-2"))
    events.append(MeepleSkipped(seq=len(events), player="red"))
    finding = verify(events).finding
    assert finding.seq == len(events) - 1 and finding.rule == "SW-7.1"
    assert finding.message == "illegal: not now: the game is over; nothing more can be played"
