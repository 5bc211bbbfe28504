"""A player's side of the relay (docs/guide/relay.md): ``send --relay URL`` gives the relay the
lines it does not have, ``receive --relay URL`` takes the lines this copy does not have
(verified as from a file: ``meeple.cli.transport.take_lines``). The relay's receipts for the
lines sent are kept beside the log (``GAME.receipts``), each checked against the relay's key.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import msgspec

from meeple.cli.store import Failure
from meeple.cli.transport import Received, read_lines, take_lines
from meeple.events.limits import MAX_FILE_BYTES
from meeple.events.model import GameStarted, Remote

#: seconds to wait for each part of the relay's answer, and for the whole of it
TIMEOUT, DEADLINE = 30.0, 60.0
#: the most a relay's answer may hold, in bytes (a game's lines, with room to spare)
MAX_ANSWER = 2 * MAX_FILE_BYTES


def _client(url: str):
    import httpx

    return httpx.Client(base_url=url.rstrip("/"), timeout=TIMEOUT, follow_redirects=False)


class _Answer(msgspec.Struct, omit_defaults=True):
    """What a relay's answer may hold, each field of the type meeple reads: decoding into it
    skips what else the answer holds without building it, and refuses a value of another
    shape at once, so a hostile answer costs no more memory than its lines' text."""

    game: str | None = None
    games: list[dict[str, str | int | bool | list[dict[str, str]]]] | None = None
    seq: int | None = None
    head: str | None = None
    after: int | None = None
    lines: list[str] | None = None
    receipts: list[dict[str, str | int]] | None = None
    key: str | None = None
    received_at: int | None = None
    now: int | None = None
    error: str | None = None
    kind: str | None = None


_ANSWER = msgspec.json.Decoder(_Answer)


def _call(url: str, method: str, where: str, **kwargs) -> tuple[int, dict]:
    """One call: the status and the JSON answer.

    :raises Failure: the relay cannot be reached, or answers no JSON (exit 3).
    """
    import httpx

    data = bytearray()
    started = time.monotonic()
    try:
        with _client(url) as client, client.stream(method, where, **kwargs) as answer:
            status = answer.status_code
            for chunk in answer.iter_bytes():
                data += chunk
                if len(data) > MAX_ANSWER:
                    raise Failure(f"{url}: the relay's answer is over {MAX_ANSWER:,} bytes", 3)
                if time.monotonic() - started > DEADLINE:
                    raise Failure(f"{url}: the relay's answer takes over {DEADLINE:.0f} s", 3)
    except httpx.HTTPError as exc:
        raise Failure(f"{url}: the relay cannot be reached: {exc}", 3) from None
    try:
        document = _ANSWER.decode(data)
    except msgspec.ValidationError as exc:
        raise Failure(f"{url}: the relay's answer is not one meeple reads ({exc}; status "
                      f"{status})", 3) from None
    except (msgspec.DecodeError, RecursionError):
        raise Failure(f"{url}: the relay's answer is not JSON (status {status})", 3) from None
    # (the fields the answer did not hold are left out, as they were, so that ``get`` with a
    # default still says what is missing)
    return status, {k: v for k, v in msgspec.structs.asdict(document).items() if v is not None}


def public_games(url: str) -> list:
    """The games the relay lists for anyone to watch (``GET /games``), checked for their
    shape (``meeple.cli.relay.listing.Listed``).

    :raises Failure: the relay cannot be reached or answers something else (exit 3).
    """
    from meeple.cli.relay.listing import Listed

    status, answer = _call(url, "GET", "/games")
    try:
        if status != 200:
            raise msgspec.ValidationError(f"status {status}")
        return msgspec.convert(answer.get("games"), list[Listed])
    except msgspec.ValidationError as exc:
        raise Failure(f"{url}: the relay's list of games is not one meeple reads ({exc})", 3) \
            from None


def _game_id(path: str) -> str:
    lines = read_lines(path)
    first = lines.log.events[0]
    remote = first.remote if isinstance(first, GameStarted) else None
    if not isinstance(remote, Remote):
        raise Failure(f"{path}: not a remote game", 1)
    return remote.game


