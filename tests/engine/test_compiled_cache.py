"""Compiled tile sets kept: once per process, and in a cache folder between processes, where
a damaged, foreign or stale file is never trusted (docs/performance.md: the tile set cache)."""

import hashlib
import os
from pathlib import Path

import msgspec
import pytest
from test_fixtures import FIXTURES, playthrough

from meeple.engine import TileSetError, export, verify
from meeple.engine import compiled as compiled_module
from meeple.engine import tiles as tiles_module
from meeple.engine.compiled import FORMAT, KEPT, compile_tileset, decode_compiled, encode_compiled
from meeple.events import log as logfile
from meeple.events import tilecache
from meeple.events.tilecache import MAGIC, TileCache
from meeple.events.tileset import content_hash

from helpers import bundled, classic

#: the SHA-256 of each bundled set's compiled form: a change to what compiling gives must
#: come with a new ``FORMAT``, or caches written before it would be read as the new form
ENCODED = {
    "star-wars": "324c3aa077e93b0902d7f9d63c4045e53419c7b4b4a4f3cebc81ade638a5ba82",
    "classic": "73b7ac6743ff114d5b1549f4171691ef64d57cfcb10b850a90779c737ad1d36b",
    "classic+la-fiesta": "77717676574d48ddae135e86df782128a54ae947ea1cf3f469389b98be9dd61b",
}


def sets():
    return {"star-wars": bundled(), "classic": classic(), "classic+la-fiesta": classic(fiesta=True)}


@pytest.fixture
def builds(monkeypatch):
    """Counts the sets compiled from their definitions, from here on, with no set kept and
    no cache turned on."""
    done: list[str] = []
    real = compiled_module.build_tileset

    def counted(definition, sha):
        done.append(definition.name)
        return real(definition, sha)

    monkeypatch.setattr(compiled_module, "build_tileset", counted)
    monkeypatch.setattr(compiled_module, "_kept", {})
    before = tilecache.active()
    tilecache.use(None)  # (a command run in this process before may have turned one on)
    yield done
    tilecache.use(before)


@pytest.fixture
def cache(tmp_path, builds):
    """A cache folder of the test's own, turned on."""
    kept = TileCache(str(tmp_path / "cache"))
    tilecache.use(kept)
    yield kept
    tilecache.use(None)


def forget():
    """What a new process knows: no set kept in memory."""
    compiled_module._kept.clear()


def entry(cache: TileCache, definition) -> Path:
    return Path(cache.path(content_hash(definition), FORMAT))


# --- in one process -----------------------------------------------------------------------


def test_a_set_is_compiled_once_per_process_whatever_object_holds_it(builds):
    first = compile_tileset(bundled())
    again = compile_tileset(bundled())  # another object, the same content
    assert again is first
    assert builds == ["star-wars"]


def test_the_process_keeps_a_bounded_number_of_sets(builds):
    base = bundled()
    variants = [msgspec.structs.replace(base, name=f"copy-{i}") for i in range(KEPT + 2)]
    for definition in variants:
        compile_tileset(definition)
    assert len(compiled_module._kept) == KEPT
    compile_tileset(variants[-1])  # kept: not compiled again
    assert len(builds) == KEPT + 2
    compile_tileset(variants[0])  # the oldest was let go
    assert len(builds) == KEPT + 3


def test_a_bad_set_is_refused_every_time_and_never_kept(builds):
    base = bundled()
    bad = msgspec.structs.replace(base, start="no-such-tile")
    for _ in range(2):
        with pytest.raises(TileSetError, match="start tile"):
            compile_tileset(bad)
    assert content_hash(bad) not in compiled_module._kept


# --- the compiled form as bytes --------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_the_compiled_form_reads_back_as_compiled(name):
    definition = sets()[name]
    sha = content_hash(definition)
    built = tiles_module.build_tileset(definition, sha)
    back = decode_compiled(encode_compiled(built), definition, sha)
    assert back is not None
    assert back.types == built.types
    assert (back.start, back.sha256, back.name, back.vocabulary, back.total()) \
        == (built.start, built.sha256, built.name, built.vocabulary, built.total())


@pytest.mark.parametrize("name", sorted(ENCODED))
def test_the_compiled_form_is_pinned_to_its_format_number(name):
    definition = sets()[name]
    built = tiles_module.build_tileset(definition, content_hash(definition))
    digest = hashlib.sha256(encode_compiled(built)).hexdigest()
    assert (FORMAT, digest) == (1, ENCODED[name]), \
        "the compiled form changed: raise FORMAT in engine/compiled.py and pin the new digests"


