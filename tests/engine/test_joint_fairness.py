"""The joint chance of a remote game is fair (RM-2, ``meeple.engine.joint``): over many
simulated protocol games (fresh secrets for 2 to 5 seats, every event computed through the
engine's own ``chain_links``, ``element``, ``material``, ``pick_tile`` and ``die``) draws and
dice are uniform, also when every seat but one fixes its secret; a coalition of every seat but
one predicts a tile no better than chance before the honest seat reveals; and whole remote
games of both editions draw only tiles that are left, and check.

The everyday run simulates 2,000 protocol games; with ``MEEPLE_FULL_STATS=1`` the slow tier
also runs 10,000. Secrets come from a seeded generator, so that a run can be repeated.
"""

from __future__ import annotations

import functools
import math
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import pytest

from meeple.engine import verify
from meeple.engine.joint import chain_links, die, element, material, pick_tile
from meeple.events.model import Remote, TileDrawn

from remote_table import Table, random_remote

#: upper 0.1% points of the chi-square distribution by degrees of freedom (P(X > c) = 0.001),
#: computed once by bisection on the regularized upper incomplete gamma function Q(df/2, c/2);
#: they agree with published tables (10.828 for 1, 20.515 for 5, 29.588 for 10)
CRITICAL = {5: 20.515, 23: 49.728, 35: 66.619, 40: 73.402}
#: the one-sided point of the standard normal distribution for p = 1e-6: a coalition's guesses
#: are held to the best guess without secrets plus this many standard deviations (at the
#: 0.1% point, 3.090, the guess without secrets itself went over in the everyday sample,
#: 844 of 6,000 against 9/71, as one sample in a thousand does; the coalition told the honest
#: seat's secret is right every time, some 200 deviations above)
Z = 4.753
#: chance events of each slot per simulated game
EVENTS = 3
SIZES = [pytest.param(2_000, id="2000"),
         pytest.param(10_000, id="10000", marks=[
             pytest.mark.slow,
             pytest.mark.skipif(os.environ.get("MEEPLE_FULL_STATS") != "1",
                                reason="the full sample runs with MEEPLE_FULL_STATS=1")])]


@functools.cache
def pile(edition: str) -> tuple[tuple[str, int], ...]:
    """The tiles left to draw after an edition's set-up, with their counts."""
    return tuple(sorted(Table(edition, 2, 0).start_remaining.items()))


class Seats:
    """One simulated game's seats: a game id, keys and secrets (each seat's ``fixed`` one if
    given, else fresh), and their chains for any slot."""

    def __init__(self, rng: random.Random, seats: int, remote: Remote | None = None,
                 fixed: Sequence[bytes | None] = ()) -> None:
        self.remote = remote or random_remote(seats, rng, chain=EVENTS)
        self.secrets = [fixed[s] if s < len(fixed) and fixed[s] is not None
                        else rng.randbytes(32) for s in range(seats)]

    def links(self, seat: int, slot: str) -> list[str]:
        return chain_links(self.secrets[seat], self.remote.game, self.remote.keys[seat], slot,
                           EVENTS)

    def sources(self, slot: str) -> Iterator[bytes]:
        """The material of each event of ``slot``, from every seat's element."""
        chains = [self.links(s, slot) for s in range(len(self.secrets))]
        for index in range(EVENTS):
            yield material(self.remote.game, slot, index, [element(c, index) for c in chains])


@functools.cache
def sources(games: int, kind: str) -> tuple[bytes, ...]:
    """Every event's material of ``games`` protocol games of 2 to 5 seats, of one seat's
    ``kind`` slot (``draw`` or ``dice``), the seat changing from game to game."""
    rng = random.Random(f"joint-{games}-{kind}")
    found: list[bytes] = []
    for game in range(games):
        seats = 2 + game % 4
        found += Seats(rng, seats).sources(f"{kind}:{game % seats}")
    return tuple(found)


def chi_square(samples: Sequence[object], weights: dict[object, int]) -> tuple[float, int]:
    """Pearson's statistic of ``samples`` against the law that gives each value its weight,
    and its degrees of freedom."""
    counts = Counter(samples)
    assert set(counts) <= set(weights), "a value the law never gives"
    total = sum(weights.values())
    expected = {value: len(samples) * weight / total for value, weight in weights.items()}
    assert min(expected.values()) >= 5, "too few samples for the chi-square test"
    statistic = sum((counts[value] - e) ** 2 / e for value, e in expected.items())
    return statistic, len(weights) - 1


