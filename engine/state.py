"""The state of a game, built from its ``game_started`` event (SW-1, SW-2, SW-8).

A ``GameState`` is owned by whoever folds it: ``evolve`` updates it in place
and returns it (or, for undo, a rebuilt one). ``start`` checks a set-up and
builds the state the first event describes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import cast

import msgspec

from meeple.engine import chance
from meeple.engine.edition import Edition
from meeple.engine.editions import EDITIONS, edition_named
from meeple.engine.errors import InvalidCommand
from meeple.engine.realms import Realms
from meeple.engine.tiles import TileSet, TileType, compile_tileset
from meeple.events.model import MAX_NAME, SCHEMA_VERSION, Colour, Event, GameStarted, Spot
from meeple.events.text import fields_of_game_started, first_control
from meeple.events.tileset import content_hash, limits_fault


class Placed(msgspec.Struct):
    """A tile on the board: its type, rotation index (0-3) and the node of each feature."""

    tile: TileType
    r: int
    nodes: tuple[int, ...]


class Battle(msgspec.Struct):
    """A battle in progress over one realm (SW-5)."""

    root: int
    spot: Spot
    dice: dict[str, int]
    active: list[str]
    roll: dict[str, tuple[int, ...]] | None = None
    tie_paid: set[str] = msgspec.field(default_factory=set)


class Snapshots:
    """States at step boundaries, kept when an undo rebuilds one, so undoing to the same
    point again (undo/redo pairs) costs a copy, not a replay from the first line.

    Shared by every state of one game's fold; at most ``LIMIT`` states, the oldest used
    dropped first. Keyed by the ``seq`` of the last step in effect: the steps before a step
    never change (undo takes steps off the top; redo puts the same ones back).
    """

    LIMIT = 16

    def __init__(self) -> None:
        self._states: dict[int, tuple[int, GameState]] = {}

    def nearest(self, steps: list[Step]) -> tuple[int, GameState] | None:
        """The snapshot after the longest prefix of ``steps`` that is kept, with its length."""
        best: tuple[int, GameState] | None = None
        for key, (length, state) in self._states.items():
            if length <= len(steps) and steps[length - 1].seq == key \
                    and (best is None or length > best[0]):
                best = (length, state)
        if best is not None:
            key = steps[best[0] - 1].seq
            self._states[key] = self._states.pop(key)  # most recently used last
        return best

    def keep(self, steps: list[Step], state: GameState) -> None:
        """Keep a copy of ``state``, the state after ``steps``."""
        self._put(steps, state.copy())

    def stash(self, steps: list[Step], state: GameState) -> None:
        """Keep ``state`` itself, the state after ``steps``, which an undo supersedes: from
        now on it is only ever copied (see ``GameState.superseded``), so a redo of the same
        steps costs a copy instead of playing them again."""
        state.superseded = True
        self._put(steps, state)

    def _put(self, steps: list[Step], state: GameState) -> None:
        self._states.pop(steps[-1].seq, None)
        self._states[steps[-1].seq] = (len(steps), state)
        while len(self._states) > self.LIMIT:
            del self._states[next(iter(self._states))]


class Step(msgspec.Struct):
    """A unit of undo: an input event and the consequences that followed it."""

    events: list[Event]
    player: str
    turn: int
    chance: bool = False

    @property
    def seq(self) -> int:
        return self.events[0].seq


class GameState(msgspec.Struct):
    setup: GameStarted
    tileset: TileSet
    players: tuple[str, ...]
    side_of: dict[str, str]
    sides: tuple[str, ...]
    faction: dict[str, str]
    scores: dict[str, int]
    reserve: dict[str, dict[str, int]]
    remaining: dict[str, int]
    pile: list[str]
    turn: int = 1
    current: int = 0
    phase: str = "draw"
    drawn: str | None = None
    board: dict[tuple[int, int], Placed] = msgspec.field(default_factory=dict)
    frontier: dict[tuple[int, int], tuple] = msgspec.field(default_factory=dict)
    realms: Realms = msgspec.field(default_factory=Realms)
    placed_at: tuple[int, int] | None = None
    attacked: tuple[int, int] | None = None
    battle: Battle | None = None
    dice_used: int = 0
    reinserts: int = 0
    set_aside: list[str] = msgspec.field(default_factory=list)
    placements: list[tuple[int, int]] = msgspec.field(default_factory=list)
    planet_cells: list[tuple[int, int]] = msgspec.field(default_factory=list)
    next_seq: int = 1
    steps: list[Step] = msgspec.field(default_factory=list)
    redo: list[Step] = msgspec.field(default_factory=list)
    winners: tuple[str, ...] | None = None
    secret: str | None = None
    snapshots: Snapshots = msgspec.field(default_factory=Snapshots)
    #: set once an undo has replaced this state: it is kept for redo and must not change
    superseded: bool = False

    def copy(self) -> GameState:
        """An independent copy of the state: playing on either leaves the other as it was.

        The tile set (with its memos) and the undo snapshots are shared, not copied.
        """
        battle = self.battle
        if battle is not None:
            battle = Battle(battle.root, battle.spot, dict(battle.dice), list(battle.active),
                            dict(battle.roll) if battle.roll is not None else None,
                            set(battle.tie_paid))
        return msgspec.structs.replace(
            self,
            scores=dict(self.scores),
            reserve={colour: dict(r) for colour, r in self.reserve.items()},
            remaining=dict(self.remaining),
            pile=list(self.pile),
            board=dict(self.board),
            frontier=dict(self.frontier),
            realms=self.realms.copy(),
            battle=battle,
            set_aside=list(self.set_aside),
            placements=list(self.placements),
            planet_cells=list(self.planet_cells),
            steps=[Step(list(s.events), s.player, s.turn, s.chance) for s in self.steps],
            redo=list(self.redo),
            superseded=False,
        )

    @property
    def player(self) -> Colour:
        """The colour whose turn it is."""
        return cast(Colour, self.players[self.current])

    @property
    def edition(self) -> Edition:
        """The game's edition: its data and the rules that differ between games."""
        return EDITIONS[self.setup.edition]

    def rule(self, what: str) -> str:
        """The rule id of a shared rule in this game's edition (``place``, ``meeple``, ...)."""
        return EDITIONS[self.setup.edition].rules[what]

    @property
    def digital(self) -> bool:
        return self.setup.mode == "digital"

    @property
    def sealed(self) -> bool:
        """A digital game whose seed is committed to by its SHA-256 only."""
        return self.setup.seed_sha256 is not None

    @property
    def chance_known(self) -> bool:
        """Whether draws and dice can be computed here: an open seed, or a sealed one's secret."""
        return self.setup.seed is not None or self.secret is not None

    @property
    def seed(self) -> str:
        seed = self.setup.seed if self.setup.seed is not None else self.secret
        assert seed is not None, "a sealed game's chance needs its seed"
        return seed

    def tiles_left(self) -> int:
        return sum(self.remaining.values())

    def name_of(self, colour: str) -> str:
        for p in self.setup.players:
            if p.colour == colour:
                return p.name
        return colour


