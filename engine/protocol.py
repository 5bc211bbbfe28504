"""A seat's part in a remote game's chance (docs/guide/remote.md): its hash chains from
its secret, what it must write now (its commitment, the elements it may reveal), and whose
line the game waits for.

"Mover opens": whenever a seat writes, it reveals at once every element it may reveal that
another seat will need (its element of every other seat's next draw), so that a turn stays
one message; its own draw it reveals last, when it is to draw; its element of a turn's dice,
its own turn's included, only once that turn waits for them (``meeple.engine.joint``).
"""

from __future__ import annotations

from meeple.engine.commands import ClaimTimeout, Commit, Reveal
from meeple.engine.errors import IllegalMove
from meeple.engine.flow import awaiting
from meeple.engine.joint import (
    RULE_TAKEOVER,
    RULE_TIME,
    Joint,
    chain_links,
    element,
    next_to_commit,
    waiting_on,
)
from meeple.engine.state import GameState
from meeple.events.model import Remote


class Chains:
    """One seat's hash chains, every link of each slot's, from the seat's secret."""

    def __init__(self, remote: Remote, seat: int, secret: bytes) -> None:
        self.seat = seat
        key = remote.keys[seat]
        self.links = [chain_links(secret, remote.game, key, slot, remote.chain)
                      for slot in Joint(remote).slots]

    def commit(self, colour: str) -> Commit:
        return Commit(colour, tuple(links[-1] for links in self.links))

    def reveal(self, joint: Joint, colour: str, slot: int) -> Reveal:
        index = joint.used[slot]
        return Reveal(colour, joint.slots[slot], index, element(self.links[slot], index))


def duty(state: GameState, chains: Chains) -> Commit | Reveal | None:
    """The next commitment or reveal the seat of ``chains`` owes now, if any (push it, then
    ask again)."""
    joint = state.joint
    assert joint is not None, "a remote game"
    seat = chains.seat
    colour = state.players[seat]
    if not joint.committed[seat]:
        return chains.commit(colour) if next_to_commit(joint) == seat else None
    if not joint.all_committed or state.phase == "over":
        return None
    seats = joint.seats
    for other in range(seats):
        if other != seat and not joint.revealed(seat, other):
            return chains.reveal(joint, colour, other)
    waiting = awaiting(state)
    if waiting == "dice" and not joint.revealed(seat, seats + state.current):
        return chains.reveal(joint, colour, seats + state.current)
    if waiting == "draw" and state.current == seat and waiting_on(joint, seat) == [seat]:
        return chains.reveal(joint, colour, seat)
    return None


def waiting_for(state: GameState, last: int) -> list[int]:
    """The seats whose line the game waits for, first the one expected next: a commitment, a
    reveal, a move; ``last`` (the writer of the last line) while the rules' consequences are
    not all written; none once the game is over."""
    joint = state.joint
    assert joint is not None, "a remote game"
    if not joint.all_committed:
        seat = next_to_commit(joint)
        return [] if seat is None else [seat]
    waiting = awaiting(state)
    if waiting is None:
        return [last]
    if waiting == "over":
        return []
    if waiting == "draw":
        return waiting_on(joint, state.current)
    if waiting == "dice":
        return waiting_on(joint, joint.seats + state.current)
    current = state.current
    return [joint.deputy(current) if joint.gone[current] else current]


def claim(state: GameState, seat: int, at: int) -> ClaimTimeout:
    """A timeout claim by ``seat`` against the seat whose line the game waits for (RM-4), at
    ``at`` (Unix seconds, the claimer's clock); ``decide`` checks it."""
    seats = waiting_for(state, -1)
    against = state.players[seats[0]] if seats else ""
    return ClaimTimeout(state.players[seat], against, at)


def check_claim(state: GameState, seat: int, against: str) -> None:
    """RM-4: a seat may claim a timeout against the seat whose line the game waits for, in a
    remote game with a time per move, while the game is not over.

    :raises IllegalMove: naming what is wrong.
    """
    joint = state.joint
    if joint is None or joint.remote.time_per_move is None:
        raise IllegalMove("only a remote game with a time per move takes a timeout claim",
                          rule=RULE_TIME)
    waiting = awaiting(state)
    if waiting in (None, "over"):
        raise IllegalMove("no timeout now: " + ("the game is over" if waiting == "over" else
                          "the rules have consequences to write"), rule=RULE_TIME)
    seats = waiting_for(state, -1)
    if against not in state.players or not seats or state.players[seats[0]] != against:
        expected = state.players[seats[0]] if seats else "nobody"
        raise IllegalMove(f"the game waits for {expected}'s line, not {against}'s",
                          rule=RULE_TIME)
    if state.players[seat] == against:
        raise IllegalMove(f"{against} cannot claim a timeout against their own seat",
                          rule=RULE_TIME)
    if joint.gone[seat]:
        raise IllegalMove(f"{state.players[seat]}'s seat was given up: it writes nothing more",
                          rule=RULE_TAKEOVER)
    if joint.gone[state.players.index(against)]:
        raise IllegalMove(f"{against}'s seat was given up already: a bot plays it",
                          rule=RULE_TAKEOVER)
