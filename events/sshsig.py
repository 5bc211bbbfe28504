"""Ed25519 public keys and OpenSSH's signature container, SSHSIG (OpenSSH's PROTOCOL.sshsig),
as ``ssh-keygen -Y sign`` writes it and ``ssh-keygen -Y verify`` reads it.

The container is a wire format encoded here with ``struct`` (an SSH ``string`` is a uint32
length and its bytes); the signature inside it is made and checked by ``cryptography``'s
Ed25519. Every meeple signature has the namespace ``meeple`` and hashes the message with
SHA-512, so that a meeple signature is never valid for another purpose (a git commit, a
file signature) and no signature made for one is valid here.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: the SSHSIG namespace of every meeple signature
NAMESPACE = "meeple"
#: the hash of the message inside every meeple signature
HASH = "sha512"
#: the one key type meeple signs and verifies with
ED25519 = "ssh-ed25519"

MAGIC = b"SSHSIG"
VERSION = 1
BEGIN = "-----BEGIN SSH SIGNATURE-----"
END = "-----END SSH SIGNATURE-----"
#: how ssh-keygen wraps the base64 of an armoured signature
ARMOUR_COLUMNS = 70
#: the longest signature text read (a meeple signature is 236 characters)
MAX_SIGNATURE_CHARS = 4096


class KeyProblem(Exception):
    """A key file or key text that cannot be used; ``str()`` is one line naming the file and
    the reason, never any part of a secret."""


class BadSignature(Exception):
    """A signature that is refused; ``str()`` is one line saying why."""


def ssh_string(data: bytes) -> bytes:
    """An SSH ``string``: a uint32 length (big-endian) and the bytes."""
    return struct.pack(">I", len(data)) + data


class WireReader:
    """Reads SSH wire fields off a byte string; ``Short`` when a field runs past its end."""

    class Short(ValueError):
        pass

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, count: int) -> bytes:
        if count > len(self.data) - self.at:
            raise self.Short("cut short")
        piece = self.data[self.at:self.at + count]
        self.at += count
        return piece

    def uint32(self) -> int:
        value: int = struct.unpack(">I", self.take(4))[0]
        return value

    def string(self) -> bytes:
        return self.take(self.uint32())

    @property
    def done(self) -> bool:
        return self.at == len(self.data)


def key_type_of(blob: bytes) -> str:
    """The key type a public key blob names (its first ``string``), as printable text."""
    try:
        name = WireReader(blob).string()
    except WireReader.Short:
        return "unknown"
    text = name.decode("ascii", "replace")
    return text if name.isascii() and text.isprintable() and text else "unknown"


def another_type(source: str, key_type: str) -> KeyProblem:
    """The refusal of a key that is not Ed25519."""
    return KeyProblem(f"{source}: an {key_type} key: meeple signs with Ed25519 keys only "
                      "(ssh-keygen -t ed25519)")


@dataclass(frozen=True)
class PublicKey:
    """An Ed25519 public key; equal to another with the same 32 bytes."""

    raw: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.raw, bytes) or len(self.raw) != 32:
            raise KeyProblem("an Ed25519 public key is 32 bytes")

    @classmethod
    def parse(cls, text: str, source: str = "key") -> PublicKey:
        """The key of an OpenSSH public key line, ``ssh-ed25519 AAAA... [comment]``.

        :raises KeyProblem: naming ``source`` and the reason.
        """
        fields = text.strip().split(None, 2)
        if not fields:
            raise KeyProblem(f"{source}: no key: expected a line 'ssh-ed25519 AAAA...'")
        if fields[0].startswith("-----BEGIN"):
            raise KeyProblem(f"{source}: a private key, not a public key line (give the .pub "
                             "file)")
        if len(fields) < 2 or not fields[0].isascii() or not fields[0].isprintable():
            raise KeyProblem(f"{source}: not an OpenSSH public key line 'ssh-ed25519 AAAA...'")
        if ED25519 in fields[1:2] or (len(fields) > 2 and fields[2].startswith(ED25519 + " ")):
            raise KeyProblem(f"{source}: options before the key ({fields[0][:40]!r}), as in "
                             "authorized_keys: give the key's own line 'ssh-ed25519 AAAA...' "
                             "(its .pub file)")
        if fields[0] != ED25519:
            raise another_type(source, fields[0][:64])
        try:
            blob = base64.b64decode(fields[1], validate=True)
        except (binascii.Error, ValueError):
            raise KeyProblem(f"{source}: the key's base64 is broken") from None
        return cls.from_blob(blob, source)

    @classmethod
    def from_blob(cls, blob: bytes, source: str = "key") -> PublicKey:
        """The key of an SSH public key blob (``string`` type, ``string`` 32 bytes)."""
        reader = WireReader(blob)
        try:
            if reader.string() != ED25519.encode():
                raise another_type(source, key_type_of(blob))
            raw = reader.string()
        except WireReader.Short:
            raise KeyProblem(f"{source}: the key's data is cut short") from None
        if len(raw) != 32 or not reader.done:
            raise KeyProblem(f"{source}: the key's data is not an Ed25519 key")
        return cls(raw)

    @property
    def blob(self) -> bytes:
        """The key in SSH wire form (what SSHSIG and fingerprints take)."""
        return ssh_string(ED25519.encode()) + ssh_string(self.raw)

    @property
    def openssh(self) -> str:
        """``ssh-ed25519 AAAA...``, without a comment: the text a game records."""
        return f"{ED25519} {base64.b64encode(self.blob).decode()}"

    @property
    def fingerprint(self) -> str:
        """``SHA256:...`` as ``ssh-keygen -l`` prints it (base64 without padding)."""
        digest = hashlib.sha256(self.blob).digest()
        return "SHA256:" + base64.b64encode(digest).decode().rstrip("=")

    def __repr__(self) -> str:
        return f"PublicKey({self.fingerprint})"

    def verify(self, message: bytes, signature: str) -> None:
        """Check that ``signature`` (base64 of an SSHSIG blob, one line) is this key's over
        ``message``, in the meeple namespace.

        :raises BadSignature: with the reason.
        """
        from cryptography.exceptions import InvalidSignature
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        parsed = _Parsed.of(signature)
        if parsed.namespace != NAMESPACE.encode():
            shown = parsed.namespace.decode("ascii", "replace")[:64]
            raise BadSignature(f"a signature for namespace {shown!r}, not {NAMESPACE!r}")
        if parsed.hash != HASH.encode():
            shown = parsed.hash.decode("ascii", "replace")[:64]
            raise BadSignature(f"hash algorithm {shown!r}: meeple signatures use {HASH}")
        if parsed.key != self:
            raise BadSignature(f"signed by another key ({parsed.key.fingerprint}), not "
                               f"{self.fingerprint}")
        try:
            Ed25519PublicKey.from_public_bytes(self.raw).verify(
                parsed.signature, signed_data(message))
        except (InvalidSignature, ValueError):
            raise BadSignature("the signature does not verify: the message or the signature "
                               "was changed") from None


def signed_data(message: bytes) -> bytes:
    """What the key signs: the magic, the namespace, the reserved field, the hash
    algorithm and the hash of the message (PROTOCOL.sshsig, section 3)."""
    return (MAGIC + ssh_string(NAMESPACE.encode()) + ssh_string(b"") + ssh_string(HASH.encode())
            + ssh_string(hashlib.sha512(message).digest()))


@dataclass(frozen=True)
class _Parsed:
    """The fields of an SSHSIG blob (PROTOCOL.sshsig, section 2)."""

    key: PublicKey
    namespace: bytes
    hash: bytes
    signature: bytes

    @classmethod
    def of(cls, signature: str) -> _Parsed:
        blob = _decoded(signature)
        reader = WireReader(blob)
        try:
            if reader.take(len(MAGIC)) != MAGIC:
                raise BadSignature("not an SSH signature (no SSHSIG magic)")
            version = reader.uint32()
            if version != VERSION:
                raise BadSignature(f"SSH signature version {version}: meeple reads version "
                                   f"{VERSION}")
            key_blob = reader.string()
            namespace, _reserved, hash_name = reader.string(), reader.string(), reader.string()
            inner = WireReader(reader.string())
            kind, raw = inner.string(), inner.string()
        except WireReader.Short:
            raise BadSignature("the SSH signature is cut short") from None
        if not reader.done or not inner.done:
            raise BadSignature("the SSH signature has trailing data")
        try:
            key = PublicKey.from_blob(key_blob, "the signature's key")
        except KeyProblem as exc:
            raise BadSignature(f"{exc}") from None
        if kind != ED25519.encode() or len(raw) != 64:
            raise BadSignature("not an Ed25519 signature")
        return cls(key, namespace, hash_name, raw)


def _decoded(signature: str) -> bytes:
    """The bytes of a one-line base64 signature, written as base64 writes them."""
    if not isinstance(signature, str):
        raise BadSignature("a signature is text (base64)")
    if len(signature) > MAX_SIGNATURE_CHARS:
        raise BadSignature(f"a signature of {len(signature):,} characters: too long")
    if not signature:
        raise BadSignature("an empty signature")
    try:
        blob = base64.b64decode(signature, validate=True)
    except (binascii.Error, ValueError):
        raise BadSignature("the signature is not base64") from None
    if base64.b64encode(blob).decode() != signature:
        raise BadSignature("the signature is not base64 as written (padding or extra bits)")
    return blob


def signer_of(signature: str) -> PublicKey:
    """The public key an SSHSIG names, without verifying the signature.

    :raises BadSignature: if it is no Ed25519 SSHSIG.
    """
    return _Parsed.of(signature).key


class Signer:
    """An Ed25519 private key that signs in the meeple namespace."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public = PublicKey(private.public_key().public_bytes_raw())

    def __repr__(self) -> str:
        return f"Signer({self.public.fingerprint})"

    def sign(self, message: bytes) -> str:
        """The base64 of the SSHSIG blob over ``message`` (one line, no newline)."""
        raw = self._private.sign(signed_data(message))
        blob = (MAGIC + struct.pack(">I", VERSION) + ssh_string(self.public.blob)
                + ssh_string(NAMESPACE.encode()) + ssh_string(b"") + ssh_string(HASH.encode())
                + ssh_string(ssh_string(ED25519.encode()) + ssh_string(raw)))
        return base64.b64encode(blob).decode()


def armoured(signature: str) -> str:
    """A signature as ``ssh-keygen -Y sign`` writes its ``.sig`` file: the header, the
    base64 wrapped at 70 columns, the footer and a newline."""
    lines = [signature[at:at + ARMOUR_COLUMNS]
             for at in range(0, len(signature), ARMOUR_COLUMNS)]
    return "\n".join([BEGIN, *lines, END]) + "\n"


def from_armour(text: str) -> str:
    """The one-line base64 signature of an armoured one (a ``.sig`` file of ``ssh-keygen``);
    line ends may be CRLF, and blank space around the armour is ignored.

    :raises BadSignature: without the header or the footer, or with a body that is no
        base64.
    """
    lines = [line.strip() for line in text.strip().splitlines()]
    if not lines or lines[0] != BEGIN:
        raise BadSignature(f"not an armoured SSH signature (no {BEGIN!r} line first)")
    if lines[-1] != END or len(lines) < 3:
        raise BadSignature(f"the armoured SSH signature has no {END!r} line last")
    body = "".join(lines[1:-1])
    _decoded(body)
    return body
