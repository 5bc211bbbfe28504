"""OpenSSH's ``allowed_signers`` file (``man ssh-keygen``, ALLOWED SIGNERS): which keys may
sign for which principals, read as ``ssh-keygen -Y verify -f FILE`` reads it.

A line is ``PRINCIPALS [OPTIONS] KEYTYPE BASE64 [COMMENT]``. PRINCIPALS is a pattern-list
(``*`` and ``?`` wildcards, ``!`` to exclude, comma-separated; it may be double-quoted);
OPTIONS are ``cert-authority``, ``namespaces="LIST"``, ``valid-after="TIME"`` and
``valid-before="TIME"`` (names in any case). ``#`` starts a comment line. Unlike
``ssh-keygen``, which reports a bad line only when its principals match, every bad line is
refused here, naming ``source:line``. Lines of another key type than Ed25519 are valid but
never match: they are listed in ``AllowedSigners.ignored``.
"""

from __future__ import annotations

import base64
import binascii
import calendar
import functools
import re
import time
from collections.abc import Iterable
from dataclasses import dataclass

from meeple.events.sshsig import ED25519, NAMESPACE, KeyProblem, PublicKey, key_type_of

#: the largest allowed_signers text read, and the most lines
MAX_BYTES = 1 << 20
MAX_LINES = 10_000

_KEY_TYPE = re.compile(r"(ssh-|ecdsa-|sk-)[A-Za-z0-9@.\-]+")
_OPTION_NAME = re.compile(r"[A-Za-z][A-Za-z-]*")
_TIME = re.compile(r"(\d{8}|\d{12}|\d{14})([Zz]?)")
_TIME_FORMATS = {8: "%Y%m%d", 12: "%Y%m%d%H%M", 14: "%Y%m%d%H%M%S"}


@dataclass(frozen=True)
class AllowedSigner:
    """One line of an allowed_signers file: its principal patterns, its key, its namespace
    patterns (None: any namespace), whether it is a certificate authority, and the times
    (seconds since the epoch) it is valid after and before."""

    principals: tuple[str, ...]
    key: PublicKey
    namespaces: tuple[str, ...] | None = None
    cert_authority: bool = False
    valid_after: float | None = None
    valid_before: float | None = None
    where: str = ""


class AllowedSigners(list[AllowedSigner]):
    """The Ed25519 entries of an allowed_signers file; ``ignored`` names its lines of other
    key types (``source:line`` and the type), which never match."""

    ignored: tuple[str, ...] = ()


def parse_allowed_signers(text: str, source: str) -> AllowedSigners:
    """The entries of an allowed_signers text; ``source`` names it in errors.

    :raises KeyProblem: ``source:line`` and the reason, for the first bad line; or for a
        text over 1 MiB or 10,000 lines.
    """
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogateescape")) > MAX_BYTES:
        raise KeyProblem(f"{source}: over {MAX_BYTES >> 20} MiB: too large for an "
                         "allowed_signers file")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise KeyProblem(f"{source}: {len(lines):,} lines: an allowed_signers file has at most "
                         f"{MAX_LINES:,}")
    found = AllowedSigners()
    ignored: list[str] = []
    for number, line in enumerate(lines, 1):
        where = f"{source}:{number}"
        stripped = line.strip(" \t")
        if not stripped or stripped.startswith("#"):
            continue
        entry = _entry(stripped, where)
        if isinstance(entry, str):
            ignored.append(f"{where}: {entry}")
        else:
            found.append(entry)
    found.ignored = tuple(ignored)
    return found


def _entry(line: str, where: str) -> AllowedSigner | str:
    """The entry of one line, or the type of its key when that is not Ed25519."""
    principals, rest = _principals(line, where)
    options: dict[str, str | None] = {}
    first = rest.split(None, 1)[0] if rest.split() else ""
    if first and not _KEY_TYPE.fullmatch(first):
        options, rest = _options(rest, where)
    fields = rest.split(None, 2)
    if len(fields) < 2:
        raise KeyProblem(f"{where}: no key (expected PRINCIPALS [OPTIONS] ssh-ed25519 AAAA...)")
    key_type, data = fields[0], fields[1]
    if not _KEY_TYPE.fullmatch(key_type):
        raise KeyProblem(f"{where}: {key_type[:40]!r} is no key type")
    if key_type != ED25519:
        try:
            blob = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise KeyProblem(f"{where}: the key's base64 is broken") from None
        if key_type_of(blob) != key_type:
            raise KeyProblem(f"{where}: the key's data is not a {key_type} key")
        return f"an {key_type} key: meeple signs with Ed25519 keys only"
    key = PublicKey.parse(f"{key_type} {data}", where)
    namespaces = options.get("namespaces")
    return AllowedSigner(
        principals=tuple(principals.split(",")), key=key,
        namespaces=None if namespaces is None else tuple(namespaces.split(",")),
        cert_authority="cert-authority" in options,
        valid_after=_moment(options.get("valid-after"), where, "valid-after"),
        valid_before=_moment(options.get("valid-before"), where, "valid-before"),
        where=where)


