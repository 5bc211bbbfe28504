"""Events told as sentences, for ``replay`` and for what a move command reports."""

from __future__ import annotations

from meeple.cli.pictures.looks import BASE_REASONS, looked_up
from meeple.engine import EXPANSIONS, Edition, Target, compile_tileset, formula
from meeple.events.model import (
    BattleEnded,
    BattleStarted,
    Committed,
    DiceRolled,
    Event,
    GameEnded,
    GameStarted,
    MeeplePlaced,
    MeepleReturned,
    MeepleSkipped,
    MeepleTakenBack,
    PointsScored,
    Redone,
    Revealed,
    Spot,
    TileDrawn,
    TilePlaced,
    TileSetAside,
    TimeoutClaimed,
    TurnEnded,
    Undone,
)
from meeple.events.text import escaped


def realm_name(spot: Spot, edition: Edition | None = None) -> str:
    """``the road at (1, 0) E`` style wording of a spot, in the words of ``edition``'s look
    (by default, of the first registered edition that has a word for its kind)."""
    target = Target.of(spot.feature)
    where = f"({spot.x}, {spot.y})" + (f" {target.where}" if target.where else "")
    word = looked_up("realm_words", target.kind, edition) or looked_up("realm_words", target.kind)
    return f"the {word or target.kind} at {where}"


def _figure(edition: Edition, figure: str) -> str:
    """``small meeple``, ``large meeple``; ``follower`` where all figures are alike, or for
    the figure the noun names itself (a ``hunter`` among hunters and a chief)."""
    if len(edition.figures) == 1 or figure == edition.figure:
        return edition.figure
    return f"{figure} {edition.figure}"


def _a(words: str) -> str:
    """``words`` after its indefinite article: ``a meeple``, ``an elder``."""
    return ("an " if words[:1].lower() in ("a", "e", "i", "o", "u") else "a ") + words


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def tell(event: Event, edition: Edition) -> str:
    """One sentence for one event of a game of ``edition``, on one line, citing that
    edition's rules: the names, tile ids and set names in it come from the log and have
    their control characters escaped (``meeple.events.text``)."""
    return escaped(_sentence(event, edition))


