"""The relay checks an append from the game it keeps verified (``Games._kept``): only the new
lines are read and verified, with the same refusals, word for word, as verifying the whole
log (what a relay does for a game it no longer keeps, or after a restart)."""

from __future__ import annotations

import os

import msgspec
import pytest

from meeple.cli.bench_signed import signed_game
from meeple.cli.relay import store
from meeple.cli.relay.store import Games, Refused
from meeple.events import log as logfile
from meeple.events import reading
from meeple.events.signed import attach, split
from meeple.events.signing import load_signer, new_key

#: lines of the recorded game the tests play (a game's first moves, both seats and reveals)
PLAYED = 60


def opening(folder, seed: str, lines: int = PLAYED):
    """The first ``lines`` lines or more of a remote 2-player game played by the protocol
    (``meeple.cli.bench_signed``), the seat that signed each, and the seats' signers."""
    path = signed_game(str(folder), seed, lines=lines)
    raw = open(path, "rb").read().split(b"\n")[:-1]
    seats = logfile.parse("game", b"".join(line + b"\n" for line in raw),
                          every_signature=True).signers
    return raw, seats, [load_signer(os.path.join(folder, f"key{s}")) for s in range(2)]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    raw, seats, signers = opening(tmp_path_factory.mktemp("signed"), "kept")
    return raw[:PLAYED], seats[:PLAYED], signers


def _relay(folder) -> Games:
    os.makedirs(folder, exist_ok=True)
    new_key(os.path.join(folder, "relay"))
    return Games(os.path.join(folder, "data"), load_signer(os.path.join(folder, "relay")))


def _runs(seats: list[int]) -> list[tuple[int, int]]:
    """Each message, as the seats send them: a run of one seat's lines, [start, stop)."""
    runs, start = [], 1
    for at in range(2, len(seats) + 1):
        if at == len(seats) or seats[at] != seats[at - 1]:
            runs.append((start, at))
            start = at
    return runs


def test_an_append_reads_and_verifies_only_the_new_lines(tmp_path, monkeypatch, recorded):
    raw, seats, _ = recorded
    games = _relay(tmp_path)
    game, _ = games.create(raw[:1])
    decoded = []
    original = reading.decode_line
    monkeypatch.setattr(reading, "decode_line",
                        lambda *a, **k: decoded.append(a[1]) or original(*a, **k))
    for start, stop in _runs(seats):
        games.append(game, start - 1, logfile.line_hash(raw[start - 1]), raw[start:stop])
    assert sorted(decoded) == list(range(2, len(raw) + 1))
    with open(games.path(game), "rb") as file:
        assert file.read() == b"".join(line + b"\n" for line in raw)


def _resigned(line: bytes, signer, change) -> bytes:
    """``line`` changed by ``change`` (on its decoded JSON), then signed by ``signer``."""
    body, _ = split(line)
    data = msgspec.json.decode(body)
    change(data)
    body = msgspec.json.encode(data)
    return attach(body, signer.sign(body))


def _bad_lines(raw, seats, signers, at):
    """Wrong next lines for line index ``at``, each refused for another reason."""
    line, seat = raw[at], seats[at]
    other = signers[1 - seat]
    body, _ = split(line)
    return {
        "signed by the other seat": attach(body, other.sign(body)),
        "a signature that does not hold": attach(body, signers[seat].sign(body + b" ")),
        "no signature": body,
        "seq skips": _resigned(line, signers[seat], lambda d: d.update(seq=d["seq"] + 1)),
        "prev of another line": _resigned(line, signers[seat],
                                          lambda d: d.update(prev="0" * 64)),
        "a field the rules refuse": _resigned(
            line, signers[seat], lambda d: d.update(player="nobody")),
        "not JSON": b"{\"type\": ",
    }


