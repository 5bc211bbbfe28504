"""The ceiling on a bot seat's budget: the most a seat recorded in a game may think a move.

A log names its bot seats with their budgets (``mcts:2s``), and whoever plays on runs them:
a log received from someone else chooses how long this machine thinks. ``new`` takes a seat
up to ``CEILING_SECONDS`` a move (iterations are held by the engine's own limit, about a
minute and a half of search at most), and a recorded seat above it is refused before it
plays, in one line that names the ceiling (exit 3, nothing written), or, at a terminal, asked
about first.
"""

from __future__ import annotations

import sys

from meeple.cli.store import Failure
from meeple.events.text import escaped

#: the most seconds a move a bot seat may be given, in ``new`` and in a log read
CEILING_SECONDS = 120.0


def over_ceiling(spec: str) -> bool:
    """Whether a (valid) seat's budget is above the ceiling."""
    from meeple.engine import read_spec

    _, _, seconds = read_spec(spec)
    return seconds is not None and seconds > CEILING_SECONDS


def check_new_seat(spec: str, what: str) -> None:
    """A seat ``new`` is asked to record.

    :raises Failure: (2) a budget above the ceiling.
    """
    if over_ceiling(spec):
        raise Failure(f"{what}: a bot seat may think at most {CEILING_SECONDS:g} s a move "
                      "(the ceiling on seat budgets); give a smaller budget, e.g. mcts:10s", 2)


def check_recorded_seats(path: str | None, seats: dict[str, str]) -> None:
    """The recorded seats about to play, before any plays: one above the ceiling is asked
    about at a terminal, refused elsewhere.

    :raises Failure: (3) a seat above the ceiling, not allowed.
    """
    over = {colour: spec for colour, spec in seats.items() if over_ceiling(spec)}
    if not over:
        return
    named = ", ".join(f"{c} {escaped(s)}" for c, s in over.items())
    if sys.stdin.isatty() and sys.stderr.isatty():
        import typer

        if typer.confirm(f"{path}: the log records bot seats above the ceiling of "
                         f"{CEILING_SECONDS:g} s a move ({named}); let them think so long?",
                         default=False, err=True):
            return
    raise Failure(f"{path}: the log records bot seats above the ceiling of {CEILING_SECONDS:g} "
                  f"s a move ({named}), which `new` refuses; nothing was written (at a "
                  "terminal, you are asked)", 3)