def push(path: str, url: str) -> int:
    """Give the relay every line of this copy it does not have; returns how many.

    :raises Failure: the relay refuses them (its reason), or holds lines this copy lacks.
    """
    mine = read_lines(path)
    game = _game_id(path)
    status, held = _call(url, "GET", f"/games/{game}")
    if status == 404:
        status, answer = _call(url, "POST", "/games",
                               json={"lines": [line.decode() for line in mine.raw]})
        if status != 201:
            raise Failure(f"{url}: the relay refuses the game: {answer.get('error')}", 1)
        _keep_receipts(path, url, answer, game, 0, mine.raw)
        return len(mine.raw)
    if status != 200:
        raise Failure(f"{url}: {held.get('error', f'status {status}')}", 1)
    seq = held.get("seq")
    if not isinstance(seq, int) or seq < 0:
        raise Failure(f"{url}: the relay's answer has no seq", 3)
    if seq < len(mine.raw) and mine.log.hashes[seq] != held.get("head"):
        _forked(path, url, mine.raw, fetch(url, game))
    if seq >= len(mine.raw):
        raise Failure(f"{url}: the relay holds lines this copy does not (its head "
                      f"{str(held.get('head'))[:12]} after line {seq + 1}): `meeple receive "
                      f"{path} --relay {url}` first", 1)
    new = mine.raw[seq + 1:]
    if not new:
        return 0
    answer = _post_lines(url, game, seq, held["head"], new)
    _keep_receipts(path, url, answer, game, seq + 1, new)
    return len(new)


def _post_lines(url: str, game: str, seq: int, head: str, new: list[bytes],
                then: str = "") -> dict:
    """Give the relay ``new`` after its line ``seq`` (hash ``head``); its answer.

    :raises Failure: the relay refuses them, its reason and ``then`` said (exit 1).
    """
    status, answer = _call(url, "POST", f"/games/{game}/lines",
                           json={"after": seq, "head": head,
                                 "lines": [line.decode() for line in new]})
    if status != 200:
        raise Failure(f"{url}: the relay refuses the lines: {answer.get('error')} "
                      f"({answer.get('kind')}){then}", 1)
    return answer


def send_first(path: str, url: str, new: list[bytes]) -> Callable[[], None]:
    """Give the relay ``new``, lines that follow this copy's last and are not written here
    yet; returns what keeps the relay's receipts, to call once this copy holds them.

    :raises Failure: the relay holds other lines, or refuses these (then they are kept
        nowhere: the caller writes them only after).
    """
    mine = read_lines(path)
    game = _game_id(path)
    status, held = _call(url, "GET", f"/games/{game}")
    if status != 200:
        raise Failure(f"{url}: {held.get('error', f'status {status}')}; nothing was written", 1)
    seq = len(mine.raw) - 1
    if held.get("seq") != seq or held.get("head") != mine.log.hashes[seq]:
        raise Failure(f"{url}: the relay's copy is not this one (its head "
                      f"{str(held.get('head'))[:12]} after line {held.get('seq')}): nothing was "
                      f"written; `meeple receive {path} --relay {url}` first", 1)
    answer = _post_lines(url, game, seq, held["head"], new, "; nothing was written")
    return lambda: _keep_receipts(path, url, answer, game, seq + 1, new)


def pull(path: str, url: str) -> Received:
    """Take the lines the relay has and this copy does not, verified, then what this seat
    owes (``receive``). The relay's copy must agree with this one on every line both hold:
    the lines asked for start at this copy's last line, and where the relay holds fewer, its
    head must be this copy's line of that number. Where they part, the relay's whole copy
    is kept beside the log for ``meeple check`` (a seat that signed two lines for one place
    is named there)."""
    mine = read_lines(path)
    game = _game_id(path)
    last = len(mine.raw) - 1
    after = last - 1  # (from this copy's last line on, which the relay's must repeat)
    status, answer = _call(url, "GET", f"/games/{game}", params={"after": after})
    if status != 200:
        raise Failure(f"{url}: {answer.get('error', f'status {status}')}", 1)
    texts, seq, head = answer.get("lines"), answer.get("seq"), answer.get("head")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts) or \
            not isinstance(seq, int) or not isinstance(head, str) or seq < -1:
        raise Failure(f"{url}: the relay's answer has no lines", 3)
    if answer.get("game", game) != game:
        raise Failure(f"{url}: the relay answers with another game "
                      f"({str(answer.get('game'))[:12]}), not {game[:12]}", 3)
    incoming = [t.encode() for t in texts]
    if (seq < last and (seq < 0 or mine.log.hashes[seq] != head)) or \
            (incoming and incoming[0] != mine.raw[after + 1]):
        _forked(path, url, mine.raw, fetch(url, game))
    return take_lines(path, url, after, mine.log.hashes[after] if after >= 0 else None,
                      incoming, game)


