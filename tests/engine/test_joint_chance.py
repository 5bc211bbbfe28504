"""The joint chance of a remote game (RM-2, ``meeple.engine.joint``): what a seat may reveal
and when, who signs each line, and that nobody knows a tile before its drawer nor the dice
before the attack. Each defence is tried by a seat that would cheat it if it could."""

from __future__ import annotations

import functools

import pytest
from msgspec.structs import replace

from meeple.engine import Command, IllegalMove, InvalidCommand, awaiting, verify
from meeple.engine.joint import RULE, RULE_SIGNED, die, element, material, pick_tile
from meeple.events.model import (
    Committed,
    DiceRolled,
    Event,
    MeeplePlaced,
    MeepleSkipped,
    Revealed,
    TileDrawn,
    TilePlaced,
)

from remote_table import Table

_MOVES = (TilePlaced, MeeplePlaced, MeepleSkipped)


def refused(table: Table, seat: int, command: Command,
            error: type[Exception] = IllegalMove) -> str:
    """``seat``'s ``command`` is refused under RM-2, and the game is left as it was."""
    before = len(table.events)
    with pytest.raises(error) as caught:
        table.push(seat, command)
    assert getattr(caught.value, "rule", None) == RULE
    assert len(table.events) == before and len(table.signers) == before
    return str(caught.value)


def reveal(table: Table, seat: int, slot: int, index: int, link: str | None = None) -> Command:
    """``seat``'s reveal of element ``index`` of its chain for ``slot`` (or of ``link``)."""
    joint = table.state.joint
    assert joint is not None
    own = table.chains[seat].reveal(joint, table.colours[seat], slot)
    return replace(own, index=index,
                   element=element(table.chains[seat].links[slot], index) if link is None else link)


def commit_all(table: Table) -> None:
    for seat in range(len(table.colours)):
        table.push(seat, table.chains[seat].commit(table.colours[seat]))


# -- 1. what may be revealed, and when ---------------------------------------------------

def test_no_element_is_revealed_before_every_seat_has_committed() -> None:
    table = Table("classic", 3, 1)
    table.push(0, table.chains[0].commit("red"))
    table.push(1, table.chains[1].commit("green"))
    assert "before every seat has committed" in refused(table, 0, reveal(table, 0, 1, 0))
    assert "before every seat has committed" in refused(table, 2, reveal(table, 2, 0, 0))
    table.push(2, table.chains[2].commit("blue"))
    assert [type(e) for e in table.push(0, reveal(table, 0, 1, 0))] == [Revealed]


def test_a_commitment_comes_once_in_seat_order_with_one_chain_per_slot() -> None:
    table = Table("classic", 3, 2, host=1)
    assert "seat 1 commits next" in refused(table, 0, table.chains[0].commit("red"))
    table.push(1, table.chains[1].commit("green"))
    assert "already committed" in refused(table, 1, table.chains[1].commit("green"))
    assert "seat 0 commits next" in refused(table, 2, table.chains[2].commit("blue"))
    table.push(0, table.chains[0].commit("red"))
    chains = table.chains[2].commit("blue").chains
    # a wrong count is malformed input, which the engine calls an InvalidCommand
    commit = table.chains[2].commit("blue")
    message = refused(table, 2, replace(commit, chains=chains[:-1]), InvalidCommand)
    assert "lists 6 chains" in message and "not 5" in message
    refused(table, 2, replace(commit, chains=chains + chains[:1]), InvalidCommand)
    table.push(2, commit)
    assert [type(e) for e in table.events[-3:]] == [Committed] * 3


