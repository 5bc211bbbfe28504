"""Full verification of a recorded game (``meeple check``, DESIGN.md).

Every input is re-decided from the state before it, and every consequence is
recomputed and compared with the recorded one. The first difference is
reported with its ``seq`` (the line is ``seq + 1``), what was expected and
what was found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import msgspec

from meeple.engine.applying import is_input
from meeple.engine.commands import (
    ClaimTimeout,
    Command,
    Commit,
    DrawTile,
    PlaceMeeple,
    PlaceTile,
    Redo,
    Reveal,
    RollDice,
    SkipMeeple,
    TakeBack,
    Undo,
)
from meeple.engine.deciding import decide
from meeple.engine.editions import edition_named
from meeple.engine.entered import decide_draw, decide_roll
from meeple.engine.errors import RulesError
from meeple.engine.flow import awaiting_seed, consequence, next_event
from meeple.engine.joint import RULE_SIGNED, RULE_TAKEOVER, writer
from meeple.engine.playing import Visit, walk
from meeple.engine.setup import seal, start
from meeple.engine.state import GameState
from meeple.events.model import (
    Committed,
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    Redone,
    Revealed,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    TimeoutClaimed,
    Undone,
)
from meeple.events.upcast import encode_as


class Finding(msgspec.Struct):
    """Where a recorded game departs from the rules."""

    seq: int
    message: str
    rule: str | None = None
    expected: str | None = None
    found: str | None = None

    @property
    def line(self) -> int:
        return self.seq + 1


class Verdict(msgspec.Struct):
    """The result of re-verifying a game: the state reached and the first finding, if any.

    ``chance`` says how draws and dice were checked: ``seed`` (recomputed from the recorded
    seed), ``revealed`` (from a sealed game's seed, revealed at its end and matching its
    commitment), ``sealed`` (not revealed yet: taken as recorded, after checking that each
    tile was left to draw and each side rolled its number of dice), or ``table``.
    """

    state: GameState | None
    finding: Finding | None
    pending: bool = False
    chance: str = "seed"


_COMMAND_OF: dict[type, Callable[[Any], Command]] = {
    TilePlaced: lambda e: PlaceTile(e.x, e.y, e.rotation),
    MeeplePlaced: lambda e: PlaceMeeple(e.target, e.figure),
    MeepleSkipped: lambda e: SkipMeeple(),
    MeepleTakenBack: lambda e: TakeBack(e.spot.x, e.spot.y, e.spot.feature),
    TileDrawn: lambda e: DrawTile(e.tile),
    DiceRolled: lambda e: RollDice({r.side: r.values for r in e.rolls}),
    Undone: lambda e: Undo(len(e.steps)),
    Redone: lambda e: Redo(len(e.steps)),
    Committed: lambda e: Commit(e.player, e.chains),
    Revealed: lambda e: Reveal(e.player, e.slot, e.index, e.element),
    TimeoutClaimed: lambda e: ClaimTimeout(e.player, e.against, e.at),
}


def command_of(event: Event) -> Command | None:
    """The command that a recorded input event answers to."""
    make = _COMMAND_OF.get(type(event))
    return make(event) if make is not None else None


def _text(event: Event, state: GameState) -> str:
    """An event as the game's log writes it (in the log's schema), without its ``prev``."""
    return encode_as(msgspec.structs.replace(event, prev=None), state.setup.schema).decode()


def _same(a: Event, b: Event) -> bool:
    """Equal but for ``prev`` (events the rules make carry none)."""
    if a.prev is not None:
        a = msgspec.structs.replace(a, prev=None)
    return a == (msgspec.structs.replace(b, prev=None) if b.prev is not None else b)


class _Found(Exception):
    """Stops the walk at the first event that departs from the rules, in ``state`` (the
    state before that event)."""

    def __init__(self, finding: Finding, state: GameState) -> None:
        super().__init__(finding.message)
        self.finding = finding
        self.state = state


def verify(events: list[Event], secret: str | None = None, *,
           visit: Visit | None = None, signers: Sequence[int] | None = None) -> Verdict:
    """Re-run the rules over a structurally sound log (see ``meeple.events.log.read``), in one
    walk of it (``meeple.engine.playing.walk``); ``visit`` sees each event with the state
    right after it as the walk passes (to keep the state at a point, copy it).

    A remote game's ``signers`` (the seat whose key signed each line, as reading found) must
    be the seats the rules say write each line (``meeple.engine.joint.writer``).

    ``secret`` is a sealed game's seed where its holder checks; otherwise the seed revealed
    by ``game_ended`` is used, once it matches the commitment in ``game_started``.
    """
    first = events[0]
    assert isinstance(first, GameStarted)
    chance = "table" if first.mode == "table" else "seed"
    if first.seed_sha256 is not None:
        if secret is None:
            revealed, finding = _revealed_seed(first, events)
            if finding is not None:
                return Verdict(None, finding)
            secret = revealed
        chance = "revealed" if secret is not None else "sealed"
    if first.mode == "remote":
        chance = "joint"
        if signers is None or len(signers) != len(events):
            return Verdict(None, Finding(0, "a remote game is checked with the signer of each "
                                         "of its lines", RULE_SIGNED))
        if signers[0] != getattr(first.remote, "host", None):
            return Verdict(None, Finding(0, "the set-up is not signed by the seat it names as "
                                         "its writer", RULE_SIGNED))
    try:
        state = start(first, secret)
    except RulesError as exc:
        return Verdict(None, Finding(0, f"bad set-up: {exc.message}", exc.rule))
    if visit is not None:
        visit(first, state)
    judge = _judge if signers is None else _signed_judge(signers)
    try:
        state = walk(events[1:], judge=judge, visit=visit, state=state)
    except _Found as found:
        return Verdict(found.state, found.finding, chance=chance)
    return Verdict(state, None, pending=next_event(state) is not None, chance=chance)


def verify_after(state: GameState, events: Sequence[Event], *,
                 signers: Sequence[int] | None = None, chance: str = "seed") -> Verdict:
    """``verify`` going on from ``state``, the state after a game's events before ``events``
    (those verified already): each of ``events`` is judged as ``verify`` judges it, and a
    remote game's line by the seat in ``signers`` (by seq, every line so far). ``state`` is
    left as it was. For a holder that keeps a game verified once and checks only what comes
    (the relay); ``chance`` is the verdict's, as ``verify`` found it for the game before.
    """
    judge = _judge if signers is None else _signed_judge(signers)
    try:
        state = walk(events, judge=judge, state=state.copy())
    except _Found as found:
        return Verdict(found.state, found.finding, chance=chance)
    return Verdict(state, None, pending=next_event(state) is not None, chance=chance)


def _judge(state: GameState, event: Event) -> None:
    """The first departure from the rules, at ``event`` in ``state``: an input the rules
    refuse, or a consequence that differs from the one they write.

    :raises _Found: with the finding.
    """
    memo = state.memo.next  # (``next_event``, inline: once an event)
    if memo is None:
        memo = state.memo.next = (consequence(state),)
    expected = memo[0]
    if expected is None and not state.chance_known and awaiting_seed(state):
        finding = _check_sealed_chance(state, event)
    elif expected is None:
        finding = _check_input(state, event)
    elif not state.chance_known and _same_but_position(expected, event):
        finding = None
    elif expected != msgspec.structs.replace(event, prev=None):  # (``_same``, inline)
        finding = Finding(event.seq, "the recorded consequence differs from the rules'",
                          _rule_of(expected, event, state), _text(expected, state),
                          _text(event, state))
    else:
        finding = None
    if finding is not None:
        raise _Found(finding, state)


def _signed_judge(signers: Sequence[int]) -> Callable[[GameState, Event], None]:
    """``_judge``, and first RM-1: each line signed by the seat that writes it."""

    def judge(state: GameState, event: Event) -> None:
        seq = event.seq
        if 0 < seq < len(signers):
            if not 0 <= signers[seq] < len(state.players):
                raise _Found(Finding(seq, f"signed by seat {signers[seq]}, which is no seat of "
                                     "this game", RULE_SIGNED), state)
            expected = writer(state, event, signers[seq - 1])
            if signers[seq] != expected:
                raise _Found(Finding(seq, f"signed by seat {signers[seq]} "
                                     f"({state.players[signers[seq]]}), where seat {expected} "
                                     f"({state.players[expected]}) writes this line",
                                     RULE_SIGNED,
                                     state.players[expected], state.players[signers[seq]]),
                             state)
        _judge(state, event)

    return judge


def _revealed_seed(first: GameStarted, events: list[Event]) -> tuple[str | None, Finding | None]:
    """The seed a sealed game revealed: the same wherever a ``game_ended`` reveals one (an
    undo after the end may leave several), and the one committed to in ``game_started``."""
    seed: str | None = None
    for event in events:
        if not isinstance(event, GameEnded) or event.seed is None:
            continue
        if seal(event.seed) != first.seed_sha256:
            return None, Finding(event.seq, "the revealed seed is not the one committed to in "
                                 "game_started", edition_named(first.edition).rule("chance"),
                                 expected=first.seed_sha256,
                                 found=seal(event.seed))
        seed = event.seed
    return seed, None


def _rule_of(expected: Event, event: Event, state: GameState) -> str | None:
    """The rule a consequence breaks that differs from ``expected``, by the edition's roles:
    for the end of the game the rule of its winners (``winners``); a draw not the seed's,
    the rule of drawing the top tile of the pile (``draw``); a side rolling another number
    of dice, the rule of the dice a side rolls (``contest``); other dice than the seed's,
    the rule that chance comes from the seed (``chance``); else the rule the consequence
    names."""
    if isinstance(expected, GameEnded):
        return state.rule("winners")
    if isinstance(expected, DiceRolled) and isinstance(event, DiceRolled) and \
            [(r.side, len(r.values)) for r in expected.rolls] != \
            [(r.side, len(r.values)) for r in event.rolls]:
        return state.rule("contest")
    if isinstance(expected, TileDrawn | TileSetAside):
        return state.rule("draw")
    if isinstance(expected, DiceRolled):
        return state.rule("chance")
    return getattr(expected, "rule", None)


def _turn_rule(state: GameState) -> str:
    """The rule of whose turn it is: the edition's turn order, or where it names none, its
    rule of the player who draws and places."""
    return state.edition.rules.get("turn") or state.rule("draw")


def _same_but_position(expected: Event, event: Event) -> bool:
    """A reshuffled tile's position comes from the seed: unknown while a sealed seed is."""
    return (isinstance(expected, TileSetAside) and isinstance(event, TileSetAside)
            and _same(msgspec.structs.replace(expected, position=event.position), event))


