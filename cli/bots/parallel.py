"""Running one function over many inputs on all cores, results in input order.

Inputs are fed to the worker processes lazily, never more than a few per worker ahead of
the results taken, so a long or endless input costs no memory. Whatever goes wrong in a
worker reaches the caller: its exception is raised again here (as ``WorkerError`` if it
cannot cross the process boundary), a worker that dies is noticed, and the pool is
terminated whenever the caller stops, so nothing waits for ever.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import pickle
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from multiprocessing.pool import IMapIterator
from typing import Any, Generic, TypeVar

from meeple.cli.bot_processes import adopt_orphans, note_in, stop_adopted, stop_noted

T = TypeVar("T")
R = TypeVar("R")

#: the most processes a command may ask for
MAX_JOBS = 256
#: chunks of inputs handed out per worker before their results are taken
AHEAD = 4
#: the largest number of inputs sent to a worker at once
MAX_CHUNK = 16
#: seconds between two looks for a worker that died while its result is awaited
WATCH = 0.5
#: seconds the feed waits for room before it looks whether it was stopped
_FEED_POLL = 0.05


class WorkerError(Exception):
    """A failure in a worker process that cannot be sent as it was: an exception that does
    not survive pickling, or the worker process ending without a result."""


def cores() -> int:
    """Cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def usable_jobs(jobs: int) -> int:
    """``--jobs`` checked: 0 (one process per core) to ``MAX_JOBS``.

    :raises Failure: (2) outside that range.
    """
    if not 0 <= jobs <= MAX_JOBS:
        from meeple.cli.store import Failure

        raise Failure(f"--jobs must be 0 (one process per core) to {MAX_JOBS}; got {jobs}", 2)
    return jobs


class _Ray:
    """Whether the work goes to a Ray cluster (``--ray``), and which."""

    on = False
    address: str | None = None


def use_ray(address: str | None) -> None:
    """Send the work of ``ordered_map`` to a Ray cluster through Ray's own pool: the one at
    ``address``, or a local instance started for the command (``None``).

    :raises Failure: (2) Ray is not installed (``pip install 'meeple[ray]'``).
    """
    try:
        import ray.util.multiprocessing  # noqa: F401
    except ImportError:
        from meeple.cli.store import Failure

        raise Failure("--ray needs Ray: install it with `pip install 'meeple[ray]'`", 2) from None
    _Ray.on, _Ray.address = True, address


def _ray_map(fn: Callable[[T], R], items: Iterable[T], jobs: int) -> Iterator[R]:
    """``ordered_map`` on Ray's pool: the same results, in input order."""
    import logging

    import ray
    from ray.util.multiprocessing import Pool

    # Ray's own processes (the raylet, the workers) inherit this process's stdout, and the
    # raylet writes warnings there: they start with stderr as their stdout, so that stdout
    # holds only the command's result (`--json` included).
    sys.stdout.flush()
    kept = os.dup(1)
    os.dup2(2, 1)
    try:
        if not ray.is_initialized():
            ray.init(address=_Ray.address, logging_level=logging.WARNING, log_to_driver=False)
        pool = Pool(processes=jobs or None, ray_address=_Ray.address,
                    ray_remote_args={"num_cpus": 1})
    finally:
        os.dup2(kept, 1)
        os.close(kept)
    try:
        yield from pool.imap(fn, items, chunksize=1)
    finally:
        pool.terminate()