def test_an_element_must_hash_to_the_one_before_it() -> None:
    table = Table("classic", 2, 3)
    commit_all(table)
    draw_0 = table.chains[1].links[0]
    forged = [
        "ab" * 32,                                   # any link
        element(draw_0, 1),                          # a later element of the right chain
        draw_0[-1],                                  # the commitment itself
        element(table.chains[0].links[0], 0),        # the other seat's element of the slot
        element(table.chains[1].links[2], 0),        # its own element of another slot
    ]
    for link in forged:
        assert "does not hash" in refused(table, 1, reveal(table, 1, 0, 0, link))
    table.push(1, reveal(table, 1, 0, 0))
    # the next event of the slot: its element must hash to element 0, not to the commitment
    for _ in table.lines():
        joint = table.state.joint
        assert joint is not None
        if joint.used[0] == 1:
            break
    assert not joint.revealed(1, 0)
    for link in (element(draw_0, 0), element(draw_0, 2), "cd" * 32):
        assert "does not hash" in refused(table, 1, reveal(table, 1, 0, 1, link))
    table.push(1, reveal(table, 1, 0, 1))


def test_only_the_next_element_of_a_slot_is_revealed_and_only_once() -> None:
    table = Table("classic", 2, 4)
    commit_all(table)
    assert "the next to reveal is 0" in refused(table, 1, reveal(table, 1, 0, 1))
    assert "the next to reveal is 0" in refused(table, 1, reveal(table, 1, 0, 5))
    table.push(1, reveal(table, 1, 0, 0))
    assert "already revealed" in refused(table, 1, reveal(table, 1, 0, 0))
    assert "the next to reveal is 0" in refused(table, 1, reveal(table, 1, 0, 1))


def test_the_drawer_reveals_its_draw_last() -> None:
    table = Table("classic", 3, 5)
    commit_all(table)
    assert "drawer reveals last" in refused(table, 0, reveal(table, 0, 0, 0))
    table.push(1, reveal(table, 1, 0, 0))
    assert "seats 2" in refused(table, 0, reveal(table, 0, 0, 0))
    table.push(2, reveal(table, 2, 0, 0))
    events = table.push(0, reveal(table, 0, 0, 0))
    assert isinstance(events[1], TileDrawn)
    links = [element(table.chains[s].links[0], 0) for s in range(3)]
    source = material(table.remote.game, "draw:0", 0, links)
    assert events[1].tile == pick_tile(source, 0, table.start_remaining)


def attack_table(seed: int) -> Table:
    return Table("star-wars", 2, seed, attacks=True)


def test_no_seat_reveals_the_dice_of_a_turn_before_it_waits_for_them() -> None:
    """Neither the mover (who would know the dice before the attack, with the other seats'
    elements) nor another seat (who would know them before the turn, with the mover's): every
    element of a turn's dice is refused until the turn waits for them, and then it comes."""
    table = attack_table(2)
    commit_all(table)
    seats = 2
    for mover in range(seats):
        for seat in range(seats):
            assert "waits for its dice" in refused(table, seat, reveal(table, seat, 2 + mover, 0))
    tried = opened = attacks = 0
    for _ in table.lines():
        joint = table.state.joint
        assert joint is not None
        mover = table.state.current
        if table.game.phase == "meeple":
            attacks += any("@" in t for m in table.game.legal_moves() for t in m.targets)
        for seat in range(seats):
            if joint.revealed(seat, seats + mover) or table.game.over:
                continue
            if awaiting(table.state) == "dice":
                opened += 1
            else:
                tried += 1
                index = joint.used[seats + mover]
                assert "waits for its dice" in refused(
                    table, seat, reveal(table, seat, seats + mover, index))
    assert opened and attacks and tried > 100, "the game had battles, and turns before them"
    assert sum(isinstance(e, DiceRolled) for e in table.events) * seats >= opened


# -- 2. who signs each line --------------------------------------------------------------

@pytest.fixture(scope="module")
def signed_game() -> Table:
    return Table("star-wars", 3, 6, attacks=True).play()


def _first(events: tuple[Event, ...], kind: type, after: int = 1) -> int:
    return next(e.seq for e in events[after:] if isinstance(e, kind))


