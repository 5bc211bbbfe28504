"""Loading and saving games for the CLI: the log file, the fold, and tile set files.

Every game a command acts on is read, structurally verified and re-verified
by the rules (``meeple.engine.check``), so nothing is ever appended to a log
that is not a legal game.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import msgspec

from meeple.cli.words import cli_words
from meeple.engine import (
    DEFAULT,
    EditionNotInstalled,
    Game,
    InvalidGame,
    RulesError,
    TileSetError,
    compile_tileset,
    edition_named,
    expansion_named,
    seal,
)
from meeple.engine.check import Visit
from meeple.events import log as logfile
from meeple.events.files import NotReadable, read_regular
from meeple.events.model import Event, GameStarted
from meeple.events.text import control_char, escaped
from meeple.events.tileset import (
    TileSetDef,
    bundled_bytes,
    canonical_bytes,
    decode_tileset,
    limits_fault,
    shipped,
)
from meeple.events.tileset import with_expansion as tileset_with_expansion

#: bytes of a game_started line left for what it holds besides the tile set
RECORD_ROOM = 8192


class Failure(Exception):
    """A failure the CLI reports in one line with an exit code (1 invalid, 3 corrupt log)."""

    def __init__(self, message: str, code: int = 1, *, rule: str | None = None,
                 legal: str | None = None):
        self.message = message
        self.code = code
        #: the rule id and what would be legal, where a rule refused it (``--json`` says them)
        self.rule, self.legal = rule, legal
        super().__init__(message, code)


def seed_file(path: str) -> str:
    """Where a sealed game's holder keeps its seed: beside the log, readable by them only."""
    return f"{path}.seed"


def create_sealed(path: str, events: list[Event], seed: str) -> str | None:
    """Create a sealed game's log and its seed file (mode 0600) together, or neither.

    The seed goes to a temporary file first; the log is created (never over another); then
    the seed file is linked into place, which fails rather than overwrite one. A failure at
    any point removes what this call made, so a retry is never blocked by its debris.

    :raises Failure: the seed file exists already, or cannot be written.
    :raises LogError: the log exists already, or cannot be written.
    """
    import tempfile

    name = seed_file(path)
    if os.path.lexists(name):
        raise Failure(f"{name} already exists; a seed file is never overwritten", 1)
    folder = os.path.dirname(os.path.abspath(path))
    try:
        fd, temp = tempfile.mkstemp(dir=folder, prefix=".meeple-seed-", suffix=".tmp")
    except OSError as exc:
        raise Failure(f"{name}: cannot write the seed: {exc.strerror}", 3) from None
    try:
        try:
            os.write(fd, (seed + "\n").encode())
            os.fsync(fd)
        except OSError as exc:
            raise Failure(f"{name}: cannot write the seed: {exc.strerror}; nothing was "
                          "written", 3) from None
        finally:
            os.close(fd)
        head = logfile.create(path, events)
        try:
            os.link(temp, name)
        except OSError as exc:
            os.unlink(path)  # the log this call just made: no move is in it yet
            why = "it already exists" if isinstance(exc, FileExistsError) else exc.strerror
            raise Failure(f"{name}: cannot keep the seed: {why}; nothing was written", 3) from None
    finally:
        os.unlink(temp)
    return head


#: the largest seed file read (a seed is 64 hex digits and a newline)
SEED_LIMIT = 1024


def read_secret(path: str, events: list[Event]) -> str | None:
    """A sealed game's seed, if its file is here: only a regular file, read bounded (a FIFO
    or a link to a device in its place must not hang or flood every command)."""
    first = events[0]
    if not isinstance(first, GameStarted) or first.seed_sha256 is None:
        return None
    try:
        secret = read_regular(seed_file(path), SEED_LIMIT).decode("utf-8", "replace").strip()
    except NotReadable as exc:
        if exc.missing:
            return None
        raise Failure(f"{seed_file(path)}: cannot read the seed: {exc.reason}", 3) from None
    if seal(secret) != first.seed_sha256:
        raise Failure(f"{seed_file(path)}: this seed is not the one the game committed to (its "
                      "SHA-256 differs from seed_sha256 on line 1)")
    return secret


def load(path: str, visit: Visit | None = None) -> Game:
    """Read, check and fold a game log (with a sealed game's seed, where its file is), in
    one walk, which ``visit`` sees (``meeple.engine.check.verify``).

    :raises LogError: unreadable, corrupt, tampered or torn log (exit 3).
    :raises Failure: a log whose moves break the rules (exit 1).
    """
    log = logfile.read(path)
    missing = missing_edition(log.events)
    if missing is not None:
        raise Failure(f"{path}: {missing}", 3, legal="install the package that provides it")
    try:
        return Game.from_log(log, secret=read_secret(path, log.events), visit=visit)
    except InvalidGame as exc:
        raise _invalid(path, exc, "see `meeple check`") from None


def _invalid(path: str, exc: InvalidGame, then: str) -> Failure:
    rule = f" ({exc.rule})" if exc.rule else ""
    return Failure(f"{path}:{exc.line}: invalid game: {exc.message}{rule}; {then}")


def missing_edition(events: Sequence[Event]) -> str | None:
    """Why a log cannot be read here, when its ``game_started`` names an edition that no
    registered edition and no installed package gives (``edition 'X' is not installed``)."""
    first = events[0] if events else None
    if isinstance(first, GameStarted):
        try:
            edition_named(first.edition)
        except EditionNotInstalled as exc:
            return exc.message
    return None


