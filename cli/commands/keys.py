"""The ``key`` commands: make a player's key, and show a key's public line and fingerprint
(docs/guide/remote.md, "Keys"). A key file that cannot be used is exit 3, in one line naming it."""

# No `from __future__ import annotations` here: typer would have to evaluate every command's
# annotations from strings at each start (see ``meeple.cli.app``).
from typing import Annotated

import typer

from meeple.cli.guard import guarded
from meeple.cli.output import emit_json, fail, say
from meeple.cli.params import Json

commands = typer.Typer(
    name="key", no_args_is_help=True,
    help="Players' keys for remote play: Ed25519 keys in OpenSSH format (an existing "
    "~/.ssh/id_ed25519 works as it is). A key file that cannot be used is exit 3.")

KeyPath = Annotated[str, typer.Argument(help="The private key file (its public key goes to "
                                        "PATH.pub).", metavar="PATH")]


@commands.command("new")
@guarded
def new(
    path: KeyPath,
    comment: Annotated[str, typer.Option(help="A comment for the public key line, e.g. your "
                                         "name or e-mail.", metavar="TEXT")] = "",
    as_json: Json = False,
) -> None:
    """Make a new Ed25519 key: PATH (mode 0600) and PATH.pub; never overwrites.

    The key is not encrypted (`ssh-keygen -p -f PATH` adds a passphrase). Prints the public
    line and the fingerprint. Exit 3 if either file exists or cannot be made."""
    from meeple.events.signing import KeyProblem, new_key

    if not comment.isprintable():
        fail("--comment must be one line of printable text", 2)
    try:
        public = new_key(path, comment)
    except KeyProblem as exc:
        fail(str(exc), 3, kind="key")
    _report(path, public, comment, as_json)


@commands.command("show")
@guarded
def show(
    path: Annotated[str, typer.Argument(help="A private key file or a .pub file.",
                                        metavar="PATH")],
    as_json: Json = False,
) -> None:
    """Print a key's public line and fingerprint, from a private key or a .pub file.

    A private key file is read with all its checks (no permissions for group or others;
    the passphrase of an encrypted key from MEEPLE_KEY_PASSPHRASE). Exit 3 for a key file
    that cannot be used."""
    from meeple.events.signing import KeyProblem, key_of_file

    try:
        public = key_of_file(path)
    except KeyProblem as exc:
        fail(str(exc), 3, kind="key")
    _report(path, public, "", as_json)


def _report(path: str, public, comment: str, as_json: bool) -> None:
    """A key's public line and fingerprint: as text, or one JSON document."""
    if as_json:
        emit_json({"path": path, "public": public.openssh, "fingerprint": public.fingerprint})
        return
    say(public.openssh + (f" {comment}" if comment else ""))
    say(public.fingerprint)
