"""Keys and signatures of remote play (``meeple.events.signing``), judged by the real
``ssh-keygen``: what it signs verifies here, what is signed here it verifies, fingerprints
agree, and every tampered signature and unusable key file is refused in one line."""

import base64
import os
import shutil
import stat
import struct
import subprocess
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple.events import signing
from meeple.events.signing import BadSignature, KeyProblem, PublicKey

from helpers import examples

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None,
                                      reason="ssh-keygen (Debian's openssh-client) is absent")
MESSAGE = b'{"seq":7,"prev":"ab12","type":"tile_placed","x":1,"y":0}\n'


def keygen(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    assert SSH_KEYGEN is not None
    return subprocess.run([SSH_KEYGEN, *map(str, args)], input=stdin, capture_output=True,
                          check=False, timeout=60)


def make_key(folder: Path, name: str, kind: str = "ed25519", passphrase: str = "") -> Path:
    """A key made by ssh-keygen, without comment."""
    path = folder / name
    # a small RSA key and few KDF rounds for an encrypted one: only fast, never used for real
    bits = ["-b", "1024"] if kind == "rsa" else ["-a", "2"] if passphrase else []
    made = keygen("-q", "-t", kind, *bits, "-N", passphrase, "-C", "", "-f", path)
    assert made.returncode == 0, made.stderr
    return path


def ssh_sign(key: Path, message: bytes, namespace: str = "meeple") -> str:
    """ssh-keygen's armoured signature of ``message``."""
    signed = keygen("-Y", "sign", "-n", namespace, "-f", key, stdin=message)
    assert signed.returncode == 0, signed.stderr
    return signed.stdout.decode()


def ssh_verify(folder: Path, public_line: str, message: bytes, armour: str,
               principal: str = "red@game") -> subprocess.CompletedProcess:
    allowed, sig = folder / "allowed_signers", folder / "message.sig"
    allowed.write_text(f"{principal} {public_line}\n")
    sig.write_text(armour)
    return keygen("-Y", "verify", "-f", allowed, "-I", principal, "-n", "meeple", "-s", sig,
                  stdin=message)


@pytest.fixture(scope="module")
def keys(tmp_path_factory) -> dict[str, Path]:
    """Keys made once by ssh-keygen: two Ed25519 keys, an encrypted one, RSA and ECDSA."""
    if SSH_KEYGEN is None:
        pytest.skip("ssh-keygen (Debian's openssh-client) is absent")
    folder = tmp_path_factory.mktemp("keys")
    return {"red": make_key(folder, "red"), "black": make_key(folder, "black"),
            "locked": make_key(folder, "locked", passphrase="open sesame"),
            "rsa": make_key(folder, "rsa", "rsa"), "ecdsa": make_key(folder, "ecdsa", "ecdsa")}


@needs_ssh_keygen
def test_a_signature_made_here_is_accepted_by_ssh_keygen(keys, tmp_path):
    signer = signing.load_signer(keys["red"])
    signature = signer.sign(MESSAGE)
    assert "\n" not in signature
    verified = ssh_verify(tmp_path, signer.public.openssh, MESSAGE, signing.armoured(signature))
    assert verified.returncode == 0, verified.stderr
    assert b'Good "meeple" signature for red@game' in verified.stdout
    # and the same signature over other bytes is not
    changed = ssh_verify(tmp_path, signer.public.openssh, MESSAGE.replace(b"7", b"8"),
                         signing.armoured(signature))
    assert changed.returncode != 0


@needs_ssh_keygen
def test_a_signature_made_by_ssh_keygen_verifies_here(keys):
    armour = ssh_sign(keys["red"], MESSAGE)
    signature = signing.from_armour(armour)
    public = signing.load_public(f"{keys['red']}.pub")
    public.verify(MESSAGE, signature)
    assert signing.signer_of(signature) == public
    assert signing.armoured(signature) == armour  # wrapped as ssh-keygen wraps it


@needs_ssh_keygen
def test_the_public_line_and_fingerprint_are_ssh_keygens(keys):
    public = signing.load_public(f"{keys['red']}.pub")
    listed = keygen("-lf", f"{keys['red']}.pub").stdout.decode().split()
    assert public.fingerprint == listed[1]
    derived = keygen("-y", "-f", keys["red"]).stdout.decode().split()
    assert public.openssh == " ".join(derived[:2])
    assert signing.load_signer(keys["red"]).public == public


@needs_ssh_keygen
def test_a_key_made_by_new_key_works_with_ssh_keygen(tmp_path):
    path = tmp_path / "player"
    public = signing.new_key(path, "red player")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Path(f"{path}.pub").read_text() == f"{public.openssh} red player\n"
    assert keygen("-y", "-f", path).stdout.decode().split()[:2] == public.openssh.split()
    public.verify(MESSAGE, signing.from_armour(ssh_sign(path, MESSAGE)))
    mine = signing.load_signer(path).sign(MESSAGE)
    assert ssh_verify(tmp_path, public.openssh, MESSAGE, signing.armoured(mine)).returncode == 0


def test_new_key_never_overwrites(tmp_path):
    path = tmp_path / "player"
    signing.new_key(path)
    before = path.read_bytes(), Path(f"{path}.pub").read_bytes()
    with pytest.raises(KeyProblem, match="exists: meeple never overwrites"):
        signing.new_key(path)
    assert (path.read_bytes(), Path(f"{path}.pub").read_bytes()) == before
    lone = tmp_path / "lone"
    Path(f"{lone}.pub").write_text("kept\n")
    with pytest.raises(KeyProblem, match=r"lone\.pub exists"):
        signing.new_key(lone)
    assert not lone.exists() and Path(f"{lone}.pub").read_text() == "kept\n"
    with pytest.raises(KeyProblem, match="cannot create"):
        signing.new_key(tmp_path / "no" / "such" / "folder")
    with pytest.raises(ValueError, match="one line"):
        signing.new_key(tmp_path / "x", "two\nlines")


def test_new_key_creates_the_private_key_0600_under_any_umask(tmp_path):
    old = os.umask(0)
    try:
        signing.new_key(tmp_path / "open")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "open").stat().st_mode) == 0o600


