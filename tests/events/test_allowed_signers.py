"""allowed_signers files (``meeple.events.allowed_signers``) read as ``ssh-keygen -Y verify``
reads them: principals with patterns and negation, options, namespaces, comments; bad lines
refused naming ``source:line``; and, where ssh-keygen is installed, each case decided as it
decides it."""

import base64
import shutil
import subprocess
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.events import signing
from meeple.events.signing import KeyProblem, PublicKey, allows, parse_allowed_signers

from helpers import examples

RED = PublicKey(bytes(range(32)))
BLACK = PublicKey(bytes(range(1, 33)))
RSA_LINE = "ssh-rsa " + base64.b64encode(b"\0\0\0\x07ssh-rsa\0\0\0\x01\x03").decode()


def entries(text: str):
    return parse_allowed_signers(text, "signers")


def test_comments_blank_lines_and_plain_entries():
    text = f"""# the players of game 7
   # an indented comment

red@game {RED.openssh} the red player's laptop
\tblack@game,b@game {BLACK.openssh}
"""
    found = entries(text)
    assert [(e.principals, e.key, e.namespaces, e.where) for e in found] == [
        (("red@game",), RED, None, "signers:4"), (("black@game", "b@game"), BLACK, None,
                                                   "signers:5")]
    assert allows(found, "red@game", RED) and allows(found, "b@game", BLACK)
    assert not allows(found, "red@game", BLACK)
    assert not allows(found, "black@game", RED)
    assert not allows(found, "RED@game", RED)  # case matters, as in ssh-keygen


def test_patterns_and_negation():
    found = entries(f"*@game,!mallory@game {RED.openssh}\nx?@home {BLACK.openssh}\n")
    assert allows(found, "red@game", RED) and allows(found, "@game", RED)
    assert not allows(found, "mallory@game", RED)
    assert allows(found, "xy@home", BLACK)
    assert not allows(found, "x@home", BLACK) and not allows(found, "xyz@home", BLACK)
    # only * and ? are special: brackets and dots are themselves
    literal = entries(f"[ab].c {RED.openssh}\n")
    assert allows(literal, "[ab].c", RED) and not allows(literal, "a.c", RED)
    assert not allows(literal, "[ab]xc", RED)


def test_options_namespaces_cert_authority_and_validity():
    text = f"""red@game namespaces="meeple,git" {RED.openssh}
black@game NAMESPACES="file" {BLACK.openssh}
"quoted name" namespaces="mee*",valid-after="20200101Z",valid-before="20300101Z" {BLACK.openssh}
*@ca cert-authority {RED.openssh}
"""
    found = entries(text)
    assert found[0].namespaces == ("meeple", "git")
    assert allows(found, "red@game", RED)
    assert not allows(found, "black@game", BLACK)  # allowed for namespace "file" only
    assert found[2].principals == ("quoted name",)
    assert found[2].valid_after == 1577836800.0 and found[2].valid_before == 1893456000.0
    assert allows(found, "quoted name", BLACK, now=1700000000)
    assert not allows(found, "quoted name", BLACK, now=1500000000)  # not yet valid
    assert not allows(found, "quoted name", BLACK, now=1900000000)  # expired
    assert found[3].cert_authority and not allows(found, "x@ca", RED)
    local = entries(f'a valid-before="202001021530" {RED.openssh}\n')[0]
    assert local.valid_before == time.mktime(time.strptime("202001021530", "%Y%m%d%H%M"))


def test_keys_of_other_types_are_kept_out_and_said():
    found = entries(f"red@game {RSA_LINE}\nred@game {RED.openssh}\n")
    assert len(found) == 1 and found[0].key == RED
    assert found.ignored == ("signers:1: an ssh-rsa key: meeple signs with Ed25519 keys only",)


