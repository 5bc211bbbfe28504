"""Remote games in the session layer (docs/guide/remote.md): each player keeps their own
copy of the log and a seat file beside it, signs what they write, and moves lines by file.

The seat file ``GAME.secret`` (JSON, mode 0600, never sent, never in the log) holds the game's
id, the seat, the path of the seat's private key and the secret its hash chains grow from.
Lost, the seat can reveal nothing more: the game stops at that seat's next reveal (the others
can only claim a timeout); keep a copy where the key is kept.
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Callable, Sequence
from typing import cast

import msgspec

from meeple.cli.store import Failure
from meeple.engine import Command, Game
from meeple.engine.protocol import Chains, duty, waiting_for
from meeple.events import log as logfile
from meeple.events.model import Event, GameStarted, Remote, Takeover

#: the most a seat file may hold, in bytes
_SEAT_FILE_LIMIT = 64 * 1024


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    """What a player keeps beside their copy of a remote game: never sent."""

    game: str
    seat: int
    key: str
    secret: str


def seat_file(path: str) -> str:
    return path + ".secret"


def write_seat(path: str, seat: Seat) -> None:
    """Write the seat file, mode 0600 from its creation; never over another.

    :raises Failure: it exists, or cannot be written (exit 3).
    """
    name = seat_file(path)
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    except FileExistsError:
        raise Failure(f"{name} already exists; a seat file is never overwritten", 1) from None
    except OSError as exc:
        raise Failure(f"{name}: cannot write the seat file: {exc.strerror}", 3) from None
    try:
        os.write(fd, msgspec.json.encode(seat) + b"\n")
        os.fsync(fd)
    except OSError as exc:
        os.close(fd)
        os.unlink(name)
        raise Failure(f"{name}: cannot write the seat file: {exc.strerror}", 3) from None
    os.close(fd)


def read_seat(path: str, remote: Remote) -> Seat:
    """The seat file of the game at ``path``: this player's seat, key and secret.

    :raises Failure: missing, readable by others, too large, damaged, or of another game.
    """
    name = seat_file(path)
    try:
        fd = os.open(name, os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW)
    except FileNotFoundError:
        raise Failure(f"{name}: no seat file: this copy of the remote game has no seat here "
                      "(its secret is kept beside the log of the player who joined)", 3) from None
    except OSError as exc:
        raise Failure(f"{name}: cannot read the seat file: {exc.strerror}", 3) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Failure(f"{name}: the seat file is not a regular file", 3)
        if info.st_mode & 0o077:
            raise Failure(f"{name}: permissions {info.st_mode & 0o777:04o} are too open for a "
                          f"seat file, which holds a secret: chmod 600 {name}", 3)
        data = os.read(fd, _SEAT_FILE_LIMIT + 1)
    finally:
        os.close(fd)
    if len(data) > _SEAT_FILE_LIMIT:
        raise Failure(f"{name}: the seat file is over {_SEAT_FILE_LIMIT} bytes", 3)
    try:
        seat = msgspec.json.decode(data, type=Seat)
        bytes.fromhex(seat.secret)
    except (msgspec.DecodeError, ValueError):
        raise Failure(f"{name}: the seat file is damaged (not the JSON meeple writes)", 3) from None
    if seat.game != remote.game or not 0 <= seat.seat < len(remote.keys):
        raise Failure(f"{name}: the seat file is for another game ({seat.game[:12]})", 3)
    return seat


def load_signer(key: str, remote: Remote | None = None, seat: int | None = None):
    """The private key at ``key``, checked to be the key of ``seat`` in a remote game.

    :raises Failure: a key that cannot be used, or another seat's (exit 3).
    """
    from meeple.events.signing import KeyProblem
    from meeple.events.signing import load_signer as load

    try:
        signer = load(os.path.expanduser(key))
    except KeyProblem as exc:
        raise Failure(str(exc), 3) from None
    if remote is not None and seat is not None and signer.public.openssh != remote.keys[seat]:
        raise Failure(f"{key}: this key is not the one the game records for seat {seat} "
                      f"({signer.public.fingerprint})", 3)
    return signer


def seat_of_key(remote: Remote, public: str) -> int | None:
    return remote.keys.index(public) if public in remote.keys else None


def seat_of_key_text(keys: Sequence[str], public: str) -> int:
    """The seat of the writer's key among the seats' keys given for a new game.

    :raises Failure: the writer's key is no seat's (exit 2).
    """
    if public not in keys:
        raise Failure("--key: the key of the one who sets up a remote game is one of the seats' "
                      "keys (--seat-key COLOUR=FILE.pub)", 2)
    return list(keys).index(public)


class Player:
    """This player's part in a remote game: seat, signer and hash chains."""

    def __init__(self, game: Game, seat: Seat) -> None:
        remote = game.remote
        assert remote is not None
        self.seat = seat.seat
        self.colour = game.state.players[seat.seat]
        self.signer = load_signer(seat.key, remote, seat.seat)
        self.chains = Chains(remote, seat.seat, bytes.fromhex(seat.secret))

    def owe(self, game: Game, *, writing: bool = False) -> int:
        """Write every commitment and reveal this seat owes now, if the game waits for this
        seat's line or the seat is ``writing`` its message already (a seat writes only then,
        so that two copies never fork); returns how many events."""
        from meeple.engine.takeover import stand_in  # (RM-5; loads the bots)

        count = 0
        while True:
            seats = waiting(game)
            if game.over or not (writing or count or seats and seats[0] == self.seat):
                return count
            command = duty(game.state, self.chains) or stand_in(game.state, self.seat)
            if command is None:
                return count
            count += len(game.push(command))

    def bot_plays(self, game: Game) -> int:
        """If a bot plays this seat (``new --remote --bot``), its moves while the game waits
        for them, with what the seat owes after each, signed with this seat's key; returns
        how many events."""
        import time

        from meeple.engine import bot_named

        spec = game.setup.players[self.seat].bot
        if spec is None:
            return 0
        choose = bot_named(spec, time.process_time)
        count = 0
        while not game.over and game.phase in ("place", "meeple") \
                and waiting(game)[:1] == [self.seat]:
            count += len(game.push(choose(game.state)))
            count += self.owe(game, writing=True)
        return count

    def save(self, game: Game, path: str | None = None) -> str | None:
        return game.save(path, sign=self.signer.sign, seat=self.seat)