# --- tampering ------------------------------------------------------------------------------

def _refused(public: PublicKey, message: bytes, signature: str, reason: str) -> None:
    with pytest.raises(BadSignature, match=reason) as caught:
        public.verify(message, signature)
    assert "\n" not in str(caught.value)


@needs_ssh_keygen
def test_tampered_signatures_are_refused_with_their_reason(keys):
    red = signing.load_signer(keys["red"])
    good = red.sign(MESSAGE)
    flipped = bytearray(MESSAGE)
    flipped[3] ^= 1
    _refused(red.public, bytes(flipped), good, "does not verify")
    other_namespace = signing.from_armour(ssh_sign(keys["red"], MESSAGE, "git"))
    _refused(red.public, MESSAGE, other_namespace, "namespace 'git', not 'meeple'")
    blacks = signing.load_signer(keys["black"]).sign(MESSAGE)
    _refused(red.public, MESSAGE, blacks, "signed by another key")
    _refused(red.public, MESSAGE, "not base64!", "not base64")
    _refused(red.public, MESSAGE, "", "empty")
    _refused(red.public, MESSAGE, good + "\n", "not base64")
    blob = base64.b64decode(good)
    _refused(red.public, MESSAGE, base64.b64encode(blob[:-10]).decode(), "cut short")
    _refused(red.public, MESSAGE, base64.b64encode(blob + b"x").decode(), "trailing data")
    _refused(red.public, MESSAGE, base64.b64encode(b"OPENSSH" + blob).decode(), "not an SSH")
    version_2 = blob[:6] + struct.pack(">I", 2) + blob[10:]
    _refused(red.public, MESSAGE, base64.b64encode(version_2).decode(), "version 2")
    # the signature's own bytes changed (the last byte of the Ed25519 signature)
    bent = blob[:-1] + bytes([blob[-1] ^ 1])
    _refused(red.public, MESSAGE, base64.b64encode(bent).decode(), "does not verify")
    _refused(red.public, MESSAGE, "A" * 5000, "too long")