def _sentence(event: Event, edition: Edition) -> str:
    if isinstance(event, GameStarted):
        players = ", ".join(
            p.colour + (f" ({p.name})" if p.name != p.colour else "") for p in event.players
        )
        mode = f"digital, seed {event.seed}" if event.mode == "digital" else "table mode"
        if event.mode == "remote":
            mode = (f"remote game {getattr(event.remote, 'game', '-')[:12]}, signed lines, "
                    "draws and dice from every seat's hash chains")
        if event.seed_sha256:
            mode = f"digital, sealed seed (SHA-256 {event.seed_sha256[:12]})"
        team = ", team variant" if event.team else ""
        ts = event.tileset
        return (f"Game started: {players}; {mode}{team}; tile set "
                f"{compile_tileset(ts.definition).name} "
                f"({ts.definition.status}); unplaceable={event.options.unplaceable}, "
                f"undo={event.options.undo}")
    if isinstance(event, TileDrawn):
        return f"{event.player} draws {event.tile}"
    if isinstance(event, TileSetAside):
        rule = edition.rule("unplaceable")
        if event.disposition == "discarded":
            return f"{event.tile} fits nowhere: set aside, out of the game ({rule})"
        where = f" at position {event.position} from the top" if event.position else ""
        return f"{event.tile} fits nowhere: put back into the pile{where} ({rule})"
    if isinstance(event, TilePlaced):
        return f"{event.player} places {event.tile} at ({event.x}, {event.y}) turned {event.rotation}"
    if isinstance(event, MeeplePlaced):
        target = Target.of(event.target)
        if target.cell is not None:
            x, y = target.cell
            return (f"{event.player} attacks the {target.kind} at ({x},{y}) with "
                    f"{_a(_figure(edition, event.figure))} ({edition.rule('attack')})")
        role = edition.roles.get(target.kind)
        if role is not None:
            return (f"{event.player} places {_a(_figure(edition, event.figure))} on "
                    f"{event.target} as {_a(role)} ({edition.rule('meeple')})")
        return f"{event.player} places {_a(_figure(edition, event.figure))} on {event.target}"
    if isinstance(event, MeepleSkipped):
        return f"{event.player} places no {edition.figure}"
    if isinstance(event, MeepleTakenBack):
        return (f"{event.player} takes back {_a(edition.figure)} from {event.spot.feature} at "
                f"({event.spot.x}, {event.spot.y}) ({take_back_rule(edition, titled=True)})")
    if isinstance(event, BattleStarted):
        sides = ", ".join(f"{s.side} {_plural(s.dice, 'die' if s.dice == 1 else 'dice')}"
                          .replace(" dices", " dice") for s in event.sides)
        return (f"Battle for {realm_name(event.realm, edition)}: {sides} "
                f"({edition.rules.get('contest', edition.rule('resolve'))})")
    if isinstance(event, DiceRolled):
        rolls = ", ".join(f"{r.side} rolls {','.join(map(str, r.values))}" for r in event.rolls)
        return f"Dice: {rolls}"
    if isinstance(event, PointsScored):
        return f"{event.side} scores {event.points}: {_reason(event, edition)} ({event.rule})"
    if isinstance(event, MeepleReturned):
        return (f"{event.player}'s {_figure(edition, event.figure)} returns from "
                f"{event.spot.feature} at ({event.spot.x}, {event.spot.y})")
    if isinstance(event, BattleEnded):
        return f"{event.winner} wins the battle for {realm_name(event.realm, edition)}"
    if isinstance(event, TurnEnded):
        return f"End of turn {event.turn} ({event.player})"
    if isinstance(event, GameEnded):
        scores = ", ".join(f"{s.side} {s.points}" for s in event.scores)
        label = "Winner" if len(event.winners) == 1 else "Winners, sharing the victory"
        reveal = f"; the sealed seed was {event.seed}" if event.seed else ""
        if isinstance(event.forfeit, str):
            reveal += f"; {event.forfeit} let their time pass and cannot win (RM-4)"
        if isinstance(event.given_up, tuple):
            reveal += (f"; unrated: {', '.join(event.given_up)} given up and played by a bot "
                       "(RM-5)")
        return f"Game over: {scores}. {label}: {', '.join(event.winners)}{reveal}"
    if isinstance(event, TimeoutClaimed):
        return f"{event.player} claims that {event.against} let their time pass (RM-4)"
    if isinstance(event, Undone):
        return "Undone: the step(s) starting at seq " + ", ".join(map(str, event.steps))
    if isinstance(event, Redone):
        return "Redone: the step(s) starting at seq " + ", ".join(map(str, event.steps))
    if isinstance(event, Committed):
        return f"{event.player} commits to their hash chains (RM-2)"
    if isinstance(event, Revealed):
        kind, seat = event.slot.split(":")
        return (f"{event.player} reveals element {event.index} of their chain for seat {seat}'s "
                f"{'draws' if kind == 'draw' else 'dice'} (RM-2)")
    return type(event).__name__


def take_back_rule(edition: Edition, *, titled: bool = False) -> str:
    """The rule that lets a figure be taken back: the expansion's of the edition that has one
    (``titled``: after the expansion's title)."""
    for expansion in EXPANSIONS.values():
        if expansion.edition == edition.name:
            return f"{expansion.title}, {expansion.rule}" if titled else expansion.rule
    return edition.rule("meeple")


def _reason(event: PointsScored, edition: Edition) -> str:
    """Why a scoring paid what it did, with its formula (``5 tiles x 2 + 1 symbol x 2 = 12``),
    as the edition's look says it (``Look.reasons``)."""
    realm = realm_name(event.realm, edition)
    terms = edition.terms(event.reason, Target.of(event.realm.feature).kind, event.tiles,
                          event.symbols, event.dice, event.cities)
    text = edition.look.reasons.get(event.reason) or BASE_REASONS.get(event.reason) \
        or f"{event.reason}: {{where}}: {{formula}}"
    return text.format(realm=realm, where=realm.removeprefix("the "), formula=formula(terms))
