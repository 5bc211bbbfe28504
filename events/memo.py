"""Memos keyed by object identity, for pure functions of frozen values that cost something
to compute again: a tile set's content hash and limits, a set-up's checks.

A frozen msgspec struct cannot change, so the answer for the same object stays true. Each
memo keeps its last few arguments alive (so their ids are not reused) and no more.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def by_identity(size: int) -> Callable[[Callable[[T], R]], Callable[[T], R]]:
    """Memoise a one-argument function on the identity of its argument (the ``size`` most
    recent ones). Only answers are kept: an exception raised is raised again next time."""

    def wrap(fn: Callable[[T], R]) -> Callable[[T], R]:
        kept: dict[int, tuple[T, R]] = {}

        @functools.wraps(fn)
        def memo(arg: T) -> R:
            found = kept.get(id(arg))
            if found is not None and found[0] is arg:
                return found[1]
            answer = fn(arg)
            kept[id(arg)] = (arg, answer)
            if len(kept) > size:
                del kept[next(iter(kept))]
            return answer

        return memo

    return wrap
