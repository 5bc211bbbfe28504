"""The commands of remote play (docs/guide/remote.md): ``join`` a game from its set-up,
``send`` the lines the others have not seen, ``receive`` theirs, and ``signatures``, which
writes every signed message and signature for OpenSSH's own check."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
import os
from typing import Annotated, Any

import msgspec
import typer

from meeple.cli.guard import guarded
from meeple.cli.output import emit_json, fail, note, say
from meeple.cli.params import Game, Json

commands = typer.Typer()

Relay = Annotated[str | None, typer.Option(help="A relay (`meeple serve`) to send the lines to "
                                          "or take them from, e.g. http://127.0.0.1:8088.",
                                          metavar="URL")]
Key = Annotated[str, typer.Option(help="Your private key: it signs your lines (an OpenSSH "
                                  "Ed25519 key; MEEPLE_KEY_PASSPHRASE if it has a passphrase).",
                                  metavar="FILE")]


def _next(game) -> str:
    """Whose line the game waits for, in words, and whether this seat must send."""
    from meeple.cli.remote import player_of, waiting

    state = game.state
    seats = waiting(game)
    me = player_of(game).seat
    if not seats:
        return "the game is over"
    first = seats[0]
    who = "you" if first == me else f"{state.players[first]} ({state.name_of(state.players[first])})"
    signers = game.signers or ()
    send = " — send your lines (`meeple send`)" if signers and signers[-1] == me \
        and first != me else ""
    return f"waiting for {who}{send}"


@commands.command()
@guarded
def join(
    game: Game,
    setup: Annotated[str, typer.Argument(help="The set-up another player sent: a parcel "
                                         "(`meeple send`) or the log file; with --relay, the "
                                         "game's id.", metavar="FILE|ID")],
    key: Key = "~/.ssh/id_ed25519",
    relay: Relay = None,
    as_json: Json = False,
) -> None:
    """Take your seat in a remote game: keep a copy of it at GAME and commit to your secret."""
    from meeple.cli.transport import join as take
    from meeple.cli.transport import join_lines, terms

    if relay is not None:
        from meeple.cli.relay.client import fetch, push

        joined = join_lines(game, relay, fetch(relay, setup), key, game_id=setup)
        push(game, relay)
    else:
        joined = take(game, setup, key)
    line = _next(joined)
    if as_json:
        emit_json({"game": game, "id": joined.remote.game if joined.remote else None,
                   "head": joined.head, "next": line, "terms": terms(joined)})
        return
    say(f"joined {game} (game {joined.remote.game[:12] if joined.remote else '-'}; "
        f"{terms(joined)}); {line}")


@commands.command()
@guarded
def send(
    game: Game,
    out: Annotated[str | None, typer.Option(help="Write the parcel to this file (never over "
                                            "another) instead of stdout.",
                                            metavar="FILE")] = None,
    from_: Annotated[int | None, typer.Option(
        "--from", help="Send the lines after this seq (-1: the whole game), not only yours "
        "since the others' last.", metavar="SEQ")] = None,
    relay: Relay = None,
) -> None:
    """Write your lines the others have not seen, as text that survives e-mail and chat."""
    from meeple.cli.transport import send as pack

    if relay is not None:
        from meeple.cli.relay.client import push

        count = push(game, relay)
        say(f"the relay has every line now ({count} sent)" if count else
            "nothing to send: the relay has every line")
        return

    text = pack(game, since=from_)
    if out is None:
        say(text.rstrip("\n"))
        return
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o644)
    except FileExistsError:
        fail(f"{out} already exists; a parcel is never written over a file", 1)
    except OSError as exc:
        fail(f"{out}: cannot write: {exc.strerror}", 3)
    with os.fdopen(fd, "w") as file:
        file.write(text)
    note(f"meeple: wrote {out}")


@commands.command()
@guarded
def receive(
    game: Game,
    parcel: Annotated[str | None, typer.Argument(help="A parcel another player sent, or their "
                                                 "whole log file.", metavar="FILE")] = None,
    relay: Relay = None,
    as_json: Json = False,
) -> None:
    """Verify the lines another player sent and append what is new; then write what you owe."""
    from meeple.cli.transport import receive as take

    if (parcel is None) == (relay is None):
        fail("receive takes a FILE or --relay URL (one of them)", 2)
    if relay is not None:
        from meeple.cli.relay.client import pull, push

        got = pull(game, relay)
        if got.written:  # what this seat owed goes to the relay at once
            push(game, relay)
    else:
        assert parcel is not None
        got = take(game, parcel)
    line = _next(got.game)
    if as_json:
        emit_json({"received": got.taken, "written": got.written, "head": got.head,
                   "next": line})
        return
    what = f"received {got.taken} line(s)" if got.taken else "nothing new: every line is here"
    mine = f"; wrote {got.written} of yours" if got.written else ""
    say(f"{what}{mine}; {line}")


@commands.command()
@guarded
def signatures(
    game: Game,
    out: Annotated[str, typer.Option(help="A new folder for the messages and signatures.",
                                     metavar="DIR")],
) -> None:
    """Write each line's signed message and signature, and the `ssh-keygen -Y verify` lines
    that check them with OpenSSH alone."""
    from meeple.cli.signatures import write_signatures

    for line in write_signatures(game, out):
        say(line)


@commands.command("claim-timeout")
@guarded
def claim_timeout(game: Game, relay: Relay = None, as_json: Json = False) -> None:
    """Claim that the player the game waits for let the time per move pass: the game ends,
    and they cannot win (RM-4). With --relay the time is the relay's, and the claim goes to
    it."""
    import time

    from meeple.cli.remote import claim_timeout as claim

    if relay is None:
        ended = claim(game, time.time())
    else:
        from meeple.cli.relay.client import relay_clock, send_first

        ended = claim(game, time.time(), lambda game_id, head: relay_clock(relay, game_id, head),
                      lambda lines: send_first(game, relay, lines))
    from meeple.events.model import TimeoutClaimed

    last = ended.events[-1]
    remote = ended.remote
    given_up = remote is not None and remote.timeout == "bot" and not ended.over
    if as_json:
        emit_json({"forfeit": getattr(last, "forfeit", None), "given_up": given_up,
                   "over": ended.over, "winners": list(ended.winners) if ended.over else [],
                   "scores": ended.scores, "head": ended.head})
        return
    if given_up:
        against = next(e.against for e in reversed(ended.events)
                       if isinstance(e, TimeoutClaimed))
        say(f"{against} let their time pass: their seat is given up, and the "
            f"{remote.takeover if remote else '?'} bot plays it from now on (RM-5; the game "
            f"is unrated); send your lines (`meeple send {game}`)")
        return
    say(f"{getattr(last, 'forfeit', '?')} let their time pass: the game is over; winners: "
        f"{', '.join(ended.winners)}; send your lines (`meeple send {game}`)")


@commands.command()
@guarded
def serve(
    data: Annotated[str, typer.Option(help="The folder of the relay's games (one log each, "
                                      "with its receipts).", metavar="DIR")],
    key: Annotated[str, typer.Option(help="The relay's own private key, which signs its "
                                     "receipts (`meeple key new`).", metavar="FILE")],
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="The port to listen on.", min=0, max=65535)] = 8088,
    rate: Annotated[float, typer.Option(help="Requests a second one address may make (three "
                                        "times as many at once); more get 429.", min=0.1)
                    ] = 40.0,
    workers: Annotated[int, typer.Option(help="Processes that serve requests (one a CPU "
                                         "core at most is useful); each keeps its own rate "
                                         "and stream limits.", min=1, max=64)] = 1,
) -> None:
    """Run a relay: it stores remote games' lines after verifying them, signs a receipt for
    each, and streams them (docs/guide/relay.md)."""
    from meeple.cli.relay.app import ENVIRONMENT, make_app
    from meeple.cli.relay.store import Games
    from meeple.cli.remote import load_signer

    try:
        import uvicorn
    except ImportError:
        fail("the relay needs its extra: pip install 'meeple[relay]'", 2)
    games = Games(data, load_signer(key))

    def run(app: Any, **more: Any) -> None:
        # (an idle client's connection is kept 75 s, as reverse proxies keep theirs, so that
        # a client between two moves does not find it closed as it sends; no X-Forwarded-For
        # is believed, from anywhere: the limits per address are the connection's own)
        uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=75,
                    limit_concurrency=2000, proxy_headers=False, **more)

    if workers == 1:
        run(make_app(games, rate))
        return
    os.environ.update(zip(ENVIRONMENT, (os.path.abspath(data), os.path.abspath(key),
                                        str(rate)), strict=True))
    run("meeple.cli.relay.app:from_environment", factory=True, workers=workers)


@commands.command()
@guarded
def watch(
    url: Annotated[str, typer.Argument(help="The relay, e.g. http://127.0.0.1:8088.",
                                       metavar="URL")],
    game_id: Annotated[str | None, typer.Argument(
        help="The game's id (32 hex digits); without it, the games the relay lists for "
        "anyone to watch.", metavar="[GAME]")] = None,
    follow: Annotated[bool, typer.Option("--follow/--no-follow", help="Go on showing lines "
                                         "as they are played, to the end of the game.")
                      ] = True,
    as_json: Json = False,
) -> None:
    """Follow a game on a relay: each line, verified, as it is played. Without GAME, list the
    relay's public games."""
    from meeple.cli.relay.client import fetch, public_games
    from meeple.cli.relay.watch import watch as follow_game

    if game_id is None:
        listed = public_games(url)
        if as_json:
            emit_json({"games": [msgspec.to_builtins(g) for g in listed]})
            return
        from meeple.events.text import escaped

        for g in listed:
            players = ", ".join(escaped(p.get("name", "?")) for p in g.players)
            say(f"{g.game}  {escaped(g.edition)}  {players}  {g.seq + 1} lines  "
                f"{'over' if g.over else 'playing'}")
        if not listed:
            note(f"{url}: no public game (a game is listed when its set-up says --public)")
        return
    if as_json:
        fail("--json lists a relay's public games: give no GAME", 2)
    fetch(url, game_id)  # (a game the relay holds, before anything is shown)
    follow_game(url, game_id, say, follow=follow)