def player_of(game: Game) -> Player:
    """The player whose copy of a remote game this is (its seat file)."""
    remote = game.remote
    assert remote is not None and game.path is not None
    return Player(game, read_seat(game.path, remote))


def waiting(game: Game) -> list[int]:
    """The seats whose line the game waits for (``meeple.engine.protocol.waiting_for``)."""
    signers = game.signers or (0,)
    return waiting_for(game.state, signers[-1])


def require_turn(game: Game, player: Player) -> None:
    """Refuse a move of a seat whose line the game does not wait for."""
    expected = waiting(game)
    if not expected or expected[0] != player.seat:
        who = ", ".join(f"{game.state.players[s]} ({game.state.name_of(game.state.players[s])})"
                        for s in expected) or "nobody: the game is over"
        raise Failure(f"not your turn in this remote game: it waits for {who}; `meeple receive` "
                      "their lines when they send them", 1)


def act(game: Game, commands: Sequence[Command]) -> int:
    """Play this player's commands in a remote game, and what they owe after them; saves the
    lines signed. Returns how many events were written."""
    player = player_of(game)
    require_turn(game, player)
    player.owe(game)
    for command in commands:
        game.push(command)
    player.owe(game, writing=True)
    player.bot_plays(game)
    count = len(game.unsaved)
    player.save(game)
    return count


def start(path: str, first: GameStarted, key: str) -> Game:
    """Create a remote game's log (the set-up and its writer's commitment, signed) and its
    seat file.

    :raises Failure, LogError: nothing is left behind then.
    """
    remote = first.remote
    assert isinstance(remote, Remote)
    signer = load_signer(key)
    host = seat_of_key(remote, signer.public.openssh)
    if host != remote.host:
        raise Failure(f"{key}: this key is not the key of any seat given (the one who sets up "
                      "a remote game plays in it with their own key)", 2)
    if os.path.lexists(path):
        raise logfile.LogError("exists", path, "already exists; a game log is never overwritten")
    game = Game.begin(first)
    write_seat(path, Seat(remote.game, host, os.path.abspath(os.path.expanduser(key)),
                          secrets.token_hex(32)))
    try:
        player = Player(game, read_seat(path, remote))
        player.owe(game)
        player.bot_plays(game)
        player.save(game, path)
    except BaseException:
        os.unlink(seat_file(path))
        raise
    return game


def new_remote(keys: Sequence[str], host: int, tiles: int, time_per_move: int | None,
               takeover: str | None = None, public: bool = False) -> Remote:
    """The ``remote`` field of a new game: a random id, the seats' keys; ``takeover``: the bot
    that plays a seat given up (RM-5), else a timeout claim ends the game (RM-4); ``public``:
    a relay lists the game for anyone to watch."""
    return Remote(game=secrets.token_hex(16), keys=tuple(keys), host=host,
                  chain=tiles + 1, time_per_move=time_per_move,
                  timeout="bot" if takeover else "forfeit",
                  takeover=cast(Takeover, takeover) if takeover else msgspec.UNSET,
                  public=True if public else msgspec.UNSET)


def events_written(game: Game, count: int) -> list[Event]:
    return list(game.events[len(game.events) - count:])


