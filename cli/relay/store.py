"""A relay's games (docs/guide/relay.md): one log per game in the relay's folder, named by
the game's id, written with the CLI's appends, locks and fsync, so `meeple check DIR/*.jsonl`
checks a relay's folder; beside each, the relay's receipts.

Nothing is stored that the game's own rules refuse: a new game is its whole signed set-up,
verified; each append is verified with the game before it (every signature of the new
lines, their writers, the chain, the rules and the reveals).

A receipt is the relay's signature (its own Ed25519 key, SSHSIG, namespace ``meeple``) over
``receipt <game id> <seq> <line hash> <Unix time>``: the relay saw that line at that time.
"""

from __future__ import annotations

import os
import re
import time

import msgspec

from meeple.cli.store import Failure
from meeple.engine import Game
from meeple.events import log as logfile
from meeple.events.limits import MAX_FILE_BYTES
from meeple.events.model import GameStarted, Remote, TimeoutClaimed

GAME_ID = re.compile(r"[0-9a-f]{32}")
#: the most games one relay keeps
MAX_GAMES = 10_000
#: the most games whose verified state the relay keeps in memory, the most recently played
#: (an append to another is checked by reading and verifying its whole log), and the most
#: lines they may hold in all (a line kept costs about 0.4 KiB: 250,000 lines, 100 MiB)
MAX_KEPT = 256
MAX_KEPT_LINES = 250_000


class Receipt(msgspec.Struct, frozen=True):
    """The relay's word that it stored line ``seq`` (SHA-256 ``hash``) at ``at``."""

    game: str
    seq: int
    hash: str
    at: int
    sig: str

    def message(self) -> bytes:
        return receipt_message(self.game, self.seq, self.hash, self.at)


def receipt_message(game: str, seq: int, line_hash: str, at: int) -> bytes:
    return f"receipt {game} {seq} {line_hash} {at}".encode()


class Refused(Exception):
    """A request the relay refuses: its HTTP status, one-line reason and kind."""

    def __init__(self, status: int, message: str, kind: str, **extra: object) -> None:
        super().__init__(message)
        self.status, self.message, self.kind, self.extra = status, message, kind, extra


