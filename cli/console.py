"""The console script ``meeple``: the garbage collector set for a command, then the app's
``main`` (``meeple.cli.app``).

The collector sweeps its youngest generation every 700 allocations by default; importing
typer, msgspec and meeple's modules then reading and folding a log makes several hundred
sweeps that find next to nothing. They are set before anything else is imported, typer
included, which is why this module is the script's entry point and imports the app only
once they are set. Library users (``import meeple.engine``, ``meeple.cli.app``) keep their
own process's settings.
"""

import gc

#: allocations between two sweeps of the youngest generation in a ``meeple`` process: a long
#: command (an arena, a relay) still has its reference cycles collected
YOUNG_SWEEP = 50_000


def main() -> None:
    """The console script's entry point."""
    gc.set_threshold(YOUNG_SWEEP)
    from meeple.cli.app import main as run

    run()