@pytest.mark.parametrize(("line", "reason"), [
    ("red@game", "signers:1: no key"),
    (f"red@game unknown {RED.openssh}", "signers:1: unknown option 'unknown'"),
    (f"red@game namespaces=meeple {RED.openssh}", "signers:1: the value of 'namespaces' must "
     "be in double quotes"),
    (f'red@game namespaces="meeple {RED.openssh}', "no closing quote"),
    (f'red@game namespaces="a",namespaces="b" {RED.openssh}', "'namespaces' given twice"),
    (f'red@game cert-authority="yes" {RED.openssh}', "takes no value"),
    (f"red@game namespaces {RED.openssh}", "needs a value"),
    (f'red@game valid-after="2020" {RED.openssh}', "write YYYYMMDD"),
    (f'red@game valid-after="20201340" {RED.openssh}', "is no date"),
    (f'red@game namespaces="x", {RED.openssh}', "bad options"),
    ("red@game ssh-ed25519 AAAA$$", "base64 is broken"),
    ("red@game ssh-rsa AAAA$$", "base64 is broken"),
    (f'"red@game {RED.openssh}', "no closing quote"),
    (f'"red"x {RED.openssh}', "no space after the quoted principals"),
    ("red@game ssh-ed25519 " + base64.b64encode(b"\0\0\0\x07ssh-rsa").decode(), "an ssh-rsa"),
])
def test_bad_lines_are_refused_naming_source_and_line(line, reason):
    with pytest.raises(KeyProblem, match=reason) as caught:
        entries(f"{line}\n")
    assert str(caught.value).startswith("signers:1: ")
    with pytest.raises(KeyProblem, match="signers:3: "):
        entries(f"# a comment\nred@game {RED.openssh}\n{line}\n")


def test_the_size_of_an_allowed_signers_text_is_bounded():
    with pytest.raises(KeyProblem, match="signers: over 1 MiB"):
        entries("#" * ((1 << 20) + 1))
    with pytest.raises(KeyProblem, match="10,001 lines"):
        entries("#\n" * 10_001)
    assert entries("#\n" * 10_000) == []


SSH_KEYGEN = shutil.which("ssh-keygen")

#: (an allowed_signers line for KEY, the principal asked) and whether ssh-keygen accepts
AGREED = [
    ("red@game KEY", "red@game"),
    ("red@game KEY", "black@game"),
    ("*@game,!mallory@game KEY", "mallory@game"),
    ("*@game,!mallory@game KEY", "red@game"),
    ("r?d@game KEY", "red@game"),
    ('red@game namespaces="git" KEY', "red@game"),
    ('red@game namespaces="git,mee*" KEY', "red@game"),
    ('red@game namespaces="*,!meeple" KEY', "red@game"),
    ('red@game valid-before="20000101" KEY', "red@game"),
    ('red@game valid-after="20000101",VALID-BEFORE="29990101" KEY', "red@game"),
    ("red@game cert-authority KEY", "red@game"),
    ('"red player" KEY', "red player"),
]


@pytest.mark.skipif(SSH_KEYGEN is None, reason="ssh-keygen (Debian's openssh-client) is absent")
@pytest.mark.parametrize(("line", "principal"), AGREED)
def test_allows_decides_as_ssh_keygen_does(tmp_path, line, principal):
    assert SSH_KEYGEN is not None
    signing.new_key(tmp_path / "key")
    signer = signing.load_signer(tmp_path / "key")
    message = b"a line of a game\n"
    (tmp_path / "message.sig").write_text(signing.armoured(signer.sign(message)))
    text = line.replace("KEY", signer.public.openssh) + "\n"
    (tmp_path / "allowed").write_text(text)
    verified = subprocess.run(
        [SSH_KEYGEN, "-Y", "verify", "-f", tmp_path / "allowed", "-I", principal, "-n",
         "meeple", "-s", tmp_path / "message.sig"], input=message, capture_output=True,
        check=False, timeout=60)
    found = parse_allowed_signers(text, "allowed")
    assert allows(found, principal, signer.public) == (verified.returncode == 0), verified


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.sampled_from(
    ["red@game", "*", "!x", '"q q"', 'namespaces="meeple"', "cert-authority", ",", '"', "=",
     'valid-after="20200101"', "ssh-ed25519", "ssh-rsa", RED.openssh.split()[1], "AAAA", "#",
     " ", "\t", "\n", "é", "\x00"]) | st.text(max_size=5), max_size=12).map("".join))
def test_any_text_gives_entries_or_one_key_problem(text):
    try:
        found = parse_allowed_signers(text, "signers")
    except KeyProblem as exc:
        assert str(exc).startswith("signers") and "\n" not in str(exc)
    else:
        for entry in found:
            allows(found, "red@game", entry.key)
