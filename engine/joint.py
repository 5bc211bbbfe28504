"""Chance that every player of a remote game makes together (DESIGN.md, "Chance is a
source": joint), and who writes each line of such a game.

**Hash chains.** Each seat draws a secret and builds one hash chain per chance *slot*: each
seat's draws (``draw:S``) and each seat's dice (``dice:S``). A chain's links are
``x[0] = H("seed", game, key, slot, secret)`` and ``x[j+1] = H("link", game, key, slot,
x[j])``; the seat commits to ``x[L]`` (``committed``), and reveals ``x[L-1]``, ``x[L-2]``, ...
one per chance event of the slot (``revealed``): anyone checks that each hashes to the one
before, and nobody can compute the next before it is revealed. Binding the game's id, the
seat's key and the slot into every hash keeps a chain from serving in another game, seat or
slot.

**Chance events.** The ``i``-th event of a slot is computed from every seat's element ``i``
of that slot's chain, in seat order, through SHA-256 (``material``); a draw picks among the
tiles left, sorted by tile id, by rejection sampling (``meeple.engine.chance.below_bytes``:
no modulo bias); a redraw of an unplaceable tile in the same turn takes the next number of
the same material; a turn's dice are numbers of the ``dice:S`` material of its mover.

**Who reveals when** (RM-2, enforced here): nothing before every seat has committed; only
the slot's next element; a draw's own drawer last, once every other seat's element of it is
in, so nobody knows a tile before the player who draws it; dice of a mover's turn, from
every seat, the mover included, only once the turn waits for them (its battles are fought
after the mover has placed their figure), so that nobody knows the dice before the attack is
sent: not the attacker, who knows its own element, nor the other seats, who know theirs. Every
seat's elements are fixed by its commitment: with one honest seat, nobody can bias a draw
or a die.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

import msgspec

from meeple.engine import chance
from meeple.engine.chance import below_bytes
from meeple.engine.errors import IllegalMove, InvalidCommand
from meeple.events.digest import sha256
from meeple.events.model import (
    Colour,
    Committed,
    GameEnded,
    MeeplePlaced,
    MeepleSkipped,
    MeepleTakenBack,
    Redone,
    Remote,
    Revealed,
    SideScore,
    TileDrawn,
    TilePlaced,
    TimeoutClaimed,
    Undone,
)

if TYPE_CHECKING:
    from hashlib import _Hash

    from meeple.engine.state import GameState

#: the rule id of the remote-play rules (docs/guide/remote.md)
RULE = "RM-2"
#: the rule id of signed lines: each line signed by the seat that writes it
RULE_SIGNED = "RM-1"
#: the rule id of a seat given up and played on by the bot the set-up names
RULE_TAKEOVER = "RM-5"
#: the lines the player to move writes (and signs)
_MOVES = (TilePlaced, MeeplePlaced, MeepleSkipped, MeepleTakenBack, Undone, Redone)


def slot_names(seats: int) -> tuple[str, ...]:
    """Every chance slot of a game of ``seats`` seats, in the order commitments list them."""
    return tuple(f"draw:{s}" for s in range(seats)) + tuple(f"dice:{s}" for s in range(seats))


def _h(*parts: bytes) -> bytes:
    return _hashing(*parts).digest()


def _hashing(*parts: bytes) -> _Hash:
    """The hash of the protocol's domain and ``parts``, each with its length, still open:
    a chain's links share their first parts, hashed once and copied for each link."""
    digest = sha256(b"meeple-joint-v1")
    for part in parts:
        digest.update(len(part).to_bytes(4, "big"))
        digest.update(part)
    return digest


def _links(bound: tuple[bytes, ...], link: bytes, steps: int) -> list[bytes]:
    """``link`` and each of the ``steps`` links after it."""
    prefix = _hashing(b"link", *bound)
    found = [link]
    for _ in range(steps):
        digest = prefix.copy()
        digest.update(len(link).to_bytes(4, "big"))
        digest.update(link)
        link = digest.digest()
        found.append(link)
    return found


def chain_links(secret: bytes, game: str, key: str, slot: str, length: int) -> list[str]:
    """Every link of a seat's chain for ``slot``, ``x[0]`` to ``x[length]`` (hex); the last is
    the commitment, and element ``i`` is ``x[length - 1 - i]``."""
    bound = (game.encode(), key.encode(), slot.encode())
    return [link.hex() for link in _links(bound, _h(b"seed", *bound, secret), length)]


