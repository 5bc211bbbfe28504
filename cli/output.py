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


def write_file(path: str, text: str, what: str) -> None:
    """Write a generated file (``-``: stdout) whole or not at all; never over a game log.

    The text goes to a temporary file beside ``path`` that then replaces it, so a reader
    never sees half a picture, and a file that starts like a meeple game log is refused.
    """
    import os
    import tempfile

    from meeple.cli.store import Failure

    if path == "-":
        sys.stdout.write(text)
        return
    try:
        with open(path, "rb") as existing:
            if existing.read(64).lstrip().startswith(b'{"type":"game_started"'):
                raise Failure(f"{path} is a game log; refusing to write {what} over it "
                              "(choose another file name)", 2)
    except FileNotFoundError:
        pass
    except IsADirectoryError:
        raise Failure(f"{path} is a directory; give a file name for {what}", 2) from None
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".meeple-", suffix=".tmp")
    except OSError as error:
        raise Failure(f"cannot write {path}: {error.strerror}", 2) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    note(f"wrote {what} to {path} ({len(text.encode()):,} bytes)")
