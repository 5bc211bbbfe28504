"""A folder of recorded games as pytest items: each ``X.jsonl`` is checked as ``meeple
check`` checks it and compared with its snapshot as ``meeple check --expect`` compares it
(``docs/pytest.md``).

Every file is read within meeple's limits and never waited on (a FIFO, a link to a device,
a huge or deeply nested file fails its own item with the reason, and only it).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
import pytest

from meeple.cli.pytest_plugin.settings import WRITTEN, expected_root, game_roots
from meeple.cli.pytest_plugin.snapshots import (
    NotWritten,
    snapshot_bytes,
    snapshot_path,
    write_snapshot,
)
from meeple.events.limits import MAX_LINE_BYTES
from meeple.events.text import escaped

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr, TracebackStyle

#: an edition's name as a log may record it (``meeple.events.model.Edition``)
EDITION_NAME = re.compile(r"[a-z][a-z0-9-]{0,39}")
#: the flag that writes snapshots, as the failures name it
UPDATE_FLAG = "--meeple-update"


class GameFailure(Exception):
    """A recorded game that fails its test: the lines that say why, one reason a line."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines


class GameFolder(pytest.Directory):
    """A folder of games: its ``*.jsonl`` entries, whatever kind of file each is, and its
    subfolders (a link to a folder is not followed), in name order."""

    def collect(self) -> Iterator[pytest.Item | pytest.Collector]:
        try:
            with os.scandir(self.path) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            raise pytest.Collector.CollectError(
                f"{escaped(str(self.path))}: cannot list the folder of games: "
                f"{exc.strerror}") from None
        for entry in entries:
            path = Path(entry.path)
            if self.ihook.pytest_ignore_collect(collection_path=path, config=self.config):
                continue
            # a name's control characters escaped in the node's id, which pytest prints
            nodeid = f"{self.nodeid}/{escaped(entry.name)}" if self.nodeid else None
            if entry.name.endswith(".jsonl"):
                yield GameFile.from_parent(self, path=path, nodeid=nodeid)
            elif _is_folder(entry):
                yield GameFolder.from_parent(self, path=path, nodeid=nodeid)


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


class GameFile(pytest.File):
    """One recorded game: one item, named after the file, marked with the game's edition
    and outcome as its first and last lines say."""

    def collect(self) -> Iterator[pytest.Item]:
        item = GameItem.from_parent(self, name=escaped(self.path.name.removesuffix(".jsonl")))
        for marker in markers_of(self.path):
            if not any(line.split(":")[0].strip() == marker
                       for line in self.config.getini("markers")):
                self.config.addinivalue_line("markers", f"{marker}: a recorded game's edition")
            item.add_marker(marker)
        yield item


class GameItem(pytest.Item):
    """The test of one recorded game (``meeple check``, then its snapshot)."""

    def runtest(self) -> None:
        from meeple.cli.checking import check_file, report_lines
        from meeple.cli.compare import read_expected
        from meeple.cli.store import Failure

        update = self.config.getoption("meeple_update")
        snapshot, confine = snapshot_path(Path(os.path.abspath(self.path)),
                                          game_roots(self.config), expected_root(self.config))
        shown = _shown(snapshot)
        where = escaped(shown)
        expected, fault = None, None
        try:
            expected = read_expected(shown)
        except Failure as exc:
            fault = (f"{where}: no snapshot (write it: pytest {UPDATE_FLAG})"
                     if not os.path.lexists(snapshot) else escaped(exc.message))
        report, code = check_file(_shown(self.path), expected, snapshot=update)
        if update and "snapshot" in report:
            if code or expected is None:
                self._write(snapshot, confine, report["snapshot"])
            return
        if update:  # (with the flag, only a game that fails its check comes here)
            fault = f"{where}: no snapshot written: the game fails its check"
        lines = report_lines(report) if code else []
        if report.get("differences"):
            lines.append(f"{where}: {report['differences']} difference(s) from the snapshot"
                         f"{', the first 20 shown' if report['differences'] > 20 else ''}; "
                         f"if the change is meant, write it anew: pytest {UPDATE_FLAG}")
        if fault is not None:
            lines.append(fault)
        if lines:
            raise GameFailure(lines)

    def _write(self, snapshot: Path, confine: Path, state: object) -> None:
        try:
            write_snapshot(snapshot, confine, snapshot_bytes(state))
        except NotWritten as exc:
            raise GameFailure([f"{escaped(_shown(snapshot))}: snapshot not written: "
                               f"{escaped(str(exc))}"]) from None
        self.user_properties.append((WRITTEN, escaped(_shown(snapshot))))

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: TracebackStyle | None = None) -> str | TerminalRepr:
        """A game's failure is its reasons, one a line; anything else, pytest's report."""
        if isinstance(excinfo.value, GameFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Path, int | None, str]:
        return self.path, None, f"recorded game {escaped(_shown(self.path))}"


def _shown(path: Path | str) -> str:
    """A path as the failures show it: relative to the current folder, where it lies in it."""
    relative = os.path.relpath(path)
    return str(path) if relative.startswith("..") else relative


def markers_of(path: Path) -> list[str]:
    """The markers of a recorded game, from its first line (the edition: ``star-wars`` is
    ``star_wars``) and its last (``finished`` if it is ``game_ended``, else ``unfinished``);
    a file that is no regular file, or whose first line is not a game's set-up, has none of
    an edition. Reads at most a line's limit from each end; never waits on a FIFO."""
    first, last = _ends(path)
    marks = []
    edition = _field(first, "edition")
    if _field(first, "type") == "game_started" and isinstance(edition, str) \
            and EDITION_NAME.fullmatch(edition):
        marks.append(edition.replace("-", "_"))
    marks.append("finished" if _field(last, "type") == "game_ended" else "unfinished")
    return marks


class _Line(msgspec.Struct):
    type: object = None
    edition: object = None


def _field(line: bytes, name: str) -> object:
    try:
        return getattr(msgspec.json.decode(line, type=_Line), name)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def _ends(path: Path) -> tuple[bytes, bytes]:
    """The first and the last whole line of a regular file (up to ``MAX_LINE_BYTES`` each);
    empty for anything else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return b"", b""
    try:
        size = os.fstat(fd).st_size
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b"", b""
        head = os.read(fd, MAX_LINE_BYTES + 1).split(b"\n", 1)[0]
        os.lseek(fd, max(0, size - MAX_LINE_BYTES - 1), os.SEEK_SET)
        tail = os.read(fd, MAX_LINE_BYTES + 1)
        lines = tail.split(b"\n")
        # a file that ends in a newline: its last line is whole; else the last piece is torn
        last = lines[-2] if len(lines) >= 2 else b""
        return head, last
    except OSError:
        return b"", b""
    finally:
        os.close(fd)