def element(links: Sequence[str], index: int) -> str:
    """Element ``index`` of a chain given by its links (``chain_links``)."""
    return links[len(links) - 2 - index]


def follows(game: str, key: str, slot: str, revealed: str, known: str, steps: int = 1) -> bool:
    """Whether ``revealed`` hashes to ``known`` (the element before it, or the commitment) in
    ``steps`` links (more than one where events of the slot were skipped, RM-5)."""
    try:
        link = bytes.fromhex(revealed)
    except ValueError:
        return False
    bound = (game.encode(), key.encode(), slot.encode())
    return _links(bound, link, steps)[-1].hex() == known


def material(game: str, slot: str, index: int, elements: Sequence[str]) -> bytes:
    """What the ``index``-th chance event of ``slot`` is computed from: every seat's element,
    in seat order."""
    return _h(b"event", game.encode(), slot.encode(), str(index).encode(),
              *(bytes.fromhex(e) for e in elements))


def pick_tile(source: bytes, attempt: int, remaining: dict[str, int]) -> str:
    """The tile drawn: among the tiles left (each as often as it is left), sorted by tile id,
    the one at a uniform index (``attempt``: the draws before it in the same turn)."""
    left = sum(remaining.values())
    at = below_bytes(source, b"draw", attempt, left)
    for tile in sorted(remaining):
        count = remaining[tile]
        if at < count:
            return tile
        at -= count
    raise AssertionError("no tile is left to draw")


def die(source: bytes, index: int) -> int:
    """The ``index``-th die of a turn's dice material, 1 to 6."""
    return 1 + below_bytes(source, b"die", index, 6)


class Joint:
    """A remote game's chance as it stands: each seat's committed chains, the last element
    each seat revealed of each slot (``known[seat][slot] = (index, link)``, ``-1`` for the
    commitment), how many events of each slot were used, this turn's draws and dice, and the
    seats given up (RM-5: played on by the set-up's bot, their chains no longer used)."""

    __slots__ = ("remote", "seats", "slots", "committed", "known", "used", "draws", "dice",
                 "gone")

    def __init__(self, remote: Remote) -> None:
        self.remote = remote
        self.seats = len(remote.keys)
        self.slots = slot_names(self.seats)
        self.committed: list[bool] = [False] * self.seats
        self.known: list[list[tuple[int, str]]] = [[] for _ in range(self.seats)]
        self.used: list[int] = [0] * len(self.slots)
        self.draws = 0
        self.dice = 0
        self.gone: list[bool] = [False] * self.seats

    def copy(self) -> Joint:
        copy = Joint.__new__(Joint)
        copy.remote, copy.seats, copy.slots = self.remote, self.seats, self.slots
        copy.committed = list(self.committed)
        copy.known = [list(k) for k in self.known]
        copy.used = list(self.used)
        copy.draws, copy.dice = self.draws, self.dice
        copy.gone = list(self.gone)
        return copy

    @property
    def all_committed(self) -> bool:
        return all(c or g for c, g in zip(self.committed, self.gone, strict=True))

    def revealed(self, seat: int, slot: int) -> bool:
        """Whether ``seat`` has revealed its element of the next event of ``slot``."""
        return self.committed[seat] and self.known[seat][slot][0] >= self.used[slot]

    def missing(self, slot: int) -> list[int]:
        """The seats (not given up) whose element of the next event of ``slot`` is not
        revealed yet."""
        gone = self.gone
        return [s for s in range(self.seats) if not gone[s] and not self.revealed(s, slot)]

    def source(self, slot: int) -> bytes | None:
        """The material of the next event of ``slot``, once every seat (not given up) has
        revealed it: from their elements only, once a seat is given up (RM-5)."""
        if self.missing(slot):
            return None
        gone = self.gone
        return material(self.remote.game, self.slots[slot], self.used[slot],
                        [self.known[s][slot][1] for s in range(self.seats) if not gone[s]])

    def give_up(self, seat: int) -> None:
        """RM-5: ``seat`` is given up. Every slot moves on to its next event, whose elements
        no seat has revealed yet: an event some seats could already compute without the seat
        given up (their own elements, and those revealed) is never used, so that nobody
        chooses between two outcomes by claiming or waiting."""
        self.gone[seat] = True
        self.used = [used + 1 for used in self.used]
        self.draws = self.dice = 0

    def deputy(self, seat: int) -> int:
        """RM-5: who writes the moves of a seat given up (its bot's): the next seat after it
        in seat order that is not given up."""
        for step in range(1, self.seats + 1):
            other = (seat + step) % self.seats
            if not self.gone[other]:
                return other
        raise AssertionError("every seat is given up")

    def turn_ended(self, mover: int) -> None:
        """The mover's draw slot, and its dice slot if it rolled, move to their next event."""
        self.used[mover] += 1
        if self.dice:
            self.used[self.seats + mover] += 1
        self.draws = self.dice = 0


