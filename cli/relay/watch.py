"""``meeple watch URL GAME``: follow a game on a relay as it is played (docs/guide/relay.md).

The lines come from the relay's stream (Server-Sent Events, ``id`` = seq); each batch is
verified with the game before it as ``receive`` verifies (signatures, writers, chain, rules,
reveals) before a word of it is shown: a spectator trusts the relay no more than a player
does. A dropped connection is resumed from the last line shown (``Last-Event-ID``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from meeple.cli.store import Failure
from meeple.cli.transport import verified
from meeple.events.limits import MAX_LINE_BYTES

#: seconds between attempts to reach the relay again
RETRY = 1.0


def events(url: str, game: str, after: int) -> Iterator[tuple[int, bytes]]:
    """The stream's lines after ``after``, as (seq, line), resumed after a dropped connection;
    ends when the relay cannot be reached for 30 s."""
    import httpx

    failures = 0
    while True:
        try:
            with httpx.Client(base_url=url.rstrip("/"), timeout=httpx.Timeout(10.0, read=60.0)) \
                    as client, client.stream("GET", f"/games/{game}/stream",
                                             headers={"Last-Event-ID": str(after)}) as answer:
                if answer.status_code != 200:
                    raise Failure(f"{url}: the relay does not stream game {game} (status "
                                  f"{answer.status_code})", 1)
                failures = 0
                seq, data = None, None
                for text in _lines(answer.iter_bytes()):
                    if text.startswith("id:"):
                        seq = int(text[3:].strip())
                    elif text.startswith("data:"):
                        data = text[5:].strip()
                    elif not text and seq is not None and data is not None:
                        if seq == after + 1:
                            after = seq
                            yield seq, data.encode()
                        seq, data = None, None
        except (httpx.HTTPError, ValueError):
            failures += 1
            if failures * RETRY > 30:
                raise Failure(f"{url}: the relay cannot be reached", 3) from None
            time.sleep(RETRY)


def _lines(chunks: Iterator[bytes]) -> Iterator[str]:
    """The text lines of a stream, each at most a log line and a field name long.

    :raises Failure: a longer line (a relay that will not end one)."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        while True:
            at = pending.find(b"\n")
            if at < 0:
                break
            line, pending = pending[:at], pending[at + 1:]
            yield line.rstrip(b"\r").decode("utf-8", "replace")
        if len(pending) > MAX_LINE_BYTES + 64:
            raise Failure(f"the relay's stream sends a line over {MAX_LINE_BYTES:,} bytes", 3)


def watch(url: str, game: str, say: Callable[[str], None], *, follow: bool = True) -> int:
    """Show the game's lines as they come; returns how many were shown."""
    from meeple.cli.pictures.narrate import tell
    from meeple.cli.relay.client import fetch
    from meeple.cli.transport import same_game

    lines = fetch(url, game)
    shown = verified(url, lines)
    if shown.remote is not None:
        same_game(url, shown.remote.game, game)
    for event in shown.events:
        say(f"{event.seq:>4} {tell(event, shown.edition)}")
    if not follow or shown.over:
        return len(lines)
    for _seq, line in events(url, game, len(lines) - 1):
        batch = verified(url, [*lines, line], len(lines))
        lines.append(line)
        event = batch.events[-1]
        say(f"{event.seq:>4} {tell(event, batch.edition)}")
        if batch.over:
            break
    return len(lines)
