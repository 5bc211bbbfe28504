"""The signed lines of a remote game (README, "Playing remotely"; DESIGN.md, "Remote play").

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

import re
from collections.abc import Sequence

from meeple.events.errors import LogError

#: what comes between a line's body and its signature
_SIG = b',"sig":"'
_BASE64 = re.compile(rb"[A-Za-z0-9+/]+={0,2}")


def split(raw: bytes) -> tuple[bytes, bytes | None]:
    """A line's body and its signature (``None`` where it has none)."""
    if not raw.endswith(b'"}'):
        return raw, None
    at = raw.rfind(_SIG)
    if at < 0:
        return raw, None
    signature = raw[at + len(_SIG):-2]
    if not _BASE64.fullmatch(signature):
        return raw, None
    return raw[:at] + b"}", signature


def attach(body: bytes, signature: str) -> bytes:
    """A signed line: ``body`` (a JSON object) with ``signature`` as its last field."""
    return body[:-1] + _SIG + signature.encode("ascii") + b'"}'


class Seats:
    """The seats' keys of a remote game, to tell whose key signed a line."""

    def __init__(self, path: str, keys: Sequence[str], colours: Sequence[str]) -> None:
        from meeple.events.signing import KeyProblem, PublicKey

        self.path = path
        self.colours = tuple(colours)
        try:
            self.keys = [PublicKey.parse(key) for key in keys]
        except KeyProblem as exc:
            raise LogError("corrupt", path, f"a seat's key cannot be read: {exc}", line=1,
                           field="remote.keys", seq=0) from None
        self.seat_of = {key: seat for seat, key in enumerate(self.keys)}

    def signer(self, lineno: int, body: bytes, signature: bytes | None) -> int:
        """The seat whose key made ``signature`` over ``body``.

        :raises LogError: ``forged``: no signature, one that does not verify, or one made by
            a key that is no seat's.
        """
        from meeple.events.signing import BadSignature, signer_of

        if signature is None:
            raise LogError("forged", self.path, "the line carries no signature, and every line "
                           "of a remote game is signed by its writer", line=lineno,
                           field="sig", seq=lineno - 1)
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
        return seat