def uniform(samples: Sequence[object], weights: dict[object, int]) -> bool:
    """Whether the chi-square test at p = 0.001 keeps that ``samples`` follow ``weights``."""
    statistic, df = chi_square(samples, weights)
    return statistic < CRITICAL[df]


def assert_uniform(samples: Sequence[object], weights: dict[object, int]) -> None:
    statistic, df = chi_square(samples, weights)
    assert statistic < CRITICAL[df], f"chi-square {statistic:.1f} with {df} degrees of freedom"


DIE = dict.fromkeys(range(1, 7), 1)


# -- 5. uniformity -----------------------------------------------------------------------

@pytest.mark.parametrize("games", SIZES)
@pytest.mark.parametrize("edition", ["classic", "star-wars"])
@pytest.mark.parametrize("attempt", [0, 1])
def test_draws_are_uniform_over_the_tiles_left(games: int, edition: str, attempt: int) -> None:
    tiles = dict(pile(edition))
    drawn = [pick_tile(source, attempt, tiles) for source in sources(games, "draw")]
    assert_uniform(drawn, dict(tiles))


@pytest.mark.parametrize("games", SIZES)
def test_dice_are_uniform_and_independent(games: int) -> None:
    materials = sources(games, "dice")
    faces = [die(source, index) for source in materials for index in range(3)]
    assert_uniform(faces, dict(DIE))
    pairs = [(die(source, 0), die(source, 1)) for source in materials]
    law = {(a, b): 1 for a in range(1, 7) for b in range(1, 7)}
    assert_uniform(pairs, dict(law))


def one_honest_seat(games: int, kind: str, honest: int, seats: int) -> list[bytes]:
    """Events of ``games`` games in which every seat but ``honest`` plays the same game id,
    keys and secrets every time (as a coalition replaying its best choice would); only the
    honest seat's secret is fresh."""
    rng = random.Random(f"honest-{games}-{kind}-{honest}-{seats}")
    remote = random_remote(seats, rng, chain=EVENTS)
    slot = f"{kind}:0"
    fixed = [chain_links(rng.randbytes(32), remote.game, key, slot, EVENTS)
             for key in remote.keys]
    found: list[bytes] = []
    for _ in range(games):
        chains = list(fixed)
        chains[honest] = chain_links(rng.randbytes(32), remote.game, remote.keys[honest], slot,
                                     EVENTS)
        found += (material(remote.game, slot, index, [element(c, index) for c in chains])
                  for index in range(EVENTS))
    return found


@pytest.mark.parametrize("games", SIZES)
@pytest.mark.parametrize(("honest", "seats"), [(0, 2), (1, 2), (2, 5)])
def test_one_honest_seat_keeps_draws_and_dice_uniform(games: int, honest: int,
                                                       seats: int) -> None:
    tiles = dict(pile("classic"))
    drawn = [pick_tile(source, 0, tiles) for source in one_honest_seat(games, "draw", honest,
                                                                       seats)]
    assert_uniform(drawn, dict(tiles))
    faces = [die(source, 0) for source in one_honest_seat(games, "dice", honest, seats)]
    assert_uniform(faces, dict(DIE))


def test_the_test_finds_a_drawer_who_could_choose_its_element() -> None:
    """Without the commitment a drawer, who reveals last, could try two elements and keep the
    one that draws the tile it likes better (here: the earlier tile id); the chi-square test
    sees that bias, so its passing above says something."""
    tiles = dict(pile("classic"))
    rng = random.Random("grinding")
    drawn = []
    for _ in range(2_000):
        seats = Seats(rng, 2)
        other = element(seats.links(1, "draw:0"), 0)
        picks = [pick_tile(material(seats.remote.game, "draw:0", 0, [rng.randbytes(32).hex(),
                                                                   other]), 0, tiles)
                 for _ in range(2)]
        drawn.append(min(picks))
    assert not uniform(drawn, dict(tiles))


# -- 6. a coalition of every seat but one -----------------------------------------------

Guess = Callable[["Coalition"], str]


