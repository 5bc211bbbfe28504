"""Checking commands against the rules (DESIGN.md: ``decide`` validates and returns events).

``decide(state, command)`` never changes the state. It raises
``InvalidCommand`` for malformed input and ``IllegalMove`` for what the rules
forbid, each with the rule id and what would be legal.
"""

from __future__ import annotations

from typing import Never, NoReturn

from meeple.engine.board import (
    attackable_around,
    fitting_groups,
    placements,
    touched_sides,
)
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
    not_a_command,
)
from meeple.engine.edition import a_figure
from meeple.engine.entered import (
    decide_claim,
    decide_commit,
    decide_draw,
    decide_reveal,
    decide_roll,
)
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.engine.flow import awaiting, awaiting_seed
from meeple.engine.geometry import AROUND, ROTATIONS
from meeple.engine.history import REDO_RULE, UNDO_RULE
from meeple.engine.joint import RULE
from meeple.engine.state import GameState
from meeple.engine.targets import Target
from meeple.engine.tiles import PORTS
from meeple.events.model import (
    DiceRolled,
    Event,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    Redone,
    Spot,
    TilePlaced,
    Undone,
)

_WAITING = {
    "place": "place the drawn tile",
    "draw": "enter the drawn tile",
    "dice": "enter the dice of the battle round",
    "over": "nothing: the game is over",
}

#: the role of the rule behind what the game waits for (see ``Edition.rule``)
_RULE_OF = {"place": "place", "meeple": "target", "draw": "draw", "dice": "dice", "over": "end"}


def decide(state: GameState, command: Command) -> list[Event]:
    """The events a command causes, if the rules allow it now.

    :raises InvalidCommand: malformed command.
    :raises IllegalMove: the rules forbid it (rule id and legal options in the message).
    """
    match command:  # the most frequent first: a case that misses costs an isinstance
        case PlaceTile():
            _require(state, "place")
            return [_place_tile(state, command)]
        case SkipMeeple():
            _require(state, "meeple")
            return [_skip(state, command)]
        case PlaceMeeple():
            _require(state, "meeple")
            return [_place_meeple(state, command)]
        case TakeBack():
            _require(state, "meeple")
            return [_take_back(state, command)]
        case Undo():
            return [_undo(state, command)]
        case Redo():
            return [_redo(state, command)]
        case DrawTile():
            _require_entered(state, "draw")
            return [decide_draw(state, command)]
        case RollDice():
            _require_entered(state, "dice")
            return [decide_roll(state, command)]
        case Commit():
            return [decide_commit(state, command)]
        case Reveal():
            return [decide_reveal(state, command)]
        case ClaimTimeout():
            return [decide_claim(state, command)]
        case _:
            _not_a_command(command)


def _not_a_command(command: Never) -> NoReturn:
    """Past every case of ``decide`` (mypy checks that none is missing, as ``assert_never``
    would): what a script passed is no command."""
    raise not_a_command(command)


def _require(state: GameState, needs: str) -> None:
    """Refuse a command the game is not waiting for, saying what it waits for."""
    waiting = awaiting(state)
    if waiting != needs:
        _wrong_phase(state, waiting, needs)


def _require_entered(state: GameState, needs: str) -> None:
    """Refuse a draw or dice entered by a player unless the game is a table game waiting for
    them: in a digital game they come from the seed, and in a sealed one only the seed's
    holder writes them (as the rules' consequence), never a player's command."""
    if state.digital:
        _wrong_phase(state, needs if awaiting(state) == needs else awaiting(state), needs)
    _require(state, needs)


def _waiting_words(state: GameState, waiting: str) -> str:
    """What the game waits for, in the game's edition's words."""
    if waiting == "meeple":
        return f"place {a_figure(state.edition)} or skip"
    return _WAITING[waiting]


def _wrong_phase(state: GameState, waiting: str | None, needs: str) -> None:
    if waiting is None:
        raise IllegalMove("the rules still have consequences to write before anyone acts",
                          rule=state.rule("resolve"))
    if awaiting_seed(state):
        raise IllegalMove("this sealed game's draws and dice come from a seed that only its "
                          "holder has: play on where its seed file is", rule=state.rule("chance"))
    if needs in ("draw", "dice") and state.joint is not None:
        what = "draws" if needs == "draw" else "dice"
        raise IllegalMove(f"{what} of a remote game come from every seat's revealed hash chains, "
                          "never from a player's entry", rule=RULE)
    if needs in ("draw", "dice") and state.digital:
        what = "draws" if needs == "draw" else "dice"
        raise IllegalMove(f"{what} come from the seed in a digital game; they are entered by "
                          "hand only in table mode", rule=state.rule("chance"))
    if waiting == "over":
        raise IllegalMove("not now: the game is over; nothing more can be played",
                          rule=state.rule(_RULE_OF[waiting]), legal=_WAITING[waiting])
    raise IllegalMove(
        f"not now: the game waits for {state.player} to {_waiting_words(state, waiting)}",
        rule=state.rule(_RULE_OF[waiting]),
    )


