"""The signed lines of a remote game (docs/guide/remote.md; DESIGN.md, "Remote play").

A remote game's every line ends with its writer's signature: ``{...,"sig":"<SSHSIG>"}``,
where ``<SSHSIG>`` is the base64 of an OpenSSH signature (``ssh-keygen -Y sign`` with the
namespace ``meeple``, ``meeple.events.signing``) over the line's *body*: the same bytes
without ``,"sig":"..."``. The body holds ``seq`` and ``prev`` and the game's id is in the
first line, which every ``prev`` chains to, so a signature can serve at no other place and in
no other game; and since ``prev`` is the SHA-256 of the whole line before (its signature
included), each signature covers the whole game up to it. A local game's lines carry none.

Reading checks each signature and that its key is one of the seats' (``signers``); which
seat must write each line is a rule of the game, checked with the rules
(``meeple.engine.check``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from meeple.events.errors import LogError

#: what comes between a line's body and its signature
_SIG = b',"sig":"'


@functools.cache
def _base64() -> re.Pattern[bytes]:
    return re.compile(rb"[A-Za-z0-9+/]+={0,2}")  # compiled when first needed: a signed line


def split(raw: bytes) -> tuple[bytes, bytes | None]:
    """A line's body and its signature (``None`` where it has none)."""
    if not raw.endswith(b'"}'):
        return raw, None
    at = raw.rfind(_SIG)
    if at < 0:
        return raw, None
    signature = raw[at + len(_SIG):-2]
    if not _base64().fullmatch(signature):
        return raw, None
    return raw[:at] + b"}", signature


def attach(body: bytes, signature: str) -> bytes:
    """A signed line: ``body`` (a JSON object) with ``signature`` as its last field."""
    return body[:-1] + _SIG + signature.encode("ascii") + b'"}'


class Seats:
    """The seats' keys of a remote game, to tell whose key signed a line.

    A signature by a seat's key in the meeple namespace is that key's fixed SSHSIG prefix
    and 64 bytes of Ed25519 signature: the prefix says the seat at once, and only the
    Ed25519 check is left (the full parser of ``meeple.events.signing`` then names what is
    wrong with any other).
    """

    def __init__(self, path: str, keys: Sequence[str], colours: Sequence[str]) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

        from meeple.events.sshsig import (
            ED25519,
            HASH,
            MAGIC,
            NAMESPACE,
            VERSION,
            KeyProblem,
            PublicKey,
            ssh_string,
        )

        self.path = path
        self.colours = tuple(colours)
        try:
            self.keys = [PublicKey.parse(key) for key in keys]
        except KeyProblem as exc:
            raise LogError("corrupt", path, f"a seat's key cannot be read: {exc}", line=1,
                           field="remote.keys", seq=0) from None
        self.seat_of = {key: seat for seat, key in enumerate(self.keys)}
        self._prefix = {
            MAGIC + VERSION.to_bytes(4, "big") + ssh_string(key.blob)
            + ssh_string(NAMESPACE.encode()) + ssh_string(b"") + ssh_string(HASH.encode())
            + (4 + len(ED25519) + 4 + 64).to_bytes(4, "big") + ssh_string(ED25519.encode())
            + (64).to_bytes(4, "big"): (seat, Ed25519PublicKey.from_public_bytes(key.raw))
            for seat, key in enumerate(self.keys)}

    def signer(self, lineno: int, body: bytes, signature: bytes | None, *,
               check: bool = True) -> int:
        """The seat whose key made ``signature`` over ``body``; with ``check`` false, the
        seat the signature names, not verified (a later line of the same seat, verified,
        covers this one through the hash chain: ``parse``'s ``every_signature``).

        :raises LogError: ``forged``: no signature, one that does not verify, or one made by
            a key that is no seat's.
        """
        import base64
        import binascii

        from cryptography.exceptions import InvalidSignature

        from meeple.events.sshsig import signed_data

        if signature is None:
            raise LogError("forged", self.path, "the line carries no signature, and every line "
                           "of a remote game is signed by its writer", line=lineno,
                           field="sig", seq=lineno - 1)
        try:
            blob = base64.b64decode(signature, validate=True)
        except (binascii.Error, ValueError):
            blob = b""
        found = self._prefix.get(blob[:-64])
        if found is None or base64.b64encode(blob) != signature:
            return self._slow(lineno, body, signature)
        seat, key = found
        if check:
            try:
                key.verify(blob[-64:], signed_data(body))
            except InvalidSignature:
                return self._slow(lineno, body, signature)
        return seat

    def _slow(self, lineno: int, body: bytes, signature: bytes) -> int:
        """The reason a signature is refused, from the full parser (it refuses every one
        the fast path did not take)."""
        from meeple.events.signing import BadSignature, signer_of

        text = signature.decode("ascii")
        try:
            key = signer_of(text)
            seat = self.seat_of.get(key)
            if seat is None:
                raise LogError("forged", self.path, f"signed by a key that is no seat's "
                               f"({key.fingerprint})", line=lineno, field="sig", seq=lineno - 1)
            key.verify(body, text)
        except BadSignature as exc:
            raise LogError("forged", self.path, f"the signature does not hold: {exc}",
                           line=lineno, field="sig", seq=lineno - 1) from None
        raise LogError("forged", self.path, "the signature is not one meeple writes",
                       line=lineno, field="sig", seq=lineno - 1)
