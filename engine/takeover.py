"""RM-5: a seat given up, played on by the bot its game's set-up names (README, "Playing
remotely"). A remote game set up with ``timeout`` ``bot`` and a ``takeover`` bot (one that
anyone replays from the position: ``greedy`` or ``random``, seeded by the game's id; the
``greedy`` a set-up names is the bot ``greedy-v1``, as when such games were first played) does
not end when a timeout claim is made against a seat: from then on the seat's chains are not
used (chance is made by the other seats), its moves are its bot's, written and signed by its
deputy (the next seat in seat order that is not given up), and every copy checks that each
is the bot's. ``game_ended`` lists the seats given up: the game is unrated.
"""

from __future__ import annotations

from meeple.engine.bots import TAKEOVER_BOTS
from meeple.engine.commands import Command
from meeple.engine.flow import awaiting
from meeple.engine.joint import RULE_TAKEOVER
from meeple.engine.state import GameState


def played_by_bot(state: GameState) -> bool:
    """Whether the player to move is a seat given up (its moves are its bot's)."""
    joint = state.joint
    return joint is not None and joint.gone[state.current]


def bot_move(state: GameState) -> Command:
    """The move of the seat given up that the game waits for: its bot's."""
    joint = state.joint
    assert joint is not None and isinstance(joint.remote.takeover, str)
    return TAKEOVER_BOTS[joint.remote.takeover](state)


def stand_in(state: GameState, seat: int) -> Command | None:
    """The bot's move that ``seat`` writes now, if the game waits for the move of a seat given
    up whose deputy ``seat`` is."""
    joint = state.joint
    if joint is None or not played_by_bot(state) or awaiting(state) not in ("place", "meeple"):
        return None
    return bot_move(state) if joint.deputy(state.current) == seat else None


__all__ = ["RULE_TAKEOVER", "bot_move", "played_by_bot", "stand_in"]
