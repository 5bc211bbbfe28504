"""A remote game's clock (RM-4): a seat claims a timeout against the seat the game waits for;
the game ends at once, as the scores stand, and that seat cannot win."""

from __future__ import annotations

import msgspec
import pytest

from meeple.engine import IllegalMove
from meeple.engine.check import verify
from meeple.engine.joint import RULE_TIME
from meeple.engine.protocol import claim, waiting_for
from meeple.events.model import GameEnded, TimeoutClaimed

from remote_table import Table


def table_with_clock(seats: int = 3, turns: int = 6) -> Table:
    """A 3-seat classic remote game with an hour per move, a few turns in."""
    table = Table("classic", seats, seed=11, time_per_move=3600)
    for _ in table.lines():
        if table.game.turn > turns:
            break
    return table


def test_a_claim_against_the_seat_waited_for_ends_the_game_and_it_cannot_win():
    table = table_with_clock()
    waited = waiting_for(table.state, table.signers[-1])[0]
    claimer = (waited + 1) % 3
    scores = dict(table.state.scores)
    events = table.push(claimer, claim(table.state, claimer, 1_800_000_000))
    assert isinstance(events[0], TimeoutClaimed) and events[0].against == table.colours[waited]
    end = events[-1]
    assert isinstance(end, GameEnded) and end.forfeit == table.colours[waited]
    assert table.game.over and table.colours[waited] not in end.winners
    assert {s.side: s.points for s in end.scores} == scores, "no final scoring"
    assert verify(list(table.events), signers=table.signers).finding is None


def test_claims_that_the_rules_refuse():
    table = table_with_clock()
    waited = waiting_for(table.state, table.signers[-1])[0]
    other = (waited + 1) % 3
    own = claim(table.state, waited, 1)
    with pytest.raises(IllegalMove, match="their own seat") as caught:
        table.game.push(own)
    assert caught.value.rule == RULE_TIME
    wrong = claim(table.state, other, 1)
    wrong = msgspec.structs.replace(wrong, against=table.colours[(waited + 2) % 3])
    with pytest.raises(IllegalMove, match="waits for"):
        table.game.push(wrong)
    plain = Table("classic", 2, seed=3)
    for _ in plain.lines():
        if plain.game.turn > 2:
            break
    seat = waiting_for(plain.state, plain.signers[-1])[0]
    with pytest.raises(IllegalMove, match="time per move"):
        plain.game.push(claim(plain.state, 1 - seat, 1))


def test_a_claim_signed_by_another_seat_than_its_claimer_is_a_finding():
    table = table_with_clock()
    waited = waiting_for(table.state, table.signers[-1])[0]
    claimer = (waited + 1) % 3
    table.push(claimer, claim(table.state, claimer, 1))
    forged = list(table.signers)
    at = next(i for i, e in enumerate(table.events) if isinstance(e, TimeoutClaimed))
    forged[at] = (waited + 2) % 3
    finding = verify(list(table.events), signers=forged).finding
    assert finding is not None and finding.seq == at