def _place_tile(state: GameState, command: PlaceTile) -> Event:
    assert state.drawn is not None
    tile = state.tileset.types[state.drawn]
    x, y, rotation = command.x, command.y, command.rotation
    if rotation not in ROTATIONS:
        raise InvalidCommand(f"rotation {rotation} is not 0, 90, 180 or 270", rule=state.rule("place"))
    if (x, y) in state.board:
        raise IllegalMove(f"({x}, {y}) already holds tile {state.board[(x, y)].tile.id}",
                          rule=state.rule("place"), legal=_where_legal(state, tile))
    need = state.frontier.get((x, y))
    if need is None:
        raise IllegalMove(f"({x}, {y}) does not touch a placed tile edge to edge; diagonal "
                          "contact alone does not count", rule=state.rule("place"),
                          legal=_where_legal(state, tile))
    legal = tile.degrees.get(need, ())
    if rotation not in legal:
        if legal:
            hint = f"legal rotations of {tile.id} at ({x}, {y}): " + ", ".join(map(str, legal))
        else:
            hint = f"no rotation of {tile.id} fits at ({x}, {y}); " + _where_legal(state, tile)
        raise IllegalMove(f"tile {tile.id} turned {rotation} does not match the edges around "
                          f"({x}, {y})", rule=state.rule("place"), legal=hint)
    return TilePlaced(seq=state.next_seq, player=state.player, tile=tile.id, x=x, y=y,
                      rotation=rotation)  # type: ignore[arg-type]


def _where_legal(state: GameState, tile) -> str:
    spots = sorted({(x, y) for x, y, _ in placements(state, tile)})
    shown = ", ".join(f"({x}, {y})" for x, y in spots[:8])
    more = f" and {len(spots) - 8} more" if len(spots) > 8 else ""
    return f"{tile.id} fits at {shown}{more}"


def resolve_target(state: GameState, target: str) -> tuple[Spot, tuple[int, int] | None]:
    """Where a (canonical, already checked) target puts the meeple, and the attacked cell."""
    x, y = state.placed_cell
    parsed = Target.of(target)
    cell = parsed.cell
    if cell is not None and cell != (x, y):
        return Spot(x=cell[0], y=cell[1], feature=parsed.feature), cell
    return Spot(x=x, y=y, feature=parsed.feature), None


def legal_targets(state: GameState) -> list[str]:
    """The targets a meeple may take after the tile just placed."""
    cell = state.placed_at
    assert cell is not None  # (``placed_cell``, inline: asked for every move listed)
    x, y = cell
    placed = state.board[(x, y)]
    # (one node and one target per feature)
    targets = state.realms.unheld(placed.nodes, placed.tile.orientations[placed.r].targets)
    attack = state.edition.attack
    if attack is not None:
        cells = attackable_around(state, x, y)
        if cells:
            targets.extend(str(Target(attack, None, cell)) for cell in cells)
    return targets


def moves_with_targets(state: GameState, tile) -> list[tuple[int, int, int, tuple[str, ...]]]:
    """Every legal placement with the meeple targets it allows.

    A feature is free when no realm it would join holds a meeple, counting realms it joins
    through another feature of the same tile (two fields of the tile that border one realm
    are one realm once the tile lies). What the neighbours hold is looked up once per cell:
    the ports each neighbouring realm touches and a busy bit per port (the middle port of
    each side where paths hold the middle port, all three where fields hold the halves);
    each rotation's targets then come from ``Oriented.free``.
    """
    board = state.board
    realms = state.realms
    find = realms.find
    parent = realms.parent
    data = realms.data
    attacks = attack_targets(state)
    orientations = tile.orientations
    memos = [o.free_memo for o in orientations]
    moves = []
    for need, cells, rotations in fitting_groups(state, tile):
        sides = touched_sides(need)
        for x, y in cells:
            busy = 0
            ports: dict[int, int] = {}  # neighbour root -> bit mask of the ports it touches
            repeated = False  # a root at two ports or more
            for side, dx, dy in sides:
                other = board[(x + dx, y + dy)]
                nodes = other.nodes
                for bits, their in other.tile.orientations[other.r].faces[side]:
                    root = parent[nodes[their]]  # (``Realms.root``, inline: a call here cost
                    if parent[root] != root:     # the whole listing 4% more steps)
                        root = find(root)
                    had = ports.get(root, 0)
                    ports[root] = had | bits
                    if had or bits & (bits - 1):
                        repeated = True
                    if data[root].meeples:
                        busy |= bits
            touching = busy  # and a field per realm at two ports or more (``Oriented.free``)
            if repeated:
                shift = PORTS
                for mask in ports.values():
                    if mask & (mask - 1):
                        touching |= mask << shift
                        shift += PORTS
            around = attacks.get((x, y), ()) if attacks is not None else ()
            for r in rotations:
                free = memos[r].get(touching)  # (``Oriented.free``, its memo read inline)
                if free is None:
                    free = orientations[r].free(touching)
                moves.append((x, y, r * 90, free + around if around else free))
    return moves


