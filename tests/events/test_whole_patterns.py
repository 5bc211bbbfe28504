"""Every text a log line's field must match as a whole is refused with a newline after it:
Python's ``$`` also matches just before a final newline, so a game id, a key or a
commitment with one passed ``check`` and then broke every ``send`` (an internal error)."""

import json
from pathlib import Path

import msgspec
import pytest

from meeple.events import model

from helpers import fail

VALID = {
    "Edition": "classic",
    "ScoreReason": "final",
    "Figure": "small",
    "BotSpec": "mcts:1.5s",
    "GameId": "0123456789abcdef0123456789abcdef",
    "PublicKeyText": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOr2",
    "Hex32": "ab" * 32,
    "SlotName": "draw:0",
}


@pytest.mark.parametrize("name", VALID)
def test_a_field_matched_whole_takes_no_newline_after_it(name):
    kind = getattr(model, name)
    assert msgspec.convert(VALID[name], kind) == VALID[name]
    for bent in (VALID[name] + "\n", VALID[name] + "\r\n", "\n" + VALID[name]):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bent, kind)


def test_a_log_whose_edition_ends_with_a_newline_is_refused_at_its_first_line(tmp_path):
    fixture = Path(__file__).parents[2] / "fixtures" / "random_2p_seed_0.jsonl"
    first = json.loads(fixture.read_text().splitlines()[0])
    first["edition"] += "\n"
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps(first, separators=(",", ":")) + "\n")
    line = fail("check", path, code=3)
    assert f"{path}:1: corrupt" in line and "edition" in line, line