def _principals(line: str, where: str) -> tuple[str, str]:
    """The principals field (double quotes taken off) and the rest of the line."""
    if line.startswith('"'):
        end = line.find('"', 1)
        if end < 0:
            raise KeyProblem(f"{where}: the quoted principals have no closing quote")
        principals, rest = line[1:end], line[end + 1:]
        if rest and rest[0] not in " \t":
            raise KeyProblem(f"{where}: no space after the quoted principals")
    else:
        principals, _, rest = line.replace("\t", " ").partition(" ")
    if not principals:
        raise KeyProblem(f"{where}: no principals")
    return principals, rest.strip(" \t")


def _options(text: str, where: str) -> tuple[dict[str, str | None], str]:
    """The options at the start of ``text`` (up to the first space outside quotes), and
    what follows them."""
    options: dict[str, str | None] = {}
    at = 0
    while True:
        match = _OPTION_NAME.match(text, at)
        if match is None:
            raise KeyProblem(f"{where}: bad options at {text[at:at + 20]!r}")
        name, at = match.group().lower(), match.end()
        value: str | None = None
        if text.startswith("=", at):
            value, at = _quoted(text, at + 1, where, name)
        if name not in ("cert-authority", "namespaces", "valid-after", "valid-before"):
            raise KeyProblem(f"{where}: unknown option {name!r}")
        if (value is None) != (name == "cert-authority"):
            raise KeyProblem(f"{where}: option {name!r} " + (
                "takes no value" if name == "cert-authority" else 'needs a value: NAME="..."'))
        if name in options:
            raise KeyProblem(f"{where}: option {name!r} given twice")
        options[name] = value
        if at == len(text) or text[at] in " \t":
            return options, text[at:].strip(" \t")
        if text[at] != ",":
            raise KeyProblem(f"{where}: bad options at {text[at:at + 20]!r}")
        at += 1


def _quoted(text: str, at: int, where: str, name: str) -> tuple[str, int]:
    """A double-quoted option value starting at ``at`` (``\\"`` stands for a quote), and
    where it ends."""
    if not text.startswith('"', at):
        raise KeyProblem(f"{where}: the value of {name!r} must be in double quotes")
    value: list[str] = []
    at += 1
    while at < len(text):
        if text.startswith('\\"', at):
            value.append('"')
            at += 2
        elif text[at] == '"':
            return "".join(value), at + 1
        else:
            value.append(text[at])
            at += 1
    raise KeyProblem(f"{where}: the value of {name!r} has no closing quote")


def _moment(value: str | None, where: str, name: str) -> float | None:
    """A ``YYYYMMDD[HHMM[SS]][Z]`` time as seconds since the epoch (local time unless it
    ends in Z, as ssh-keygen reads it)."""
    if value is None:
        return None
    match = _TIME.fullmatch(value)
    if match is None:
        raise KeyProblem(f"{where}: {name}={value[:30]!r}: write YYYYMMDD[HHMM[SS]][Z]")
    digits, utc = match.groups()
    try:
        parsed = time.strptime(digits, _TIME_FORMATS[len(digits)])
    except ValueError:
        raise KeyProblem(f"{where}: {name}={value!r} is no date") from None
    return float(calendar.timegm(parsed) if utc else time.mktime(parsed))


def allows(signers: Iterable[AllowedSigner], principal: str, key: PublicKey, *,
           now: float | None = None) -> bool:
    """Whether some entry lets ``key`` sign for ``principal`` in meeple's namespace, at
    ``now`` (seconds since the epoch; by default the present, as ssh-keygen checks):
    its key is ``key``, its principal patterns match ``principal``, its namespaces (if
    any) match ``NAMESPACE``, and ``now`` is inside its valid-after and valid-before.
    A cert-authority entry never matches a plain key."""
    moment = time.time() if now is None else now
    for signer in signers:
        if signer.cert_authority or signer.key != key:
            continue
        if not matches_list(principal, signer.principals):
            continue
        if signer.namespaces is not None and not matches_list(NAMESPACE, signer.namespaces):
            continue
        if signer.valid_after is not None and moment < signer.valid_after:
            continue
        if signer.valid_before is not None and moment > signer.valid_before:
            continue
        return True
    return False


def matches_list(text: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``text`` matches a pattern-list as OpenSSH reads it: some pattern matches
    and no ``!``-pattern does."""
    matched = False
    for pattern in patterns:
        negated = pattern.startswith("!")
        if _pattern(pattern[1:] if negated else pattern).fullmatch(text):
            if negated:
                return False
            matched = True
    return matched


@functools.lru_cache(maxsize=256)
def _pattern(pattern: str) -> re.Pattern[str]:
    """An OpenSSH pattern (``*`` any text, ``?`` any one character) as a regex."""
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts), re.DOTALL)