def test_memos_are_not_part_of_the_compiled_form():
    definition = bundled()
    sha = content_hash(definition)
    built = tiles_module.build_tileset(definition, sha)
    clean = encode_compiled(built)
    built.types[definition.start].orientations[0].free(0)  # fills a memo
    assert built.types[definition.start].orientations[0].free_memo
    assert encode_compiled(built) == clean


def test_a_form_that_does_not_fit_the_definition_is_refused():
    definition = bundled()
    sha = content_hash(definition)
    built = tiles_module.build_tileset(definition, sha)
    good = encode_compiled(built)
    other = classic()
    assert decode_compiled(good, other, content_hash(other)) is None  # another set
    assert decode_compiled(good[:-10], definition, sha) is None  # truncated
    assert decode_compiled(b"\x93\x01", definition, sha) is None  # another shape
    first = next(iter(built.types.values()))
    recount = msgspec.structs.replace(built, types={
        **built.types, first.id: msgspec.structs.replace(first, count=first.count + 1)})
    assert decode_compiled(encode_compiled(recount), definition, sha) is None
    port = first.orientations[0]
    wild = msgspec.structs.replace(port, ports=(99,) + port.ports[1:])
    bad = msgspec.structs.replace(built, types={
        **built.types,
        first.id: msgspec.structs.replace(first, orientations=(wild,) + first.orientations[1:])})
    assert decode_compiled(encode_compiled(bad), definition, sha) is None


# --- the cache folder ---------------------------------------------------------------------------


def test_a_set_compiled_by_one_process_is_read_by_the_next(cache, builds):
    definition = bundled()
    built = compile_tileset(definition)
    assert entry(cache, definition).is_file()
    forget()
    read = compile_tileset(bundled())
    assert builds == ["star-wars"]
    assert read is not built and read.types == built.types


def _damaged(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x01
    path.write_bytes(bytes(data))


def _damaged_yet_decodable(path: Path) -> None:
    """One target name changed: still a well-formed compiled form, but not the one written."""
    data = path.read_bytes()
    at = data.index(b"route:N")
    path.write_bytes(data[:at] + b"route:S" + data[at + 7:])


def _truncated(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:-100])


def _emptied(path: Path) -> None:
    path.write_bytes(b"")


def _not_a_cache_file(path: Path) -> None:
    path.write_bytes(b'{"star": "wars"}\n' * 100)


@pytest.mark.parametrize("spoil", [_damaged, _damaged_yet_decodable, _truncated, _emptied,
                                   _not_a_cache_file])
def test_a_spoilt_file_is_ignored_and_rewritten(cache, builds, spoil):
    definition = bundled()
    built = compile_tileset(definition)
    path = entry(cache, definition)
    good = path.read_bytes()
    spoil(path)
    forget()
    assert compile_tileset(definition).types == built.types
    assert builds == ["star-wars", "star-wars"]
    assert path.read_bytes() == good


def test_a_file_of_another_set_under_this_sets_name_is_ignored(cache, builds):
    star_wars, other = bundled(), classic()
    compile_tileset(star_wars)
    compile_tileset(other)
    entry(cache, other).replace(entry(cache, star_wars))  # the classic set's file, renamed
    forget()
    assert compile_tileset(star_wars).vocabulary.path == "route"
    assert builds == ["star-wars", "classic", "star-wars"]


def test_a_file_of_another_set_with_a_matching_checksum_is_ignored(cache, builds):
    """Even a well-formed file for this name whose payload is another set's is refused."""
    star_wars, other = bundled(), classic()
    foreign = encode_compiled(compile_tileset(other))
    cache.write(content_hash(star_wars), FORMAT, foreign)
    assert cache.read(content_hash(star_wars), FORMAT) == foreign
    forget()
    assert compile_tileset(star_wars).vocabulary.path == "route"
    assert builds == ["classic", "star-wars"]


def test_a_file_written_by_another_version_is_not_read(cache, builds, monkeypatch):
    definition = bundled()
    today = tilecache.VERSION
    monkeypatch.setattr(tilecache, "VERSION", "0.0.1")
    compile_tileset(definition)
    old = entry(cache, definition)
    monkeypatch.setattr(tilecache, "VERSION", today)
    assert entry(cache, definition) != old
    forget()
    compile_tileset(definition)
    assert builds == ["star-wars", "star-wars"]
    old.replace(entry(cache, definition))  # even under today's name
    forget()
    compile_tileset(definition)
    assert builds == ["star-wars", "star-wars", "star-wars"]


