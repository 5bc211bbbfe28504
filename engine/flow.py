"""What the rules do next, when no player has to act: the consequences of a turn.

``next_event(state)`` returns the one event the rules dictate from this state,
or ``None`` when the game waits for a player (or is over). Folding it and
asking again walks a turn through unplaceable tiles, the edition's contests
(``Edition.contest``), scoring, the end of the turn and the end of the game. In digital mode it
also draws tiles and rolls dice from the seed; in table mode those
are left to the players.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from meeple.engine import chance
from meeple.engine.board import placeable
from meeple.engine.joint import forfeit_end, given_up, joint_draw
from meeple.engine.realms import Realm
from meeple.engine.scoring import (
    complete,
    completed_points,
    final_payment,
    held_roots,
    scorers,
)
from meeple.engine.state import GameState, Waiting
from meeple.events.model import (
    Event,
    GameEnded,
    MeepleReturned,
    PointsScored,
    SideScore,
    TileDrawn,
    TileSetAside,
    TurnEnded,
)


def awaiting(state: GameState) -> Waiting | None:
    """What the game waits for: ``place``, ``meeple``, ``draw``, ``dice``, ``over``,
    or ``None`` while the rules still have consequences to write."""
    phase = state.phase
    if phase == "over":
        return "over"
    memo = state.memo.next  # (``next_event``, inline: this is asked several times a move)
    if memo is None:
        memo = state.memo.next = (consequence(state),)
    if memo[0] is not None:
        return None
    assert phase != "forfeit", "a timeout claim's end is a consequence"
    return "dice" if phase == "resolve" else phase


def awaiting_seed(state: GameState) -> bool:
    """Whether a sealed game waits for what only its seed's holder can write: a draw, a roll,
    or the end of the game, which reveals the seed."""
    return (state.digital and not state.chance_known and state.joint is None
            and awaiting(state) in ("draw", "dice"))


def next_event(state: GameState) -> Event | None:
    """The next consequence the rules dictate, or ``None`` if a player must act.

    Worked out once per state: the answer is kept until ``evolve`` changes the state.
    """
    memo = state.memo.next
    if memo is None:
        memo = state.memo.next = (consequence(state),)
    return memo[0]


def consequence(state: GameState) -> Event | None:
    """``next_event`` worked out afresh, not kept: for a playout, which applies it at once."""
    phase = state.phase
    seq = state.next_seq
    if phase == "draw":
        if not state.left:  # no tile left
            return _final(state, seq)
        if state.digital and state.chance_known:
            return TileDrawn(seq=seq, player=state.player, tile=state.pile[-1])
        if state.joint is not None:
            return joint_draw(state, seq)
        return None
    if phase == "place":
        assert state.drawn is not None
        if not state.groups.keys().isdisjoint(state.tileset.types[state.drawn].fitting):
            return None  # (``placeable``, inline: asked once a turn)
        return _set_aside(state, seq, state.drawn)
    if phase == "resolve":
        if state.battle is not None:
            return state.edition.contest_step(state, seq)
        return _resolve(state, seq)
    if phase == "forfeit":
        return forfeit_end(state, seq)
    return None


def _set_aside(state: GameState, seq: int, tile: str) -> Event:
    """Discard, or reshuffle when some tile left could still be placed."""
    types = state.tileset.types
    others = any(
        n and placeable(state, types[tid]) for tid, n in state.remaining.items()
    )
    if state.setup.options.unplaceable == "reshuffle" and others:
        position = None
        if state.digital and state.chance_known:
            position = 1 + chance.below(state.seed, "reinsert", state.reinserts, len(state.pile))
        return TileSetAside(seq=seq, player=state.player, tile=tile, disposition="reshuffled",
                            position=position)
    return TileSetAside(seq=seq, player=state.player, tile=tile, disposition="discarded")


def held_turn_realms(state: GameState) -> list[int]:
    """The realms touched by the placed tile that hold a meeple (no other battles or
    scores), by first edge N, E, S, W (inner fields after), then its centre feature, then the
    attacked one (``Edition.attack``); as union-find roots, each once."""
    assert state.placed_at is not None
    placed = state.board[state.placed_at]
    nodes = placed.nodes
    realms = state.realms
    data = realms.data
    tile = placed.tile
    roots = realms.held(nodes, tile.orientations[placed.r].turn_order, tile.centre)
    if state.attacked is not None:
        target = state.board[state.attacked]
        root = realms.find(target.nodes[target.tile.centre])
        if data[root].meeples and root not in roots:
            roots.append(root)
    return roots


def _held_scoring_realms(state: GameState, roots: list[int]) -> list[int]:
    """What may complete this turn and pay: the held turn realms ``roots``, then the
    centre features around that hold a figure, N clockwise."""
    board = state.board
    realms = state.realms
    data = realms.data
    placed = state.placed_at
    assert placed is not None
    for cell in state.centres_near.get(placed, ()):
        other = board[cell]
        root = realms.root(other.nodes[other.tile.centre])
        if data[root].meeples and root not in roots:
            roots.append(root)
    return roots


def _anchor(state: GameState, realm: Realm):
    return state.realms.spot(realm.anchor)


def _resolve(state: GameState, seq: int) -> Event:
    data = state.realms.data
    roots = held_turn_realms(state)
    edition = state.edition
    if edition.has_contest:
        for root in roots:
            realm = data[root]
            if len(realm.meeples) > 1:  # (one figure alone has nothing to settle)
                contest = edition.contest(state, seq, realm)
                if contest is not None:
                    return contest
    for root in _held_scoring_realms(state, roots):
        realm = data[root]
        assert realm is not None
        if not complete(state, realm):
            continue
        paid = realm.paid or ()
        pending = [side for side in scorers(state, realm) if side not in paid]
        if pending:
            points, tiles, symbols = completed_points(state, realm)
            return PointsScored(seq=seq, side=pending[0], points=points, reason="realm",
                                rule=edition.rules["complete"], realm=_anchor(state, realm), tiles=tiles,
                                symbols=symbols)
        colour, figure, node = realm.meeples[0]
        return MeepleReturned(seq=seq, player=colour, figure=figure, spot=state.realms.spot(node))
    return TurnEnded(seq=seq, player=state.player, turn=state.turn)


def _final_queue(state: GameState) -> tuple[tuple[int, str, PointsScored], ...]:
    """What the end of the game pays, in order: the realms holding figures, stage by stage as
    the edition pays them (``Edition.final_payment``), first placed first within a stage; for
    each, every side that scores it and is not yet paid for it, in seating order. Each
    payment is its realm's root, the side, and its event with no ``seq`` yet. Worked out
    once: at the end nothing joins realms or moves a figure, so only what is paid changes."""
    rule = state.rule("final")
    data = state.realms.data
    found = []
    for root in held_roots(state):
        realm: Realm = data[root]
        payment = final_payment(state, realm)
        if payment is not None:
            found.append((payment.stage, realm.anchor, root, payment))
    found.sort(key=lambda item: item[:2])  # (no two realms share an anchor)
    queue = []
    for _, _, root, payment in found:
        realm = data[root]
        paid = realm.paid or ()
        spot = _anchor(state, realm)
        for side in scorers(state, realm):
            if side in paid:
                continue
            event = PointsScored(seq=0, side=side, points=payment.points, reason=payment.reason,
                                 rule=rule, realm=spot, tiles=payment.tiles,
                                 symbols=payment.symbols, cities=payment.cities)
            queue.append((root, side, event))
    return tuple(queue)


def _final(state: GameState, seq: int) -> Event | None:
    """The end of the game: each payment of ``_final_queue`` (the edition's final scoring,
    stage by stage), then the winners. A sealed game's
    ``game_ended`` reveals its seed, so only the seed's holder can write it: without the seed
    the game waits for them (``None``)."""
    queue = state.memo.final_queue
    if queue is None:
        queue = state.memo.final_queue = _final_queue(state)
    data = state.realms.data
    for at in range(state.memo.final_from, len(queue)):
        root, side, event = queue[at]
        paid = data[root].paid
        if paid and side in paid:
            continue
        state.memo.final_from = at  # the payments before are made, here and from now on
        return replace(event, seq=seq)
    if state.sealed and state.secret is None and state.search is None:
        return None  # a sealed game ends only when its seed's holder reveals the seed
    best = max(state.scores.values())
    joint = state.joint
    return GameEnded(
        seq=seq,
        scores=tuple(SideScore(side=s, points=p) for s, p in state.scores.items()),
        winners=tuple(s for s, p in state.scores.items() if p == best),
        seed=state.secret if state.sealed else None,
        given_up=given_up(joint, state.players) if joint is not None else msgspec.UNSET,
    )
