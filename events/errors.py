"""The errors of the game log file: what kind of fault, and where (DESIGN.md, "Events and the log").

A ``LogError`` names ``path:line``, the field and the reason; its ``kind`` tells
a fault of the file (exit 3) from a refusal of the command (``REFUSALS``, exit 1).
"""

from __future__ import annotations

from typing import Literal

ErrorKind = Literal[
    "missing", "unreadable", "exists", "corrupt", "torn", "tampered", "conflict", "too_large",
    "newer", "full", "locked", "write", "old_schema", "forged",
]
#: kinds that are a refusal of the command (exit 1), not a fault of the file (exit 3)
REFUSALS = frozenset({"conflict", "exists", "full", "locked", "old_schema"})


class LogError(Exception):
    """A log that cannot be read, written or trusted, located at ``path:line`` where possible."""

    def __init__(
        self,
        kind: ErrorKind,
        path: str,
        message: str,
        *,
        line: int | None = None,
        field: str | None = None,
        seq: int | None = None,
    ) -> None:
        self.kind = kind
        self.path = path
        self.line = line
        self.field = field
        self.seq = seq
        self.message = message
        super().__init__(str(self))

    def __reduce__(self):
        # keyword-only fields: pickle them explicitly, so the error crosses process pools
        return (_rebuild_log_error, (self.kind, self.path, self.message, self.line, self.field,
                                     self.seq))

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}" if self.line is not None else self.path

    def __str__(self) -> str:
        field = f" (field {self.field})" if self.field else ""
        return f"{self.where}: {self.message}{field}"


def _rebuild_log_error(kind: ErrorKind, path: str, message: str, line: int | None,
                       field: str | None, seq: int | None) -> LogError:
    return LogError(kind, path, message, line=line, field=field, seq=seq)

