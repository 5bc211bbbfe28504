"""Compiled tile sets kept between commands: one file per set in the user's cache folder.

The engine turns a compiled set into bytes and back (``meeple.engine.compiled``); this
module only keeps those bytes, under a key made of the set's content hash, meeple's
version and the engine's format number. Nothing here is ever trusted: a file that is
missing, damaged, truncated, oversized or made for another key reads as absent, and the
set is compiled again and the file rewritten. Writes go to a temporary file renamed into
place, so a concurrent command reads the old file or the new one, never half of one; a
folder that cannot be written is skipped without a word.

The folder is ``platformdirs.user_cache_dir("meeple")`` (``$XDG_CACHE_HOME/meeple``, else
``~/.cache/meeple``, on Linux), or ``$MEEPLE_CACHE_DIR``; ``MEEPLE_NO_CACHE=1`` turns the
cache off. The file layout: ``MAGIC``, then the SHA-256 of the key and payload (32 bytes),
then the payload.
"""

from __future__ import annotations

import os
import sys

from meeple.events.digest import sha256 as hash_sha256
from meeple.events.files import NotReadable, read_regular

#: meeple's version (pyproject.toml's; a test keeps them equal), part of every key
VERSION = "0.1.0"
#: what every cache file starts with
MAGIC = b"meeple compiled tile set\n"
#: the largest cache file read or written (a set within the log's limits compiles to less)
MAX_BYTES = 64 << 20
_DIGEST = 32


class TileCache:
    """Compiled tile sets as bytes, kept in files under ``folder`` (None: the user's cache
    folder, looked up when first needed)."""

    def __init__(self, folder: str | None = None):
        self._folder = folder

    @property
    def folder(self) -> str:
        """The folder (empty where the user's cache folder cannot be found)."""
        if self._folder is None:
            try:
                self._folder = default_folder()
            except Exception:  # noqa: BLE001 - no home to find: no cache, never a failure
                self._folder = ""
        return self._folder

    def path(self, sha256: str, form: int) -> str:
        """The file of a set's compiled form: ``tilesets/SHA256-VERSION-FORM.bin``."""
        return os.path.join(self.folder, "tilesets", f"{sha256}-{VERSION}-{form}.bin")

    def read(self, sha256: str, form: int) -> bytes | None:
        """The payload kept for this set and format, or None where there is none that can be
        used (missing, not a regular file, too large, damaged, or another key's)."""
        if not _is_hash(sha256) or not self.folder:
            return None
        try:
            data = read_regular(self.path(sha256, form), MAX_BYTES)
        except NotReadable:
            return None
        head = len(MAGIC) + _DIGEST
        if len(data) < head or not data.startswith(MAGIC):
            return None
        payload = data[head:]
        if data[len(MAGIC):head] != _digest(sha256, form, payload):
            return None
        return payload

    def write(self, sha256: str, form: int, payload: bytes) -> None:
        """Keep a payload for this set and format, atomically; skipped where the folder
        cannot be written, or the payload is over ``MAX_BYTES``."""
        if not _is_hash(sha256) or not self.folder \
                or len(payload) + len(MAGIC) + _DIGEST > MAX_BYTES:
            return
        import tempfile

        final = self.path(sha256, form)
        folder = os.path.dirname(final)
        temp = None
        try:
            os.makedirs(folder, mode=0o700, exist_ok=True)
            fd, temp = tempfile.mkstemp(dir=folder, prefix=".", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(MAGIC + _digest(sha256, form, payload) + payload)
            os.replace(temp, final)
            temp = None
        except OSError:
            pass  # a cache that cannot be written only costs the next command a compile
        finally:
            if temp is not None:
                try:
                    os.unlink(temp)
                except OSError:
                    pass


def _is_hash(text: str) -> bool:
    return len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def _digest(sha256: str, form: int, payload: bytes) -> bytes:
    """Ties a payload to its key: a file copied under another set's or version's name, or
    damaged in any byte, does not match."""
    key = f"{sha256} {VERSION} {form}\n".encode()
    return hash_sha256(MAGIC + key + payload).digest()


def default_folder() -> str:
    """The user's cache folder for meeple, as ``platformdirs`` gives it. On Linux, where
    ``$XDG_CACHE_HOME`` or else ``$HOME`` is an absolute path, the folder is worked out here
    as ``platformdirs`` works it out there (``$XDG_CACHE_HOME/meeple``, else
    ``$HOME/.cache/meeple``), without importing it: its import was a fifth of what ``meeple
    status`` costs above a bare start."""
    if sys.platform == "linux" and not hasattr(sys, "getandroidapilevel"):
        cache = os.environ.get("XDG_CACHE_HOME", "")
        if os.path.isabs(cache):
            return os.path.join(cache, "meeple")
        home = os.environ.get("HOME", "")
        if os.path.isabs(home):
            return os.path.join(os.path.expanduser("~/.cache"), "meeple")
    import platformdirs

    return platformdirs.user_cache_dir("meeple", appauthor=False)


def from_environment(environ: dict[str, str] | None = None) -> TileCache | None:
    """The cache the environment asks for: none under ``MEEPLE_NO_CACHE`` (set, and not
    empty or ``0``), the folder ``$MEEPLE_CACHE_DIR`` where set, else the user's cache
    folder (found when first used)."""
    env = os.environ if environ is None else environ
    if env.get("MEEPLE_NO_CACHE", "") not in ("", "0"):
        return None
    folder = env.get("MEEPLE_CACHE_DIR", "")
    return TileCache(folder or None)


#: the cache compiled sets are kept in, where the application turned one on (``use``)
_active: TileCache | None = None


def use(cache: TileCache | None) -> None:
    """Keep compiled tile sets in ``cache`` from now on (None: in no file). Off until an
    application turns it on: the ``meeple`` command does, from the environment."""
    global _active
    _active = cache


def active() -> TileCache | None:
    """The cache turned on by ``use``, if any."""
    return _active
