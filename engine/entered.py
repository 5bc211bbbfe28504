"""Chance entered by the players: at the table (table mode, the edition's chance rule) a tile
that is left to draw, and every side's dice of a battle round, 1 to 6 (``meeple check`` holds
a sealed game's draws and dice to the same, before its seed is revealed); in a remote game,
each seat's commitment to its hash chains and each element it reveals (RM-2,
``meeple.engine.joint``).
"""

from __future__ import annotations

from typing import cast

from meeple.engine.commands import ClaimTimeout, Commit, DrawTile, Reveal, RollDice
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.engine.joint import RULE, check_commit, check_reveal
from meeple.engine.protocol import check_claim
from meeple.engine.state import GameState
from meeple.events.model import (
    Colour,
    Committed,
    DiceRolled,
    Event,
    Revealed,
    Roll,
    TileDrawn,
    TimeoutClaimed,
)


def decide_draw(state: GameState, command: DrawTile) -> Event:
    """Table mode (and sealed games before the reveal): a draw of a tile that is left."""
    tile = _tile_id(state, command.tile)
    if tile not in state.tileset.types:
        known = ", ".join(sorted(state.tileset.types))
        raise InvalidCommand(f"there is no tile {tile!r} in the tile set {state.tileset.name}",
                             rule=state.rule("tiles"), legal=f"tile ids: {known}")
    if not state.remaining[tile]:
        left = ", ".join(f"{t}" for t, n in sorted(state.remaining.items()) if n)
        raise IllegalMove(f"no tile {tile} is left to draw: all "
                          f"{state.tileset.types[tile].count} are out", rule=state.rule("tiles"),
                          legal=f"tiles left: {left}")
    return TileDrawn(seq=state.next_seq, player=state.player, tile=tile)


def _tile_id(state: GameState, typed: str) -> str:
    """The tile id a player typed, matched without regard to case when that is unambiguous."""
    if typed in state.tileset.types:
        return typed
    found = [tile for tile in state.tileset.types if tile.casefold() == typed.casefold()]
    return found[0] if len(found) == 1 else typed


def decide_roll(state: GameState, command: RollDice) -> Event:
    """Table mode (and sealed games before the reveal): every side rolls its dice, 1 to 6."""
    battle = state.battle
    assert battle is not None
    given: dict[str, tuple[int, ...]] = {}
    for who, values in command.rolls.items():
        who = who.lower()
        side = state.side_of.get(who, who)
        if side not in battle.dice:
            raise InvalidCommand(f"{who!r} is not in this battle", rule=state.rule("dice"),
                                 legal="sides rolling: " + _dice_wanted(battle))
        if side in given:
            raise InvalidCommand(f"dice for {side} given twice", rule=state.rule("dice"))
        if side not in battle.active:
            raise IllegalMove(f"{side} has left this battle", rule=state.rule("dice"),
                              legal="sides rolling: " + _dice_wanted(battle))
        if any(not 1 <= v <= 6 for v in values):
            raise InvalidCommand(f"dice of {side} must be 1 to 6, got "
                                 + ",".join(map(str, values)), rule=state.rule("dice"))
        if len(values) != battle.dice[side]:
            raise IllegalMove(f"{side} rolls {battle.dice[side]} dice in this battle, got "
                              f"{len(values)}", rule=state.rule("contest"), legal="sides rolling: "
                              + _dice_wanted(battle))
        given[side] = tuple(values)
    missing = [s for s in battle.active if s not in given]
    if missing:
        raise InvalidCommand("no dice given for " + ", ".join(missing), rule=state.rule("dice"),
                             legal="sides rolling: " + _dice_wanted(battle))
    return DiceRolled(seq=state.next_seq,
                      rolls=tuple(Roll(side=s, values=given[s]) for s in battle.active))


def _dice_wanted(battle) -> str:
    return ", ".join(f"{s}={battle.dice[s]} dice" for s in battle.active)


def _seat(state: GameState, colour: str) -> int:
    if state.joint is None:
        raise IllegalMove("only a remote game takes commitments and reveals", rule=RULE)
    if colour not in state.players:
        raise InvalidCommand(f"{colour!r} has no seat in this game", rule=RULE,
                             legal="seats: " + ", ".join(state.players))
    return state.players.index(colour)


def decide_commit(state: GameState, command: Commit) -> Event:
    """RM-2: a seat's commitment, once, in seat order."""
    seat = _seat(state, command.player)
    assert state.joint is not None
    check_commit(state.joint, seat, command.player, command.chains)
    return Committed(seq=state.next_seq, player=cast(Colour, state.players[seat]),
                     chains=tuple(command.chains))


def decide_reveal(state: GameState, command: Reveal) -> Event:
    """RM-2: an element a seat may reveal now (``meeple.engine.joint.check_reveal``)."""
    seat = _seat(state, command.player)
    joint = state.joint
    assert joint is not None
    check_reveal(joint, seat, command.player, command.slot, command.index, command.element,
                 mover=state.current,
                 waiting_for_dice=state.battle is not None and state.phase == "resolve")
    return Revealed(seq=state.next_seq, player=cast(Colour, state.players[seat]),
                    slot=command.slot, index=command.index, element=command.element)


def decide_claim(state: GameState, command: ClaimTimeout) -> Event:
    """RM-4: a timeout claim against the seat the game waits for."""
    seat = _seat(state, command.player)
    check_claim(state, seat, command.against)
    if not isinstance(command.at, int) or command.at < 0:
        raise InvalidCommand("a timeout claim's time is Unix seconds", rule=RULE)
    return TimeoutClaimed(seq=state.next_seq, player=cast(Colour, state.players[seat]),
                          against=cast(Colour, command.against), at=command.at)
