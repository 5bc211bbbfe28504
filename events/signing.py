"""Keys and signatures of remote play (docs/guide/remote.md, "Keys"): a player is an Ed25519 key in
OpenSSH format, and every line they write carries their SSHSIG signature in the ``meeple``
namespace, which ``ssh-keygen -Y verify`` checks too.

This module reads and makes key files; the signature container is ``meeple.events.sshsig``
and the allowed_signers format ``meeple.events.allowed_signers``, whose names it gathers.
An existing ``~/.ssh/id_ed25519`` works as it is: a key file is refused, in one line naming
it, when it is missing, no OpenSSH key, of another type, readable by group or others (as
ssh refuses it), encrypted without its passphrase or with a wrong one, or over 64 KiB.
"""

from __future__ import annotations

import base64
import binascii
import os
import shlex
import stat

from meeple.events.allowed_signers import (
    AllowedSigner,
    AllowedSigners,
    allows,
    parse_allowed_signers,
)
from meeple.events.sshsig import (
    ED25519,
    HASH,
    NAMESPACE,
    BadSignature,
    KeyProblem,
    PublicKey,
    Signer,
    WireReader,
    another_type,
    armoured,
    from_armour,
    key_type_of,
    signer_of,
)

__all__ = [
    "HASH",
    "NAMESPACE",
    "PASSPHRASE_VARIABLE",
    "AllowedSigner",
    "AllowedSigners",
    "BadSignature",
    "KeyProblem",
    "PublicKey",
    "Signer",
    "allows",
    "armoured",
    "from_armour",
    "key_of_file",
    "load_public",
    "load_signer",
    "new_key",
    "parse_allowed_signers",
    "signer_of",
]

#: the environment variable holding the passphrase of an encrypted private key
PASSPHRASE_VARIABLE = "MEEPLE_KEY_PASSPHRASE"
#: the largest key file read
MAX_KEY_FILE = 64 << 10

_PRIVATE_BEGIN = b"-----BEGIN OPENSSH PRIVATE KEY-----"
_PRIVATE_END = b"-----END OPENSSH PRIVATE KEY-----"
_AUTH_MAGIC = b"openssh-key-v1\x00"
#: how a public key line starts (a file the permission check of private keys passes over)
_PUBLIC_STARTS = (b"ssh-", b"ecdsa-", b"sk-")


def load_signer(path: str | os.PathLike[str], passphrase: bytes | None = None) -> Signer:
    """The signer of an OpenSSH private key file (``ssh-keygen -t ed25519`` makes one).

    The file's permissions are checked first. An encrypted key takes ``passphrase``, else
    the environment variable ``MEEPLE_KEY_PASSPHRASE``.

    :raises KeyProblem: naming the file and the reason.
    """
    from cryptography.exceptions import UnsupportedAlgorithm
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_ssh_private_key

    name = os.fspath(path)
    data = _read_key_file(name, private=True)
    first_key, cipher = _private_header(data, name)
    encrypted = cipher != "none"
    key_type = key_type_of(first_key)
    if key_type != ED25519:
        raise another_type(name, key_type)
    secret: bytes | None = None
    if encrypted:
        secret = passphrase or os.fsencode(os.environ.get(PASSPHRASE_VARIABLE, "")) or None
        if secret is None:
            raise KeyProblem(f"{name}: the key is encrypted: give its passphrase in the "
                             f"environment variable {PASSPHRASE_VARIABLE}")
    try:
        private = load_ssh_private_key(data, secret)
    except UnsupportedAlgorithm:
        raise KeyProblem(f"{name}: encrypted with {cipher}, which meeple cannot decrypt: "
                         f"ssh-keygen -p -Z aes256-ctr -f {shlex.quote(name)} re-encrypts "
                         "it") from None
    except (ValueError, TypeError):
        if encrypted:
            given = f" (from {PASSPHRASE_VARIABLE})" if not passphrase else ""
            raise KeyProblem(f"{name}: wrong passphrase{given}") from None
        raise KeyProblem(f"{name}: not a valid OpenSSH private key (damaged)") from None
    if not isinstance(private, Ed25519PrivateKey):
        raise another_type(name, key_type)
    signer = Signer(private)
    try:
        stated = PublicKey.from_blob(first_key, name)
    except KeyProblem:
        stated = None
    if signer.public != stated:  # a damaged private part would sign with another key
        raise KeyProblem(f"{name}: not a valid OpenSSH private key (damaged: its private part "
                         "does not match its public key)")
    return signer