def test_a_line_signed_by_another_seat_than_its_writer_is_a_finding_there(signed_game) -> None:
    events, signers = list(signed_game.events), signed_game.signers
    assert verify(events, signers=signers).finding is None
    move = _first(signed_game.events, TilePlaced, after=_first(signed_game.events, TileDrawn))
    reveal_line = _first(signed_game.events, Revealed, after=move)
    drawn = _first(signed_game.events, TileDrawn, after=move)
    rolled = _first(signed_game.events, DiceRolled)
    lines = {"a move": move, "a reveal": reveal_line, "a commitment": 1, "a draw": drawn,
             "the dice": rolled, "a meeple step": _first(signed_game.events, MeepleSkipped)}
    assert isinstance(events[1], Committed)
    for what, seq in lines.items():
        for forger in range(3):
            if forger == signers[seq]:
                continue
            forged = list(signers)
            forged[seq] = forger
            finding = verify(events, signers=forged).finding
            assert finding is not None, what
            assert (finding.seq, finding.rule) == (seq, RULE_SIGNED), (what, finding)
            assert finding.found == signed_game.colours[forger], what


def test_a_line_signed_by_no_seat_is_a_finding_there(signed_game) -> None:
    events, signers = list(signed_game.events), signed_game.signers
    move = _first(signed_game.events, TilePlaced, after=_first(signed_game.events, TileDrawn))
    for nobody in (3, 7, -1):
        forged = list(signers)
        forged[move] = nobody
        finding = verify(events, signers=forged).finding
        assert finding is not None
        assert (finding.seq, finding.rule) == (move, RULE_SIGNED) and "no seat" in finding.message


def test_the_set_up_is_signed_by_its_host_and_every_line_by_someone(signed_game) -> None:
    events, signers = list(signed_game.events), list(signed_game.signers)
    for forged in ([1] + signers[1:], signers[:-1], None):
        finding = verify(events, signers=forged).finding
        assert finding is not None and (finding.seq, finding.rule) == (0, RULE_SIGNED)


# -- 3, 4. nobody knows a tile before its drawer, nor the dice before the attack --------

class Eager:
    """A whole game in which, before every line, each seat tries to reveal its own next draw
    and, until a turn waits for its dice, its element of every seat's next dice (so as to know
    them early). ``refusals`` counts the tries refused; ``moments`` holds, for each draw (its
    drawer and index) the first time it waits for its drawer alone, whether its material was
    unknown then and whether the drawer's element was in the log."""

    def __init__(self, edition: str, seats: int, seed: int) -> None:
        self.table = table = Table(edition, seats, seed, attacks=True)
        self.refusals = 0
        self.moments: dict[tuple[int, int], tuple[bool, bool]] = {}
        for _ in table.lines():
            joint = table.state.joint
            assert joint is not None
            if not joint.all_committed or table.game.over:
                continue
            self.note_moment()
            # once the turn waits for its dice, they come in the protocol's order
            dice = range(seats, 2 * seats) if awaiting(table.state) != "dice" else ()
            for seat in range(seats):
                for slot in [seat, *dice]:
                    if not joint.revealed(seat, slot):
                        self.try_reveal(seat, slot)
                        joint = table.state.joint
                        assert joint is not None

    def try_reveal(self, seat: int, slot: int) -> None:
        joint = self.table.state.joint
        assert joint is not None
        try:
            self.table.push(seat, reveal(self.table, seat, slot, joint.used[slot]))
        except IllegalMove:
            self.refusals += 1

    def note_moment(self) -> None:
        table = self.table
        joint = table.state.joint
        assert joint is not None
        for drawer in range(len(table.colours)):
            event = (drawer, joint.used[drawer])
            if joint.missing(drawer) != [drawer] or event in self.moments:
                continue
            own = element(table.chains[drawer].links[drawer], joint.used[drawer])
            in_log = any(own == e.element for e in table.events if isinstance(e, Revealed)) \
                or any(own in e.chains for e in table.events if isinstance(e, Committed))
            self.moments[event] = (joint.source(drawer) is None, in_log)


@functools.cache
def eager_game(edition: str, seats: int, seed: int) -> Eager:
    return Eager(edition, seats, seed)


