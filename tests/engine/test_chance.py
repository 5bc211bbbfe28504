"""The random stream is a protocol (SW-5.6, SW-2.1): anyone holding a game's seed recomputes
every draw, die and bot pick from SHA-256 alone. These tests recompute it here, from the
formula the module states, without its code."""

from __future__ import annotations

import hashlib

import pytest

from meeple.engine import chance


def reference_below(seed: str, purpose: str, index: int, n: int) -> int:
    """SHA-256(``meeple-v1``, purpose, index, attempt, seed), NUL-separated; the first 8
    bytes big-endian; values at or above the largest multiple of ``n`` are drawn again."""
    span = 1 << 64
    attempt = 0
    while True:
        message = b"\0".join([b"meeple-v1", purpose.encode(), str(index).encode(),
                              str(attempt).encode(), seed.encode()])
        value = int.from_bytes(hashlib.sha256(message).digest()[:8], "big")
        if value < span - span % n:
            return value % n
        attempt += 1


@pytest.mark.parametrize("n", [1, 2, 6, 23, 76, 1000, (1 << 63) + 1])
def test_below_is_the_stated_formula(n: int) -> None:
    # n = 2**63 + 1 refuses almost half of all values, so later attempts are taken too
    for index in range(40):
        for seed in ("42", "bench-0", "ünïcode"):
            assert chance.below(seed, "bot-place", index, n) == \
                reference_below(seed, "bot-place", index, n)


def test_a_refused_value_draws_again() -> None:
    n = (1 << 63) + 1
    redrawn = [index for index in range(40)
               if chance.below("42", "x", index, n) != reference_below("42", "x", index, 1 << 64) % n]
    assert redrawn, "some of these 40 values lie above the limit and are drawn again"


def test_shuffle_is_fisher_yates_on_the_shuffle_stream() -> None:
    items = [f"t{i}" for i in range(76)]
    for seed in ("42", "2013"):
        pile = list(items)
        for i in range(len(pile) - 1, 0, -1):
            j = reference_below(seed, "shuffle", i, i + 1)
            pile[i], pile[j] = pile[j], pile[i]
        assert chance.shuffled(seed, items) == pile


def test_die_is_one_to_six_on_the_die_stream() -> None:
    rolls = [chance.die("42", index) for index in range(60)]
    assert rolls == [1 + reference_below("42", "die", index, 6) for index in range(60)]
    assert set(rolls) == {1, 2, 3, 4, 5, 6}