def _check_sealed_chance(state: GameState, event: Event) -> Finding | None:
    """A draw or roll of a sealed game, before its seed is revealed: the tile must be left to
    draw, and every side in the battle must roll its number of dice, 1 to 6."""
    if isinstance(event, GameEnded):
        return Finding(event.seq, "a sealed game ends only when the holder of its seed reveals "
                       "it: this game_ended reveals no seed that matches the commitment",
                       state.rule("chance"), "game_ended with the seed", _text(event, state))
    try:
        if isinstance(event, TileDrawn) and state.phase == "draw":
            decided = decide_draw(state, DrawTile(event.tile))
        elif isinstance(event, DiceRolled) and state.battle is not None:
            decided = decide_roll(state, RollDice({r.side: r.values for r in event.rolls}))
        else:
            return Finding(event.seq, "the sealed game was waiting for a draw or a roll here",
                           None, "tile_drawn or dice_rolled", _text(event, state))
    except RulesError as exc:
        return Finding(event.seq, f"illegal: {exc.message}", exc.rule, exc.legal, _text(event, state))
    if not _same(decided, event):
        return Finding(event.seq, "the recorded draw or roll differs from what the rules record",
                       _rule_of(decided, event, state), _text(decided, state),
                       _text(event, state))
    return None


def _check_input(state: GameState, event: Event) -> Finding | None:
    command = command_of(event)
    if command is None or not (is_input(state, event) or isinstance(event, (Undone, Redone))):
        if state.phase == "over":
            return Finding(event.seq, "the game was over here (game_ended): no consequence "
                           "follows it", None, "nothing, or an undo", _text(event, state))
        return Finding(event.seq, "the game was waiting for a player's move here, not a "
                       "consequence", None, "an input (placement, meeple, draw, dice or undo)",
                       _text(event, state))
    try:
        decided = decide(state, command)
    except RulesError as exc:
        return Finding(event.seq, f"illegal: {exc.message}", exc.rule, exc.legal, _text(event, state))
    if not _same(decided[0], event):
        player = getattr(event, "player", None)
        if player is not None and player != getattr(decided[0], "player", player):
            return Finding(event.seq, f"{player} moved where it is {state.player}'s turn",
                           _turn_rule(state), _text(decided[0], state), _text(event, state))
        return Finding(event.seq, "the recorded move differs from what the rules record for it",
                       None, _text(decided[0], state), _text(event, state))
    joint = state.joint
    if joint is not None and joint.gone[state.current] and isinstance(event, _BOT_MOVES):
        return _check_bot_move(state, event)
    return None


def _check_bot_move(state: GameState, event: Event) -> Finding | None:
    """RM-5: the move of a seat given up is its bot's."""
    from meeple.engine.takeover import bot_move  # (the bots load only when a game needs one)

    joint = state.joint
    assert joint is not None
    bot = decide(state, bot_move(state))[0]
    if _same(bot, event):
        return None
    return Finding(event.seq, f"{state.player}'s seat was given up: its moves are the "
                   f"{joint.remote.takeover} bot's", RULE_TAKEOVER, _text(bot, state),
                   _text(event, state))


#: what a seat given up may do: its bot's move, never an undo or a redo
_BOT_MOVES = (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack, Undone, Redone)
