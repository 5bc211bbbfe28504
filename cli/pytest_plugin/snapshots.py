"""Where a recorded game's snapshot lies for meeple's pytest plug-in, and how
``--meeple-update`` writes it: the same ``X.expected.json`` that ``meeple check --expect``
reads and ``meeple show --json`` writes, replaced whole or not at all."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import msgspec

from meeple.cli.output import json_safe
from meeple.events.files import kind_of


class NotWritten(Exception):
    """A snapshot that ``--meeple-update`` refuses to write, with the reason."""


def snapshot_path(game: Path, roots: tuple[Path, ...], folder: Path | None,
                  ) -> tuple[Path, Path]:
    """The snapshot of ``game`` and the folder it must stay in: ``X.expected.json`` beside
    ``X.jsonl`` (in its games folder), or, with ``folder``, at the game's place relative to
    its games folder, under ``folder``."""
    root = next((r for r in roots if r == game or r in game.parents), game.parent)
    if root == game:
        root = game.parent
    name = f"{game.name.removesuffix('.jsonl')}.expected.json"
    if folder is None:
        return game.with_name(name), root
    return folder / game.parent.relative_to(root) / name, folder


def snapshot_bytes(state: object) -> bytes:
    """A game's exported state as ``meeple show --json`` writes it, byte for byte."""
    raw = msgspec.json.format(msgspec.json.encode(state), indent=2).decode()
    return (json_safe(raw) + "\n").encode()


def write_snapshot(path: Path, confine: Path, data: bytes) -> None:
    """Write ``data`` as the snapshot ``path``, atomically (a file beside it, then renamed
    over it), creating its folders; never through a link, nor outside ``confine``.

    :raises NotWritten: the snapshot is a link or no regular file, or its folder leads
        outside ``confine`` or cannot be written.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise NotWritten(f"cannot look at it: {exc.strerror}") from None
    if mode is not None and stat.S_ISLNK(mode):
        raise NotWritten("it is a link: a link is never written through")
    if mode is not None and not stat.S_ISREG(mode):
        raise NotWritten(f"it is {kind_of(mode)}, not a regular file")
    try:
        confine.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NotWritten(f"cannot make the folder {confine}: {exc.strerror}") from None
    _within(path.parent, confine)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise NotWritten(f"cannot make its folder: {exc.strerror}") from None
    _within(path.parent, confine)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
                     | os.O_CLOEXEC, 0o644)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temporary, path)
    except OSError as exc:
        temporary.unlink(missing_ok=True)
        raise NotWritten(f"cannot write it: {exc.strerror}") from None


def _within(folder: Path, confine: Path) -> None:
    """Refuse a folder that is, or would be once made, outside ``confine`` when links are
    followed: its nearest existing ancestor is resolved."""
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    real, home = existing.resolve(), confine.resolve()
    if real != home and home not in real.parents:
        raise NotWritten(f"its folder leads outside {confine} (through a link)")
