"""Moving a remote game's lines between players by file (docs/guide/remote.md):
``send`` writes the lines the others have not seen as a parcel (``meeple.events.parcel``),
``receive`` verifies a parcel or a whole log and appends what is new, ``join`` takes a seat
from the set-up another player sent; ``forks`` tells where two copies of one game part.

Nothing is appended unless the whole game with the new lines verifies: every signature,
the seat that signed each line, the chain, the rules and every reveal.
"""

from __future__ import annotations

import os
import secrets

import msgspec

from meeple.cli.remote import Player, Seat, load_signer, read_seat, seat_of_key, write_seat
from meeple.cli.store import Failure
from meeple.engine import Game, InvalidGame
from meeple.events import log as logfile
from meeple.events.limits import MAX_FILE_BYTES
from meeple.events.model import GameStarted, Remote


class Lines(msgspec.Struct):
    """A copy of a remote game as lines: the bytes of each, and the log they read as."""

    raw: list[bytes]
    log: logfile.GameLog


def read_lines(path: str) -> Lines:
    """A log read and checked (chain, signatures), with the bytes of each line."""
    log = logfile.read(path)
    with open(path, "rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    raw = data.split(b"\n")[:len(log.events)]
    return Lines(raw, log)


def _remote(log: logfile.GameLog, where: str) -> Remote:
    first = log.events[0]
    remote = first.remote if isinstance(first, GameStarted) else None
    if not isinstance(remote, Remote):
        raise Failure(f"{where}: not a remote game (its first line records no seats' keys)", 1)
    return remote


def verified(name: str, raw: list[bytes], new_from: int = 0) -> Game:
    """The game these lines hold, checked (``name`` locates a fault): every rule, and the
    signature of every line from ``new_from`` on (those before were checked when they came).

    :raises LogError, Failure: the first fault, located.
    """
    return verified_log(name, raw, new_from)[1]


def verified_log(name: str, raw: list[bytes],
                 new_from: int = 0) -> tuple[logfile.GameLog, Game]:
    """``verified``, with the log as read (which ``verified_after`` goes on from)."""
    log = logfile.parse(name, b"".join(line + b"\n" for line in raw), signatures_from=new_from)
    try:
        game = Game.from_log(log)
    except InvalidGame as exc:
        raise _refused(name, exc) from None
    return log, Game(game.events, game.state, head=log.head, hashes=log.hashes,
                     schema=log.schema, signers=log.signers)


def verified_after(log: logfile.GameLog, game: Game,
                   raw: list[bytes]) -> tuple[logfile.GameLog, Game]:
    """``verified_log`` of the lines of ``log`` and ``raw`` after them, where ``log`` and
    ``game`` were verified already: only the new lines are read and checked, each signature
    and every rule, with the same faults and words (the relay, which keeps its games)."""
    grown = logfile.extend(log, b"".join(line + b"\n" for line in raw))
    try:
        return grown, game.extended(grown)
    except InvalidGame as exc:
        raise _refused(log.path, exc) from None


def _refused(name: str, exc: InvalidGame) -> Failure:
    rule = f" ({exc.rule})" if exc.rule else ""
    return Failure(f"{name}:{exc.line}: refused: {exc.message}{rule}", 3)


def send(path: str, *, since: int | None = None) -> str:
    """The parcel of the lines the others have not seen: this seat's lines since the last
    line another seat wrote (or from line ``since + 1``)."""
    from meeple.events.parcel import Parcel, wrap

    lines = read_lines(path)
    remote = _remote(lines.log, path)
    seat = read_seat(path, remote).seat
    signers = lines.log.signers or []
    if since is None:
        theirs = [i for i, s in enumerate(signers) if s != seat]
        since = theirs[-1] if theirs else -1
        if since == len(signers) - 1:
            raise Failure(f"{path}: nothing to send: the last line is another seat's (use --from "
                          "SEQ to send lines again)", 1)
    if since == len(lines.raw) - 1:
        raise Failure(f"--from {since}: nothing to send: seq {since} is the game's last line", 1)
    if not -1 <= since < len(lines.raw) - 1:
        raise Failure(f"--from {since}: the game's lines have seq 0 to {len(lines.raw) - 1}", 2)
    head = lines.log.hashes[since] if since >= 0 else None
    return wrap(Parcel(game=remote.game, after=since, head=head,
                       lines=tuple(lines.raw[since + 1:])))


def unpack(source: str) -> tuple[int, str | None, list[bytes], str]:
    """What a file holds: a parcel, or a whole log; returns where its lines start (the seq
    before them), the head before them, the lines, and the game's id.

    :raises Failure: a file that holds neither, or a damaged parcel (exit 3).
    """
    from meeple.events.files import NotReadable, read_regular
    from meeple.events.parcel import ParcelError, looks_like_parcel, unwrap

    try:
        data = read_regular(source, 4 * MAX_FILE_BYTES)
    except NotReadable as exc:
        raise Failure(f"{source}: {exc.reason}", 3) from None
    if looks_like_parcel(data):
        try:
            parcel = unwrap(data, limit=MAX_FILE_BYTES)
        except ParcelError as exc:
            raise Failure(f"{source}: {exc}", 3) from None
        return parcel.after, parcel.head, list(parcel.lines), parcel.game
    log = logfile.parse(source, data, every_signature=True)
    remote = _remote(log, source)
    return -1, None, data.split(b"\n")[:len(log.events)], remote.game


class Received(msgspec.Struct):
    """What ``receive`` did: lines taken, lines this seat wrote after them, the new head."""

    taken: int
    written: int
    head: str | None
    game: Game


def receive(path: str, source: str) -> Received:
    """Verify what ``source`` brings and append what is new, then what this seat owes
    (commitments, reveals), signed.

    :raises Failure: a parcel of another game, one that does not follow this copy (a gap,
        or a fork: named with the last common head), or one that does not verify.
    """
    return take_lines(path, source, *unpack(source))


def take_lines(path: str, source: str, after: int, head: str | None, incoming: list[bytes],
               game_id: str, theirs: list[bytes] | None = None) -> Received:
    """``receive`` of lines from anywhere (a file, a relay): ``incoming`` follow line
    ``after`` whose hash is ``head``, in the game ``game_id``; ``source`` names where they
    come from in errors. Where they fork from this copy, the other copy (``theirs``, every
    line of it, or this copy's lines to ``after`` and ``incoming``) is kept beside the log
    for ``meeple check`` to show both."""
    mine = read_lines(path)
    remote = _remote(mine.log, path)
    if game_id != remote.game:
        raise Failure(f"{source}: lines of another game ({game_id[:12]}), not {remote.game[:12]}",
                      1)
    count = len(mine.raw)
    if after >= count:
        raise Failure(f"{source}: its lines start after line {after + 1}, and this copy ends at "
                      f"line {count}: ask for the lines between (`meeple send --from "
                      f"{count - 1}`)", 1)
    other = theirs if theirs is not None else [*mine.raw[:after + 1], *incoming]
    if after >= 0 and mine.log.hashes[after] != head:
        raise _fork(path, source, mine, after, None, theirs)
    for offset, line in enumerate(incoming):
        seq = after + 1 + offset
        if seq >= count:
            break
        if line != mine.raw[seq]:
            raise _fork(path, source, mine, seq, line, other)
    new = incoming[max(0, count - after - 1):]
    whole = verified(source, mine.raw + new, count)
    player = Player(whole, read_seat(path, remote))  # (its key is checked before anything is written)
    if new:
        logfile.append_lines(path, new, mine.log.head or "", count)
    game = whole.kept_at(path)
    written = player.owe(game)
    written += player.bot_plays(game)
    player.save(game)
    return Received(len(new), written, game.head, game)


def same_game(source: str, found: str, wanted: str) -> None:
    """A relay that answers for game ``wanted`` with the lines of another is refused.

    :raises Failure: exit 3, naming both ids.
    """
    if found != wanted:
        raise Failure(f"{source}: the relay answers with the lines of game {found[:12]}, not "
                      f"{wanted[:12]}, the one asked for", 3)


def _duration(seconds: int) -> str:
    """``72 h``, ``90 min``, ``2 d``: as ``--time-per-move`` takes it, in its largest unit."""
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds % size == 0:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def terms(game: Game) -> str:
    """What a seat agrees to by joining a remote game, in words: who set it up, by the
    fingerprint of the key that signed the set-up (to compare with the one its host gives
    by another way), and the time a move may take."""
    from meeple.events.sshsig import PublicKey

    remote = game.remote
    assert remote is not None
    host = game.state.players[remote.host]
    fingerprint = PublicKey.parse(remote.keys[remote.host]).fingerprint
    then = "forfeits the game" if remote.timeout == "forfeit" else "is played on by a bot"
    clock = "no time limit" if remote.time_per_move is None else \
        f"{_duration(remote.time_per_move)} a move (a seat that takes longer {then} on a claim)"
    return f"set up by {host} with the key {fingerprint}; {clock}"


def _fork(path: str, source: str, mine: Lines, seq: int, line: bytes | None,
          theirs: list[bytes] | None) -> Failure:
    """Two copies of one game part at line ``seq`` (0-based; ``line`` the other's, where
    known). The other copy, where whole (``theirs``), is written beside the log, never over a
    file, so that ``meeple check`` can show both: a seat that signed two lines for one place
    is named there (double-dealing)."""
    common = mine.log.hashes[seq - 1] if seq > 0 else None
    where = f"line {seq + 1}" if line is not None else f"line {seq + 1} or before"
    shows = ""
    if theirs is not None:
        kept = keep_other_copy(path, theirs)
        shows = f"; their copy is kept as {kept}: `meeple check {path} {kept}` shows both" \
            if kept else "; their copy could not be kept beside the log"
    return Failure(f"{source}: forks from this copy at {where}; the last common head is "
                   f"{logfile.short(common)} (after line {seq}){shows}", 1)


def keep_other_copy(path: str, lines: list[bytes]) -> str | None:
    """Write ``lines`` (another copy of the game at ``path``) to a new file beside it,
    ``PATH.fork-N.jsonl`` with the first N not taken (or the one that holds these lines
    already, read as any file is: a regular one, within bounds); returns its name, or None
    where it cannot be written there."""
    from meeple.events.files import NotReadable, read_regular

    data = b"".join(line + b"\n" for line in lines)
    for n in range(1, 1000):
        name = f"{path}.fork-{n}.jsonl"
        try:
            if read_regular(name, len(data) + 1) == data:
                return name
        except (NotReadable, OSError):
            pass
        try:
            fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            continue
        except OSError:
            return None
        with os.fdopen(fd, "wb") as file:
            file.write(data)
        return name
    return None


def join(path: str, source: str, key: str) -> Game:
    """Take a seat in a remote game from its set-up (a parcel or log from line 1): verify it,
    keep a copy at ``path``, write this seat's commitment (and what else it owes), signed.

    :raises Failure: a set-up that does not verify, a key that is no seat's, a copy already
        there.
    """
    after, _, incoming, _ = unpack(source)
    if after != -1:
        raise Failure(f"{source}: joining takes the game from its first line (`meeple send "
                      "--from -1`)", 1)
    return join_lines(path, source, incoming, key)


def join_lines(path: str, source: str, incoming: list[bytes], key: str,
               game_id: str | None = None) -> Game:
    """``join`` from the lines of a game from its first (a file's, a relay's): the game
    ``game_id``, where that was asked for."""
    game = verified(source, incoming)
    remote = game.remote
    assert remote is not None
    if game_id is not None:
        same_game(source, remote.game, game_id)
    signer = load_signer(key)
    seat = seat_of_key(remote, signer.public.openssh)
    if seat is None:
        raise Failure(f"{key}: this key is no seat's in this game ({signer.public.fingerprint})",
                      1)
    if os.path.lexists(path):
        raise logfile.LogError("exists", path, "already exists; a game log is never overwritten")
    write_seat(path, Seat(remote.game, seat, os.path.abspath(os.path.expanduser(key)),
                          secrets.token_hex(32)))
    try:
        logfile.create_lines(path, incoming)
    except BaseException:
        os.unlink(path + ".secret")
        raise
    game = Game.load(path)
    player = Player(game, read_seat(path, remote))
    player.owe(game)
    player.bot_plays(game)
    player.save(game)
    return game
