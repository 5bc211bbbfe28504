"""The game's random stream: counter-based, from the seed through SHA-256 (DESIGN.md).

Every number is ``SHA-256(purpose, index, attempt, seed)`` read as an integer,
so anyone holding the seed can recompute every draw and die, on any Python
version (``random.Random`` is never used). Undoing a step never changes what
chance gives: the counters follow the game's effective history.
"""

from __future__ import annotations

from struct import Struct

from meeple.events.digest import sha256

_SPAN = 1 << 64
#: the first 8 bytes of a digest as an unsigned big-endian integer, in one step
#: (``int.from_bytes(digest[:8], "big")`` without the slice)
_FIRST_8 = Struct(">Q").unpack_from


def below(seed: str, purpose: str, index: int, n: int) -> int:
    """A uniform integer in ``range(n)``, the ``index``-th of the stream ``purpose``.

    >>> below("42", "die", 0, 6) == below("42", "die", 0, 6)
    True
    """
    return below_bytes(seed.encode(), purpose.encode(), index, n)


def below_bytes(seed: bytes, purpose: bytes, index: int, n: int) -> int:
    """``below`` with the seed and the stream's name already encoded (UTF-8)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _SPAN - _SPAN % n
    attempt = 0
    while True:
        value, = _FIRST_8(sha256(b"meeple-v1\0%b\0%d\0%d\0%b" % (purpose, index, attempt,
                                                               seed)).digest())
        if value < limit:
            return value % n
        attempt += 1


def shuffled(seed: str, items: list[str]) -> list[str]:
    """A Fisher-Yates shuffle of ``items`` driven by the ``shuffle`` stream."""
    pile = list(items)
    seed_bytes = seed.encode()
    for i in range(len(pile) - 1, 0, -1):
        # ``below_bytes(seed_bytes, b"shuffle", i, i + 1)``, its first attempt inline (a start
        # draws a number for every tile): below ``limit`` it is the number, else the rest
        value, = _FIRST_8(sha256(b"meeple-v1\0shuffle\0%d\0" b"0\0" % i + seed_bytes).digest())
        n = i + 1
        j = value % n if value < _SPAN - _SPAN % n else below_bytes(seed_bytes, b"shuffle", i, n)
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def die(seed: str, index: int) -> int:
    """The ``index``-th die of the game, 1 to 6."""
    return 1 + below(seed, "die", index, 6)
