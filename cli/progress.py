"""A progress bar on stderr for commands that work through many games (``check``, ``arena``,
``simulate``)."""

from __future__ import annotations

import contextlib
import sys


@contextlib.contextmanager
def progress(total: int, quiet: bool):
    """A progress bar on stderr when it is a terminal and there is more than one file."""
    if quiet or total < 2 or not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("checking", total=total)
        yield lambda: progress.advance(task)
