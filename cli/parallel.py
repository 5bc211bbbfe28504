"""Running one function over many inputs on all cores, results in input order."""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int = 0) -> Iterator[R]:
    """``map(fn, items)`` in ``jobs`` processes (0: one per core), streaming, in input order.

    With one job, or fewer than two items, it runs in this process.
    """
    items = list(items)
    jobs = jobs or cores()
    if jobs <= 1 or len(items) < 2:
        yield from map(fn, items)
        return
    context = multiprocessing.get_context("fork")
    with context.Pool(min(jobs, len(items))) as pool:
        yield from pool.imap(fn, items, chunksize=max(1, min(16, len(items) // (jobs * 8))))