def _forked(path: str, url: str, mine: list[bytes], theirs: list[bytes]) -> None:
    """The relay's copy (``theirs``) parts from this one: keep it beside the log and say
    at which line.

    :raises Failure: always (exit 1).
    """
    from meeple.cli.transport import keep_other_copy
    from meeple.events import line_hash

    at = next((i for i, (a, b) in enumerate(zip(mine, theirs, strict=False)) if a != b),
              min(len(mine), len(theirs)))
    common = line_hash(mine[at - 1])[:12] if at > 0 else "none"
    kept = keep_other_copy(path, theirs)
    shows = f"the relay's copy is kept as {kept}: `meeple check {path} {kept}` shows both" \
        if kept else "the relay's copy could not be kept beside the log"
    raise Failure(f"{url}: the relay's copy forks from this copy at line {at + 1}; the last "
                  f"common head is {common} (after line {at}); {shows}", 1)


def _keep_receipts(path: str, url: str, answer: dict, game: str, first_seq: int,
                   lines: list[bytes]) -> None:
    """Keep the relay's receipts beside the log, one JSON a line (``GAME.receipts``), once
    each is checked: signed by the relay's key (``GET /key``), for this game, the seq and
    the hash of the line it answers.

    :raises Failure: a receipt missing or forged (exit 3); then none is kept.
    """
    from meeple.cli.relay.store import Receipt
    from meeple.events import line_hash
    from meeple.events.sshsig import BadSignature, KeyProblem, PublicKey

    receipts = answer.get("receipts")
    if not isinstance(receipts, list) or len(receipts) != len(lines):
        raise Failure(f"{url}: the relay gave no receipts for the lines it took", 3)
    _, key = _call(url, "GET", "/key")
    seq = first_seq
    try:
        public = PublicKey.parse(str(key.get("key", "")), f"{url}/key")
        for offset, (line, receipt) in enumerate(zip(lines, receipts, strict=True)):
            seq = first_seq + offset
            taken = msgspec.convert(receipt, Receipt)
            if (taken.game, taken.seq, taken.hash) != (game, seq, line_hash(line)):
                raise BadSignature(f"it is for another line (line {taken.seq + 1}, hash "
                                   f"{taken.hash[:12]}, game {taken.game[:12]})")
            public.verify(taken.message(), taken.sig)
    except (KeyProblem, BadSignature, msgspec.ValidationError) as exc:
        raise Failure(f"{url}: the relay's receipt for line {seq + 1} is forged: {exc}",
                      3) from None
    with open(path + ".receipts", "ab") as file:
        file.write(b"".join(msgspec.json.encode(r) + b"\n" for r in receipts))
        file.flush()
        os.fsync(file.fileno())


def fetch(url: str, game: str) -> list[bytes]:
    """Every line of ``game`` the relay holds (to join it, or to watch it).

    :raises Failure: the relay does not hold it, or answers something else.
    """
    from meeple.cli.relay.store import GAME_ID

    if not GAME_ID.fullmatch(game):
        raise Failure(f"{game!r}: a game id is 32 lowercase hex digits (`meeple status GAME` "
                      "shows it)", 2)
    status, answer = _call(url, "GET", f"/games/{game}")
    if status != 200:
        raise Failure(f"{url}: {answer.get('error', f'status {status}')}", 1)
    texts = answer.get("lines")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts) or not texts:
        raise Failure(f"{url}: the relay's answer has no lines", 3)
    return [t.encode() for t in texts]


def relay_clock(url: str, game: str, head: str | None) -> tuple[float, float]:
    """When the relay stored the last line of ``game`` and its clock now, once the relay's
    last line is this copy's (``head``).

    :raises Failure: the relay holds other lines, or has no receipt of its last line.
    """
    status, answer = _call(url, "GET", f"/games/{game}/clock")
    if status != 200:
        raise Failure(f"{url}: {answer.get('error', f'status {status}')}", 1)
    if answer.get("head") != head:
        raise Failure(f"{url}: the relay's last line is not this copy's: `meeple receive` and "
                      "`meeple send` with --relay first", 1)
    since, now = answer.get("received_at"), answer.get("now")
    if not isinstance(since, int) or not isinstance(now, int):
        raise Failure(f"{url}: the relay has no receipt of its last line", 1)
    return float(since), float(now)