def apply_committed(joint: Joint, seat: int, event: Committed) -> None:
    joint.committed[seat] = True
    joint.known[seat] = [(-1, link) for link in event.chains]


def apply_revealed(joint: Joint, seat: int, event: Revealed) -> None:
    joint.known[seat][joint.slots.index(event.slot)] = (event.index, event.element)


def check_commit(joint: Joint, seat: int, colour: str, chains: Sequence[str]) -> None:
    """RM-2: a seat commits once, in seat order (after the set-up's writer, who commits
    first), to one chain per slot.

    :raises IllegalMove: out of turn or twice; ``InvalidCommand``: the wrong number of chains.
    """
    if joint.gone[seat]:
        raise IllegalMove(f"{colour}'s seat was given up: a bot plays it, and its chains are "
                          "not used", rule=RULE_TAKEOVER)
    if joint.committed[seat]:
        raise IllegalMove(f"{colour} has already committed to its hash chains", rule=RULE)
    expected = next_to_commit(joint)
    if expected != seat:
        raise IllegalMove(f"seat {seat} ({colour}) commits out of turn: seat {expected} "
                          "commits next", rule=RULE)
    if len(chains) != len(joint.slots):
        raise InvalidCommand(f"a commitment lists {len(joint.slots)} chains (one per chance "
                             f"slot: {', '.join(joint.slots)}), not {len(chains)}", rule=RULE)


def next_to_commit(joint: Joint) -> int | None:
    """The seat that commits next: the set-up's writer first, then the others in seat order
    (a seat given up commits no more)."""
    host = joint.remote.host
    if not joint.committed[host] and not joint.gone[host]:
        return host
    return next((s for s in range(joint.seats) if not joint.committed[s] and not joint.gone[s]),
                None)


def check_reveal(joint: Joint, seat: int, colour: str, slot_name: str, index: int,
                 revealed: str, *, mover: int, waiting_for_dice: bool) -> None:
    """RM-2: what a seat may reveal now (see the module's docstring).

    :raises IllegalMove: naming what may be revealed now.
    """
    if joint.gone[seat]:
        raise IllegalMove(f"{colour}'s seat was given up: a bot plays it, and its chains are "
                          "not used", rule=RULE_TAKEOVER)
    if not joint.all_committed:
        raise IllegalMove("no element is revealed before every seat has committed (seat "
                          f"{next_to_commit(joint)} has not)", rule=RULE)
    if slot_name not in joint.slots:
        raise InvalidCommand(f"no chance slot {slot_name} in a game of {joint.seats} seats",
                             rule=RULE, legal=", ".join(joint.slots))
    slot = joint.slots.index(slot_name)
    last, link = joint.known[seat][slot]
    if index != joint.used[slot] or last >= index:
        raise IllegalMove(f"{colour} reveals element {index} of {slot_name}, where the next "
                          f"to reveal is {joint.used[slot]}"
                          + (" (already revealed)" if last >= joint.used[slot] else ""),
                          rule=RULE)
    if index >= joint.remote.chain:
        raise IllegalMove(f"the hash chains of this game cover {joint.remote.chain} chance "
                          f"events of a slot; {slot_name} needs more", rule=RULE)
    owner = slot % joint.seats
    if slot < joint.seats and seat == owner:
        others = [s for s in joint.missing(slot) if s != seat]
        if others:
            raise IllegalMove(f"{colour} reveals their own draw before seats "
                              f"{', '.join(map(str, others))} revealed theirs: the drawer "
                              "reveals last, so that nobody knows a tile before them",
                              rule=RULE)
    if slot >= joint.seats and not (owner == mover and waiting_for_dice):
        raise IllegalMove(f"{colour} reveals an element of {slot_name} before seat {owner}'s "
                          "turn waits for its dice: nobody may know the dice before the attack "
                          "is sent", rule=RULE)
    key = joint.remote.keys[seat]
    if not follows(joint.remote.game, key, slot_name, revealed, link, index - last):
        raise IllegalMove(f"the element {colour} reveals does not hash to the one before it in "
                          f"their {slot_name} chain (or to their commitment)", rule=RULE)


