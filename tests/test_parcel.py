"""The parcel (events/parcel.py): log lines as text that survives e-mail and chat, and is
refused, with its reason, when it was mangled beyond repair."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.events.chain import line_hash
from meeple.events.parcel import (
    BEGIN,
    END,
    SLACK,
    Parcel,
    ParcelError,
    looks_like_parcel,
    unwrap,
    wrap,
)

from helpers import examples

GAME_LOG = Path(__file__).parents[1] / "fixtures" / "random_2p_seed_0.jsonl"
LOG_LINES = GAME_LOG.read_bytes().split(b"\n")[:-1]
GAME_ID = "0123456789abcdef0123456789abcdef"
#: lines 6 to 9 of a recorded game, as the player who wrote them would send them
SENT = Parcel(game=GAME_ID, after=5, head=line_hash(LOG_LINES[5]), lines=tuple(LOG_LINES[6:10]))
LIMIT = 1 << 20
GREETING = "Hi Ana,\n\nmy move is below. Your turn!\n\n"
SIGNATURE = "\n-- \nBen\nSent from my phone\n"


def craft(game: str, after: int, head: str, count: int, payload: bytes) -> str:
    """A parcel written from the format in the module's docstring, not by ``wrap``: the
    checksum is the SHA-256 of the four header lines, then the payload."""
    heading = f"Game: {game}\nAfter: {after}\nHead: {head}\nLines: {count}\n"
    checksum = hashlib.sha256(heading.encode() + payload).hexdigest()
    body = base64.b64encode(payload).decode()
    rows = "".join(body[i:i + 64] + "\n" for i in range(0, len(body), 64))
    return f"{BEGIN}\n{heading}SHA256: {checksum}\n\n{rows}{END}\n"


def refused(text: str | bytes, reason: str, limit: int = LIMIT) -> str:
    """The one-line message ``unwrap`` refuses ``text`` with, checked to hold ``reason``."""
    with pytest.raises(ParcelError) as caught:
        unwrap(text, limit=limit)
    message = str(caught.value)
    assert reason in message
    assert "\n" not in message
    return message


def quote(text: str, prefix: str = "> ") -> str:
    return "".join(prefix + line + "\n" for line in text.split("\n")[:-1])


def hard_wrap(text: str, width: int) -> str:
    """Every line longer than ``width`` cut into pieces, as ``fold -w`` does."""
    return "".join(line[i:i + width] + "\n" if line else "\n"
                   for line in text.split("\n")[:-1]
                   for i in range(0, max(len(line), 1), width))


def word_wrap(text: str, width: int) -> str:
    """Every line filled again at ``width``, broken at spaces (and inside longer words), as a
    mail client sends a long line."""
    return "".join("\n".join(textwrap.wrap(line, width, break_on_hyphens=False) or [""]) + "\n"
                   for line in text.split("\n")[:-1])


def body_rows(text: str) -> list[str]:
    lines = text.split("\n")
    return lines[lines.index("") + 1:lines.index(END)]


# --- the text -------------------------------------------------------------------------

def test_wrap_writes_the_documented_format():
    payload = b"\n".join(SENT.lines)
    text = wrap(SENT)
    assert text == craft(GAME_ID, 5, SENT.head or "", 4, payload)
    assert text.isascii() and text.endswith(END + "\n")
    assert {len(row) for row in body_rows(text)[:-1]} == {64}


def test_a_local_parcel_from_line_0_and_an_empty_one():
    first = Parcel(game="", after=-1, head=None, lines=(LOG_LINES[0],))
    assert "Game: -\nAfter: -1\nHead: -\n" in wrap(first)
    assert unwrap(wrap(first), limit=LIMIT) == first
    nothing = Parcel(game=GAME_ID, after=9, head=line_hash(LOG_LINES[9]), lines=())
    assert body_rows(wrap(nothing)) == []
    assert unwrap(wrap(nothing), limit=LIMIT) == nothing


@pytest.mark.parametrize("parcel", [
    Parcel(game="ABCDEF0123456789abcdef0123456789", after=-1, head=None, lines=()),
    Parcel(game="", after=0, head=None, lines=()),
    Parcel(game="", after=-1, head="0" * 64, lines=()),
    Parcel(game="", after=-2, head=None, lines=()),
    Parcel(game="", after=-1, head=None, lines=(b"",)),
    Parcel(game="", after=-1, head=None, lines=(b"{}\n",)),
    Parcel(game="", after=-1, head=None, lines=(b"{}\r{}",)),
    Parcel(game="-", after=-1, head=None, lines=()),
    Parcel(game="", after=-1, head="", lines=()),
    Parcel(game="", after=3, head="-", lines=()),
], ids=["upper-case id", "no head", "head before line 0", "after -2", "empty line",
        "newline", "carriage return", "id -", "head ''", "head -"])
def test_wrap_refuses_a_parcel_it_cannot_write(parcel):
    with pytest.raises(ValueError):
        wrap(parcel)


json_lines = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
).map(lambda value: json.dumps({"type": "x", "v": value}, ensure_ascii=False).encode())
any_lines = st.one_of(
    json_lines,
    st.text(st.characters(codec="utf-8", exclude_characters="\r\n"), min_size=1).map(str.encode),
    st.lists(st.integers(0, 255).filter(lambda b: b not in (10, 13)), min_size=1).map(bytes),
)
parcels = st.builds(
    lambda game, after, head, lines: Parcel(game, after, head if after >= 0 else None,
                                            tuple(lines)),
    st.sampled_from(["", GAME_ID, "f" * 32]),
    st.integers(-1, 10**12),
    st.binary(min_size=1, max_size=8).map(lambda b: hashlib.sha256(b).hexdigest()),
    st.lists(any_lines, max_size=8),
)


@settings(max_examples=examples(150), deadline=None)
@given(parcels)
def test_round_trip(parcel):
    text = wrap(parcel)
    assert text.isascii()
    assert unwrap(text, limit=len(b"\n".join(parcel.lines))) == parcel
    assert unwrap(text.encode(), limit=LIMIT) == parcel


@pytest.mark.parametrize("path", sorted(GAME_LOG.parent.glob("*.jsonl"))[::6],
                         ids=lambda path: path.stem)
def test_a_whole_recorded_game_goes_by_mail(path):
    """Every line of a recorded log, from line 0, through a quoted reply with CRLF line ends:
    what arrives writes back the same file, byte for byte."""
    data = path.read_bytes()
    parcel = Parcel(game="", after=-1, head=None, lines=tuple(data.split(b"\n")[:-1]))
    mail = quote(GREETING + wrap(parcel) + SIGNATURE).replace("\n", "\r\n").encode()
    arrived = unwrap(mail, limit=len(data))
    assert b"".join(line + b"\n" for line in arrived.lines) == data


# --- what e-mail and chat do to it, and it survives -----------------------------------

SURVIVED = {
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "CR": lambda t: t.replace("\n", "\r"),
    "quoted twice with '> '": lambda t: quote(quote(t)),
    "quoted with '>>'": lambda t: quote(t, ">>"),
    "quoted with '> >' and '>'": lambda t: quote(quote(t, "> >"), ">"),
    "cut at 50 columns": lambda t: hard_wrap(t, 50),
    "cut at 76 columns": lambda t: hard_wrap(t, 76),
    "re-wrapped at 50 columns": lambda t: word_wrap(t, 50),
    "re-wrapped at 76 columns": lambda t: word_wrap(t, 76),
    "quoted, then cut at 50 columns": lambda t: hard_wrap(quote(t), 50),
    "quoted thrice, then re-wrapped at 76 columns": lambda t: word_wrap(quote(t, "> > > "), 76),
    "leading spaces": lambda t: t.replace("\n", "\n    "),
    "trailing spaces and tabs": lambda t: t.replace("\n", " \t \n"),
    "tabs before every line": lambda t: "\t" + t.replace("\n", "\n\t"),
    "tabs and spaces inside rows": lambda t: "".join(
        t.replace(row, row[:20] + "\t" + row[20:40] + " " + row[40:]) for row in body_rows(t)[:1]),
    "blank lines doubled": lambda t: t.replace("\n", "\n\n"),
    "the blank line after the headers lost": lambda t: t.replace("\n\n", "\n"),
    "a header's value broken over lines, blank ones between": lambda t: t.replace(
        "SHA256: ", "SHA256:\n\n").replace("Head: ", "Head: \n \n"),
    "mail text around it": lambda t: GREETING + t + SIGNATURE,
    "a '>'-quoted reply with a greeting": lambda t: (
        "Thanks, got it.\r\n\r\nOn Tue, Ben wrote:\r\n"
        + quote(GREETING + t + SIGNATURE, ">").replace("\n", "\r\n")),
    "not UTF-8 around it": lambda t: t,
}


@pytest.mark.parametrize("damage", SURVIVED)
def test_survives(damage):
    text = SURVIVED[damage](wrap(SENT))
    assert unwrap(text, limit=LIMIT) == SENT
    around = b"\xff\xfe caf\xe9 \xc3\xa9\n"
    assert unwrap(around + text.encode() + around, limit=LIMIT) == SENT


DAMAGES = st.sampled_from([
    lambda t: quote(t), lambda t: quote(t, ">"), lambda t: hard_wrap(t, 50),
    lambda t: hard_wrap(t, 76), lambda t: word_wrap(t, 50), lambda t: word_wrap(t, 76),
    lambda t: t.replace("\n", "\n  "), lambda t: t.replace("\n", "\t\n"),
    lambda t: GREETING + t + SIGNATURE,
])


@settings(max_examples=examples(100), deadline=None)
@given(parcels, st.lists(DAMAGES, max_size=4), st.sampled_from(["\n", "\r\n", "\r"]))
def test_survives_damage_upon_damage(parcel, damages, line_end):
    text = wrap(parcel)
    for damage in damages:
        text = damage(text)
    assert unwrap(text.replace("\n", line_end), limit=LIMIT) == parcel


# --- what it must not take ------------------------------------------------------------

def test_a_changed_base64_character_is_refused_though_it_decodes():
    text = wrap(SENT)
    row = body_rows(text)[2]
    changed = row[:10] + ("B" if row[10] != "B" else "C") + row[11:]
    mangled = text.replace(row, changed)
    base64.b64decode("".join(body_rows(mangled)), validate=True)
    refused(mangled, "the checksum does not match: the parcel was changed on the way")


def test_a_changed_unused_bit_is_refused_though_it_decodes_to_the_same_bytes():
    parcel = Parcel(game="", after=-1, head=None, lines=(b"{}",))
    text = wrap(parcel)
    assert body_rows(text) == ["e30="]
    mangled = text.replace("e30=", "e31=")
    assert base64.b64decode("e31=", validate=True) == b"{}"
    refused(mangled, "the base64 is not as written: a character in it was changed")


def test_a_missing_row_of_base64_is_refused_though_it_decodes():
    text = wrap(SENT)
    row = body_rows(text)[3]
    mangled = text.replace(row + "\n", "")
    base64.b64decode("".join(body_rows(mangled)), validate=True)
    refused(mangled, "the checksum does not match")


def test_a_missing_base64_character_is_refused():
    text = wrap(SENT)
    row = body_rows(text)[1]
    refused(text.replace(row, row[1:]), "not a multiple of 4: a part of it is missing")


@pytest.mark.parametrize("keep", [0.3, 0.6, 0.95])
def test_a_truncated_parcel_is_refused(keep):
    text = GREETING + wrap(SENT)
    message = refused(text[:int(len(text) * keep)], "no END line: the parcel is cut short")
    assert message.startswith(f"parcel line {GREETING.count(chr(10)) + 1}: ")


def test_a_parcel_without_its_end_line_is_refused():
    refused(wrap(SENT).replace(END, "") + SIGNATURE, "no END line: the parcel is cut short")


def test_a_parcel_without_its_start_is_refused():
    text = wrap(SENT)
    cut = text[text.index("\n", 300) + 1:]
    line = cut.split("\n").index(END) + 1
    refused(cut, f"parcel line {line}: an END line with no BEGIN line: the start of the parcel "
                 "is missing")


def test_a_changed_checksum_is_refused():
    text = wrap(SENT)
    line = next(line for line in text.split("\n") if line.startswith("SHA256: "))
    digit = line[-1]
    message = refused(text.replace(line, line[:-1] + ("0" if digit != "0" else "1")),
                      "the checksum does not match")
    assert message.startswith("parcel line 6: ")


def test_a_changed_header_is_refused_though_the_payload_is_whole():
    """The checksum covers the headers: a parcel moved to another place in the game, or to
    another game, does not pass, though its payload's own SHA-256 is unchanged."""
    for header, changed in (("After: 5", "After: 6"), (f"Game: {GAME_ID}", "Game: " + "e" * 32)):
        mangled = wrap(SENT).replace(header, changed)
        payload = base64.b64decode("".join(body_rows(mangled)))
        assert payload == b"\n".join(SENT.lines)
        refused(mangled, "the checksum does not match")