class Games:
    """The games in one folder, and the relay's key that signs receipts."""

    def __init__(self, folder: str, signer) -> None:
        self.folder = folder
        self.signer = signer
        self._pages: dict[str, tuple[str | None, str]] = {}
        #: games verified already, by id: the log as read and the game, so that an append
        #: is checked from the game's state, reading and verifying only the new lines
        self._kept: dict[str, tuple[logfile.GameLog, Game]] = {}
        os.makedirs(folder, exist_ok=True)

    def path(self, game: str) -> str:
        if not GAME_ID.fullmatch(game):
            raise Refused(404, "no such game: a game id is 32 lowercase hex digits",
                          "missing")
        return os.path.join(self.folder, game + ".jsonl")

    def stored(self, game: str) -> tuple[list[bytes], str | None]:
        """A stored game's lines and head as the relay wrote them (each verified before it was
        stored; read under the log's shared lock, not verified again): what readers and
        streams are served.

        :raises Refused: 404 for a game the relay does not hold.
        """
        import fcntl

        from meeple.events.locking import lock, open_regular

        path = self.path(game)
        try:
            fd = open_regular(path, os.O_RDONLY)
        except logfile.LogError:
            raise Refused(404, f"no such game {game}", "missing") from None
        try:
            lock(fd, path, fcntl.LOCK_SH, "unreadable")
            data = os.pread(fd, MAX_FILE_BYTES + 1, 0)
        finally:
            os.close(fd)
        lines = data.split(b"\n")[:-1]
        return lines, logfile.line_hash(lines[-1]) if lines else None

    def create(self, lines: list[bytes]) -> tuple[str, list[Receipt]]:
        """Store a new game from its signed set-up (its first lines, every one verified).

        :raises Refused: 422 for lines that do not verify, 409 for a game already held.
        """
        if sum(1 for entry in os.scandir(self.folder) if entry.name.endswith(".jsonl")) \
                >= MAX_GAMES:
            raise Refused(429, f"the relay holds its most games ({MAX_GAMES})", "full")
        log, game = _verified("set-up", lines, 0)
        if any(isinstance(event, TimeoutClaimed) for event in game.events):
            raise Refused(422, "a timeout claim is stored only after a line the relay stored "
                          "itself, once the time per move has passed (RM-4): give the relay "
                          "the game before the claim", "early")
        first = game.events[0]
        assert isinstance(first, GameStarted) and isinstance(first.remote, Remote)
        path = self.path(first.remote.game)
        try:
            logfile.create_lines(path, lines)
        except logfile.LogError as exc:
            status = 409 if exc.kind == "exists" else 500
            raise Refused(status, f"{first.remote.game}: {exc.message}", exc.kind) from None
        log.path = first.remote.game
        self._keep(first.remote.game, log, game)
        return first.remote.game, self._receipts(first.remote.game, 0, lines)

    def append(self, game: str, after: int, head: str | None,
               lines: list[bytes]) -> list[Receipt]:
        """Append lines that follow line ``after`` (whose hash is ``head``).

        :raises Refused: 409 with the current head when ``after``/``head`` is not the last
            line; 422 for lines that do not verify.
        """
        raw, stored_head = self.stored(game)
        count = len(raw)
        if after != count - 1 or head != stored_head:
            raise Refused(409, f"the game has moved on: its last line is {count} (head "
                          f"{logfile.short(stored_head)})", "conflict", head=stored_head,
                          seq=count - 1)
        kept = self._kept.pop(game, None)
        held = len(kept[0].events) if kept is not None else 0
        if kept is not None and 0 < held <= count \
                and kept[0].head == logfile.line_hash(raw[held - 1]):
            # (lines stored since by another of the relay's processes are caught up with)
            log, whole = _verified(game, raw[held:] + lines, count, kept)
        else:
            log, whole = _verified(game, raw + lines, count)
        for event in whole.events[count:]:
            if isinstance(event, TimeoutClaimed):
                self._check_claim(game, event.seq - 1, count, whole.remote)
        try:
            logfile.append_lines(self.path(game), lines, stored_head or "", count)
        except logfile.LogError as exc:
            status = 409 if exc.kind == "conflict" else 413 if exc.kind == "full" else 500
            raise Refused(status, exc.message, exc.kind) from None
        self._keep(game, log, whole)
        return self._receipts(game, count, lines)

    def _keep(self, game: str, log: logfile.GameLog, whole: Game) -> None:
        """Keep a game just stored as the latest played (at most ``MAX_KEPT`` games and
        ``MAX_KEPT_LINES`` lines in all, the least recently played let go first)."""
        kept = self._kept
        kept.pop(game, None)
        lines = sum(len(held.events) for held, _ in kept.values()) + len(log.events)
        while kept and (len(kept) >= MAX_KEPT or lines > MAX_KEPT_LINES):
            held, _ = kept.pop(next(iter(kept)))
            lines -= len(held.events)
        if lines <= MAX_KEPT_LINES:
            kept[game] = (log, whole)

    def page(self, game: str) -> str:
        """The replay page of a stored game (``export --html``'s), following the game live:
        a script on it listens to the game's stream and loads the page again when a line
        comes (at the last step, it opens at the new last one). Kept for the game's head."""
        from meeple.cli.pictures.viewer import page
        from meeple.engine import Game

        raw, head = self.stored(game)
        cached = self._pages.get(game)
        if cached is not None and cached[0] == head:
            return cached[1]
        html = page(Game.load(self.path(game)), note="live from a meeple relay")
        html = html.replace("</body>", _FOLLOW + "</body>", 1)
        if len(self._pages) > 64:
            self._pages.clear()
        self._pages[game] = (head, html)
        return html

    def received_at(self, game: str, seq: int) -> int | None:
        """When the relay stored line ``seq`` of ``game``: its receipt's time; for a last line
        whose receipt was lost (the relay stopped between the two writes), the log's last
        change."""
        at = self._receipt_time(game, seq)
        if at is None:
            raw, _ = self.stored(game)
            if seq == len(raw) - 1:
                at = int(os.stat(self.path(game)).st_mtime)
        return at

    def _receipt_time(self, game: str, seq: int) -> int | None:
        at = None
        try:
            with open(os.path.join(self.folder, game + ".receipts"), "rb") as file:
                for line in file:
                    try:
                        receipt = msgspec.json.decode(line, type=Receipt)
                    except msgspec.DecodeError:
                        continue
                    if receipt.seq == seq:
                        at = receipt.at
        except OSError:
            return None
        return at

    def _check_claim(self, game: str, last: int, stored: int, remote: Remote | None) -> None:
        """RM-4 witnessed: a timeout claim is stored only once the time per move has passed
        since the relay stored the line it waits after (``last``; a line the relay does not
        hold yet, of the ``stored`` it holds, it has just received).

        :raises Refused: 422 for a claim that comes early.
        """
        if remote is None or remote.time_per_move is None:
            return
        now = int(time.time())
        since = self.received_at(game, last) if last < stored else now
        if since is None or now - since < remote.time_per_move:
            left = remote.time_per_move - (now - (since or now))
            raise Refused(422, f"the timeout claim comes early: the relay stored line "
                          f"{last + 1} {now - (since or now)} s ago, and a move may take "
                          f"{remote.time_per_move} s ({left} s left)", "early")

    def _receipts(self, game: str, first_seq: int, lines: list[bytes]) -> list[Receipt]:
        """Sign and keep a receipt for each line stored (``GAME.receipts``, one JSON a line)."""
        now = int(time.time())
        receipts = []
        for offset, line in enumerate(lines):
            seq, line_hash = first_seq + offset, logfile.line_hash(line)
            receipts.append(Receipt(game, seq, line_hash, now, self.signer.sign(
                receipt_message(game, seq, line_hash, now))))
        with open(os.path.join(self.folder, game + ".receipts"), "ab") as file:
            file.write(b"".join(msgspec.json.encode(r) + b"\n" for r in receipts))
            file.flush()
            os.fsync(file.fileno())
        return receipts


#: the script a relay's page follows its game with (its stream: ``GET /games/ID/stream``)
_FOLLOW = """<script>
(function () {
  const last = D.events.length ? D.events[D.events.length - 1].seq : -1;
  const stream = new EventSource("stream?after=" + last);
  stream.addEventListener("line", function () {
    stream.close();
    if (Number(document.body.dataset.step) === D.events.length - 1) {
      history.replaceState(null, "", location.pathname + location.search);
    }
    location.reload();
  });
})();
</script>
"""


def _verified(name: str, lines: list[bytes], new_from: int,
              kept: tuple[logfile.GameLog, Game] | None = None) -> tuple[logfile.GameLog, Game]:
    """The game these lines make, verified (``meeple.cli.transport.verified``): all its lines
    from the first, or with ``kept``, the game of the lines before them verified already."""
    from meeple.cli.transport import verified_after, verified_log

    try:
        if kept is not None:
            return verified_after(*kept, lines)
        return verified_log(name, lines, new_from)
    except logfile.LogError as exc:
        raise Refused(422, str(exc), exc.kind) from None
    except Failure as exc:
        raise Refused(422, exc.message, "invalid") from None
