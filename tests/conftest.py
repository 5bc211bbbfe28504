"""Every test, and every process a test starts, keeps compiled tile sets in a folder of its
own run, never in the user's cache folder."""

import os
import shutil
import tempfile

import pytest


def pytest_configure(config: pytest.Config) -> None:
    folder = tempfile.mkdtemp(prefix="meeple-test-cache-")
    config.stash[_FOLDER] = folder
    os.environ["MEEPLE_CACHE_DIR"] = folder
    os.environ.pop("MEEPLE_NO_CACHE", None)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(config.stash.get(_FOLDER, ""), ignore_errors=True)


_FOLDER = pytest.StashKey[str]()