STAR_WARS = [("star-wars", 2, 2), ("star-wars", 4, 8)]


@pytest.fixture(params=[("classic", 3, 7), *STAR_WARS], ids=lambda p: f"{p[0]}-{p[1]}")
def eager(request) -> Eager:
    return eager_game(*request.param)


@pytest.fixture(params=STAR_WARS, ids=lambda p: f"{p[0]}-{p[1]}")
def eager_battles(request) -> Eager:
    return eager_game(*request.param)


def seat_of(table: Table, colour: str) -> int:
    return table.colours.index(colour)


def test_eager_games_are_whole_and_check(eager) -> None:
    table = eager.table
    assert table.game.over and eager.refusals > 100
    assert verify(list(table.events), signers=table.signers).finding is None


def test_no_draw_is_known_before_its_drawer_reveals(eager) -> None:
    """Every seat's element of a draw is in the log before the drawer's; until the drawer's,
    the draw's material is not known and no link of the log is the drawer's element; the
    tile drawn is the one the revealed elements give."""
    table = eager.table
    seats = len(table.colours)
    seen: dict[tuple[str, int], list[int]] = {}
    remaining = dict(table.start_remaining)
    attempt = 0
    events = [e for e in table.events if isinstance(e, TileDrawn)]
    for event in table.events:
        if isinstance(event, Revealed):
            seat, owner = seat_of(table, event.player), int(event.slot.split(":")[1])
            others = seen.setdefault((event.slot, event.index), [])
            if event.slot.startswith("draw") and seat == owner:
                assert sorted(others) == [s for s in range(seats) if s != seat], \
                    f"line {event.seq + 1}: the drawer reveals before {others}"
            others.append(seat)
        elif isinstance(event, TileDrawn):
            seat = seat_of(table, event.player)
            index = max(i for (slot, i), by in seen.items()
                        if slot == f"draw:{seat}" and seat in by)
            links = [element(table.chains[s].links[seat], index) for s in range(seats)]
            source = material(table.remote.game, f"draw:{seat}", index, links)
            assert event.tile == pick_tile(source, attempt, remaining)
            remaining[event.tile] -= 1
            attempt += 1
        elif isinstance(event, TilePlaced):
            attempt = 0
    drawn = {(int(slot[5:]), i) for (slot, i), by in seen.items()
             if slot.startswith("draw") and int(slot[5:]) in by}
    assert len(events) > 60
    assert set(eager.moments) == drawn
    assert set(eager.moments.values()) == {(True, False)}


def test_nobody_knows_the_dice_before_the_attack(eager_battles) -> None:
    """For every roll, every seat's element of its material, the mover's included, comes
    after the turn's moves (so that no seat, nor every seat but one together, could compute
    the dice before), the line that completed it is not the mover's, and the roll is what the
    revealed elements give."""
    table = eager_battles.table
    events, seats = table.events, len(table.colours)
    last_move = mover = offset = 0
    rolls = 0
    for event in events:
        if isinstance(event, _MOVES):
            if isinstance(event, TilePlaced):
                offset = 0
            last_move, mover = event.seq, seat_of(table, event.player)
        if not isinstance(event, DiceRolled):
            continue
        slot = f"dice:{mover}"
        opened = [e for e in events[:event.seq] if isinstance(e, Revealed) and e.slot == slot]
        index = opened[-1].index
        lines = [e for e in opened if e.index == index]
        assert sorted(seat_of(table, e.player) for e in lines) == list(range(seats))
        assert lines[0].seq > last_move, f"line {event.seq + 1}: dice opened before the move"
        completing = lines[-1]
        assert seat_of(table, completing.player) != mover
        assert table.signers[completing.seq] != mover
        links = [element(table.chains[s].links[seats + mover], index) for s in range(seats)]
        source = material(table.remote.game, slot, index, links)
        values = [v for roll in event.rolls for v in roll.values]
        assert values == [die(source, offset + j) for j in range(len(values))]
        offset += len(values)
        rolls += 1
    assert rolls
