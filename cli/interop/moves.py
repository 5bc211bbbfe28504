"""A classic game as the moves other programs record: each turn's drawn tile, where it went,
and the follower placed, skipped or taken back (CL-3, CL-4, CL-7). ``play_turn`` plays them
on a meeple table game (``new_table_game``), every move checked by the rules; ``turns_of``
reads them back from a meeple game. Coordinates here are meeple's: y grows north."""

from __future__ import annotations

from dataclasses import dataclass

from meeple.engine import (
    DrawTile,
    Game,
    InvalidCommand,
    PlaceMeeple,
    PlaceTile,
    RulesError,
    SkipMeeple,
    TakeBack,
)
from meeple.events.model import (
    Event,
    GameStarted,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    Redone,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    Undone,
)

#: the classic colours, given in seating order to the players of a game from elsewhere
COLOURS = ("red", "green", "blue", "yellow", "black")


class Refused(Exception):
    """Input from elsewhere that meeple cannot take: one line naming what and where."""


@dataclass(frozen=True)
class Turn:
    """One turn: ``tile`` (meeple's id) placed at ``x``, ``y`` turned ``rotation``; then a
    follower on ``target`` (None: none), or one taken back from ``back`` (x, y, target)."""

    tile: str
    x: int
    y: int
    rotation: int
    target: str | None = None
    back: tuple[int, int, str] | None = None


def new_table_game(names: list[str], fiesta: bool, colours: list[str] | None = None) -> Game:
    """A classic table game for ``names`` in seating order (draws as recorded), in
    ``colours`` or, by default, the classic colours in their order."""
    if not 2 <= len(names) <= len(COLOURS):
        raise Refused(f"{len(names)} players; meeple's classic game takes 2 to {len(COLOURS)}")
    try:
        return Game.new(colours or list(COLOURS[:len(names)]), "classic", table=True, names=names,
                        expansions=["la-fiesta"] if fiesta else [])
    except InvalidCommand as exc:
        raise Refused(f"the players: {exc}") from None


def draw(game: Game, tile: str, where: str) -> bool:
    """Enter the tile drawn on a table game waiting for a draw: True if it can be placed,
    False if the rules set it aside (CL-3: no legal placement)."""
    try:
        if game.phase != "draw":
            raise Refused(f"{where}: the game is over, or waits for {game.phase}, not a draw")
        game.push(DrawTile(tile))
    except RulesError as exc:
        raise Refused(f"{where}: {exc}") from None
    return game.phase == "place"


def play_turn(game: Game, turn: Turn, where: str, *, done: bool = True) -> None:
    """Play ``turn`` on a table game waiting for a draw; ``where`` names it in an error.
    A turn not ``done`` stops after its follower, if it has one (nothing is skipped)."""
    if not draw(game, turn.tile, where):
        raise Refused(f"{where}: tile {turn.tile} cannot be placed anywhere")
    place(game, turn, where, done=done)


def place(game: Game, turn: Turn, where: str, *, done: bool = True) -> None:
    """Place the drawn tile as ``turn`` does, and its follower (``play_turn``)."""
    try:
        game.push(PlaceTile(turn.x, turn.y, turn.rotation))
        if game.phase != "meeple":
            if turn.target is not None or turn.back is not None:
                raise Refused(f"{where}: a follower after a move that allows none")
            return
        if turn.back is not None:
            game.push(TakeBack(*turn.back))
        elif turn.target is not None:
            game.push(PlaceMeeple(turn.target))
        elif done:
            game.push(SkipMeeple())
    except RulesError as exc:
        raise Refused(f"{where}: {exc}") from None


def follower_choices(game: Game) -> bool:
    """Whether the player may do something with a follower now (place one, or take one back):
    where another program asks the player, rather than passing by itself."""
    moves = game.legal_moves()
    offered = any(move.targets and move.figures for move in moves)
    return offered or bool(game.take_back_options())


def effective_inputs(events: tuple[Event, ...]) -> list[Event]:
    """The players' input events still in effect, in order: those undone and not redone are
    left out (DESIGN.md, undo policy: an undo takes whole steps off the top, a redo puts
    steps back by the seq that began each)."""
    by_seq: dict[int, Event] = {}
    kept: list[int] = []
    undone: dict[int, list[int]] = {}
    for event in events:
        if isinstance(event, (TileDrawn, TilePlaced, MeeplePlaced, MeepleSkipped,
                              MeepleTakenBack, TileSetAside)):
            by_seq[event.seq] = event
            kept.append(event.seq)
        elif isinstance(event, Undone):
            for seq in event.steps:  # newest first
                undone[seq] = [s for s in kept if s >= seq]
                kept = [s for s in kept if s < seq]
        elif isinstance(event, Redone):
            for seq in event.steps:  # oldest first
                kept += undone.pop(seq, [])
    return [by_seq[seq] for seq in kept]


def turns_of(game: Game) -> list[Turn]:
    """The turns of a meeple classic game in effect (a tile drawn but not placed yet is left
    out); refuses what other programs cannot hold: a tile set aside (CL-3)."""
    setup = game.setup
    if not isinstance(setup, GameStarted) or setup.edition != "classic":
        raise Refused("only classic games go to other programs")
    turns: list[Turn] = []
    current: dict | None = None
    for event in effective_inputs(game.events):
        if isinstance(event, TileSetAside):
            raise Refused(f"line {event.seq + 1}: tile {event.tile} was set aside; other "
                          "programs cannot record a tile no one could place")
        if isinstance(event, TilePlaced):
            if current is not None:
                turns.append(Turn(**current))
            current = {"tile": event.tile, "x": event.x, "y": event.y,
                       "rotation": event.rotation}
        elif isinstance(event, MeeplePlaced) and current is not None:
            if event.figure != "small":
                raise Refused(f"line {event.seq + 1}: a {event.figure} figure")
            current["target"] = event.target
        elif isinstance(event, MeepleTakenBack) and current is not None:
            current["back"] = (event.spot.x, event.spot.y, event.spot.feature)
    if current is not None:
        turns.append(Turn(**current))
    return turns


def fiesta_of(game: Game) -> bool:
    """Whether the game is played with La Fiesta's tiles."""
    return any(tile.festival for tile in game.setup.tileset.definition.tiles)


def names_of(game: Game) -> list[str]:
    return [player.name for player in game.setup.players]
