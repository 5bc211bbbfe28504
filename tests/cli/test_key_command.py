"""``meeple key new`` and ``meeple key show``: a key ssh-keygen signs and verifies with, made
0600 and never over another file; a key file that cannot be used is exit 3 in one line."""

import json
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from helpers import fail, main, run, run_json

SSH_KEYGEN = shutil.which("ssh-keygen")
needs_ssh_keygen = pytest.mark.skipif(SSH_KEYGEN is None,
                                      reason="ssh-keygen (Debian's openssh-client) is absent")


def keygen(*args, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    assert SSH_KEYGEN is not None
    return subprocess.run([SSH_KEYGEN, *map(str, args)], input=stdin, capture_output=True,
                          check=False, timeout=60)


@needs_ssh_keygen
def test_key_new_makes_a_key_ssh_keygen_signs_and_verifies_with(tmp_path):
    path = tmp_path / "red"
    done = main("key", "new", path, "--comment", "red player")
    assert done.returncode == 0, done.stderr
    public_line, fingerprint = done.stdout.splitlines()
    assert public_line.startswith("ssh-ed25519 AAAA") and public_line.endswith(" red player")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert Path(f"{path}.pub").read_text() == public_line + "\n"
    assert keygen("-lf", f"{path}.pub").stdout.decode().split()[1] == fingerprint
    message = b"one line of a game\n"
    signed = keygen("-Y", "sign", "-n", "meeple", "-f", path, stdin=message)
    assert signed.returncode == 0, signed.stderr
    (tmp_path / "m.sig").write_bytes(signed.stdout)
    (tmp_path / "allowed").write_text(f"red@game {public_line}\n")
    verified = keygen("-Y", "verify", "-f", tmp_path / "allowed", "-I", "red@game", "-n",
                      "meeple", "-s", tmp_path / "m.sig", stdin=message)
    assert verified.returncode == 0, verified.stderr


def test_key_new_json_and_key_show_agree(tmp_path):
    made = run_json("key", "new", tmp_path / "k")
    assert list(made) == ["path", "public", "fingerprint"]
    assert made["path"] == str(tmp_path / "k") and made["fingerprint"].startswith("SHA256:")
    for path in (tmp_path / "k", f"{tmp_path / 'k'}.pub"):
        shown = run_json("key", "show", path)
        assert shown == {**made, "path": str(path)}
        text = run("key", "show", path).stdout.splitlines()
        assert text == [made["public"], made["fingerprint"]]


def test_key_new_never_overwrites(tmp_path):
    path = tmp_path / "k"
    run("key", "new", path)
    kept = path.read_bytes(), Path(f"{path}.pub").read_bytes()
    error = fail("key", "new", path, code=3)
    assert error == f"meeple: error: {path} exists: meeple never overwrites a key file"
    assert (path.read_bytes(), Path(f"{path}.pub").read_bytes()) == kept
    log = tmp_path / "game.jsonl"
    log.write_text("{}\n")
    assert "game.jsonl exists" in fail("key", "new", log, code=3)
    assert log.read_text() == "{}\n"
    assert json.loads(main("key", "new", path, "--json").stderr)["kind"] == "key"


def test_key_new_refuses_a_comment_of_two_lines(tmp_path):
    assert "--comment must be one line" in fail("key", "new", tmp_path / "k", "--comment",
                                                "a\nb", code=2)
    assert not (tmp_path / "k").exists()


@needs_ssh_keygen
def test_key_show_refuses_unusable_key_files_with_exit_3(tmp_path, monkeypatch):
    monkeypatch.delenv("MEEPLE_KEY_PASSPHRASE", raising=False)
    rsa, locked = tmp_path / "rsa", tmp_path / "locked"
    keygen("-q", "-t", "rsa", "-b", "1024", "-N", "", "-f", rsa)
    keygen("-q", "-t", "ed25519", "-a", "2", "-N", "sesame", "-f", locked)
    assert fail("key", "show", rsa, code=3) == (
        f"meeple: error: {rsa}: an ssh-rsa key: meeple signs with Ed25519 keys only "
        "(ssh-keygen -t ed25519)")
    assert "an ssh-rsa key" in fail("key", "show", f"{rsa}.pub", code=3)
    assert "MEEPLE_KEY_PASSPHRASE" in fail("key", "show", locked, code=3)
    wrong = main("key", "show", locked, env={"MEEPLE_KEY_PASSPHRASE": "sesam"})
    assert wrong.returncode == 3 and "wrong passphrase" in wrong.stderr
    assert "sesam" not in wrong.stderr.replace("MEEPLE", "")
    right = main("key", "show", locked, env={"MEEPLE_KEY_PASSPHRASE": "sesame"})
    assert right.returncode == 0
    assert right.stdout.split()[:2] == Path(f"{locked}.pub").read_text().split()[:2]
    locked.chmod(0o644)
    assert fail("key", "show", locked, code=3) == (
        f"meeple: error: permissions 0644 for {locked} are too open: chmod 600 {locked}")
    assert fail("key", "show", tmp_path / "absent", code=3).endswith("absent: no such key file")


def test_the_key_commands_run_through_main_and_are_listed(tmp_path):
    made = main("key", "new", tmp_path / "k")
    assert made.returncode == 0 and made.stderr == ""
    listed = main("--help")
    assert " key " in listed.stdout
    helped = main("key", "new", "--help")
    assert helped.returncode == 0 and "PATH.pub" in helped.stdout
    bare = main("key")
    assert bare.returncode == 2 and "meeple: error" not in bare.stderr
    assert "show" in bare.stdout + bare.stderr
