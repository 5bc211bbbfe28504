"""The event types of a game log: one closed, tagged union (DESIGN.md, "Events and the log").

Every line of a log is one event: ``{"type": ..., "seq": n, "prev": ..., ...}``.
``seq`` counts lines from 0; ``prev`` is the SHA-256 hex of the previous line's
bytes (``null`` on the first line). Inputs are what players decide or what
chance reveals (``tile_drawn``, ``tile_placed``, ``meeple_placed``,
``meeple_skipped``, ``dice_rolled``, ``undone``, ``redone``); every other event
is a consequence the rules dictate, written so people can read the log and so
``meeple check`` can recompute and compare it.
"""

# No `from __future__ import annotations` here: msgspec would evaluate each struct's
# annotations from strings when a decoder of them is built, at every command's start.

import typing
from typing import Annotated, Literal

import msgspec

from meeple.events.tileset import TileSetDef

SCHEMA_VERSION = 2
#: the longest figure name, in characters
MAX_FIGURE = 40
def whole(body: str) -> str:
    """A pattern that the whole text must match: ``body`` between ``^`` and ``$``, with no
    newline before the end (Python's ``$`` also matches just before a final newline, so
    ``^[0-9a-f]{32}$`` would take a game id with one after it)."""
    return f"^{body}(?!\\n)$"


#: the longest player name, in characters
MAX_NAME = 100

#: the colours of the bundled editions' boxes (an edition says which of them it plays with)
Colour = Literal["red", "green", "black", "white", "orange", "blue", "yellow"]
#: an edition's name: any registered edition (``meeple.engine.register_edition``); the set-up
#: check refuses one that is not installed
Edition = Annotated[str, msgspec.Meta(min_length=1, max_length=40,
                                     pattern=whole("[a-z][a-z0-9-]*"))]
Rotation = Literal[0, 90, 180, 270]
#: ``digital``: draws and dice from a seed; ``table``: entered by the players; ``remote``:
#: signed lines, draws and dice from every player's revealed hash chains (``Remote``)
Mode = Literal["digital", "table", "remote"]
Unplaceable = Literal["discard", "reshuffle"]
UndoPolicy = Literal["turn", "any", "none"]
#: why points were scored: ``realm`` (completed), ``final`` (at the end), or a reason of the
#: edition's own rules (a contest's, a final scoring step's); the rules check which
ScoreReason = Annotated[str, msgspec.Meta(min_length=1, max_length=40,
                                         pattern=whole("[a-z][a-z-]*"))]
#: a kind of figure, named by the edition: ``small``, ``large`` (schema 2; schema 1 wrote
#: ``large: true|false``)
Figure = Annotated[str, msgspec.Meta(min_length=1, max_length=MAX_FIGURE,
                                    pattern=whole("[a-z][a-z-]*"))]


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True, gc=False):
    """Base of the plain data carried inside events. Like events, it holds only text,
    numbers and tuples of such, so it can take part in no reference cycle: the garbage
    collector need not track it (a long log is many thousands of these)."""


#: a bot recorded for a seat: an engine bot's spec (``greedy``, ``mcts:500``, ``mcts:0.5s``),
#: never a program (a log names no program to run)
#: (its shape only: ``meeple.engine.botspec`` reads it strictly when the game is set up)
BotSpec = Annotated[str, msgspec.Meta(min_length=1, max_length=40,
                                      pattern=whole("[a-z][a-z0-9-]*(:[0-9.]{1,30}s?)?"))]