def test_a_file_of_another_format_is_not_read(cache, builds, monkeypatch):
    definition = bundled()
    compile_tileset(definition)
    payload = cache.read(content_hash(definition), FORMAT)
    assert payload is not None
    monkeypatch.setattr(compiled_module, "FORMAT", FORMAT + 1)
    cache.write(content_hash(definition), FORMAT + 1, payload)  # the old form, new name
    forget()
    compile_tileset(definition)
    assert builds == ["star-wars", "star-wars"]


def test_an_oversized_file_is_not_read(cache, builds, monkeypatch):
    definition = bundled()
    compile_tileset(definition)
    monkeypatch.setattr(tilecache, "MAX_BYTES", len(entry(cache, definition).read_bytes()) - 1)
    forget()
    compile_tileset(definition)
    assert builds == ["star-wars", "star-wars"]


def test_a_fifo_in_place_of_the_file_is_skipped(cache, builds):
    definition = bundled()
    path = entry(cache, definition)
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    compile_tileset(definition)  # neither hangs nor fails
    assert builds == ["star-wars"]


def test_an_unwritable_folder_is_skipped(tmp_path, builds):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    tilecache.use(TileCache(str(blocker / "cache")))
    try:
        definition = bundled()
        assert compile_tileset(definition).start == definition.start
        forget()
        compile_tileset(definition)
    finally:
        tilecache.use(None)
    assert builds == ["star-wars", "star-wars"]
    assert blocker.read_text() == "not a folder"


def test_a_write_leaves_one_whole_file_and_no_temporary_one(cache):
    compile_tileset(bundled())
    files = list(Path(cache.folder, "tilesets").iterdir())
    assert [f.name.endswith(".bin") for f in files] == [True]
    assert files[0].read_bytes().startswith(MAGIC)


def test_the_environment_chooses_the_folder_or_no_cache(tmp_path, monkeypatch):
    assert tilecache.from_environment({"MEEPLE_NO_CACHE": "1"}) is None
    chosen = tilecache.from_environment({"MEEPLE_CACHE_DIR": str(tmp_path)})
    assert chosen is not None and chosen.folder == str(tmp_path)
    for off in ("", "0"):
        kept = tilecache.from_environment({"MEEPLE_NO_CACHE": off, "MEEPLE_CACHE_DIR": "x"})
        assert kept is not None and kept.folder == "x"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    default = tilecache.from_environment({})
    assert default is not None and default.folder == str(tmp_path / "xdg" / "meeple")


def test_meeple_version_in_the_key_is_the_packages(tmp_path):
    import tomllib

    pyproject = Path(__file__).parents[2] / "pyproject.toml"
    assert tilecache.VERSION == tomllib.loads(pyproject.read_text())["project"]["version"]


# --- results ----------------------------------------------------------------------------------


def _results(paths):
    out = []
    for path in paths:
        log = logfile.read(path)
        verdict = verify(log.events)
        out.append((verdict.finding, export(verdict.state) if verdict.state else None,
                    playthrough(log.events)))
    return out


#: a recorded game of each bundled set
ONE_OF_EACH = [path for path in FIXTURES if path.stem in (
    "random_2p_seed_0", "classic_random_2p_seed_0", "classic_la_fiesta_random_2p_seed_0")]


@pytest.mark.parametrize("paths", [
    pytest.param(ONE_OF_EACH, id="one-of-each-set"),
    pytest.param(FIXTURES, id="every-fixture", marks=pytest.mark.slow),
])
def test_recorded_games_give_the_same_results_from_the_cache(cache, builds, monkeypatch, paths):
    assert len(paths) in (3, len(FIXTURES))
    tilecache.use(None)
    without = _results(paths)
    tilecache.use(cache)
    forget()
    for path in paths:  # a first command on each set compiles it and writes its file
        compile_tileset(logfile.read(path).events[0].tileset.definition)
    assert {"star-wars", "classic", "classic+la-fiesta"} <= set(builds)

    def refuse(definition, sha):
        raise AssertionError(f"{definition.name} was compiled, not read from the cache")

    monkeypatch.setattr(compiled_module, "build_tileset", refuse)
    with_cache = []
    for path in paths:
        forget()  # as a command of its own would: the set read from its file
        with_cache += _results([path])
    assert with_cache == without


def test_no_cache_folder_to_be_found_is_no_cache(builds, monkeypatch):
    def homeless(*_args, **_kwargs):
        raise KeyError("no home directory")

    monkeypatch.setattr(tilecache, "default_folder", homeless)
    kept = TileCache()
    tilecache.use(kept)
    try:
        compile_tileset(bundled())
        forget()
        compile_tileset(bundled())
    finally:
        tilecache.use(None)
    assert builds == ["star-wars", "star-wars"]
    assert kept.folder == ""