def parse_seat_keys(given: Sequence[str], colours: Sequence[str]) -> list[str]:
    """``--seat-key COLOUR=FILE.pub`` for every colour: the seats' keys in seat order.

    :raises Failure: a colour missing, twice or not playing; a key file that cannot be used.
    """
    from meeple.events.signing import KeyProblem, load_public

    keys: dict[str, str] = {}
    for item in given:
        colour, sep, name = item.partition("=")
        colour = colour.strip().lower()
        if not sep or not name:
            raise Failure(f"--seat-key takes COLOUR=FILE.pub, not {item!r}", 2)
        if colour not in colours:
            raise Failure(f"--seat-key {colour}: {colour} does not play (players: "
                          f"{', '.join(colours)})", 2)
        if colour in keys:
            raise Failure(f"--seat-key {colour} given twice", 2)
        try:
            keys[colour] = load_public(os.path.expanduser(name)).openssh
        except KeyProblem as exc:
            raise Failure(str(exc), 3) from None
    missing = [c for c in colours if c not in keys]
    if missing:
        raise Failure("a remote game needs every seat's public key: --seat-key "
                      + ", ".join(f"{c}=FILE.pub" for c in missing), 2)
    return [keys[c] for c in colours]


def parse_time(text: str | None) -> int | None:
    """``72h``, ``30m``, ``2d``, ``90s`` in seconds (at least a minute, at most a year).

    :raises Failure: anything else (exit 2).
    """
    if text is None:
        return None
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    number, unit = text[:-1], text[-1:].lower()
    if unit not in units or not number.isdigit() or len(number) > 8:
        raise Failure(f"--time-per-move takes a number and s, m, h or d (e.g. 72h), not "
                      f"{text!r}", 2)
    seconds = int(number) * units[unit]
    if not 60 <= seconds <= 365 * 86400:
        raise Failure("--time-per-move is a minute to a year", 2)
    return seconds


def remote_view(game: Game) -> dict:
    """What ``status`` says of a remote game: this copy's seat, whose line the game waits
    for, whether this seat must send its lines, and the seats given up (RM-5)."""
    remote = game.remote
    assert remote is not None and game.path is not None
    seat = read_seat(game.path, remote).seat
    seats = waiting(game)
    signers = game.signers or ()
    players = game.state.players
    return {
        "game": remote.game,
        "seat": seat,
        "colour": players[seat],
        "waiting_for": [players[s] for s in seats],
        "your_turn": bool(seats) and seats[0] == seat,
        "must_send": bool(signers) and signers[-1] == seat and (not seats or seats[0] != seat),
        "time_per_move": remote.time_per_move,
        "takeover": remote.takeover if isinstance(remote.takeover, str) else None,
        "given_up": [players[s] for s in range(len(players))
                     if game.state.joint is not None and game.state.joint.gone[s]],
    }


#: a relay's witness of a game's last line: (when it stored it, its clock now), given the
#: game's id and this copy's head (``meeple.cli.relay.client.relay_clock``)
Witness = Callable[[str, str | None], tuple[float, float]]


def claim_timeout(path: str, now: float, witness: Witness | None = None,
                  first: Callable[[list[bytes]], Callable[[], None]] | None = None) -> Game:
    """RM-4: claim that the seat the game waits for let the time per move pass, counted from
    when this copy last changed (this seat's last move or receive); the claim ends the game
    (RM-4), or where the set-up names a bot, gives the seat up to it (RM-5)
    (docs/guide/remote.md). ``now`` is this machine's clock. With ``first`` (a relay's
    ``send_first``), the claim's signed lines go there before this copy keeps them, so that
    a claim the relay refuses (the other seat moved meanwhile) is written nowhere; what it
    returns is done once they are kept.

    :raises Failure: no time per move, this seat's own turn, or the time not yet passed.
    """
    from meeple.cli.store import load
    from meeple.engine.protocol import claim

    game = load(path)
    remote = game.remote
    if remote is None:
        raise Failure(f"{path}: not a remote game: a timeout is claimed only in one", 1)
    if remote.time_per_move is None:
        raise Failure(f"{path}: this game was set up with no time per move (new "
                      "--time-per-move): a silent player can only be waited for", 1)
    player = player_of(game)
    seats = waiting(game)
    if not seats:
        raise Failure(f"{path}: the game is over", 1)
    if seats[0] == player.seat:
        raise Failure(f"{path}: the game waits for your own line", 1)
    since: float = os.stat(path).st_mtime
    counted = "your copy's last change"
    if witness is not None:  # the relay's: when it stored the last line, its clock now
        since, now = witness(remote.game, game.head)
        counted = "the relay's receipt of the last line"
    left = since + remote.time_per_move - now
    if left > 0:
        raise Failure(f"{path}: {game.state.players[seats[0]]} has {_span(left)} left of "
                      f"{_span(remote.time_per_move)} (counted from {counted})", 1)
    game.push(claim(game.state, player.seat, int(now)))
    if not game.over:  # RM-5: the seat is given up; what this seat owes now, the bot's moves
        player.owe(game, writing=True)
    then = None
    if first is not None:
        from meeple.events.log import encode_lines

        then = first(encode_lines(game.unsaved, game.head, sign=player.signer.sign))
    player.save(game)
    if then is not None:
        then()
    return game


def _span(seconds: float) -> str:
    seconds = int(seconds)
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} d"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{max(seconds // 60, 1)} min"
