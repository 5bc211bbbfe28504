"""meeple.events.digest: the SHA-256 that log chains, tile sets and chance use is hashlib's."""

import hashlib

import pytest

from meeple.events import digest


@pytest.mark.parametrize("data", [b"", b"abc", b"meeple-v1\0draw\x000\x000\x0042", bytes(range(256)) * 400])
def test_the_digest_is_hashlib_s(data):
    assert digest.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    grown = digest.sha256(data[:3])
    grown.update(data[3:])
    assert grown.digest() == hashlib.sha256(data).digest()


def test_without_cpython_s_own_module_it_is_hashlib_s(monkeypatch):
    def missing(name):
        raise ImportError(name)

    monkeypatch.setattr(digest, "import_module", missing)
    assert digest._builtin() is hashlib.sha256
