"""Set-up: the ``game_started`` event of a new game, its
checks, and the state right after it (``start``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import get_args

import msgspec

from meeple.engine import chance
from meeple.engine.board import lay
from meeple.engine.botspec import read_spec, sees_only_the_table
from meeple.engine.compiled import compile_tileset
from meeple.engine.edition import Edition
from meeple.engine.editions import edition_named
from meeple.engine.errors import InvalidCommand
from meeple.engine.history import UNDO_RULE, Step
from meeple.engine.joint import RULE, RULE_TAKEOVER, Joint
from meeple.engine.state import GameState
from meeple.engine.tiles import TileSet
from meeple.events.digest import sha256
from meeple.events.memo import by_identity
from meeple.events.model import (
    MAX_NAME,
    SCHEMA_VERSION,
    GameStarted,
    Options,
    PlayerDef,
    Remote,
    TileSetRecord,
    Unplaceable,
)
from meeple.events.text import setup_control
from meeple.events.tileset import TileSetDef, content_hash, limits_fault


def new_game(
    colours: list[str],
    tileset: TileSetDef,
    *,
    names: list[str] | None = None,
    seed: str | None = None,
    team: bool = False,
    table: bool = False,
    unplaceable: str = "discard",
    undo: str = "turn",
    sealed: bool = False,
    bots: dict[str, str] | None = None,
    remote: Remote | None = None,
) -> GameStarted:
    """A checked ``game_started`` event (seq 0). ``sealed`` records only the seed's SHA-256;
    ``bots`` the seats bots play ({colour: bot spec}); ``remote`` makes a remote game (no
    seed: chance comes from every seat's hash chains).

    :raises InvalidCommand: unknown colour, wrong number of names, bad option, bad set-up.
    """
    compile_tileset(tileset)  # an unknown edition or a bad tile set stops here, named
    edition = edition_named(tileset.edition)
    rule = edition.rule("players")
    for colour in colours:
        if colour not in edition.colours:
            raise InvalidCommand(f"unknown colour {colour!r}", rule=rule,
                                 legal=f"colours of the {edition.name} edition are "
                                 + ", ".join(edition.colours))
    if names is not None and len(names) != len(colours):
        raise InvalidCommand(f"{len(names)} names for {len(colours)} players", rule=rule)
    if remote is not None and (table or sealed or seed is not None):
        raise InvalidCommand("a remote game has no seed and no table: every seat makes its "
                             "chance", rule=RULE)
    if sealed and (table or seed is None):
        raise InvalidCommand("a sealed game is a digital game with a seed",
                             rule=edition.rule("chance"))
    if undo not in ("turn", "any", "none"):
        raise InvalidCommand(f"undo must be turn, any or none, not {undo!r}", rule=UNDO_RULE)
    for colour in bots or {}:
        if colour not in colours:
            raise InvalidCommand(f"a bot seat for {colour}, who does not play", rule=rule,
                                 legal="players are " + ", ".join(colours))
    players = tuple(
        PlayerDef(colour=c, name=(names[i] if names else c),  # type: ignore[arg-type]
                  bot=(bots or {}).get(c))
        for i, c in enumerate(colours)
    )
    event = GameStarted(
        seq=0,
        schema=SCHEMA_VERSION,
        edition=edition.name,
        players=players,
        team=team,
        mode="remote" if remote is not None else "table" if table else "digital",
        seed=None if table or sealed else seed,
        seed_sha256=seal(seed) if sealed and seed is not None and not table else None,
        options=Options(unplaceable=unplaceable, undo=undo),  # type: ignore[arg-type]
        tileset=TileSetRecord(name=tileset.name, sha256=content_hash(tileset),
                              definition=tileset),
        remote=msgspec.UNSET if remote is None else remote,
    )
    check_setup(event)
    return event


def _check_seat(event: GameStarted, index: int, spec: str) -> None:
    """A recorded bot seat: a bot this meeple has, with a budget it reads (``read_spec``), and
    in table mode or a sealed game one that plays from what a player sees.

    :raises InvalidCommand: naming the field.
    """
    field = f"players[{index}].bot"
    try:
        read_spec(spec)
    except InvalidCommand as exc:
        raise InvalidCommand(f"the bot seat {field} is {spec!r}: {exc.message}",
                             legal=exc.legal) from None
    if (event.mode != "digital" or event.seed_sha256 is not None) \
            and not sees_only_the_table(spec):
        raise InvalidCommand(f"the bot seat {field} is {spec!r}, which takes its choices from "
                             "the game's seed: a table or sealed game does not give it one",
                             legal="seat mcts")


@by_identity(16)
def check_setup(event: GameStarted) -> TileSet:
    """Check a ``game_started`` event; returns the compiled tile set. Checked once per event
    (an undo that starts the game over does not check it again).

    :raises InvalidCommand: naming the rule (the edition's, schema, tile set hash).
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
    _check_unplaceable(edition, event.options.unplaceable)
    for index, player in enumerate(event.players):
        if len(player.name) > MAX_NAME:
            raise InvalidCommand(f"the name of {player.colour} has {len(player.name)} characters; "
                                 f"the limit is {MAX_NAME}", rule=rule)
        if player.bot is not None:
            _check_seat(event, index, player.bot)
    found = setup_control(event)
    if found is not None:
        raise InvalidCommand(f"{found[0]} holds the control character {found[1]}; names, "
                             "colours, tile ids and set names may not", rule=rule)
    if event.mode == "digital" and (event.seed is None) == (event.seed_sha256 is None):
        raise InvalidCommand("a digital game records its seed, or only the seed's SHA-256 when "
                             "sealed; not both, not neither", rule=edition.rule("chance"))
    if event.mode == "table" and (event.seed is not None or event.seed_sha256 is not None):
        raise InvalidCommand("a table-mode game has no seed: players enter draws and dice",
                             rule=edition.rule("chance"))
    _check_remote(event)
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


def _check_remote(event: GameStarted) -> None:
    """RM-1: a remote game records its id and one Ed25519 key per seat, all different, and
    no seed; undo takes back at most the current turn (an undo past a revealed element would
    replay chance every seat has seen). A local game records none of it."""
    remote = event.remote
    if event.mode != "remote":
        if remote is not msgspec.UNSET:
            raise InvalidCommand("only a remote game records keys and a game id (mode remote)",
                                 rule=RULE)
        return
    if not isinstance(remote, Remote):
        raise InvalidCommand("a remote game records its id and each seat's key (remote)",
                             rule=RULE)
    if event.seed is not None or event.seed_sha256 is not None:
        raise InvalidCommand("a remote game has no seed: every seat makes its chance", rule=RULE)
    if len(remote.keys) != len(event.players):
        raise InvalidCommand(f"{len(remote.keys)} keys for {len(event.players)} seats: a "
                             "remote game records one key per seat", rule=RULE)
    if len(set(remote.keys)) != len(remote.keys):
        raise InvalidCommand("two seats have the same key: each seat signs with its own",
                             rule=RULE)
    if not 0 <= remote.host < len(remote.keys):
        raise InvalidCommand(f"the set-up's writer is seat {remote.host}, which does not "
                             "exist", rule=RULE)
    if event.options.undo == "any":
        raise InvalidCommand("a remote game takes back at most the current turn (undo turn or "
                             "none)", rule=RULE)
    if (remote.timeout == "bot") != (remote.takeover is not msgspec.UNSET):
        raise InvalidCommand("a seat given up is played by the bot the set-up names: timeout "
                             "bot goes with takeover, and takeover with timeout bot",
                             rule=RULE_TAKEOVER)
    if remote.timeout == "bot" and remote.time_per_move is None:
        raise InvalidCommand("a seat is given up when its time per move passes: timeout bot "
                             "needs a time_per_move", rule=RULE_TAKEOVER)
    if remote.chain < sum(t.count for t in event.tileset.definition.tiles):
        raise InvalidCommand(f"hash chains of {remote.chain} links cannot cover a game of "
                             f"{sum(t.count for t in event.tileset.definition.tiles)} tiles",
                             rule=RULE)


def _check_unplaceable(edition: Edition, choice: str) -> None:
    """What becomes of an unplaceable tile: an option of the edition's
    (``Edition.unplaceable``)."""
    if choice not in edition.unplaceable:
        offered = " or ".join(edition.unplaceable)
        raise InvalidCommand(
            f"the {edition.name} edition has no {choice} option for an unplaceable tile"
            if choice in get_args(Unplaceable) else
            f"unplaceable must be {offered}, not {choice!r}",
            rule=edition.rule("unplaceable"), legal=f"unplaceable {offered}")


def _check_teams(edition: Edition, colours: Sequence[str]) -> None:
    """Two teams of two, seated so that factions alternate."""
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
    return sha256(seed.encode()).hexdigest()


def start(event: GameStarted, secret: str | None = None) -> GameState:
    """The state right after set-up: start tile at (0, 0) unrotated, the rest in the pile.

    ``secret`` is a sealed game's seed, where its holder plays; without it the pile's order
    and the dice are unknown here, and recorded ones are taken as they are until revealed.

    :raises InvalidCommand: see ``check_setup``; a secret that is not the committed seed.
    """
    tileset = check_setup(event)
    edition = edition_named(event.edition)
    if secret is not None:
        if event.seed_sha256 is None:
            raise InvalidCommand("only a sealed game takes a secret seed",
                                 rule=edition.rule("chance"))
        if seal(secret) != event.seed_sha256:
            raise InvalidCommand("this seed is not the one the game committed to (its SHA-256 "
                                 "differs from seed_sha256 in game_started)",
                                 rule=edition.rule("chance"))
    colours: tuple[str, ...] = tuple(p.colour for p in event.players)
    # a team's side is its faction (rebel or empire)
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
        player=colours[0],  # type: ignore[arg-type]  # (checked against the edition's colours)
        side_of=side_of,
        sides=sides,
        faction=faction,
        scores={s: 0 for s in sides},
        reserve={c: edition.reserve() for c in colours},
        remaining=remaining,
        pile=pile,
        edition=edition,
        digital=event.mode != "table",
        chance_known=seed is not None,
        secret=secret,
    )
    state.frontier[(0, 0)] = 0  # touched by no tile: any tile fits
    state.groups[0] = {(0, 0): None}
    if isinstance(event.remote, Remote):
        state.joint = Joint(event.remote)
    lay(state, tileset.types[tileset.start], 0, 0, 0)
    state.history.steps.append(Step([event], colours[0], 0))
    return state