def test_a_wrong_line_count_is_refused_even_under_a_right_checksum():
    payload = b"\n".join(SENT.lines)
    text = craft(GAME_ID, 5, SENT.head or "", 3, payload)
    message = refused(text, "Lines says 3, the parcel carries 4")
    assert message.startswith("parcel line 5: ")


@pytest.mark.parametrize("payload, seq", [(b"{}\n\n{}", 1), (b"{}\n", 1), (b"{}\r\n{}", 0)])
def test_an_empty_line_or_a_carriage_return_is_refused_even_under_a_right_checksum(payload, seq):
    text = craft("-", -1, "-", payload.count(b"\n") + 1, payload)
    refused(text, f"the line for seq {seq} is empty or holds a carriage return")


@pytest.mark.parametrize("change, reason", [
    (("Game:", "Gmae:"), "parcel line 2: unknown header 'Gmae'"),
    (("Lines:", "Line:"), "parcel line 5: unknown header 'Line'"),
    (("After: 5\n", ""), "parcel line 3: the header After is missing before Head"),
    (("Head:", "After: 5 Head:"), "parcel line 4: the header After twice"),
    (("SHA256: ", "SHA256:\nHash: "), "parcel line 7: unknown header 'Hash'"),
    (("\n\n", " AAAA\n\n"), "parcel line 6: the header SHA256 runs on"),
    (("SHA256: ", "SHA256: 0"), "parcel line 6: SHA256 '0173"),
    (("After: 5", "After: 05"), "parcel line 3: After '05' is not a seq or -1"),
    (("After: 5", "After: -1"), "parcel line 4: Head must be - when After is -1"),
    ((f"Game: {GAME_ID}", f"Game: {GAME_ID.upper()}"), "parcel line 2: Game '0123"),
])
def test_a_header_out_of_form_is_refused(change, reason):
    refused(wrap(SENT).replace(*change, 1), reason)


