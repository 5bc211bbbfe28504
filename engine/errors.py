"""Errors raised by ``decide`` and by game set-up (DESIGN.md, "Engine").

Each carries the rule id from RULES.md it enforces and, where there is one,
what would have been legal.
"""

from __future__ import annotations


class RulesError(Exception):
    """Base: a message, the rule id and a hint of what would be legal."""

    def __init__(self, message: str, *, rule: str | None = None, legal: str | None = None):
        self.message = message
        self.rule = rule
        self.legal = legal
        super().__init__(str(self))

    def __str__(self) -> str:
        text = self.message
        if self.rule:
            text += f" ({self.rule})"
        if self.legal:
            text += f"; {self.legal}"
        return text


class InvalidCommand(RulesError):
    """Malformed input: a target that does not parse, a tile id that does not exist, bad set-up."""


class IllegalMove(RulesError):
    """A well-formed command that the rules forbid here and now."""


class TileSetError(InvalidCommand):
    """A tile set definition that is not consistent."""


class InvalidGame(RulesError):
    """A recorded game that departs from the rules: ``line`` (1 up) is where, in its log."""

    def __init__(self, message: str, *, line: int, rule: str | None = None,
                 legal: str | None = None):
        self.line = line
        super().__init__(message, rule=rule, legal=legal)

    def __str__(self) -> str:
        return f"line {self.line}: {super().__str__()}"