@needs_ssh_keygen
def test_a_signature_by_another_key_type_is_refused(keys):
    rsa_signed = signing.from_armour(ssh_sign(keys["rsa"], MESSAGE))
    red = signing.load_public(f"{keys['red']}.pub")
    _refused(red, MESSAGE, rsa_signed, "an ssh-rsa key")
    with pytest.raises(BadSignature, match="ssh-rsa"):
        signing.signer_of(rsa_signed)


def test_signer_of_names_the_key_without_verifying(tmp_path):
    signing.new_key(tmp_path / "k")
    signer = signing.load_signer(tmp_path / "k")
    signature = signer.sign(b"anything")
    assert signing.signer_of(signature) == signer.public
    for garbage in ("", "%%%", base64.b64encode(b"SSHSIG").decode()):
        with pytest.raises(BadSignature):
            signing.signer_of(garbage)


def test_armour_reads_crlf_and_refuses_what_is_no_armour():
    signature = base64.b64encode(bytes(range(200))).decode()
    armour = signing.armoured(signature)
    assert all(len(line) <= 70 for line in armour.splitlines())
    assert signing.from_armour(armour.replace("\n", "\r\n")) == signature
    assert signing.from_armour("\n\n  " + armour + "\n") == signature
    with pytest.raises(BadSignature, match="no '-----BEGIN SSH SIGNATURE-----'"):
        signing.from_armour(signature)
    with pytest.raises(BadSignature, match="no '-----END SSH SIGNATURE-----'"):
        signing.from_armour(armour.replace("-----END SSH SIGNATURE-----", ""))
    with pytest.raises(BadSignature, match="not base64"):
        signing.from_armour(armour.replace(signature[:4], "$$$$"))


# --- key files ------------------------------------------------------------------------------

def _problem(call, reason: str, *secrets: bytes) -> str:
    """``call`` raises KeyProblem matching ``reason``, in one line holding no secret."""
    with pytest.raises(KeyProblem, match=reason) as caught:
        call()
    message = str(caught.value)
    assert "\n" not in message
    for secret in secrets:
        assert not any(line.decode(errors="replace") in message
                       for line in secret.splitlines()[1:-1] if line)
    return message


@needs_ssh_keygen
def test_key_files_of_other_types_are_refused(keys):
    for kind, name in (("rsa", "ssh-rsa"), ("ecdsa", "ecdsa-sha2-nistp256")):
        expected = f"{keys[kind]}: an {name} key: meeple signs with Ed25519 keys only " \
                   "\\(ssh-keygen -t ed25519\\)"
        _problem(lambda k=kind: signing.load_signer(keys[k]), expected, keys[kind].read_bytes())
        _problem(lambda k=kind: signing.load_public(f"{keys[k]}.pub"), f"an {name} key")


@needs_ssh_keygen
def test_a_private_key_open_to_others_is_refused_as_ssh_refuses_it(keys, tmp_path):
    loose = tmp_path / "loose"
    shutil.copy(keys["red"], loose)
    loose.chmod(0o644)
    message = _problem(lambda: signing.load_signer(loose), "too open", loose.read_bytes())
    assert message == f"permissions 0644 for {loose} are too open: chmod 600 {loose}"
    loose.chmod(0o640)
    _problem(lambda: signing.key_of_file(loose), "permissions 0640")
    loose.chmod(0o600)
    assert signing.key_of_file(loose) == signing.load_public(f"{keys['red']}.pub")


