"""``meeple.events.log.extend``: a log read once, then the lines after it read alone, is the
log ``parse`` reads whole; each fault in the new lines is told as ``parse`` tells it."""

from __future__ import annotations

import os

import pytest

from meeple.cli.bench_signed import signed_game
from meeple.events import log as logfile
from meeple.events.errors import LogError

FIXTURE = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures",
                       "classic_farmer_on_an_inner_field.jsonl")


@pytest.fixture(scope="module")
def remote(tmp_path_factory) -> bytes:
    folder = tmp_path_factory.mktemp("remote")
    with open(signed_game(str(folder), "extend", lines=40), "rb") as file:
        return file.read()


def _fields(log: logfile.GameLog):
    return log.events, list(log.hashes), log.signers, log.head, log.schema


@pytest.mark.parametrize("kind", ["local", "remote"])
def test_a_log_extended_at_any_line_is_the_log_read_whole(kind, remote):
    data = remote if kind == "remote" else open(FIXTURE, "rb").read()
    lines = data.split(b"\n")[:-1]
    whole = logfile.parse("g", data, every_signature=True)
    assert (whole.signers is not None) == (kind == "remote")
    for at in range(1, len(lines)):
        before = logfile.parse("g", b"".join(line + b"\n" for line in lines[:at]))
        kept = _fields(before)
        grown = logfile.extend(before, b"".join(line + b"\n" for line in lines[at:]))
        assert _fields(grown) == _fields(whole)
        assert _fields(before) == kept  # (the log extended is left as it was)


def _fault(call) -> tuple[str, str, int | None, str | None]:
    with pytest.raises(LogError) as error:
        call()
    return error.value.kind, str(error.value), error.value.line, error.value.field


def test_a_fault_in_the_new_lines_is_told_as_parse_tells_it(remote):
    lines = remote.split(b"\n")[:-1]
    at = 20
    before = logfile.parse("g", b"".join(line + b"\n" for line in lines[:at]))
    faults = {
        "altered": lines[at].replace(b'"seq":20', b'"seq":21'),
        "signature cut": lines[at][:-30] + b'"}',
        "not JSON": b"{",
        "another game_started": lines[0],
        "reordered": lines[at + 1],
    }
    for name, bad in faults.items():
        rest = b"".join(x + b"\n" for x in [bad, *lines[at + 1:at + 3]])
        whole = b"".join(line + b"\n" for line in lines[:at]) + rest
        assert _fault(lambda rest=rest: logfile.extend(before, rest)) == \
            _fault(lambda whole=whole: logfile.parse("g", whole, signatures_from=at)), name
    torn = lines[at][:40]
    assert _fault(lambda: logfile.extend(before, lines[at] + b"\n" + torn)) == \
        _fault(lambda: logfile.parse("g", b"".join(x + b"\n" for x in lines[:at + 1]) + torn,
                                     signatures_from=at))
