"""The games a relay lists (docs/guide/relay.md): those whose set-up says ``public``, for
anyone to watch; the others are read only by those who know their 128-bit id.

``GET /games`` answers them as JSON and ``GET /`` as a page of links to each game's live
replay page, the most recently played first, at most ``MAX_LISTED``.
"""

from __future__ import annotations

import html
import os
import threading
import time

import msgspec

from meeple.cli.relay.store import GAME_ID, Games, Refused
from meeple.events.limits import MAX_LINE_BYTES
from meeple.events.model import DECODER, GameEnded, GameStarted, Remote
from meeple.events.signed import split

#: the most games a listing holds
MAX_LISTED = 100
#: seconds a listing is served again before the folder is looked at anew
FRESH = 1.0


class Listed(msgspec.Struct, frozen=True):
    """One public game as a listing shows it."""

    game: str
    edition: str
    players: list[dict[str, str]]
    seq: int
    over: bool
    played_at: int


class Listing:
    """The public games of a relay's folder, looked at again at most once every ``FRESH``
    seconds; what a game's set-up says is read once (it never changes)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self._lock = threading.Lock()
        self._made: tuple[float, list[Listed]] | None = None
        #: by game id: its set-up if public, else None (read once)
        self._setups: dict[str, GameStarted | None] = {}
        #: by game id: (its log's last change, what the listing said then)
        self._seen: dict[str, tuple[float, Listed]] = {}

    def public(self) -> list[Listed]:
        with self._lock:
            now = time.monotonic()
            if self._made is None or now - self._made[0] >= FRESH:
                self._made = (now, self._look())
            return self._made[1]

    def _look(self) -> list[Listed]:
        found = []
        with os.scandir(self.games.folder) as entries:
            for entry in entries:
                game = entry.name[:-len(".jsonl")]
                if entry.name.endswith(".jsonl") and GAME_ID.fullmatch(game) \
                        and entry.is_file(follow_symlinks=False):
                    found.append((entry.stat(follow_symlinks=False).st_mtime, game))
        found.sort(reverse=True)
        listed: list[Listed] = []
        for changed, game in found:
            if len(listed) >= MAX_LISTED:
                break
            setup = self._setup(game)
            if setup is None:
                continue
            seen = self._seen.get(game)
            if seen is None or seen[0] != changed:
                shown = self._entry(game, setup, changed)
                if shown is None:
                    continue
                seen = (changed, shown)
                self._seen[game] = seen
            listed.append(seen[1])
        return listed

    def _setup(self, game: str) -> GameStarted | None:
        if game not in self._setups:
            try:  # (the first line only: a listing reads no game whole that it does not list)
                with open(self.games.path(game), "rb") as file:
                    line = file.readline(MAX_LINE_BYTES + 1)
            except (OSError, Refused):
                return None
            try:
                first = DECODER.decode(split(line.rstrip(b"\n"))[0])
            except (msgspec.DecodeError, UnicodeDecodeError, RecursionError):
                first = None  # (a set-up of an older schema: never public)
            public = isinstance(first, GameStarted) and isinstance(first.remote, Remote) \
                and first.remote.public is True
            self._setups[game] = first if public and isinstance(first, GameStarted) else None
        return self._setups[game]

    def _entry(self, game: str, setup: GameStarted, changed: float) -> Listed | None:
        """A public game as listed; None for one gone, or whose last line does not read."""
        try:
            raw, _ = self.games.stored(game)
            last = DECODER.decode(split(raw[-1])[0]) if len(raw) > 1 else setup
        except (Refused, msgspec.DecodeError, UnicodeDecodeError, RecursionError):
            return None
        return Listed(game=game, edition=setup.edition,
                      players=[{"colour": p.colour, "name": p.name}
                               for p in setup.players],
                      seq=len(raw) - 1, over=isinstance(last, GameEnded), played_at=int(changed))


def page(listed: list[Listed]) -> str:
    """The relay's front page: each public game, a link to its live replay page."""
    rows = "".join(
        f'<tr><td><a href="games/{g.game}/page">{g.game[:12]}</a></td>'
        f"<td>{html.escape(g.edition)}</td>"
        f"<td>{html.escape(', '.join(p['name'] + ' (' + p['colour'] + ')' for p in g.players))}"
        f"</td><td>{g.seq + 1}</td><td>{'over' if g.over else 'playing'}</td></tr>"
        for g in listed)
    body = (f"<table><tr><th>game</th><th>edition</th><th>players</th><th>lines</th>"
            f"<th></th></tr>{rows}</table>" if listed
            else "<p>No public game: a game is listed here when its set-up makes it public "
                 "(<code>meeple new --remote --public</code>).</p>")
    return ("<!doctype html><html><head><meta charset=\"utf-8\"><title>meeple relay</title>"
            "<meta name=\"viewport\" content=\"width=device-width\"></head><body>"
            "<h1>Games on this relay</h1>" + body + "</body></html>")
