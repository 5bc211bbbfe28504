"""What a remote game's signatures prove, shown (docs/guide/remote.md): each signed
message and signature as OpenSSH's own tools read them; the seats' keys held to the keys a
checker expects (an ``allowed_signers`` file); and two copies of one game that fork, where a
seat that signed two different lines after the same line is caught by its own signatures.
"""

from __future__ import annotations

import os
import shlex

from meeple.cli.store import Failure
from meeple.events import log as logfile
from meeple.events.model import GameStarted, Remote
from meeple.events.signed import split


def _remote_log(path: str) -> tuple[logfile.GameLog, Remote, list[bytes], list[str]]:
    """A remote game read with every signature checked, the bytes of its lines and the
    seats' colours."""
    log = logfile.read(path, every_signature=True)
    first = log.events[0]
    remote = first.remote if isinstance(first, GameStarted) else None
    if not isinstance(first, GameStarted) or not isinstance(remote, Remote):
        raise Failure(f"{path}: not a remote game: its lines carry no signatures", 1)
    with open(path, "rb") as file:
        raw = file.read(logfile.MAX_FILE_BYTES + 1).split(b"\n")[:len(log.events)]
    return log, remote, raw, [p.colour for p in first.players]


def is_remote(path: str) -> bool:
    """Whether ``path`` holds a remote game that reads (a fault is ``check``'s to report)."""
    try:
        first = logfile.read(path).events[0]
    except logfile.LogError:
        return False
    return isinstance(getattr(first, "remote", None), Remote)


def write_signatures(path: str, out: str) -> list[str]:
    """Write ``out/allowed_signers`` (each seat's key, its colour as principal) and for each
    line ``out/NNNNN.msg`` (what was signed) and ``out/NNNNN.msg.sig``; returns the
    ``ssh-keygen -Y verify`` command lines that check them.

    :raises Failure: not a remote game; ``out`` exists.
    """
    from meeple.events.signing import NAMESPACE, armoured

    log, remote, raw, colours = _remote_log(path)
    try:
        os.mkdir(out)
    except FileExistsError:
        raise Failure(f"{out} already exists; give a new folder", 1) from None
    except OSError as exc:
        raise Failure(f"{out}: cannot make the folder: {exc.strerror}", 3) from None
    signers_file = os.path.join(out, "allowed_signers")
    with open(signers_file, "w") as file:
        for colour, key in zip(colours, remote.keys, strict=True):
            file.write(f'{colour} namespaces="{NAMESPACE}" {key}\n')
    commands = []
    signers = log.signers or []
    for seq, line in enumerate(raw):
        body, signature = split(line)
        assert signature is not None  # (reading checked every line's)
        name = os.path.join(out, f"{seq:05d}.msg")
        with open(name, "wb") as file:
            file.write(body)
        with open(name + ".sig", "w") as file:
            file.write(armoured(signature.decode("ascii")))
        commands.append(f"ssh-keygen -Y verify -f {shlex.quote(signers_file)} -I "
                        f"{colours[signers[seq]]} -n {NAMESPACE} -s {shlex.quote(name + '.sig')} "
                        f"< {shlex.quote(name)}")
    return commands


def check_keys(path: str, keys_file: str) -> list[str]:
    """The seats whose recorded key ``keys_file`` (OpenSSH ``allowed_signers``) does not allow
    for that seat (its colour or its name as principal), in one line each; empty when all do.
    A name is a principal only where it is no colour: the host chooses the names, and a
    seat named after another's colour would otherwise take that colour's key.

    :raises Failure: a file that cannot be read or parsed (exit 3).
    """
    from meeple.events.signing import KeyProblem, PublicKey, allows, parse_allowed_signers

    log, remote, _, _ = _remote_log(path)
    first = log.events[0]
    assert isinstance(first, GameStarted)
    try:
        with open(keys_file, encoding="utf-8") as file:
            text = file.read(1024 * 1024 + 1)
        signers = parse_allowed_signers(text, keys_file)
    except (OSError, UnicodeDecodeError) as exc:
        raise Failure(f"{keys_file}: cannot read: {exc}", 3) from None
    except KeyProblem as exc:
        raise Failure(str(exc), 3) from None
    from typing import get_args

    from meeple.events.model import Colour

    faults = []
    for player, key in zip(first.players, remote.keys, strict=True):
        public = PublicKey.parse(key)
        named = player.name not in get_args(Colour)
        if not (allows(signers, player.colour, public) or
                named and allows(signers, player.name, public)):
            which = f"{player.colour} or {player.name}" if named else \
                f"{player.colour} (its name {player.name} is a colour: not a principal here)"
            faults.append(f"{path}: seat {player.colour} ({player.name}) plays with the key "
                          f"{public.fingerprint}, which {keys_file} does not allow for {which}")
    return faults