def check_setup(event: GameStarted) -> TileSet:
    """Check a ``game_started`` event; returns the compiled tile set.

    :raises InvalidCommand: naming the rule (SW-1.5, SW-8.1, schema, tile set hash).
    """
    if event.schema > SCHEMA_VERSION:
        raise InvalidCommand(
            f"this log has schema {event.schema}, newer than this meeple reads "
            f"({SCHEMA_VERSION}); upgrade meeple", rule="schema",
        )
    edition = edition_named(event.edition)
    rule = edition.rule("players")
    colours = [p.colour for p in event.players]
    low, high = edition.players
    if not low <= len(colours) <= high:
        raise InvalidCommand(f"{len(colours)} players; the game takes {low} to {high}", rule=rule)
    if len(set(colours)) != len(colours):
        raise InvalidCommand("each player needs a different colour", rule=rule,
                             legal="colours are " + ", ".join(edition.colours))
    for colour in colours:
        if colour not in edition.colours:
            raise InvalidCommand(f"{colour} is not a colour of the {edition.name} edition",
                                 rule=rule, legal="colours are " + ", ".join(edition.colours))
    if event.team:
        _check_teams(edition, colours)
    for player in event.players:
        if len(player.name) > MAX_NAME:
            raise InvalidCommand(f"the name of {player.colour} has {len(player.name)} characters; "
                                 f"the limit is {MAX_NAME}", rule=rule)
    found = first_control(fields_of_game_started(event))
    if found is not None:
        raise InvalidCommand(f"{found[0]} holds the control character {found[1]}; names, "
                             "colours, tile ids and set names may not", rule=rule)
    if event.mode == "digital" and (event.seed is None) == (event.seed_sha256 is None):
        raise InvalidCommand("a digital game records its seed, or only the seed's SHA-256 when "
                             "sealed; not both, not neither", rule=edition.rule("chance"))
    if event.mode == "table" and (event.seed is not None or event.seed_sha256 is not None):
        raise InvalidCommand("a table-mode game has no seed: players enter draws and dice",
                             rule=edition.rule("chance"))
    record = event.tileset
    fault = limits_fault(record.definition)
    if fault is not None:
        raise InvalidCommand(f"tile set field {fault[0]}: {fault[1]}", rule=edition.rule("tiles"))
    if record.definition.edition != edition.name:
        raise InvalidCommand(f"the tile set is for the {record.definition.edition} edition, the "
                             f"game for {edition.name}", rule=edition.rule("tiles"))
    if record.name != record.definition.name:
        raise InvalidCommand(f"the tile set is recorded as {record.name!r} but its definition is "
                             f"named {record.definition.name!r}", rule=edition.rule("tiles"))
    actual = content_hash(record.definition)
    if actual != record.sha256:
        raise InvalidCommand(f"the tile set's recorded sha256 {record.sha256[:12]} does not match "
                             f"its definition ({actual[:12]})", rule=edition.rule("tiles"))
    return compile_tileset(record.definition)