def test_a_kept_game_refuses_what_the_whole_log_refuses_in_the_same_words(
        tmp_path, recorded):
    raw, seats, signers = recorded
    runs = _runs(seats)
    start, stop = runs[len(runs) // 2]
    kept = _relay(tmp_path / "kept")
    game, _ = kept.create(raw[:1])
    for a, b in runs[:len(runs) // 2]:
        kept.append(game, a - 1, logfile.line_hash(raw[a - 1]), raw[a:b])
    assert game in kept._kept
    head = logfile.line_hash(raw[start - 1])
    for reason, bad in _bad_lines(raw, seats, signers, start).items():
        with pytest.raises(Refused) as from_kept:
            kept.append(game, start - 1, head, [bad])
        whole = Games(kept.folder, kept.signer)  # (the same folder, nothing kept: a restart)
        with pytest.raises(Refused) as from_whole:
            whole.append(game, start - 1, head, [bad])
        assert (from_kept.value.status, from_kept.value.message, from_kept.value.kind) == \
            (from_whole.value.status, from_whole.value.message, from_whole.value.kind), reason
        assert from_kept.value.status == 422, reason
    kept.append(game, start - 1, head, raw[start:stop])
    with open(kept.path(game), "rb") as file:
        assert file.read() == b"".join(line + b"\n" for line in raw[:stop])


def test_a_relay_keeps_at_most_its_bound_of_games(tmp_path, monkeypatch, recorded):
    raw, seats, _ = recorded
    monkeypatch.setattr(store, "MAX_KEPT", 2)
    games = _relay(tmp_path)
    made = []
    for index in range(3):
        (tmp_path / f"g{index}").mkdir()
        made.append(opening(tmp_path / f"g{index}", f"g{index}", lines=2))
    ids = [games.create(lines[:1])[0] for lines, _, _ in made]
    assert len(games._kept) == 2 and ids[0] not in games._kept
    first, seats, _ = made[0]
    stop = _runs(seats)[0][1]
    games.append(ids[0], 0, logfile.line_hash(first[0]), first[1:stop])
    assert list(games._kept) == [ids[2], ids[0]]
    # (and at most so many lines in all: a game too long to keep is checked whole each time)
    monkeypatch.setattr(store, "MAX_KEPT", 10)
    monkeypatch.setattr(store, "MAX_KEPT_LINES", stop + 1)
    second, seats2, _ = made[1]
    stop2 = _runs(seats2)[0][1]
    games.append(ids[1], 0, logfile.line_hash(second[0]), second[1:stop2])
    assert list(games._kept) == [ids[1]]
    assert sum(len(log.events) for log, _ in games._kept.values()) <= stop + 1


def test_two_processes_of_one_relay_catch_up_on_each_others_lines(tmp_path, monkeypatch,
                                                                   recorded):
    """``serve --workers``: each process keeps its own games; a game another process went on
    with is caught up with from the lines stored since, never verified whole again."""
    from meeple.cli import transport

    raw, seats, _ = recorded
    one = _relay(tmp_path)
    two = Games(one.folder, one.signer)
    game, _ = one.create(raw[:1])
    two.append(game, 0, logfile.line_hash(raw[0]), raw[1:_runs(seats)[0][1]])
    monkeypatch.setattr(transport, "verified_log", None)  # (a whole verification would fail)
    for turn, (start, stop) in enumerate(_runs(seats)[1:]):
        (one, two)[turn % 2].append(game, start - 1, logfile.line_hash(raw[start - 1]),
                                    raw[start:stop])
    with open(one.path(game), "rb") as file:
        assert file.read() == b"".join(line + b"\n" for line in raw)


def test_a_relay_that_reads_a_game_from_disk_checks_the_stored_signatures(tmp_path, recorded):
    """A relay restarted (or another of its processes) reads a game from its folder: a stored
    line whose signature was changed on disk is found, and nothing is built on it."""
    raw, seats, signers = recorded
    games = _relay(tmp_path)
    game, _ = games.create(raw[:1])
    runs = _runs(seats)
    for start, stop in runs[:4]:
        games.append(game, start - 1, logfile.line_hash(raw[start - 1]), raw[start:stop])
    stop = runs[3][1]
    body, _ = split(raw[stop - 1])
    _, other = split(raw[stop - 2] if seats[stop - 2] == seats[stop - 1] else raw[0])
    forged = attach(body, other.decode())
    path = games.path(game)
    with open(path, "rb") as file:
        data = file.read()
    with open(path, "wb") as file:
        file.write(data.replace(raw[stop - 1], forged))
    restarted = Games(games.folder, games.signer)
    start, _ = runs[4]
    # (the next line, chained to the forged one and signed by its own seat)
    following = _resigned(raw[start], signers[seats[start]],
                          lambda d: d.update(prev=logfile.line_hash(forged)))
    with pytest.raises(Refused) as refused:
        restarted.append(game, stop - 1, logfile.line_hash(forged), [following])
    assert refused.value.status == 422 and refused.value.kind == "forged"


def test_a_listing_reads_only_the_first_line_of_a_game_it_does_not_list(tmp_path,
                                                                        monkeypatch):
    """``GET /games``: a game not public is known from its first line alone, and a public
    game whose last line does not read, or that is gone, is left out, not a failed listing."""
    from meeple.cli.relay.listing import Listing

    games = _relay(tmp_path)
    made = {}
    for name, public in (("shown", True), ("hidden", False), ("damaged", True)):
        (tmp_path / name).mkdir()
        path = signed_game(str(tmp_path / name), name, lines=6, public=public)
        made[name] = games.create(open(path, "rb").read().split(b"\n")[:1])[0]
    with open(games.path(made["damaged"]), "ab") as file:
        file.write(b'{"type": "no such event"}\n')
    read_whole = []
    stored = Games.stored
    monkeypatch.setattr(Games, "stored",
                        lambda self, game: read_whole.append(game) or stored(self, game))
    listed = Listing(games).public()
    assert [g.game for g in listed] == [made["shown"]]
    assert made["hidden"] not in read_whole