class Coalition:
    """An event of a simulated game as a coalition of every seat but ``honest`` sees it just
    before the honest seat reveals its element: all of the coalition's elements (it knows
    their secrets), the honest seat's commitment and the elements it revealed before."""

    def __init__(self, seats: Seats, honest: int, slot: str, index: int,
                 tiles: dict[str, int]) -> None:
        self.seats, self.honest, self.slot, self.index = seats, honest, slot, index
        self.tiles = tiles
        self.chains = [seats.links(s, slot) for s in range(len(seats.secrets))]
        #: the coalition's own element (it knows the secrets behind them)
        #: the last link of the honest seat's chain in the log: its previous element, or its
        #: commitment
        self.last_known = self.chains[honest][len(self.chains[honest]) - 1 - index]
        self.drawn = self.draw_with(element(self.chains[honest], index))

    def draw_with(self, honest_link: str) -> str:
        links = [element(chain, self.index) for chain in self.chains]
        links[self.honest] = honest_link
        source = material(self.seats.remote.game, self.slot, self.index, links)
        return pick_tile(source, 0, self.tiles)


def commonest(event: Coalition) -> str:
    """The best guess without any secret: a tile left most often."""
    return max(sorted(event.tiles), key=event.tiles.__getitem__)


def last_link_in_place(event: Coalition) -> str:
    """The draw computed with the honest seat's last link in the log in place of its
    element."""
    return event.draw_with(event.last_known)


def commitment_in_place(event: Coalition) -> str:
    """The draw computed with the honest seat's commitment in place of its element."""
    return event.draw_with(event.chains[event.honest][-1])


def told_the_secret(event: Coalition) -> str:
    """The defence removed: the coalition knows the honest seat's secret too."""
    return event.draw_with(element(event.seats.links(event.honest, event.slot), event.index))


@functools.cache
def coalition_events(games: int) -> tuple[Coalition, ...]:
    """The events of ``games`` games of 2 to 5 seats: each game's honest seat changes, and
    the event is its own draw (it reveals last) or the next seat's (its element is still to
    come)."""
    rng = random.Random(f"coalition-{games}")
    tiles = dict(pile("classic"))
    events: list[Coalition] = []
    for game in range(games):
        count = 2 + game % 4
        seats = Seats(rng, count)
        honest = game % count
        drawer = honest if game % 2 else (honest + 1) % count
        events += (Coalition(seats, honest, f"draw:{drawer}", index, tiles)
                   for index in range(EVENTS))
    return tuple(events)


def hits(guess: Guess, games: int) -> tuple[int, int]:
    """How often ``guess`` names the tile drawn over ``coalition_events(games)``."""
    events = coalition_events(games)
    return sum(guess(event) == event.drawn for event in events), len(events)


def no_better_than_chance(right: int, events: int) -> bool:
    """Whether ``right`` guesses out of ``events`` stay within ``Z`` standard deviations of
    the best guess without secrets (a tile left most often)."""
    tiles = dict(pile("classic"))
    best = max(tiles.values()) / sum(tiles.values())
    return right <= events * best + Z * math.sqrt(events * best * (1 - best))


@pytest.mark.parametrize("games", SIZES)
@pytest.mark.parametrize("guess", [commonest, last_link_in_place, commitment_in_place])
def test_a_coalition_guesses_a_tile_no_better_than_chance(guess: Guess, games: int) -> None:
    right, events = hits(guess, games)
    assert no_better_than_chance(right, events), (right, events)


def test_a_coalition_told_the_honest_secret_always_knows_the_tile() -> None:
    right, events = hits(told_the_secret, 500)
    assert right == events
    assert not no_better_than_chance(right, events)


# -- whole games -------------------------------------------------------------------------

def drawn_tiles_were_left(table: Table) -> int:
    """Every tile a whole game drew was left to draw when drawn; returns how many."""
    left = Counter(table.start_remaining)
    draws = 0
    for event in table.events:
        if isinstance(event, TileDrawn):
            assert left[event.tile] > 0, f"line {event.seq + 1}: {event.tile} is not left"
            left[event.tile] -= 1
            draws += 1
    return draws


@pytest.mark.slow
@pytest.mark.parametrize("edition", ["classic", "star-wars"])
def test_whole_remote_games_draw_only_tiles_left_and_check(edition: str) -> None:
    for game in range(20):
        table = Table(edition, 2 + game % 4, 100 + game, attacks=game % 2 == 1).play()
        assert table.game.over
        assert drawn_tiles_were_left(table) == sum(table.start_remaining.values())
        assert verify(list(table.events), signers=table.signers).finding is None