def load_valid_prefix(path: str, visit: Visit | None = None) -> tuple[Game, str | None]:
    """The trustworthy part of a log, for a dispute: the lines before its first fault (a
    broken link, a torn or undecodable line, a move the rules refuse), folded; and where it
    stops and why (None when the whole log is sound).

    :raises LogError, Failure: when not even the first line can be trusted.
    """
    try:
        log = logfile.read(path)
        why = None
    except logfile.LogError as exc:
        if exc.line is None or exc.line < 2:
            raise
        why = f"line {exc.line}: {exc.kind}: {cli_words(exc.message)}"
        data = _raw_log(path)
        log = logfile.parse(path, data[:_offset_of_line(data, exc.line)])
    secret = read_secret(path, log.events)
    try:
        return Game.from_log(log, secret=secret, visit=visit), why
    except InvalidGame as exc:
        if exc.line < 2:
            raise _invalid(path, exc, "nothing before it can be shown") from None
        rule = f" ({exc.rule})" if exc.rule else ""
        stop = exc.line
        log = logfile.GameLog(path, log.events[: stop - 1], log.hashes[stop - 2],
                              log.hashes[: stop - 1], log.schema,
                              None if log.signers is None else log.signers[: stop - 1])
        return Game.from_log(log, secret=secret, visit=visit), f"line {stop}: {exc.message}{rule}"


def _raw_log(path: str) -> bytes:
    try:
        return read_regular(path, logfile.MAX_FILE_BYTES)
    except NotReadable as exc:
        raise Failure(f"{path}: {exc.reason}", 3) from None


def _offset_of_line(data: bytes, line: int) -> int:
    """Where line ``line`` (1-based) starts in ``data``."""
    offset = 0
    for _ in range(line - 1):
        offset = data.index(b"\n", offset) + 1
    return offset


def load_tileset(source: str | None, *, expansion_ok: bool = False,
                 data: bytes | None = None) -> TileSetDef:
    """A bundled tile set by name (by default the default edition's), or a tile set file by path.

    The file is hostile until checked: only a regular file of at most 1 MiB (a game log line
    must hold it), per-field bounds, at most ``MAX_TILES`` tiles, no control characters.

    :raises Failure: unreadable, oversized or malformed file, naming the field (exit 2).
    """
    if source == "":
        raise Failure("--tileset takes a tile set file; the name given is empty", 2)
    name = source or DEFAULT
    if data is not None:
        where = f"bundled tile set {name}"  # an edition's own file, given by the edition
    elif name in shipped():
        data = bundled_bytes(name)
        where = f"bundled tile set {name}"  # decoded below with the same checks as a file
    else:
        try:
            data = read_regular(name, logfile.MAX_LINE_BYTES)
        except NotReadable as exc:
            raise Failure(f"{name}: cannot use it as a tile set file: {exc.reason}", 2) from None
        where = name
    try:
        definition = decode_tileset(data)
    except msgspec.ValidationError as exc:
        raise Failure(f"{where}: not a tile set: {escaped(str(exc))}", 2) from None
    except (msgspec.DecodeError, UnicodeDecodeError, RecursionError) as exc:
        raise Failure(f"{where}: not JSON: {escaped(str(exc))}", 2) from None
    fault = limits_fault(definition)
    if fault is not None:
        field, reason = fault
        raise Failure(f"{where}: field {field} {reason}" if field != "tiles" else
                      f"{where}: {reason}", 2)
    if len(canonical_bytes(definition)) > logfile.MAX_LINE_BYTES - RECORD_ROOM:
        raise Failure(f"{where}: the tile set is too large to record in a game log line (at "
                      f"most {logfile.MAX_LINE_BYTES - RECORD_ROOM:,} bytes as compact JSON)", 2)
    if not definition.name:
        stem = os.path.splitext(os.path.basename(name))[0]
        if control_char(stem) is not None:
            raise Failure(f"{escaped(name)}: the file name holds a control character; give the "
                          "set a \"name\"", 2)
        definition = msgspec.structs.replace(definition, name=stem)
    if not definition.start and expansion_ok is False:
        hint = (f" (add it to a game with --expansion {definition.expansion})"
                if definition.expansion else "")
        raise Failure(f"{where}: an expansion's tiles, with no start tile: not a game's tile "
                      f"set{hint}", 2)
    if not expansion_ok:
        try:
            compile_tileset(definition)  # (kept: the game played with it compiles it once)
        except TileSetError as exc:
            raise Failure(f"{where}: {exc}", 2, rule=exc.rule, legal=exc.legal) from None
    return definition


def game_tileset(edition: str | None, source: str | None,
                 expansions: Sequence[str] = ()) -> TileSetDef:
    """The tile set a new game is played with: a file or the edition's bundled set, with each
    expansion's tiles added.

    :raises Failure: an unknown edition or expansion, or a set of another edition (exit 2).
    """
    try:
        chosen = edition_named(DEFAULT if edition is None else edition)
    except RulesError as exc:
        raise Failure(str(exc), 2) from None
    definition = load_tileset(chosen.tileset, data=chosen.tileset_file()) if source is None \
        else load_tileset(source)
    if edition is not None and definition.edition != edition:
        raise Failure(f"{source}: a tile set of the {definition.edition} edition, not "
                      f"{edition}", 2)
    game_edition = edition_named(definition.edition)
    for name in dict.fromkeys(expansions):
        try:
            expansion = expansion_named(name, game_edition)
        except RulesError as exc:
            raise Failure(f"--expansion {name}: {exc}", 2) from None
        definition = with_expansion(definition, load_tileset(
            expansion.tileset, expansion_ok=True, data=expansion.tileset_file()))
    return definition


def with_expansion(base: TileSetDef, extra: TileSetDef) -> TileSetDef:
    """A base set with an expansion's tiles added (see ``meeple.events.tileset``).

    :raises Failure: the expansion reuses tile ids of the base set (exit 2).
    """
    try:
        return tileset_with_expansion(base, extra)
    except ValueError as exc:
        raise Failure(str(exc), 2) from None
