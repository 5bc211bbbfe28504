"""The game log file: JSON lines, hash-chained, append-only (DESIGN.md, "Events and the log").

The names the rest of meeple uses, gathered from the modules that hold them:

- ``meeple.events.chain``: the hash chain (``line_hash``, ``short``, ``chained``) and
  ``GameLog``, a log as read;
- ``meeple.events.errors``: ``LogError``, its kinds and which of them are ``REFUSALS``;
- ``meeple.events.limits``: ``MAX_LINE_BYTES``, ``MAX_FILE_BYTES``, ``MAX_EVENTS``;
- ``meeple.events.locking``: opening and locking a log, ``configure_locks``;
- ``meeple.events.reading``: ``read``, ``parse`` and ``extend``, every fault at ``path:line``;
- ``meeple.events.writing``: ``create`` and ``append`` under an exclusive lock, fsynced;
- ``meeple.events.repair``: ``repair``, which mends a torn last line and nothing else.
"""

from typing import TYPE_CHECKING

from meeple.events.chain import GameLog, LineHashes, chained, line_hash, short, with_prev
from meeple.events.errors import REFUSALS, ErrorKind, LogError
from meeple.events.lazy import lazy_names
from meeple.events.limits import MAX_EVENTS, MAX_FILE_BYTES, MAX_LINE_BYTES
from meeple.events.locking import (
    DEFAULT_LOCK_TIMEOUT,
    LOCK_NOTICE,
    LOCK_TIMEOUT_ENV,
    configure_locks,
    lock_timeout,
)
from meeple.events.reading import decode_line, extend, parse, read

if TYPE_CHECKING:
    from meeple.events.repair import Repaired, repair
    from meeple.events.writing import (
        Written,
        append,
        append_lines,
        append_log,
        create,
        create_lines,
        create_log,
        encode_lines,
    )
else:
    #: names of the modules that write, loaded when first used (a command that only reads a
    #: log, ``status`` say, never loads them)
    _LAZY = {**dict.fromkeys(("Repaired", "repair"), "meeple.events.repair"),
             **dict.fromkeys(("Written", "append", "append_lines", "append_log", "create",
                              "create_lines", "create_log", "encode_lines"),
                             "meeple.events.writing")}

    __getattr__ = lazy_names(__name__, _LAZY, globals())

__all__ = [
    "DEFAULT_LOCK_TIMEOUT",
    "LOCK_NOTICE",
    "LOCK_TIMEOUT_ENV",
    "MAX_EVENTS",
    "MAX_FILE_BYTES",
    "MAX_LINE_BYTES",
    "REFUSALS",
    "ErrorKind",
    "GameLog",
    "LineHashes",
    "LogError",
    "Repaired",
    "Written",
    "append",
    "append_lines",
    "append_log",
    "chained",
    "configure_locks",
    "create",
    "create_lines",
    "create_log",
    "decode_line",
    "encode_lines",
    "extend",
    "line_hash",
    "lock_timeout",
    "parse",
    "read",
    "repair",
    "short",
    "with_prev",
]
