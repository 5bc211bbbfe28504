"""Every test, and every process a test starts, keeps compiled tile sets in a folder of its
own run, never in the user's cache folder. The everyday run (``-m "not slow"``) tries fewer
hypothesis examples than the whole run, which tries them all (see ``helpers.examples``)."""

import gc
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

#: hypothesis's own default (100 examples) is the whole run's; the everyday run tries a fifth
settings.register_profile("everyday", max_examples=20)


def pytest_configure(config: pytest.Config) -> None:
    folder = tempfile.mkdtemp(prefix="meeple-test-cache-")
    config.stash[_FOLDER] = folder
    os.environ["MEEPLE_CACHE_DIR"] = folder
    os.environ.pop("MEEPLE_NO_CACHE", None)
    everyday = "not slow" in (config.getoption("markexpr", "") or "")
    if everyday and config.getoption("--hypothesis-profile", None) is None:
        settings.load_profile("everyday")


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (the modules, the test items) lives to the end of the run: kept
    out of the collector's sweeps, which then look at what the tests make alone."""
    gc.collect()
    gc.freeze()


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(config.stash.get(_FOLDER, ""), ignore_errors=True)


_FOLDER = pytest.StashKey[str]()
