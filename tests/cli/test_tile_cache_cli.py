"""The tile set cache as a user meets it: commands say the same with it, without it, with a
cold or a warm one, a spoilt one or one that cannot be written; nothing is said about it."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from meeple.events.tileset import bundled, content_hash

FIXTURES = Path(__file__).parents[2] / "fixtures"
#: a recorded game of each bundled set
GAMES = [str(FIXTURES / f"{name}.jsonl") for name in (
    "random_2p_seed_0", "classic_random_2p_seed_0", "classic_la_fiesta_random_2p_seed_0")]


def meeple(*args: str, cache: Path | None) -> tuple[int, str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
    if cache is None:
        env["MEEPLE_NO_CACHE"] = "1"
    else:
        env["MEEPLE_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-m", "meeple.cli.app", *args], env=env,
                          capture_output=True, text=True, timeout=120)
    return done.returncode, done.stdout, done.stderr


def cached_files(cache: Path) -> list[Path]:
    return sorted((cache / "tilesets").glob("*")) if (cache / "tilesets").is_dir() else []


@pytest.mark.slow  # starts processes
def test_commands_say_the_same_with_and_without_the_cache(tmp_path):
    cache = tmp_path / "cache"
    commands = [("check", "--jobs", "1", *GAMES), ("replay", GAMES[2])]
    without = [meeple(*c, cache=None) for c in commands]
    assert not cache.exists()
    assert [code for code, _, _ in without] == [0, 0]
    cold = [meeple(*c, cache=cache) for c in commands]
    assert len(cached_files(cache)) == 3  # one file per set, no temporary file left
    warm = [meeple(*c, cache=cache) for c in commands]
    assert cold == without
    assert warm == without


def test_no_cache_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert meeple("status", GAMES[0], cache=None)[0] == 0
    assert not (tmp_path / "xdg").exists() and not (tmp_path / "home").exists()


@pytest.mark.slow  # starts processes
def test_the_default_folder_follows_xdg_cache_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEEPLE_")}
    done = subprocess.run([sys.executable, "-m", "meeple.cli.app", "status", GAMES[0]], env=env,
                          capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")
    assert len(cached_files(tmp_path / "xdg" / "meeple")) == 1


@pytest.mark.slow  # starts processes
def test_an_unwritable_cache_folder_is_skipped_without_a_word(tmp_path):
    expected = meeple("status", GAMES[0], cache=None)
    blocker = tmp_path / "blocker"
    blocker.write_text("in the way")
    for folder in (blocker, blocker / "cache"):  # a file where the folder, or a parent, goes
        assert meeple("status", GAMES[0], cache=folder) == expected
    assert blocker.read_text() == "in the way"


@pytest.mark.slow  # starts processes
def test_a_spoilt_cache_file_is_ignored_and_rewritten(tmp_path):
    cache = tmp_path / "cache"
    expected = meeple("status", GAMES[0], cache=cache)
    [path] = cached_files(cache)
    assert content_hash(bundled("star-wars")) in path.name
    good = path.read_bytes()
    path.write_bytes(good[: len(good) // 2])
    assert meeple("status", GAMES[0], cache=cache) == expected
    assert path.read_bytes() == good


@pytest.mark.parametrize("xdg, home", [
    ("/x/cache", "/home/a"), ("/x/cache/", None), ("", "/home/a"), ("relative", "/home/a/"),
    (None, "/"), (None, "//srv/a"), (None, "relative"), (None, None), ("relative", ""),
])
def test_the_default_folder_is_the_one_platformdirs_gives(monkeypatch, xdg, home):
    """Worked out without importing platformdirs where it can be, the same folder in every case
    (for a home that is not an absolute path, platformdirs itself answers)."""
    import platformdirs

    from meeple.events import tilecache

    for name, value in (("XDG_CACHE_HOME", xdg), ("HOME", home)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    try:
        expected = platformdirs.user_cache_dir("meeple", appauthor=False)
    except RuntimeError:  # no home to find: the cache is then turned off
        with pytest.raises(RuntimeError):
            tilecache.default_folder()
        return
    assert tilecache.default_folder() == expected