def ordered_map(fn: Callable[[T], R], items: Iterable[T], jobs: int = 0,
                chunk: int | None = None) -> Generator[R, None, None]:
    """``map(fn, items)`` in ``jobs`` processes (0: one per core), streaming, in input order;
    on a Ray cluster's workers after ``use_ray``.

    With one job, or fewer than two items, it runs in this process. ``items`` is read
    lazily, at most ``AHEAD`` chunks per worker ahead of the results taken. A chunk is
    ``chunk`` items, or by default sized for many short ones (up to ``MAX_CHUNK``); a
    result comes back when its whole chunk is done, so long work asks for 1. An exception
    raised by ``fn`` in a worker is raised here; the pool is terminated when the caller
    stops (an error, or closing this generator early).
    """
    if _Ray.on:
        yield from _ray_map(fn, items, jobs)
        return
    jobs = min(jobs or cores(), MAX_JOBS)
    items = iter(items)
    # enough inputs to size the pool and its chunks as a whole list would
    first = list(itertools.islice(items, max(jobs, 1) * 8 * MAX_CHUNK))
    if jobs <= 1 or len(first) < 2:
        yield from map(fn, itertools.chain(first, items))
        return
    workers = min(jobs, len(first))
    size = chunk or max(1, min(MAX_CHUNK, len(first) // (workers * 8)))
    feed = _Feed(_chunks(itertools.chain(first, items), size), room=workers * AHEAD)
    others = _children()
    notes = tempfile.mkdtemp(prefix="meeple-bots-")
    adopting = adopt_orphans(True)
    pool = multiprocessing.get_context("fork").Pool(workers, initializer=_worker_setup,
                                                    initargs=(notes,))
    # the workers, noted before any work reaches them: one that died on its first input and
    # was replaced at once would otherwise never be missed
    started = _children() - others
    previous = _stop_on_sigterm()
    try:
        # chunks are made here, not by imap, whose chunked results cannot be awaited with a
        # timeout
        for results in _watched(pool.imap(_Guarded(fn), feed), started):
            feed.taken()
            yield from results
    finally:
        feed.stop()
        pool.terminate()
        pool.join()
        # the workers ran no hook of their own: their bot programs are stopped from here
        stop_noted(notes)
        if adopting:
            stop_adopted()
            adopt_orphans(False)
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _worker_setup(notes: str) -> None:
    """A worker leaves Ctrl-C to the parent, which terminates the pool: a worker interrupted
    while it holds the pool's queue lock would leave the parent waiting on it. It notes the
    bot programs it starts in ``notes``, for the parent to stop once it is terminated
    (``meeple.cli.bot_processes``)."""
    # a handler that does nothing, not SIG_IGN, which the bot programs started here would
    # inherit through exec; SIGHUP: the terminal closed, and the parent stops the pool
    for signum in (signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if signum is not None:
            signal.signal(signum, _left_to_the_parent)
    # (a worker forked after the parent set its SIGTERM handler keeps the default one)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    note_in(notes)


def _left_to_the_parent(signum, frame) -> None:
    """A worker's Ctrl-C and SIGHUP: nothing (the pool's parent stops the pool)."""


class Terminated(SystemExit):
    """SIGTERM or SIGHUP reached the parent of a pool: it ends as the signal would (exit 143,
    129), once the pool and its bot programs are stopped."""


def _stop_on_sigterm() -> dict[int, Any]:
    """In the main thread: SIGTERM and SIGHUP (the terminal closed) raise ``Terminated``, so
    that the pool is stopped with its bot programs rather than left running; the handlers
    they replace (none elsewhere)."""
    if threading.current_thread() is not threading.main_thread():
        return {}

    def terminated(signum, frame):
        raise Terminated(128 + signum)

    signals = [signal.SIGTERM] + ([signal.SIGHUP] if hasattr(signal, "SIGHUP") else [])
    return {signum: signal.signal(signum, terminated) for signum in signals}


def _chunks(items: Iterator[T], size: int) -> Iterator[tuple[T, ...]]:
    """``items`` in tuples of ``size`` (the last may be shorter), read as they are needed."""
    while chunk := tuple(itertools.islice(items, size)):
        yield chunk


class _Feed(Generic[T]):
    """The chunks of inputs, let through only while fewer than ``room`` wait for their
    results to be taken.

    The pool's task thread reads the feed; ``stop`` ends it within ``_FEED_POLL`` seconds,
    so that terminating the pool never waits on a feed with no room.
    """

    def __init__(self, items: Iterator[T], room: int):
        self._items = items
        self._room = threading.Semaphore(room)
        self._stopped = threading.Event()

    def __iter__(self) -> Iterator[T]:
        for item in self._items:
            while not self._room.acquire(timeout=_FEED_POLL):
                if self._stopped.is_set():
                    return
            if self._stopped.is_set():
                return
            yield item

    def taken(self) -> None:
        """The results of one chunk were taken: one more chunk may go."""
        self._room.release()

    def stop(self) -> None:
        self._stopped.set()


class _Guarded(Generic[T, R]):
    """``fn`` as run in a worker over a chunk of inputs: any failure leaves as an exception
    the caller can receive."""

    def __init__(self, fn: Callable[[T], R]):
        self.fn = fn

    def __call__(self, chunk: tuple[T, ...]) -> list[R]:
        try:
            return [self.fn(item) for item in chunk]
        except BaseException as exc:  # noqa: BLE001 - it must reach the caller, whatever it is
            raise _portable(exc) from None


def _portable(exc: BaseException) -> Exception:
    """``exc`` itself if it survives pickling both ways as an ``Exception``, else a
    ``WorkerError`` naming it: an exception that does not would leave the pool waiting."""
    if isinstance(exc, Exception):
        try:
            pickle.loads(pickle.dumps(exc))
            return exc
        except Exception:  # noqa: BLE001, S110 - any failure to pickle means: send a stand-in
            pass
    return WorkerError(f"{type(exc).__name__} in a worker process: {exc}")


def _children() -> set[int]:
    """The process ids of this process's live children."""
    return {child.pid for child in multiprocessing.active_children() if child.pid is not None}


def _watched(results: IMapIterator, workers: set[int]) -> Iterator[list]:
    """The pool's results, while the worker processes it started with live.

    A worker that dies (killed, out of memory, or ending the process) never sends its
    result, and the pool would wait for it for ever: a death is seen within ``WATCH``
    seconds and raised as ``WorkerError``.
    """
    while True:
        try:
            yield results.next(timeout=WATCH)
        except StopIteration:
            return
        except multiprocessing.TimeoutError:
            if workers - _children():
                raise WorkerError("a worker process ended without its result (killed, out of "
                                  "memory, or it exited); the work was stopped") from None
