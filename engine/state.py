"""The state of a game, built from its ``game_started`` event (the set-up rules of its edition).

A ``GameState`` is owned by whoever folds it: ``evolve`` updates it in place
and returns it (or, for undo, a rebuilt one). ``meeple.engine.setup.start`` checks a
set-up and builds the state the first event describes.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from meeple.engine.edition import Edition
from meeple.engine.history import History
from meeple.engine.joint import Joint
from meeple.engine.realms import Realms
from meeple.engine.tiles import TileSet, TileType
from meeple.events.model import Colour, Event, GameStarted, PointsScored, Spot


class Placed(msgspec.Struct, gc=False):
    """A tile on the board: its type, rotation index (0-3) and the node of each feature
    (it refers to nothing that refers back to it, so the garbage collector skips it)."""

    tile: TileType
    r: int
    nodes: tuple[int, ...]


class Battle(msgspec.Struct):
    """A contest in progress over one realm, settled by dice (the edition's contest rule)."""

    root: int
    spot: Spot
    dice: dict[str, int]
    active: list[str]
    roll: dict[str, tuple[int, ...]] | None = None
    tie_paid: set[str] = msgspec.field(default_factory=set)


#: where a turn stands: a tile to draw, to place, a figure to place, consequences to write
#: (battles), a remote game's end by a timeout claim, or the end
Phase = Literal["draw", "place", "meeple", "resolve", "forfeit", "over"]
#: what the game waits for from outside: a player's placement or figure, a draw or dice
#: entered at the table, or nothing more (``meeple.engine.flow.awaiting``)
Waiting = Literal["place", "meeple", "draw", "dice", "over"]


class Memos:
    """What the rules work out once and keep while the state stands: the next consequence
    (``next``: ``(event or None,)``, cleared by every change), the attack targets around the
    board (``attack``: centres indexed, targets by cell; a copy starts without it, so no two
    states share it while it grows), the end of the game's payments in order and the first
    not yet made (``final_queue``, ``final_from``), and every node a figure was placed on
    (``held_nodes``: a node stays when its figure leaves; the realms holding figures are
    among theirs).

    A plain class with slots: ``next`` is set at every event, and the interpreter stores
    into a slot of a plain class in one step, where a struct type's own ``__setattr__``
    takes the generic path each time."""

    __slots__ = ("next", "attack", "final_queue", "final_from", "held_nodes")

    def __init__(self, next: tuple[Event | None] | None = None,
                 attack: tuple[int, dict] | None = None,
                 final_queue: tuple[tuple[int, str, PointsScored], ...] | None = None,
                 final_from: int = 0, held_nodes: list[int] | None = None) -> None:
        self.next = next
        self.attack = attack
        self.final_queue = final_queue
        self.final_from = final_from
        self.held_nodes: list[int] = [] if held_nodes is None else held_nodes

    def copy(self) -> Memos:
        return Memos(self.next, None, self.final_queue, self.final_from, self.held_nodes[:])


class Search:
    """What a search's copy of a game keeps besides the rules' state
    (``meeple.engine.detached``): the frontier cells as a list and where each is in it, so
    that a playout picks a cell in one step (``meeple.engine.board.sample_placement``), and
    whether draws and dice are sampled from what players can see (``sampled``: ``pile`` is
    then the bag of tiles left, in an order that says nothing of the hidden one, and the rules
    wait for every draw and roll as in table mode)."""

    __slots__ = ("cells", "cell_at", "sampled")

    def __init__(self, cells: list[tuple[int, int]], sampled: bool) -> None:
        self.cells = cells
        self.cell_at = {cell: at for at, cell in enumerate(cells)}
        self.sampled = sampled

    def copy(self) -> Search:
        copy = Search.__new__(Search)
        copy.cells, copy.cell_at, copy.sampled = list(self.cells), dict(self.cell_at), self.sampled
        return copy


class GameState:
    """Everything a game's events have made so far: the board, realms, scores, whose turn it
    is and what the game waits for, with the memos the rules keep (a plain class: the rules
    change its fields on every event, which an interpreter speeds up for plain classes)."""

    def __init__(self, setup: GameStarted,
                 tileset: TileSet,
                 players: tuple[str, ...],
                 side_of: dict[str, str],
                 sides: tuple[str, ...],
                 faction: dict[str, str],
                 scores: dict[str, int],
                 reserve: dict[str, dict[str, int]],
                 remaining: dict[str, int],
                 pile: list[str],
                 edition: Edition,
                 digital: bool,
                 chance_known: bool,
                 player: Colour, *,
                 secret: str | None = None) -> None:
        self.setup: GameStarted = setup
        self.tileset: TileSet = tileset
        self.players: tuple[str, ...] = players
        self.side_of: dict[str, str] = side_of
        self.sides: tuple[str, ...] = sides
        self.faction: dict[str, str] = faction
        self.scores: dict[str, int] = scores
        self.reserve: dict[str, dict[str, int]] = reserve
        self.remaining: dict[str, int] = remaining
        #: how many tiles are left to draw: the sum of ``remaining``, kept by the appliers that
        #: change it (``draw_tile``, a reshuffle in ``_tile_set_aside``); change ``remaining``
        #: only through them
        self.left: int = sum(remaining.values())
        self.pile: list[str] = pile
        #: the game's edition: its data and the rules that differ between games
        self.edition: Edition = edition
        #: a digital game: draws and dice come from the seed
        self.digital: bool = digital
        #: whether draws and dice can be computed here: an open seed, or a sealed one's secret,
        #: in a state that does not sample chance (``sampled``)
        self.chance_known: bool = chance_known
        #: the colour whose turn it is: ``players[current]``
        self.player: Colour = player
        self.turn: int = 1
        self.current: int = 0
        self.phase: Phase = "draw"
        self.drawn: str | None = None
        self.board: dict[tuple[int, int], Placed] = {}
        #: every empty cell next to a tile, with its need (``meeple.engine.board``)
        self.frontier: dict[tuple[int, int], int] = {}
        #: the frontier cells of each need, in the order they took it
        self.groups: dict[int, dict[tuple[int, int], None]] = {}
        self.realms: Realms = Realms()
        self.placed_at: tuple[int, int] | None = None
        self.attacked: tuple[int, int] | None = None
        self.battle: Battle | None = None
        self.dice_used: int = 0
        self.reinserts: int = 0
        self.set_aside: list[str] = []
        self.placements: list[tuple[int, int]] = []
        #: the cells of tiles whose centre feature may be attacked from around (``Edition.attack``)
        self.attackable_cells: list[tuple[int, int]] = []
        #: for each cell, the cells around it (in ``AROUND`` order) whose tile has a centre
        #: feature, a planet or a cloister (``meeple.engine.board.lay`` keeps it)
        self.centres_near: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self.next_seq: int = 1
        self.winners: tuple[str, ...] | None = None
        self.secret: str | None = secret
        #: the undo history: steps in effect, steps a redo may bring back, states kept
        self.history: History = History()
        #: what the rules worked out once and keep until the state changes
        self.memo: Memos = Memos()
        #: what only a search's copy keeps (``meeple.engine.detached``); None in the referee's
        #: states, which ``evolve`` plays from a log
        self.search: Search | None = None
        #: a remote game's chance made by every seat (``meeple.engine.joint``); None elsewhere
        self.joint: Joint | None = None
        #: a remote game's seat that a timeout claim ended the game against (RM-4)
        self.forfeit: str | None = None
        #: the state takes no more events: a search's copy, or a state an undo replaced (kept
        #: for a redo of the same steps, it is only ever copied from then on)
        self.closed = False

    def copy(self) -> GameState:
        """An independent copy of the state: playing on either leaves the other as it was.

        The tile set (with its memos) is shared, not copied. The copy keeps undo states of
        its own, since its steps from now on are not the original's (``continued`` is the
        copy that goes on along the same line and shares them).
        """
        battle = self.battle
        if battle is not None:
            battle = Battle(battle.root, battle.spot, dict(battle.dice), list(battle.active),
                            dict(battle.roll) if battle.roll is not None else None,
                            set(battle.tie_paid))
        copy = GameState.__new__(GameState)
        # (then a copy of each field that changes; ``dict.copy`` clones the table at once,
        # where ``update`` of an empty dict from a sparse one inserts key by key)
        copy.__dict__ = self.__dict__.copy()
        copy.scores = dict(self.scores)
        copy.reserve = {colour: dict(r) for colour, r in self.reserve.items()}
        copy.remaining = dict(self.remaining)
        copy.pile = list(self.pile)
        copy.board = dict(self.board)
        copy.frontier = dict(self.frontier)
        copy.groups = {need: dict(group) for need, group in self.groups.items()}
        copy.realms = self.realms.copy()
        copy.battle = battle
        copy.set_aside = list(self.set_aside)
        copy.placements = list(self.placements)
        copy.attackable_cells = list(self.attackable_cells)
        copy.centres_near = dict(self.centres_near)
        copy.history = self.history.copy()
        copy.memo = self.memo.copy()
        copy.search = None if self.search is None else self.search.copy()
        if self.joint is not None:
            copy.joint = self.joint.copy()
        copy.closed = copy.search is not None
        return copy

    def continued(self) -> GameState:
        """A copy that goes on along this state's own line of play (consequences written
        ahead of a move): it shares the undo states kept, kept by the steps of that one line."""
        copy = self.copy()
        copy.history.kept = self.history.kept
        return copy

    def rule(self, what: str) -> str:
        """The rule id of a shared rule in this game's edition (``place``, ``meeple``, ...)."""
        return self.edition.rules[what]

    @property
    def in_hand(self) -> TileType:
        """The type of the tile in hand (the rules ask only while one is)."""
        drawn = self.drawn
        assert drawn is not None, "no tile is in hand"
        return self.tileset.types[drawn]

    @property
    def placed_cell(self) -> tuple[int, int]:
        """Where the tile of this turn was placed (the rules ask only once it is)."""
        placed = self.placed_at
        assert placed is not None, "no tile was placed this turn"
        return placed

    @property
    def sampled(self) -> bool:
        """A search's copy whose draws and dice are sampled from what players can see."""
        search = self.search
        return search is not None and search.sampled

    @property
    def sealed(self) -> bool:
        """A digital game whose seed is committed to by its SHA-256 only."""
        return self.setup.seed_sha256 is not None

    @property
    def seed(self) -> str:
        seed = self.setup.seed if self.setup.seed is not None else self.secret
        assert seed is not None, "a sealed game's chance needs its seed"
        return seed

    @property
    def bot_seed(self) -> str:
        """What the seeded bots break ties with: the game's seed, or a remote game's id (a
        seat given up is played by one, RM-5, and every copy replays its choices)."""
        joint = self.joint
        if joint is not None:
            return joint.remote.game
        seed = self.setup.seed  # (``seed``, inline: asked at every pick of a seeded bot)
        if seed is None:
            seed = self.secret
            assert seed is not None, "a sealed game's chance needs its seed"
        return seed

    def tiles_left(self) -> int:
        return self.left

    def name_of(self, colour: str) -> str:
        for p in self.setup.players:
            if p.colour == colour:
                return p.name
        return colour
