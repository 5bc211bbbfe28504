"""Writing results (stdout) and messages (stderr)."""

from __future__ import annotations

import sys
from typing import NoReturn

import msgspec
import typer


def emit_json(document: object) -> None:
    """One JSON document on stdout, indented, keys in the order built."""
    raw = msgspec.json.encode(document)
    sys.stdout.write(msgspec.json.format(raw, indent=2).decode() + "\n")


def say(text: str = "") -> None:
    """A result line on stdout."""
    typer.echo(text)


def note(text: str) -> None:
    """A message on stderr."""
    typer.echo(text, err=True)


def fail(message: str, code: int) -> NoReturn:
    """One error line on stderr, then exit with ``code``."""
    typer.echo(f"meeple: error: {message}", err=True)
    raise typer.Exit(code)
