"""Event types and the game log file (``meeple.events``): knows nothing of the rules."""

from typing import TYPE_CHECKING

from meeple.events.log import GameLog, LogError, line_hash, read, short
from meeple.events.model import SCHEMA_VERSION, Event, line_schema

if TYPE_CHECKING:
    from meeple.events.writing import append, create
else:

    def __getattr__(name: str) -> object:
        if name in ("append", "create"):  # (the writing module, loaded when first used)
            from meeple.events import log

            return getattr(log, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "SCHEMA_VERSION",
    "Event",
    "GameLog",
    "LogError",
    "append",
    "create",
    "line_hash",
    "line_schema",
    "read",
    "short",
]
