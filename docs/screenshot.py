"""Make the README's picture of the replay viewer: a 4-player game at its end.

Run from the repository root with the browser extra installed and Debian's chromium:
``.venv/bin/python docs/screenshot.py`` (writes ``docs/viewer.png`` and ``docs/board.svg``).
"""

import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "fixtures" / "random_4p_seed_0.jsonl"
MEEPLE = Path(sys.executable).parent / "meeple"
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> None:
    subprocess.run([MEEPLE, "show", GAME, "--svg", ROOT / "docs" / "board.svg"], check=True)
    with tempfile.TemporaryDirectory() as folder:
        html = Path(folder) / "game.html"
        subprocess.run([MEEPLE, "export", GAME, "--html", html], check=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page(viewport={"width": 1500, "height": 940})
            page.goto(html.as_uri())
            page.screenshot(path=str(ROOT / "docs" / "viewer.png"))
            browser.close()


if __name__ == "__main__":
    main()
