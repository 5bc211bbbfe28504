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
    for _ in table.lines():  # (to a move awaited: no draw or roll waits on the seat claimed)
        if table.game.turn > turns and table.game.phase == "place":
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
    for turn in range(seats - 1):
        for _ in table.lines():  # (to a move awaited: no draw or roll waits on the seat)
            if table.game.turn > 3 * (turn + 1) and table.game.phase == "place":
                break
        waited = waiting_for(table.state, table.signers[-1])[0]
        claimer = next(s for s in range(seats) if s != waited
                       and not table.state.joint.gone[s])
        table.push(claimer, claim(table.state, claimer, 1_800_000_000))
        assert table.game.over == (turn == seats - 2)
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
        if table.game.turn > 3 + seed and table.game.phase in ("place", "meeple"):
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


@pytest.mark.parametrize("edition", ["classic", "star-wars"])
def test_a_claim_against_the_last_seat_a_draw_or_roll_waits_for_ends_the_game(edition):
    """That seat knows the outcome (every other element is out): were it given up, the event
    made anew would let it veto a tile or a roll by going silent; the claim ends the game as
    RM-4 does instead."""
    table = Table(edition, 3, seed=4, time_per_move=3600, takeover="greedy", attacks=True)
    found = None
    for _ in table.lines():
        joint = table.state.joint
        waiting = waiting_for(table.state, table.signers[-1])
        if table.game.turn > 2 and table.game.phase in ("draw", "dice") and len(waiting) == 1 \
                and joint is not None and joint.all_committed:
            found = waiting[0]
            break
    assert found is not None, "the game waited for one seat's reveal"
    claimer = (found + 1) % 3
    table.push(claimer, claim(table.state, claimer, 1_800_000_000))
    end = table.events[-1]
    assert table.game.over and isinstance(end, GameEnded) and end.forfeit == table.colours[found]


def test_a_seat_claimed_against_before_it_commits_is_given_up_and_the_game_goes_on():
    table = Table("classic", 4, seed=2, time_per_move=3600, takeover="greedy")
    host = waiting_for(table.state, table.signers[-1])[0]
    assert not table.state.joint.committed[host]
    claimer = (host + 1) % 4
    table.push(claimer, claim(table.state, claimer, 1_800_000_000))
    assert table.state.joint.gone[host] and waiting_for(table.state, claimer)[0] != host
    with pytest.raises(IllegalMove):  # (not again: it is given up already)
        table.game.push(msgspec.structs.replace(claim(table.state, (host + 2) % 4, 1),
                                                against=table.colours[host]))
    table.play()
    end = table.events[-1]
    assert isinstance(end, GameEnded) and end.given_up == (table.colours[host],)
    assert verify(list(table.events), signers=table.signers).finding is None