def test_a_header_that_is_not_one_is_refused():
    refused(wrap(SENT).replace("Game:", "Game"), "parcel line 2: a header must come first")
    refused(wrap(SENT).replace("SHA256:", ""), "parcel line 6: the header SHA256 is missing")
    text = wrap(SENT)
    refused(text.replace(text.split("\n")[5] + "\n", ""), "parcel line 7: the header SHA256 is missing")


def test_a_parcel_over_the_limit_is_refused_before_it_is_decoded(monkeypatch):
    size = len(b"\n".join(SENT.lines))
    assert unwrap(wrap(SENT), limit=size) == SENT

    def decode(*args, **kwargs):
        raise AssertionError("decoded")

    assert size % 3 == 0
    refused(wrap(SENT), f"the parcel carries {size} bytes, more than its limit, {size - 1} bytes",
            limit=size - 1)
    monkeypatch.setattr(binascii, "a2b_base64", decode)
    refused(wrap(SENT), f"the parcel carries more than its limit, {size - 3} bytes", limit=size - 3)


def test_a_parcel_of_more_lines_than_its_limit_allows_is_refused_before_they_are_read():
    limit = 16 * 1000
    lines = tuple(b"x" * 99 for _ in range(limit // 100))
    whole = Parcel(game="", after=-1, head=None, lines=lines)
    damaged = quote(hard_wrap(quote(wrap(whole)), 50)).replace("\n", "\n\n")
    assert unwrap(damaged, limit=limit) == whole
    text = BEGIN + "\n" * (limit // 8 + 1025) + END
    refused(text, f"parcel line 1: the parcel spans {limit // 8 + 1026} lines, more than one "
                  f"of at most {limit} bytes can have", limit=limit)


def test_a_text_far_over_the_limit_is_refused_unread():
    text = GREETING + wrap(SENT)
    limit = (len(text) - SLACK) // 4 if len(text) > SLACK else 0
    padded = text + " " * (4 * limit + SLACK + 1 - len(text))
    refused(padded, "is too long for a parcel of at most", limit=limit)
    assert unwrap(padded[:-1], limit=max(limit, len(b"\n".join(SENT.lines)))) == SENT


def test_two_parcels_are_refused():
    one, two = wrap(SENT), wrap(Parcel(game="", after=-1, head=None, lines=(b"{}",)))
    refused(one + "\n" + two, "2 parcels in one text: send one at a time")
    refused(one.rstrip("\n") + two, "2 parcels in one text: send one at a time")
    refused(quote(one) + SIGNATURE + one + quote(two), "3 parcels in one text")


def test_an_end_line_of_another_parcel_is_refused():
    one, two = wrap(SENT), wrap(Parcel(game="", after=-1, head=None, lines=(b"{}",)))
    tail = two[two.index("\n") + 1:]
    refused(tail + one, "parcel line 8: an END line of another parcel: send one at a time")
    refused(one + tail, "an END line of another parcel")


@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_line_numbers_count_any_line_end(line_end):
    text = (GREETING + wrap(SENT)).replace("Lines:", "Rows:")
    assert text.split("\n").index("Rows: 4") == 8
    refused(text.replace("\n", line_end), "parcel line 9: unknown header 'Rows'")
    refused(text.replace("\n", line_end).encode(), "parcel line 9: unknown header 'Rows'")


def test_no_parcel():
    refused(GREETING + SIGNATURE, "no meeple parcel in it")
    refused(GAME_LOG.read_bytes(), "no meeple parcel in it")
    refused(b"", "no meeple parcel in it")


def test_a_marker_not_on_a_line_of_its_own_is_refused():
    refused("see " + wrap(SENT), "parcel line 1: the BEGIN line is damaged")
    refused(wrap(SENT).replace(END, END + " thanks"), "the END line is damaged")


def test_a_character_that_is_not_ascii_inside_is_refused():
    text = wrap(SENT)
    row = body_rows(text)[4]
    refused(text.replace(row, row[:20] + "\u00e9" + row[21:]), "not ASCII")
    refused(text.replace("\n", "\n\u00a0", 2), "parcel line 2: a character that is not ASCII")
    refused(text.encode().replace(b"Lines", b"L\xc3\xafnes"), "parcel line 5: a character")


def test_a_row_that_is_not_base64_is_refused():
    text = wrap(SENT)
    row = body_rows(text)[2]
    refused(GREETING + text.replace(row, row + "!"), "parcel line 14: not base64")
    refused(quote(text).replace(row, row + "\n> Nice move!"), "parcel line 11: not base64")


def test_a_line_quoted_deeper_than_the_begin_line_is_refused():
    text = quote(wrap(SENT))
    row = body_rows(wrap(SENT))[1]
    refused(text.replace("> " + row, ">> " + row), "parcel line 9: quoted deeper than the BEGIN")


# --- no change passes unseen ------------------------------------------------------------

SMALL = Parcel(game=GAME_ID, after=0, head=line_hash(b"{}"), lines=(b'{"seq":1}', b'{"a":"b"}'))


@pytest.mark.parametrize("edit", ["replace", "insert", "delete"])
def test_any_one_character_changed_is_refused_or_changes_nothing(edit):
    """Every position of a small parcel, every kind of character: the text is either refused
    or read as the same parcel (a space, a quote mark or a line end where they are harmless)."""
    text = wrap(SMALL)
    taken = 0
    for position in range(len(text)):
        for char in ("A", "z", "7", "+", "/", "=", "-", ":", " ", ">", "\n", "\r", "\u00e9"):
            if edit == "delete":
                if char != "A":
                    continue
                mangled = text[:position] + text[position + 1:]
            else:
                skip = 1 if edit == "replace" else 0
                mangled = text[:position] + char + text[position + skip:]
            try:
                parcel = unwrap(mangled, limit=LIMIT)
            except ParcelError:
                continue
            assert parcel == SMALL, repr(mangled)
            taken += 1
    assert taken


def test_any_one_line_left_out_is_refused():
    lines = wrap(SENT).split("\n")
    for index in range(len(lines) - 1):
        if lines[index]:
            with pytest.raises(ParcelError):
                unwrap("\n".join(lines[:index] + lines[index + 1:]), limit=LIMIT)


# --- telling a parcel from a log ---------------------------------------------------------

def test_a_file_saved_with_a_byte_order_mark():
    data = "\ufeff".encode() + wrap(SENT).replace("\n", "\r\n").encode()
    assert looks_like_parcel(data)
    assert unwrap(data, limit=LIMIT) == SENT
    assert unwrap(data.decode(), limit=LIMIT) == SENT


def test_looks_like_parcel():
    assert looks_like_parcel(wrap(SENT).encode())
    assert looks_like_parcel(quote(GREETING + wrap(SENT), "> > ").replace("\n", "\r").encode())
    assert looks_like_parcel(b"\xff\r" + wrap(SENT).encode())
    assert not looks_like_parcel(GAME_LOG.read_bytes())
    assert not looks_like_parcel(b'{"type":"x","name":"' + BEGIN.encode() + b'"}\n')
    assert not looks_like_parcel(b" " * (1 << 20) + wrap(SENT).encode())