def compare_copies(first: str, second: str) -> tuple[str, int]:
    """Where two copies of one remote game part: the report and its exit code (0: one is
    the other's beginning; 1: they fork, with the last common head, both lines and their
    signers; an equivocation when one seat signed both).

    :raises Failure: not copies of one remote game.
    """
    log_a, remote_a, raw_a, colours = _remote_log(first)
    log_b, remote_b, raw_b, _ = _remote_log(second)
    if remote_a.game != remote_b.game:
        raise Failure(f"{first} and {second} are not copies of one game (ids "
                      f"{remote_a.game[:12]} and {remote_b.game[:12]})", 1)
    for seq, (a, b) in enumerate(zip(raw_a, raw_b, strict=False)):
        if a == b:
            continue
        common = logfile.short(log_a.hashes[seq - 1]) if seq else "-"
        signer_a = colours[(log_a.signers or [])[seq]]
        signer_b = colours[(log_b.signers or [])[seq]]
        lines = [f"{first}:{seq + 1}: {a.decode(errors='replace')}",
                 f"{second}:{seq + 1}: {b.decode(errors='replace')}"]
        if signer_a == signer_b:
            return "\n".join([f"equivocation: {signer_a} signed two different lines {seq + 1} "
                              f"after the same head {common}; both signatures verify, so "
                              f"{signer_a} wrote both:", *lines]), 1
        return "\n".join([f"the copies fork at line {seq + 1}, after the head {common}: "
                          f"{first} has {signer_a}'s line, {second} has {signer_b}'s:",
                          *lines]), 1
    shorter = first if len(raw_a) <= len(raw_b) else second
    return (f"no fork: {shorter} is the beginning of the other ({min(len(raw_a), len(raw_b))} "
            "common lines)"), 0


def check_receipts(path: str, key_file: str) -> tuple[int, list[str]]:
    """The relay's receipts kept beside the log (``GAME.receipts``, from ``send --relay``),
    each checked: the relay's signature with the key in ``key_file``, and the hash of the
    line it names; returns how many hold, and one line for each that does not.

    :raises Failure: a key or receipts file that cannot be read (exit 3).
    """
    import msgspec

    from meeple.cli.relay.store import Receipt
    from meeple.events.signing import BadSignature, KeyProblem, load_public

    log, remote, _, _ = _remote_log(path)
    try:
        relay = load_public(key_file)
    except KeyProblem as exc:
        raise Failure(str(exc), 3) from None
    name = path + ".receipts"
    try:
        with open(name, "rb") as file:
            data = file.read(logfile.MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise Failure(f"{name}: cannot read the relay's receipts: {exc.strerror}", 3) from None
    held, faults = 0, []
    for lineno, line in enumerate(data.splitlines(), 1):
        try:
            receipt = msgspec.json.decode(line, type=Receipt)
        except (msgspec.DecodeError, UnicodeDecodeError):
            faults.append(f"{name}:{lineno}: not a receipt")
            continue
        if receipt.game != remote.game or not 0 <= receipt.seq < len(log.hashes):
            faults.append(f"{name}:{lineno}: a receipt for another game or line")
            continue
        if receipt.hash != log.hashes[receipt.seq]:
            faults.append(f"{name}:{lineno}: the receipt's hash is not line "
                          f"{receipt.seq + 1}'s")
            continue
        try:
            relay.verify(receipt.message(), receipt.sig)
        except BadSignature as exc:
            faults.append(f"{name}:{lineno}: the relay's signature does not hold: {exc}")
            continue
        held += 1
    return held, faults
