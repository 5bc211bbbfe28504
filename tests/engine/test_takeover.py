"""RM-5: a remote game set up with a takeover bot does not end at a timeout claim: the seat
is given up, its bot plays on (its moves written by its deputy, and checked as the bot's),
chance is made by the other seats, and ``game_ended`` lists the seat: the game is unrated."""

from __future__ import annotations

import msgspec
import pytest

from meeple.engine import IllegalMove, InvalidCommand
from meeple.engine.check import verify
from meeple.engine.joint import RULE_TAKEOVER
from meeple.engine.protocol import claim, waiting_for
from meeple.events.model import (
    GameEnded,
    MeeplePlaced,
    MeepleSkipped,
    TilePlaced,
    TimeoutClaimed,
)

from remote_table import Table


def given_up(seats: int = 3, turns: int = 4, takeover: str = "greedy", seed: int = 5):
    """A classic remote game with a takeover bot, a seat given up a few turns in; returns
    the table, the seat given up and the line of the claim."""
    table = Table("classic", seats, seed=seed, time_per_move=3600, takeover=takeover)
    for _ in table.lines():
        if table.game.turn > turns:
            break
    waited = waiting_for(table.state, table.signers[-1])[0]
    claimer = (waited + 1) % seats
    written = table.push(claimer, claim(table.state, claimer, 1_800_000_000))
    assert isinstance(written[0], TimeoutClaimed)
    return table, waited, written[0].seq


@pytest.mark.parametrize("seats,takeover", [(3, "greedy"), (3, "random"), (4, "greedy")])
def test_a_seat_given_up_is_played_by_its_bot_to_the_end_and_the_game_is_unrated(
        seats, takeover):
    table, gone, at = given_up(seats, takeover=takeover)
    assert not table.game.over, "the claim gives the seat up, the game goes on"
    table.play()
    end = table.events[-1]
    assert isinstance(end, GameEnded) and end.given_up == (table.colours[gone],)
    assert end.forfeit is msgspec.UNSET
    later = range(at + 1, len(table.events))
    moved = [s for s in later if isinstance(table.events[s], (TilePlaced, MeeplePlaced,
                                                              MeepleSkipped))
             and table.events[s].player == table.colours[gone]]
    assert moved, "the bot played the seat given up"
    assert all(table.signers[s] != gone for s in later), "nothing is written by that seat"
    assert all(table.signers[s] == (gone + 1) % seats for s in moved), "its deputy writes"
    assert verify(list(table.events), signers=table.signers).finding is None


def test_a_move_for_a_seat_given_up_that_is_not_its_bots_is_refused_by_check():
    table, gone, at = given_up()
    table.play()
    events = list(table.events)
    seq = next(s for s in range(at + 1, len(events)) if isinstance(events[s], TilePlaced)
               and events[s].player == table.colours[gone])
    from meeple.engine import Game

    # (the position before the bot's placement, and another legal placement there)
    verdict = verify(events[:seq], signers=table.signers[:seq])
    assert verdict.finding is None and verdict.state is not None
    before = Game(events[:seq], verdict.state)
    other = next(m for m in before.legal_moves()
                 if (m.x, m.y, m.rotation) != (events[seq].x, events[seq].y,
                                                events[seq].rotation))
    forged = msgspec.structs.replace(events[seq], x=other.x, y=other.y, rotation=other.rotation)
    finding = verify(events[:seq] + [forged], signers=table.signers[:seq + 1]).finding
    assert finding is not None and finding.seq == seq and finding.rule == RULE_TAKEOVER


def test_a_seat_given_up_writes_nothing_more():
    table, gone, _ = given_up()
    joint = table.state.joint
    assert joint is not None and joint.gone[gone]
    slot = next(s for s in range(joint.seats) if s != gone)
    with pytest.raises(IllegalMove) as refused:
        table.game.push(table.chains[gone].reveal(joint, table.colours[gone], slot))
    assert refused.value.rule == RULE_TAKEOVER
    waited = waiting_for(table.state, table.signers[-1])[0]
    with pytest.raises(IllegalMove) as refused:  # (not even a timeout claim)
        table.game.push(claim(table.state, gone, 1_900_000_000))
    assert refused.value.rule == RULE_TAKEOVER and waited != gone


@pytest.mark.parametrize("seats", [2, 3])
def test_a_claim_that_would_leave_one_seat_ends_the_game_instead(seats):
    """One seat left would make every draw from its own chains alone, foreseeing them all:
    a claim that would leave one seat ends the game as RM-4 does."""
    table = Table("classic", seats, seed=9, time_per_move=3600, takeover="greedy")
    for _ in table.lines():
        if table.game.turn > 3:
            break
    for _ in range(seats - 1):
        waited = waiting_for(table.state, table.signers[-1])[0]
        claimer = next(s for s in range(seats) if s != waited
                       and not table.state.joint.gone[s])
        table.push(claimer, claim(table.state, claimer, 1_800_000_000))
        for _ in table.lines():  # (a few turns more, before the next claim)
            if table.game.turn > 6:
                break
    end = table.events[-1]
    assert table.game.over and isinstance(end, GameEnded)
    assert isinstance(end.forfeit, str) and end.forfeit not in end.winners


def test_takeover_goes_with_a_bot_timeout_and_a_clock():
    import random

    from meeple.engine import Game

    from remote_table import random_remote

    remote = random_remote(2, random.Random(1))
    for wrong in (msgspec.structs.replace(remote, timeout="bot"),
                  msgspec.structs.replace(remote, takeover="greedy"),
                  msgspec.structs.replace(remote, timeout="bot", takeover="greedy")):
        with pytest.raises(InvalidCommand) as refused:
            Game.new(["red", "blue"], "classic", remote=wrong)
        assert refused.value.rule == RULE_TAKEOVER


def test_the_narration_says_the_game_is_unrated():
    from meeple.cli.pictures.narrate import tell as narrate

    table, gone, at = given_up()
    table.play()
    claim_line = narrate(table.events[at], table.state.edition)
    assert "let their time pass (RM-4)" in claim_line
    end = narrate(table.events[-1], table.state.edition)
    assert f"unrated: {table.colours[gone]} given up and played by a bot (RM-5)" in end


@pytest.mark.parametrize("seed", range(6))
def test_no_outcome_known_at_the_claim_is_used_after_it(seed):
    """A seat that could compute an event without the seat given up (its own element and
    those revealed) would choose, by claiming or waiting, between two outcomes: after the
    claim every slot's next event has no element revealed yet."""
    table = Table("classic", 3, seed=seed, time_per_move=3600, takeover="greedy")
    for _ in table.lines():
        if table.game.turn > 3 + seed:
            break
    joint = table.state.joint
    assert joint is not None
    known_before = any(joint.revealed(s, slot) for s in range(3) for slot in range(6))
    waited = waiting_for(table.state, table.signers[-1])[0]
    claimer = (waited + 1) % 3
    table.game.push(claim(table.state, claimer, 1))
    joint = table.state.joint
    assert known_before, "the position had elements revealed ahead (mover opens)"
    assert not any(joint.revealed(s, slot) for s in range(3) for slot in range(6)
                   if not joint.gone[s])