@needs_ssh_keygen
def test_an_encrypted_key_needs_its_passphrase(keys, monkeypatch):
    locked, secret = keys["locked"], keys["locked"].read_bytes()
    monkeypatch.delenv(signing.PASSPHRASE_VARIABLE, raising=False)
    _problem(lambda: signing.load_signer(locked),
             "the key is encrypted: give its passphrase in the environment variable "
             "MEEPLE_KEY_PASSPHRASE", secret)
    message = _problem(lambda: signing.load_signer(locked, b"open sesame?"), "wrong passphrase",
                       secret)
    assert "sesame" not in message
    monkeypatch.setenv(signing.PASSPHRASE_VARIABLE, "close sesame")
    _problem(lambda: signing.load_signer(locked), "wrong passphrase .from MEEPLE_KEY_PASS")
    expected = signing.load_public(f"{locked}.pub")
    assert signing.load_signer(locked, b"open sesame").public == expected
    monkeypatch.setenv(signing.PASSPHRASE_VARIABLE, "open sesame")
    signer = signing.load_signer(locked)
    assert signer.public == expected and "sesame" not in repr(signer)
    signer.public.verify(b"m", signer.sign(b"m"))


@needs_ssh_keygen
def test_a_key_encrypted_with_a_cipher_cryptography_lacks_says_how_to_re_encrypt(tmp_path):
    path = tmp_path / "chacha"
    made = keygen("-q", "-t", "ed25519", "-a", "2", "-N", "pw", "-Z",
                  "chacha20-poly1305@openssh.com", "-f", path)
    assert made.returncode == 0, made.stderr
    try:
        signer = signing.load_signer(path, b"pw")
    except KeyProblem as exc:
        assert str(exc) == (f"{path}: encrypted with chacha20-poly1305@openssh.com, which "
                            f"meeple cannot decrypt: ssh-keygen -p -Z aes256-ctr -f {path} "
                            "re-encrypts it")
    else:  # a cryptography that has learnt the cipher
        assert signer.public == signing.load_public(f"{path}.pub")


def test_unusable_key_files_are_refused_in_one_line(tmp_path):
    _problem(lambda: signing.load_signer(tmp_path / "absent"), "absent: no such key file")
    _problem(lambda: signing.load_signer(tmp_path), "not a regular file")
    big = tmp_path / "big"
    big.write_bytes(b"-----BEGIN OPENSSH PRIVATE KEY-----\n" + b"A" * (64 << 10))
    big.chmod(0o600)
    _problem(lambda: signing.load_signer(big), "over 64 KiB")
    pem = tmp_path / "pem"
    pem.write_bytes(Ed25519PrivateKey.generate().private_bytes(
        Encoding.PEM, PrivateFormat.PKCS8, NoEncryption()))
    pem.chmod(0o600)
    _problem(lambda: signing.load_signer(pem), "not an OpenSSH private key "
             r"\(-----BEGIN PRIVATE KEY-----\)", pem.read_bytes())
    text = tmp_path / "text"
    text.write_text("hello\n")
    text.chmod(0o600)
    _problem(lambda: signing.load_signer(text), "not an OpenSSH key")
    _problem(lambda: signing.load_public(text), "not an OpenSSH public key line")
    signing.new_key(tmp_path / "k")
    _problem(lambda: signing.load_signer(f"{tmp_path / 'k'}.pub"), "a public key; give the private")
    _problem(lambda: signing.load_public(tmp_path / "k"), "a private key file, not a public key")
    damaged = tmp_path / "damaged"
    lines = (tmp_path / "k").read_bytes().splitlines()
    damaged.write_bytes(b"\n".join([lines[0], lines[1][:-8], lines[-1]]) + b"\n")
    damaged.chmod(0o600)
    _problem(lambda: signing.load_signer(damaged), "damaged")


