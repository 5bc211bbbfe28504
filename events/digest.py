"""SHA-256, the hash of the log's chain, of tile sets and of the seeded chance (DESIGN.md,
"Events and the log").

``sha256`` is CPython's own implementation (``_sha256``; ``_sha2`` from Python 3.12) where the
interpreter has it, as ``random`` takes its SHA-512: ``hashlib`` loads OpenSSL, which cost
about a tenth of what ``meeple status`` adds to the interpreter's start. The digests are the
same; ``hashlib``'s is the fallback. OpenSSL is faster on long inputs only (about 1.7 times
on 100 kB), and a command hashes a log's bytes once.
"""

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING


def _builtin() -> Callable:
    for name in ("_sha2", "_sha256"):
        try:
            return import_module(name).sha256
        except ImportError:
            pass
    from hashlib import sha256

    return sha256


if TYPE_CHECKING:
    from hashlib import sha256
else:
    sha256 = _builtin()