def _check_teams(edition: Edition, colours: Sequence[str]) -> None:
    """SW-8.1: two teams of two, seated so that factions alternate."""
    rule = edition.team_rule
    if rule is None:
        raise InvalidCommand(f"the {edition.name} edition has no team variant",
                             rule=edition.rule("players"))
    if sorted(colours) != sorted(["red", "green", "black", "white"]):
        raise InvalidCommand("the team variant takes exactly red, green, black and white",
                             rule=rule)
    factions = [edition.factions[c] for c in colours]
    if any(a == b for a, b in zip(factions, factions[1:] + factions[:1], strict=True)):
        raise InvalidCommand("in the team variant seating alternates factions, e.g. "
                             "red,black,green,white", rule=rule)


def seal(seed: str) -> str:
    """The commitment to a seed that a sealed game records: its SHA-256 hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def start(event: GameStarted, secret: str | None = None) -> GameState:
    """The state right after set-up: start tile at (0, 0) unrotated, the rest in the pile (SW-2.1).

    ``secret`` is a sealed game's seed, where its holder plays; without it the pile's order
    and the dice are unknown here, and recorded ones are taken as they are until revealed.

    :raises InvalidCommand: see ``check_setup``; a secret that is not the committed seed.
    """
    tileset = check_setup(event)
    edition = EDITIONS[event.edition]
    if secret is not None:
        if event.seed_sha256 is None:
            raise InvalidCommand("only a sealed game takes a secret seed",
                                 rule=edition.rule("chance"))
        if seal(secret) != event.seed_sha256:
            raise InvalidCommand("this seed is not the one the game committed to (its SHA-256 "
                                 "differs from seed_sha256 in game_started)",
                                 rule=edition.rule("chance"))
    colours: tuple[str, ...] = tuple(p.colour for p in event.players)
    # SW-8: a team's side is its faction (rebel or empire)
    side_of = {c: (edition.factions[c] if event.team else c) for c in colours}
    sides = tuple(dict.fromkeys(side_of[c] for c in colours))
    faction = {side_of[c]: edition.factions[c] for c in colours if c in edition.factions}
    remaining = {t.id: t.count for t in tileset.types.values()}
    remaining[tileset.start] -= 1
    pile: list[str] = []
    seed = event.seed if event.seed is not None else secret
    if event.mode == "digital" and seed is not None:
        pile = chance.shuffled(seed, [i for i, n in remaining.items() for _ in range(n)])
    state = GameState(
        setup=event,
        tileset=tileset,
        players=colours,
        side_of=side_of,
        sides=sides,
        faction=faction,
        scores={s: 0 for s in sides},
        reserve={c: edition.reserve() for c in colours},
        remaining=remaining,
        pile=pile,
        secret=secret,
    )
    state.frontier[(0, 0)] = (None, None, None, None)
    from meeple.engine.board import lay  # board depends on state's types

    lay(state, tileset.types[tileset.start], 0, 0, 0)
    state.steps.append(Step([event], colours[0], 0))
    return state