def load_public(path: str | os.PathLike[str]) -> PublicKey:
    """The key of an OpenSSH public key file (``id_ed25519.pub``: one line
    ``ssh-ed25519 AAAA... [comment]``).

    :raises KeyProblem: naming the file and the reason.
    """
    name = os.fspath(path)
    data = _read_key_file(name, private=False)
    if data.lstrip().startswith(b"-----BEGIN"):
        raise KeyProblem(f"{name}: a private key file, not a public key (give its .pub file)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise KeyProblem(f"{name}: not an OpenSSH public key (not text)") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise KeyProblem(f"{name}: {len(lines)} lines: a public key file holds one key line")
    return PublicKey.parse(lines[0], name)


def key_of_file(path: str | os.PathLike[str], passphrase: bytes | None = None) -> PublicKey:
    """The public key of a ``.pub`` file, or of a private key file (read with every check
    of ``load_signer``).

    :raises KeyProblem: naming the file and the reason.
    """
    name = os.fspath(path)
    head = _read_key_file(name, private=False)
    if head.lstrip().startswith(b"-----BEGIN"):
        return load_signer(name, passphrase).public
    return load_public(name)


def new_key(path: str | os.PathLike[str], comment: str = "") -> PublicKey:
    """Write a new unencrypted Ed25519 private key in OpenSSH format at ``path`` (mode 0600
    from its creation on) and its public line, with ``comment``, at ``path.pub``.

    :raises KeyProblem: if either file exists, or cannot be made.
    :raises ValueError: for a comment that is not one line of printable text.
    """
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import (
        Encoding,
        NoEncryption,
        PrivateFormat,
    )

    if not comment.isprintable():
        raise ValueError("a key comment is one line of printable text")
    name = os.fspath(path)
    public_name = name + ".pub"
    for target in (name, public_name):
        if os.path.lexists(target):
            raise KeyProblem(f"{target} exists: meeple never overwrites a key file")
    private = Ed25519PrivateKey.generate()
    signer = Signer(private)
    line = signer.public.openssh + (f" {comment}" if comment else "") + "\n"
    _create(name, private.private_bytes(Encoding.PEM, PrivateFormat.OpenSSH, NoEncryption()),
            0o600)
    try:
        _create(public_name, line.encode(), 0o644)
    except KeyProblem:
        os.unlink(name)  # made just now, by this call
        raise
    return signer.public


def _create(name: str, data: bytes, mode: int) -> None:
    """A new file holding ``data``, created with ``mode`` (never with looser permissions
    first); refused if anything is there already."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(name, flags, mode)
    except FileExistsError:
        raise KeyProblem(f"{name} exists: meeple never overwrites a key file") from None
    except OSError as exc:
        raise KeyProblem(f"cannot create {name}: {exc.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as file:
            os.fchmod(file.fileno(), mode)  # the umask may have taken bits from a public key
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
    except OSError as exc:
        os.unlink(name)
        raise KeyProblem(f"cannot write {name}: {exc.strerror}") from None


def _read_key_file(name: str, *, private: bool) -> bytes:
    """The bytes of a key file, after checking that it is a regular file of at most 64 KiB
    and, for a private key, that neither group nor others may read it."""
    try:
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise KeyProblem(f"{name}: no such key file") from None
    except OSError as exc:
        raise KeyProblem(f"{name}: cannot read it: {exc.strerror}") from None
    try:
        status = os.fstat(fd)
        if not stat.S_ISREG(status.st_mode):
            raise KeyProblem(f"{name}: not a regular file")
        pieces: list[bytes] = []
        left = MAX_KEY_FILE + 1
        while left > 0 and (piece := os.read(fd, left)):
            pieces.append(piece)
            left -= len(piece)
        data = b"".join(pieces)
    except OSError as exc:
        raise KeyProblem(f"{name}: cannot read it: {exc.strerror}") from None
    finally:
        os.close(fd)
    mode = stat.S_IMODE(status.st_mode)
    if private and mode & 0o077 and not data.startswith(_PUBLIC_STARTS):
        raise KeyProblem(f"permissions {mode:04o} for {name} are too open: chmod 600 "
                         f"{shlex.quote(name)}")
    if len(data) > MAX_KEY_FILE:
        raise KeyProblem(f"{name}: over {MAX_KEY_FILE >> 10} KiB: too large for a key file")
    return data


def _private_header(data: bytes, name: str) -> tuple[bytes, str]:
    """The public key an OpenSSH private key file holds in its clear part (a blob), and
    the cipher of its private part (``none``: not encrypted) (OpenSSH's PROTOCOL.key)."""
    text = data.strip()
    if not text.startswith(_PRIVATE_BEGIN):
        if text.startswith(b"-----BEGIN"):
            first = text.split(b"\n", 1)[0].strip().decode("ascii", "replace")[:60]
            raise KeyProblem(f"{name}: not an OpenSSH private key ({first}): meeple reads the "
                             "OpenSSH format (ssh-keygen -t ed25519 makes one)")
        if text.startswith(_PUBLIC_STARTS):
            raise KeyProblem(f"{name}: a public key; give the private key file")
        raise KeyProblem(f"{name}: not an OpenSSH key")
    if not text.endswith(_PRIVATE_END):
        raise KeyProblem(f"{name}: not a valid OpenSSH private key (no end line)")
    body = b"".join(text[len(_PRIVATE_BEGIN):-len(_PRIVATE_END)].split())
    try:
        reader = WireReader(base64.b64decode(body, validate=True))
        if reader.take(len(_AUTH_MAGIC)) != _AUTH_MAGIC:
            raise ValueError("no magic")
        cipher = reader.string()
        reader.string()  # the key derivation's name
        reader.string()  # and its options
        if reader.uint32() < 1:
            raise ValueError("no key")
        first_key = reader.string()
    except (binascii.Error, ValueError):
        raise KeyProblem(f"{name}: not a valid OpenSSH private key (damaged)") from None
    shown = cipher.decode("ascii", "replace")[:60]
    return first_key, shown if shown.isprintable() else "an unknown cipher"