def attack_targets(state: GameState) -> dict[tuple[int, int], tuple[str, ...]] | None:
    """For each cell next to an attackable centre, its ``KIND@X,Y`` targets, N then clockwise;
    None where the edition has no attack. Kept in the state and brought up to date with the
    centre features laid since (they are only ever added), so it costs each one once."""
    attack = state.edition.attack
    if attack is None:
        return None
    memo = state.memo.attack
    if memo is None:
        memo = state.memo.attack = (0, {})
    seen, index = memo
    cells = state.attackable_cells
    if seen < len(cells):
        for cell in {(px - dx, py - dy) for px, py in cells[seen:] for dx, dy in AROUND}:
            index[cell] = tuple(str(Target(attack, None, centre))  # N then clockwise
                                for centre in attackable_around(state, *cell))
        state.memo.attack = (len(cells), index)
    return index


def _place_meeple(state: GameState, command: PlaceMeeple) -> Event:
    edition = state.edition
    figure = command.figure or edition.figures[0].name
    _check_figure(state, figure)
    colour = state.player
    target = Target.parse(command.target, edition)
    name, cell = target.feature, target.cell
    x, y = state.placed_cell
    placed = state.board[(x, y)]
    o = placed.tile.orientations[placed.r]
    if cell is not None and cell != (x, y):
        if name != edition.attack or cell not in attackable_around(state, x, y):
            raise IllegalMove(f"there is no {name} at ({cell[0]}, {cell[1]}) among "
                              f"the 8 tiles around ({x}, {y})",
                              rule=edition.rule("attack"), legal=_targets_hint(state))
        return MeeplePlaced(seq=state.next_seq, player=colour, target=str(target),
                            figure=figure)
    index = o.aliases.get(name, -1)
    if index < 0:
        if target.kind in state.tileset.vocabulary.kinds:
            raise IllegalMove(f"tile {placed.tile.id} as placed has no "
                              f"{target.kind}{target.edge_words()}",
                              rule=state.rule("meeple"), legal=_targets_hint(state))
        raise InvalidCommand(f"cannot read the meeple target {command.target!r}",
                             rule=edition.rule("target"), legal=edition.target_syntax)
    realm = state.realms.realm(placed.nodes[index])
    if realm.meeples:
        holders = ", ".join(sorted({c for c, _, _ in realm.meeples}))
        kind = placed.tile.features[index].kind
        raise IllegalMove(f"that {kind} is already held by {holders}; a realm with any meeple "
                          "takes no other", rule=state.rule("meeple"), legal=_targets_hint(state))
    return MeeplePlaced(seq=state.next_seq, player=colour, target=o.targets[index],
                        figure=figure)


def _targets_hint(state: GameState) -> str:
    legal = legal_targets(state)
    return "legal targets: " + (", ".join(legal) if legal else "none: skip")


def _check_figure(state: GameState, name: str) -> None:
    """The figure exists in the edition and the player has one left."""
    edition = state.edition
    noun = edition.figure
    kinds = edition.figures
    if edition.figure_named(name) is None:
        if len(kinds) == 1:
            raise IllegalMove(f"{edition.title}: {noun}s are all alike: there is no {name} one",
                              rule=edition.rule("reserve"),
                              legal=f"place a {kinds[0].name} {noun}")
        raise IllegalMove(f"{edition.title} has no {name} {noun}", rule=edition.rule("reserve"),
                          legal="figures: " + ", ".join(k.name for k in kinds))
    colour = state.player
    left = state.reserve[colour]
    if left[name]:
        return
    back = f", or take a {noun} back" if _may_take_back(state) else ""
    if len(kinds) == 1:
        raise IllegalMove(f"{colour} has no {noun} left in supply",
                          rule=edition.rule("reserve"), legal="skip" + back)
    others = [k.name for k in kinds if left[k.name]]
    if not others:
        hint = "none left: skip"
    else:
        hint = " and ".join(f"{left[k]} {k}" for k in others) + " left"
    raise IllegalMove(f"{colour} has no {name} {noun} in reserve", rule=edition.rule("reserve"),
                      legal=hint)