class PlayerDef(_Data, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A seat at the table: its colour, a display name, and the bot that plays it,
    if one does (written only then, so a log without bot seats reads as before)."""

    colour: Colour
    name: Annotated[str, msgspec.Meta(max_length=MAX_NAME)]
    bot: BotSpec | None = None


class Options(_Data, frozen=True, forbid_unknown_fields=True):
    """Game options: what becomes of an unplaceable tile, and the undo policy."""

    unplaceable: Unplaceable = "discard"
    undo: UndoPolicy = "turn"


class TileSetRecord(_Data, frozen=True, forbid_unknown_fields=True):
    """The tile set a game is played with, in full, with its content hash."""

    name: str
    sha256: str
    definition: TileSetDef


class Spot(_Data, frozen=True, forbid_unknown_fields=True):
    """A feature of a placed tile: ``x``, ``y`` and the target syntax (``route:E``, ``planet``)."""

    x: int
    y: int
    feature: str


class BattleSide(_Data, frozen=True, forbid_unknown_fields=True):
    """A side in a battle and the number of dice it rolls."""

    side: str
    dice: int


class Roll(_Data, frozen=True, forbid_unknown_fields=True):
    """The dice one side rolled in one battle round."""

    side: str
    values: tuple[int, ...]


class SideScore(_Data, frozen=True, forbid_unknown_fields=True):
    """A side's total score."""

    side: str
    points: int


#: a remote game's id: 32 lowercase hex digits, random at set-up (signatures name it, so a
#: line cannot be replayed in another game)
GameId = Annotated[str, msgspec.Meta(pattern=whole("[0-9a-f]{32}"))]
#: an OpenSSH Ed25519 public key without its comment: ``ssh-ed25519 AAAA...``
PublicKeyText = Annotated[str, msgspec.Meta(max_length=200,
                                            pattern=whole("ssh-ed25519 [A-Za-z0-9+/]+={0,2}"))]
#: a SHA-256 as 64 lowercase hex digits (a hash chain's link)
Hex32 = Annotated[str, msgspec.Meta(pattern=whole("[0-9a-f]{64}"))]
#: the chance slots of a remote game: each seat's draws, then each seat's dice (in seat order)
SlotName = Annotated[str, msgspec.Meta(max_length=12, pattern=whole("(draw|dice):[0-9]"))]
TimeoutRule = Literal["forfeit", "bot"]
#: the bots that may play a seat given up (RM-5): those anyone replays from the position
Takeover = Literal["greedy", "random"]


class Remote(_Data, frozen=True, forbid_unknown_fields=True):
    """What makes a game remote (its ``game_started``): the game's id, each seat's public key
    in seat order, which seat wrote the set-up, how many chance events each seat's hash
    chains cover, and the time a player has for a move (seconds; ``None``: no limit) with
    what a timeout claim decides."""

    game: GameId
    keys: tuple[PublicKeyText, ...]
    host: int
    chain: Annotated[int, msgspec.Meta(ge=1, le=100_000)]
    time_per_move: Annotated[int, msgspec.Meta(ge=60, le=365 * 86400)] | None = None
    timeout: TimeoutRule = "forfeit"
    #: with ``timeout`` ``bot``: the engine bot that plays a seat given up (RM-5); a bot that
    #: anyone can replay from the position, so that every copy checks its moves
    takeover: Takeover | msgspec.UnsetType = msgspec.UNSET
    #: a game a relay lists, for anyone to watch (unset: only those who know its id)
    public: bool | msgspec.UnsetType = msgspec.UNSET


class Event(
    msgspec.Struct,
    frozen=True,
    kw_only=True,
    tag_field="type",
    forbid_unknown_fields=True,
    gc=False,
):
    """Base of every log line (untracked by the garbage collector, see ``_Data``)."""

    seq: int
    prev: str | None = None


class GameStarted(Event, tag="game_started", kw_only=True, frozen=True):
    """Set-up: everything needed to replay the game without outside data.

    ``seed`` is the random seed in digital mode (draws and dice come from it);
    in table mode it is null and players enter draws and dice. A
    *sealed* digital game records only ``seed_sha256``, the SHA-256 of the seed,
    whose holder keeps the seed aside; ``game_ended`` reveals it.
    """

    schema: int
    edition: Edition
    players: tuple[PlayerDef, ...]
    tileset: TileSetRecord
    team: bool = False
    mode: Mode = "digital"
    seed: str | None = None
    options: Options = Options()
    seed_sha256: str | None = None
    #: a remote game's id, seats' keys and clock (never written for a local game)
    remote: Remote | msgspec.UnsetType = msgspec.UNSET


class TileDrawn(Event, tag="tile_drawn", kw_only=True, frozen=True):
    """A player draws a tile; from the seeded pile, or entered in table mode."""

    player: Colour
    tile: str


class TileSetAside(Event, tag="tile_set_aside", kw_only=True, frozen=True):
    """The drawn tile has no legal placement and is set aside.

    ``disposition`` is ``discarded`` (removed from the game) or ``reshuffled``
    (back into the pile; ``position`` counts from the top, digital mode only).
    """

    player: Colour
    tile: str
    disposition: Literal["discarded", "reshuffled"]
    position: int | None = None


class TilePlaced(Event, tag="tile_placed", kw_only=True, frozen=True):
    """A player places the drawn tile at ``x``, ``y`` turned ``rotation`` degrees clockwise."""

    player: Colour
    tile: str
    x: int
    y: int
    rotation: Rotation


class MeeplePlaced(Event, tag="meeple_placed", kw_only=True, frozen=True):
    """A player places a meeple from reserve on ``target``.

    ``target`` uses the command-line syntax of the edition's kinds, for example
    ``route:E``, ``asteroid:N``, ``planet`` (the placed tile's) or ``planet@X,Y`` (an attack).
    """

    player: Colour
    target: str
    figure: Figure = "small"


class MeepleSkipped(Event, tag="meeple_skipped", kw_only=True, frozen=True):
    """A player places no meeple this turn."""

    player: Colour


class BattleStarted(Event, tag="battle_started", kw_only=True, frozen=True):
    """A realm holds meeples of two or more sides: a battle begins."""

    realm: Spot
    sides: tuple[BattleSide, ...]


class DiceRolled(Event, tag="dice_rolled", kw_only=True, frozen=True):
    """One round of a battle: the dice every side still in it rolled."""

    rolls: tuple[Roll, ...]


class PointsScored(Event, tag="points_scored", kw_only=True, frozen=True):
    """Points for a side, with the reason and the rule that gives them.

    ``realm`` for a completed realm, ``final`` for an incomplete one at the end, ``tie``
    for a tied top roll and ``defeat`` for a side that lost a battle; an edition's own
    rules may pay for reasons of their own (e.g. a field's completed neighbours at the
    end). ``tiles``, ``symbols``, ``dice`` and ``cities`` (the completed areas a field
    borders) are the breakdown.
    """

    side: str
    points: int
    reason: ScoreReason
    rule: str
    realm: Spot
    tiles: int = 0
    symbols: int = 0
    dice: int = 0
    cities: int = 0


class MeepleTakenBack(Event, tag="meeple_taken_back", kw_only=True, frozen=True):
    """After placing a tile that lets one (an expansion's rule), a player takes one of
    their own figures on the board back to their supply instead of placing one."""

    player: Colour
    spot: Spot


class MeepleReturned(Event, tag="meeple_returned", kw_only=True, frozen=True):
    """A meeple goes back to its owner's reserve."""

    player: Colour
    figure: Figure
    spot: Spot


class BattleEnded(Event, tag="battle_ended", kw_only=True, frozen=True):
    """One side is left in the battle and holds the realm."""

    realm: Spot
    winner: str


class TurnEnded(Event, tag="turn_ended", kw_only=True, frozen=True):
    """The turn of ``player`` is over."""

    player: Colour
    turn: int


class GameEnded(Event, tag="game_ended", kw_only=True, frozen=True):
    """No tile is left to draw: final scores and winners, ties sharing the victory.

    In a sealed game ``seed`` reveals the seed whose SHA-256 ``game_started`` recorded.
    """

    scores: tuple[SideScore, ...]
    winners: tuple[str, ...]
    seed: str | None = None
    #: a remote game ended by a timeout claim: the seat that let its time pass (never
    #: written otherwise)
    forfeit: Colour | msgspec.UnsetType = msgspec.UNSET
    #: a remote game some of whose seats were given up and played by a bot (RM-5): those
    #: seats; such a game is unrated (never written otherwise)
    given_up: tuple[Colour, ...] | msgspec.UnsetType = msgspec.UNSET


class Committed(Event, tag="committed", kw_only=True, frozen=True):
    """A remote game's seat commits to its secret hash chains, one per chance slot (each
    seat's draws, then each seat's dice, in seat order): the last link of each."""

    player: Colour
    chains: tuple[Hex32, ...]


class Revealed(Event, tag="revealed", kw_only=True, frozen=True):
    """A remote game's seat reveals its element ``index`` of the hash chain of ``slot``: the
    link that hashes to the one revealed before it (or to the committed last link)."""

    player: Colour
    slot: SlotName
    index: Annotated[int, msgspec.Meta(ge=0, le=100_000)]
    element: Hex32


class TimeoutClaimed(Event, tag="timeout_claimed", kw_only=True, frozen=True):
    """A remote game: ``player`` claims that ``against``, whose line the game waits for, let
    the time per move pass; ``at`` is the claimer's clock (Unix seconds), their word alone."""

    player: Colour
    against: Colour
    at: Annotated[int, msgspec.Meta(ge=0, le=1 << 40)]


class Undone(Event, tag="undone", kw_only=True, frozen=True):
    """Steps taken back, by the ``seq`` of the event that began each, newest first.

    Nothing is deleted: the undone lines stay in the log (DESIGN.md, undo policy).
    """

    steps: tuple[int, ...]


class Redone(Event, tag="redone", kw_only=True, frozen=True):
    """Steps that were undone are applied again, by the ``seq`` that began each, oldest first."""

    steps: tuple[int, ...]


AnyEvent = (
    GameStarted
    | TileDrawn
    | TileSetAside
    | TilePlaced
    | MeeplePlaced
    | MeepleSkipped
    | MeepleTakenBack
    | BattleStarted
    | DiceRolled
    | PointsScored
    | MeepleReturned
    | BattleEnded
    | TurnEnded
    | GameEnded
    | Undone
    | Redone
    | Committed
    | Revealed
    | TimeoutClaimed
)

EVENT_TYPES: tuple[type[Event], ...] = typing.get_args(AnyEvent)

ENCODER = msgspec.json.Encoder()
DECODER = msgspec.json.Decoder(AnyEvent)


def encode(event: Event) -> bytes:
    """One log line's bytes, without the newline."""
    return ENCODER.encode(event)


def decode(line: bytes) -> Event:
    """Decode one line; raises ``msgspec.DecodeError`` (incl. ``ValidationError``), also for
    bytes that are not UTF-8."""
    try:
        return DECODER.decode(line)
    except UnicodeDecodeError as exc:
        raise msgspec.DecodeError(f"not UTF-8 text: {exc.reason} at byte {exc.start}") from None
    except RecursionError:
        raise msgspec.DecodeError("JSON nested too deeply for an event") from None


def tag_of(event_type: type[Event]) -> str:
    """The ``type`` value written for an event class."""
    return str(event_type.__struct_config__.tag)


def line_schema() -> dict:
    """The JSON Schema of one log line (used by ``meeple schema``)."""
    schema = msgspec.json.schema(AnyEvent)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "meeple game log line"
    schema["description"] = (
        "One line of a meeple JSON-lines game log. `prev` is the SHA-256 hex of the "
        "previous line's bytes (without its newline); the first line's is null."
    )
    return schema
