"""Event types and the game log file (``meeple.events``): knows nothing of the rules."""

from meeple.events.log import GameLog, LogError, append, create, line_hash, read, short
from meeple.events.model import SCHEMA_VERSION, Event, line_schema

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