def _may_take_back(state: GameState) -> bool:
    """Whether the tile just placed bears the mark that lets a figure be taken back."""
    return state.placed_at is not None and state.board[state.placed_at].tile.festival


def followers_to_take_back(state: GameState) -> list[Spot]:
    """Where the player's figures stand, when the tile just placed lets one be taken back;
    in the order they were placed."""
    if not _may_take_back(state):
        return []
    colour = state.player
    spot = state.realms.spot
    found: list[int] = []
    for realm in state.realms.data:  # (a node that is no root holds a realm of nothing)
        found.extend(node for who, _, node in realm.meeples if who == colour)
    return [spot(node) for node in sorted(found)]


def _take_back(state: GameState, command: TakeBack) -> Event:
    if not _may_take_back(state):
        tile = state.board[state.placed_cell].tile.id
        mark, noun = state.edition.take_back_mark, state.edition.figure
        raise IllegalMove(f"tile {tile} has no {mark}: only after placing a tile with one may a "
                          f"{noun} be taken back", rule=state.rule("take-back"),
                          legal=f"place a {noun} or skip")
    name = Target.parse(command.target, state.edition).feature
    placed = state.board.get((command.x, command.y))
    if placed is not None:  # any name of the feature (an edge it reaches), as for a deploy
        o = placed.tile.orientations[placed.r]
        index = o.aliases.get(name, -1)
        if index >= 0:
            name = o.targets[index]
    spots = followers_to_take_back(state)
    for spot in spots:
        if (spot.x, spot.y) == (command.x, command.y) and spot.feature == name:
            return MeepleTakenBack(seq=state.next_seq, player=state.player, spot=spot)
    mine = ", ".join(f"{s.x} {s.y} {s.feature}" for s in spots) or "none"
    raise IllegalMove(f"{state.player} has no {state.edition.figure} on {name} at ({command.x}, "
                      f"{command.y})", rule=state.rule("take-back"),
                      legal=f"{state.player}'s followers: {mine}")


def _skip(state: GameState, command: SkipMeeple) -> Event:
    return MeepleSkipped(seq=state.next_seq, player=state.player)


def undoable(state: GameState) -> int:
    """How many steps the game's undo policy lets be taken back now.

    ``turn``: steps of the current turn until chance was revealed. A digital draw or die
    ends what can be undone; in table mode a typed entry of dice can itself be undone (a
    typo) but nothing before it, so no one takes a move back after seeing the dice.
    """
    policy = state.setup.options.undo
    steps = state.history.steps[1:]
    if policy == "none" or state.phase == "over" and policy != "any":
        return 0
    if policy == "any":
        return len(steps)
    count = 0
    for step in reversed(steps):
        if step.chance or step.turn != state.turn:
            break
        count += 1
        if isinstance(step.events[0], DiceRolled):
            break
    return count


def _undo(state: GameState, command: Undo) -> Event:
    policy = state.setup.options.undo
    if command.steps < 1:
        raise InvalidCommand("undo takes at least 1 step", rule=UNDO_RULE)
    if policy == "none":
        raise IllegalMove("this game was started with undo off", rule=UNDO_RULE)
    allowed = undoable(state)
    if command.steps > allowed:
        if policy == "turn":
            why = ("undo policy 'turn' takes back only steps of the current turn before "
                   "anything random is revealed (a draw or a die)")
        else:
            why = "that goes back past the start of the game"
        raise IllegalMove(f"cannot undo {command.steps} step(s): {why}", rule=UNDO_RULE,
                          legal=f"{allowed} step(s) can be undone now")
    steps = state.history.steps[-command.steps:]
    return Undone(seq=state.next_seq, steps=tuple(s.seq for s in reversed(steps)))


def _redo(state: GameState, command: Redo) -> Event:
    if command.steps < 1:
        raise InvalidCommand("redo takes at least 1 step", rule=REDO_RULE)
    if command.steps > len(state.history.redo):
        raise IllegalMove(f"cannot redo {command.steps} step(s): "
                          + ("nothing was undone since the last move" if not state.history.redo
                             else f"only {len(state.history.redo)} undone step(s) wait"), rule=REDO_RULE)
    steps = state.history.redo[-command.steps:]
    return Redone(seq=state.next_seq, steps=tuple(s.seq for s in reversed(steps)))