def waiting_on(joint: Joint, slot: int) -> list[int]:
    """The seats the next event of ``slot`` waits for, in the order they are expected: for a
    draw the other seats in turn order from the drawer, then the drawer; for dice the mover,
    then the other seats in turn order."""
    missing = joint.missing(slot)
    owner = slot % joint.seats
    others = sorted((s for s in missing if s != owner), key=lambda s: (s - owner) % joint.seats)
    own = [owner] if owner in missing else []
    return others + own if slot < joint.seats else own + others


def dice_values(state: GameState, count: int) -> list[int] | None:
    """The next ``count`` dice of the game: from the seed (a digital game), from the mover's
    dice slot once every seat revealed it (a remote game), or ``None`` (entered at the table,
    sampled by a search, or waiting for reveals)."""
    joint = state.joint
    if joint is None:
        if not (state.digital and state.chance_known):
            return None
        seed, used = state.seed, state.dice_used
        return [chance.die(seed, used + i) for i in range(count)]
    source = joint.source(joint.seats + state.current)
    if source is None:
        return None
    return [die(source, joint.dice + i) for i in range(count)]


def joint_draw(state: GameState, seq: int) -> TileDrawn | None:
    """A remote game's draw for the player to move, once every seat revealed its element of
    their draw slot; ``None`` until then."""
    joint = state.joint
    assert joint is not None
    source = joint.source(state.current)
    if source is None:
        return None
    return TileDrawn(seq=seq, player=state.player,
                     tile=pick_tile(source, joint.draws, state.remaining))


def writer(state: GameState, event: object, last: int) -> int:
    """RM-1: the seat that writes ``event`` in ``state``: a commitment or a reveal, its seat;
    a move or an undo, the player to move; a consequence of the rules, the writer of the
    line before it (who computed it)."""
    if isinstance(event, (Committed, Revealed, TimeoutClaimed)):
        colour = event.player
        return state.players.index(colour) if colour in state.players else -1
    if isinstance(event, _MOVES):
        joint = state.joint
        current = state.current
        return joint.deputy(current) if joint is not None and joint.gone[current] else current
    return last


#: the rule id of a remote game's clock: a timeout claim and what it decides
RULE_TIME = "RM-4"


def last_to_reveal(state: GameState, seat: int) -> bool:
    """RM-5: whether the draw or the dice the game waits for wait for ``seat`` alone: that
    seat knows the outcome (every other element is out), and giving it up, which makes the
    event anew, would let it veto a tile or a roll by going silent. A claim against it then
    ends the game (RM-4)."""
    joint = state.joint
    if joint is None or state.phase == "over":
        return False
    if state.phase == "draw":
        slot = state.current
    elif state.phase == "resolve" and state.battle is not None:
        slot = joint.seats + state.current
    else:
        return False
    return joint.all_committed and joint.missing(slot) == [seat]


def given_up(joint: Joint, players: Sequence[str]) -> tuple[Colour, ...] | msgspec.UnsetType:
    """RM-5: the seats given up, for ``game_ended`` (unset where none was: the game is
    rated)."""
    gone = tuple(cast(Colour, players[s]) for s in range(joint.seats) if joint.gone[s])
    return gone if gone else msgspec.UNSET


def forfeit_end(state: GameState, seq: int) -> GameEnded:
    """RM-4: a timeout claim ends a remote game at once, as the scores stand (no final
    scoring); the seat that let its time pass cannot win, and the sides left share the
    victory by score."""
    against = state.forfeit
    assert against is not None
    lost = state.side_of[against]
    left = {side: points for side, points in state.scores.items() if side != lost}
    best = max(left.values())
    return GameEnded(seq=seq,
                     scores=tuple(SideScore(side=s, points=p) for s, p in state.scores.items()),
                     winners=tuple(s for s, p in left.items() if p == best),
                     forfeit=cast(Colour, against))
