"""The game's random stream: counter-based, from the seed through SHA-256 (SW-5.6, DESIGN.md).

Every number is ``SHA-256(purpose, index, attempt, seed)`` read as an integer,
so anyone holding the seed can recompute every draw and die, on any Python
version (``random.Random`` is never used). Undoing a step never changes what
chance gives: the counters follow the game's effective history.
"""

from __future__ import annotations

import hashlib

_SPAN = 1 << 64


def below(seed: str, purpose: str, index: int, n: int) -> int:
    """A uniform integer in ``range(n)``, the ``index``-th of the stream ``purpose``.

    >>> below("42", "die", 0, 6) == below("42", "die", 0, 6)
    True
    """
    if n <= 0:
        raise ValueError("n must be positive")
    limit = _SPAN - _SPAN % n
    attempt = 0
    seed_bytes = seed.encode()
    while True:
        digest = hashlib.sha256(
            f"meeple-v1\0{purpose}\0{index}\0{attempt}\0".encode() + seed_bytes
        ).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % n
        attempt += 1


def shuffled(seed: str, items: list[str]) -> list[str]:
    """A Fisher-Yates shuffle of ``items`` driven by the ``shuffle`` stream (SW-2.1)."""
    pile = list(items)
    for i in range(len(pile) - 1, 0, -1):
        j = below(seed, "shuffle", i, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    return pile


def die(seed: str, index: int) -> int:
    """The ``index``-th die of the game, 1 to 6 (SW-5.6)."""
    return 1 + below(seed, "die", index, 6)
