"""The browser both browser test modules drive: Debian's Chromium, headless, by Playwright.

Without Chromium or Playwright these tests are skipped, unless ``MEEPLE_BROWSER_TESTS=required``
(as CI sets it), which turns a missing browser into a failure.
"""

import os
import shutil

import pytest

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing(why: str):
    if os.environ.get("MEEPLE_BROWSER_TESTS") == "required":
        pytest.fail(f"browser tests are required here, but {why}")
    pytest.skip(why)


def pytest_collection_modifyitems(items):
    """Browser tests take seconds each: they belong to the full run, not the everyday one."""
    for item in items:
        if "browser" in item.nodeid.split("/"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[browser]')")
    if not shutil.which(CHROMIUM):
        _missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield chromium
        chromium.close()