def test_a_private_key_whose_secret_half_was_changed_is_refused(tmp_path):
    good = Ed25519PrivateKey.from_private_bytes(bytes(32)).private_bytes(
        Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption()).splitlines()
    blob = bytearray(base64.b64decode(b"".join(good[1:-1])))
    seed_at = blob.find(bytes(32))  # the Ed25519 seed: 32 zero bytes, then the public key
    assert seed_at > 0
    blob[seed_at] ^= 1
    path = tmp_path / "bent"
    path.write_bytes(b"\n".join([good[0], base64.b64encode(bytes(blob)), good[-1]]) + b"\n")
    path.chmod(0o600)
    _problem(lambda: signing.load_signer(path), "damaged: its private part does not match")


def test_public_key_lines():
    signer_key = PublicKey(bytes(range(32)))
    line = signer_key.openssh
    assert line.startswith("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI")
    parsed = PublicKey.parse(f"  {line}  red@home  with spaces\n")
    assert parsed == signer_key and hash(parsed) == hash(signer_key)
    assert parsed.raw == bytes(range(32)) and parsed.openssh == line
    assert len({parsed, signer_key, PublicKey(bytes(32))}) == 2
    for text, reason in (("", "no key"), ("ssh-ed25519", "not an OpenSSH public key line"),
                         ("ssh-rsa AAAAB3NzaC1yc2E=", "an ssh-rsa key"),
                         ("ssh-ed25519 AAAA$", "base64 is broken"),
                         ("ssh-ed25519 " + base64.b64encode(b"\0\0\0\x0bssh-ed25519").decode(),
                          "cut short"),
                         ("-----BEGIN OPENSSH PRIVATE KEY-----", "a private key")):
        with pytest.raises(KeyProblem, match=reason):
            PublicKey.parse(text)
    with pytest.raises(KeyProblem, match="32 bytes"):
        PublicKey(b"short")


# --- anything at all ------------------------------------------------------------------------

_SIGNER = signing.Signer(Ed25519PrivateKey.from_private_bytes(bytes(32)))
_GOOD_BLOB = base64.b64decode(_SIGNER.sign(MESSAGE))


@settings(max_examples=examples(150), deadline=None)
@given(st.binary(max_size=300) | st.builds(
    lambda at, data, cut: (_GOOD_BLOB[:at] + data + _GOOD_BLOB[at + len(data):])[:cut],
    st.integers(0, len(_GOOD_BLOB)), st.binary(min_size=1, max_size=8),
    st.integers(0, len(_GOOD_BLOB) + 8)))
def test_any_blob_is_a_good_signature_or_refused_as_bad(blob):
    signature = base64.b64encode(blob).decode()
    try:
        _SIGNER.public.verify(MESSAGE, signature)
    except BadSignature as exc:
        assert "\n" not in str(exc)
    else:
        assert blob == _GOOD_BLOB
    try:
        signing.signer_of(signature)
    except BadSignature:
        pass


@settings(max_examples=examples(100), deadline=None)
@given(st.integers(0, 400), st.binary(min_size=1, max_size=4), st.integers(0, 420))
def test_a_damaged_private_key_file_is_refused_as_a_key_problem(at, data, cut):
    import tempfile

    good = Ed25519PrivateKey.from_private_bytes(bytes(32)).private_bytes(
        Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption())
    damaged = (good[:at] + data + good[at + len(data):])[:cut]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "key"
        path.write_bytes(damaged)
        path.chmod(0o600)
        try:
            signer = signing.load_signer(path)
        except KeyProblem as exc:
            assert "\n" not in str(exc)
        else:
            assert signer.public == _SIGNER.public


@pytest.mark.parametrize("options", ['restrict,command="x"', 'from="10.0.0.1 10.0.0.2",no-pty'])
def test_an_authorized_keys_line_with_options_is_named_as_such(options):
    """An authorized_keys line puts options before the key: the refusal said "an
    restrict,command=... key" as if the options were a key type."""
    from meeple.events.sshsig import KeyProblem, PublicKey

    line = f"{options} ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOr2 bob@host"
    with pytest.raises(KeyProblem, match="options before the key .* as in authorized_keys"):
        PublicKey.parse(line, "bob.pub")
