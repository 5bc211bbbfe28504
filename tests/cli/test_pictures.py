"""Pictures: the SVG board (``show --svg``), the tile sheet (``tiles --svg``), and the HTML replay
(``export --html``) without a browser. The browser side is in ``tests/browser``."""

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from syrupy.extensions.image import SVGImageSnapshotExtension

from meeple.cli.pictures.svg import board_svg, sheet_svg
from meeple.cli.pictures.viewer import document
from meeple.cli.store import load
from meeple.engine import fold

from helpers import fail, meeples_on_board, plain, run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
SVG = "{http://www.w3.org/2000/svg}"
FOUR_PLAYERS = FIXTURES / "random_4p_seed_0.jsonl"
BATTLE = FIXTURES / "worked_asteroid_battle_three_sides_tie_then_black_wins.jsonl"
UNDO = FIXTURES / "undo_and_redo_inside_a_game_seed_0.jsonl"


@pytest.fixture
def snapshot_svg(snapshot):
    return snapshot.use_extension(SVGImageSnapshotExtension)


def test_the_board_svg_is_xml_with_a_titled_group_per_tile_and_every_meeple():
    state = load(str(FOUR_PLAYERS)).state
    root = ET.fromstring(board_svg(state, highlight=state.placed_at))
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    titles = {g.find(f"{SVG}title").text for g in tiles}
    expected = {f"({x}, {y}) {p.tile.id} turned {p.r * 90}" for (x, y), p in state.board.items()}
    assert titles == expected
    figures = [g for tile in tiles for g in tile.iter(f"{SVG}g") if g.get("class") == "figure"]
    assert len(figures) == meeples_on_board(state) > 0
    large = [g for g in figures if "scale(1.45)" in g.get("transform")]
    assert len(large) == sum(1 for placed in state.board.values() for node in placed.nodes
                             for _, figure, where in state.realms.realm(node).meeples
                             if where == node and figure == "large")
    marks = [r for r in root.findall(f"{SVG}rect") if r.get("stroke") == "#ffd60a"]
    assert [m.find(f"{SVG}title").text for m in marks] == [
        f"last placement ({state.placed_at[0]}, {state.placed_at[1]})"]
    names = {t.text for t in root.iter(f"{SVG}text") if t.get("class") == "planet-name"}
    on_board = {p.tile.features[p.tile.centre].name for p in state.board.values() if p.tile.centre >= 0}
    assert names == on_board and len(names) >= 3
    symbols = [u for tile in tiles for u in tile.iter(f"{SVG}use") if u.get("href", "").startswith("#sym-")]
    assert len(symbols) == sum(1 for p in state.board.values() for f in p.tile.features if f.symbol)


@pytest.mark.slow  # starts processes
def test_the_same_game_gives_the_same_svg_bytes_in_another_process(tmp_path):
    here = tmp_path / "here.svg"
    run("show", FOUR_PLAYERS, "--svg", here)
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    meeple = Path(sys.executable).parent / "meeple"
    there = subprocess.run([meeple, "show", str(FOUR_PLAYERS), "--svg", "-"],
                           capture_output=True, env=env, check=True).stdout
    assert here.read_bytes() == there


def test_board_svg_snapshot_of_the_asteroid_battle(snapshot_svg):
    state = load(str(BATTLE)).state
    assert board_svg(state, highlight=state.placed_at) == snapshot_svg


def test_board_svg_snapshot_mid_game_with_meeples_and_planets(snapshot_svg):
    events = load(str(FOUR_PLAYERS)).events
    state = fold(events[:120])
    assert board_svg(state, highlight=state.placed_at) == snapshot_svg


def test_tile_sheet_svg_snapshot_lists_every_type_with_its_count(snapshot_svg):
    tileset = load(str(BATTLE)).state.tileset
    text = sheet_svg(tileset)
    root = ET.fromstring(text)
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "label"][1:]
    assert labels == [f"{t.id} x{t.count}" + (" (start)" if t.id == tileset.start else "")
                      for t in tileset.types.values()]
    assert text == snapshot_svg


def test_show_svg_at_a_seq_draws_the_board_then(tmp_path):
    out = tmp_path / "b.svg"
    run("show", FOUR_PLAYERS, "--svg", out, "--at", 40)
    root = ET.parse(out).getroot()
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    assert len(tiles) == len(fold(load(str(FOUR_PLAYERS)).events[:41]).board)


PLANET_ATTACK = FIXTURES / "worked_planet_attack_tie_at_5_then_red_takes_the_planet.jsonl"
THREE_ON_A_PLANET = FIXTURES / "random_3p_seed_1.jsonl"
CLASSIC = FIXTURES / "classic_random_2p_seed_0.jsonl"

#: the meeple figure's extent about its centre, read off its path in the SVG: left, top, right,
#: bottom (its head is a circle of radius 3.8 centred 8 units above the centre)
FIGURE = (-10.4, -11.8, 10.4, 9.0)
_PLACED = re.compile(r"translate\(([-\d.]+),([-\d.]+)\) scale\(([\d.]+)\)( rotate\(90\))?")


def tile_group(root, x: int, y: int):
    return next(g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"
                and g.find(f"{SVG}title").text.startswith(f"({x}, {y}) "))


def covered(group) -> tuple[float, float, float, float]:
    """The rectangle a figure's group covers on its tile: left, top, right, bottom."""
    found = _PLACED.fullmatch(group.get("transform"))
    assert found, group.get("transform")
    px, py, k = float(found[1]), float(found[2]), float(found[3])
    left, top, right, bottom = FIGURE
    if found[4]:
        left, top, right, bottom = -bottom, left, -top, right
    return px + k * left, py + k * top, px + k * right, py + k * bottom


def apart(a, b) -> bool:
    return a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


@pytest.mark.parametrize(("path", "seq", "cell", "figures"), [
    (PLANET_ATTACK, 11, (0, -1), ["white large", "red small"]),
    (THREE_ON_A_PLANET, 183, (-3, -2), ["black small", "black large", "orange small"]),
], ids=["small and large", "three"])
def test_figures_on_one_planet_stand_apart_and_off_its_name(path, seq, cell, figures):
    events = load(str(path)).events
    state = fold(events[: seq + 1])
    tile = tile_group(ET.fromstring(board_svg(state, highlight=None)), *cell)
    groups = [g for g in tile.iter(f"{SVG}g") if g.get("class") == "figure"]
    assert sorted(" ".join(g.find(f"{SVG}title").text.split()[:2]) for g in groups) == sorted(figures)
    boxes = [covered(g) for g in groups]
    for i, a in enumerate(boxes):
        assert 0 <= a[0] and 0 <= a[1] and a[2] <= 100 and a[3] <= 100, "on its own tile"
        for b in boxes[i + 1:]:
            assert apart(a, b), (a, b)
    name = next(t for t in tile.iter(f"{SVG}text") if t.get("class") == "planet-name")
    x, y, half = float(name.get("x")), float(name.get("y")), 0.34 * 11 * len(name.text)
    written = (x - half, y - 9, x + half, y + 3)  # bold 11 px letters about the baseline
    assert all(apart(box, written) for box in boxes), (name.text, boxes)
    frame = plain(document(load(str(path))))["frames"][seq]
    on_tile = sorted((m[2], m[3]) for m in frame["m"] if (m[0], m[1]) == cell)
    drawn = [_PLACED.fullmatch(g.get("transform")) for g in groups]
    assert on_tile == sorted((float(m[1]), float(m[2])) for m in drawn), \
        "the replay page stands them where the board picture does"


def _luminance(colour: str) -> float:
    values = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in values)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: str, b: str) -> float:
    """WCAG 2's contrast ratio, computed here apart from the code under test."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


#: what a figure may stand on: the page, space, rocks, a planet's dark and light sides, a route,
#: a classic field, city and road
TERRAIN = ["#05070f", "#111a45", "#6f655b", "#1d4e9e", "#8ec5ff", "#efe6c4", "#6a9a3c", "#c8a46a",
           "#f4efe1"]


@pytest.mark.parametrize("colour", ["red", "green", "black", "white", "orange", "blue", "yellow"])
def test_a_figure_of_every_colour_has_an_outline_and_a_halo_that_stand_out(colour):
    from meeple.cli.pictures.svg import meeple_svg

    group = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">'
                          f'{meeple_svg(50, 50, colour, False, colour)}</svg>')[0]
    assert group.get("class") == "figure"
    halo, body = [u for u in group if u.tag == f"{SVG}use"]
    assert halo.get("fill") == "none" and body.get("fill").startswith("#")
    assert float(halo.get("stroke-width")) >= float(body.get("stroke-width")) + 2, \
        "the halo shows around the outline"
    fill, outline, ring = body.get("fill"), body.get("stroke"), halo.get("stroke")
    assert contrast_ratio(fill, outline) >= 3, f"{colour}'s outline stands out from its fill"
    assert contrast_ratio(outline, ring) >= 3, "the halo stands out from the outline"
    for terrain in TERRAIN:
        assert max(contrast_ratio(terrain, outline), contrast_ratio(terrain, ring)) >= 3, terrain


def test_the_replay_page_draws_figures_in_the_board_pictures_colours():
    from meeple.cli.pictures.svg import meeple_svg

    doc = document(load(str(FOUR_PLAYERS)))
    assert len(doc["players"]) == 4
    for player in doc["players"]:
        group = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">'
                              f'{meeple_svg(0, 0, player["colour"], False, "")}</svg>')[0]
        halo, body = [u for u in group if u.tag == f"{SVG}use"]
        assert (player["fill"], player["outline"], player["halo"]) == (
            body.get("fill"), body.get("stroke"), halo.get("stroke"))


def legend_of(root) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "legend-label"]


def sides_of(root) -> list[tuple[str, int, bool]]:
    """Each side the picture lists: its label, its points and whether it is marked the winner."""
    rows = []
    for g in root.iter(f"{SVG}g"):
        if g.get("class") == "side":
            name = next(t for t in g.iter(f"{SVG}text") if "side-name" in t.get("class"))
            points = next(t for t in g.iter(f"{SVG}text") if "points" in t.get("class"))
            rows.append((name.text, int(points.text), "winner" in name.get("class")))
    return rows


def test_show_svg_has_a_star_wars_legend_the_sides_scores_and_the_winner(tmp_path):
    out = tmp_path / "b.svg"
    run("show", FOUR_PLAYERS, "--svg", out)
    root = ET.parse(out).getroot()
    assert legend_of(root) == [
        "trade route", "intersection", "asteroid field", "planet (named below)",
        "Rebel Alliance symbol", "Galactic Empire symbol", "bounty hunter symbol",
        "small meeple", "large meeple", "last placement"]
    state = load(str(FOUR_PLAYERS)).state
    assert state.winners == ("black",)
    assert sides_of(root) == [(side, state.scores[side], side == "black") for side in state.sides]
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Final scores" in texts and "Winner: black" in texts
    rows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "side"]
    swatches = [figure.find(f"{SVG}title").text for row in rows for figure in row.iter(f"{SVG}g")
                if figure.get("class") == "figure"]
    assert swatches == list(state.players)
    assert "reconstructed" in "".join(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "note")


def test_show_svg_mid_game_has_the_scores_then_and_no_winner(tmp_path):
    out = tmp_path / "b.svg"
    run("show", FOUR_PLAYERS, "--svg", out, "--at", 120)
    root = ET.parse(out).getroot()
    state = fold(load(str(FOUR_PLAYERS)).events[:121])
    assert sides_of(root) == [(side, state.scores[side], False) for side in state.sides]
    assert any(state.scores.values())
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert f"Scores at turn {state.turn}" in texts
    assert not [t for t in texts if t.startswith("Winner")]


def test_show_svg_has_a_classic_legend_and_the_players_names(tmp_path):
    game = tmp_path / "g.jsonl"
    run("new", game, "--edition", "classic", "--players", "red,blue", "--names", "Ann,Bob",
        "--seed", "3")
    run("autoplay", game, "--to-end")
    out = tmp_path / "b.svg"
    run("show", game, "--svg", out)
    root = ET.parse(out).getroot()
    assert legend_of(root) == ["road", "intersection", "city", "cloister", "field", "pennant",
                               "follower", "farmer (lying in a field)", "last placement"]
    state = load(str(game)).state
    assert [name for name, _, _ in sides_of(root)] == ["red (Ann)", "blue (Bob)"]
    assert [points for _, points, _ in sides_of(root)] == [state.scores["red"], state.scores["blue"]]
    assert [won for _, _, won in sides_of(root)] == [s in state.winners for s in ("red", "blue")]
    figures = [g for tile in root.iter(f"{SVG}g") if tile.get("class") == "tile"
               for g in tile.iter(f"{SVG}g") if g.get("class") == "figure"]
    placed = [_PLACED.fullmatch(g.get("transform")) for g in figures]
    assert figures and all(placed), "every figure's transform is one a renderer reads"
    assert any(m[4] for m in placed if m) == any(
        g.find(f"{SVG}title").text.split()[1] == "farmer" for g in figures), "farmers lie down"


def test_each_scoring_frame_carries_the_cells_of_what_it_paid_for():
    from meeple.engine import realm_extent, walk
    from meeple.events.model import PointsScored

    path = FIXTURES / "classic_farm_borders_three_completed_cities_and_one_open.jsonl"
    doc = plain(document(load(str(path))))
    farms = 0
    index = iter(range(10**9))

    def visit(event, state) -> None:
        nonlocal farms
        scored = doc["frames"][next(index)]["scored"]
        if not isinstance(event, PointsScored):
            assert scored is None
            return
        extent = realm_extent(state, event.realm)
        assert scored["realm"] == extent["tiles"]
        assert scored["cities"] == [city["tiles"] for city in extent["cities"]]
        farms += event.reason == "farm" and len(scored["cities"]) == event.cities > 0

    walk(load(str(path)).events, visit=visit)
    assert farms == 2


def test_tiles_svg_says_the_bundled_set_is_a_reconstruction(tmp_path):
    out = tmp_path / "t.svg"
    result = run("tiles", "--svg", out)
    assert "wrote the tile sheet as SVG" in result.stderr
    assert "reconstructed" in out.read_text()


def test_pictures_never_overwrite_a_game_log_or_write_into_a_folder(tmp_path):
    game = tmp_path / "g.jsonl"
    game.write_bytes(FOUR_PLAYERS.read_bytes())
    before = game.read_bytes()
    assert "is a game log" in fail("export", game, "--html", game, code=2)
    assert "is a game log" in fail("show", game, "--svg", game, code=2)
    assert "is a directory" in fail("tiles", "--svg", tmp_path, code=2)
    assert game.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.jsonl"]


def test_a_tile_caption_that_may_not_fit_its_cell_is_squeezed_into_it():
    import msgspec

    tileset = load(str(BATTLE)).state.tileset
    first, *others = tileset.types.values()
    long = msgspec.structs.replace(first, id="W" * 30)
    sheet = sheet_svg(msgspec.structs.replace(tileset, types={long.id: long, **{
        t.id: t for t in others}}))
    captions = {t.text: t for t in ET.fromstring(sheet).iter(f"{SVG}text")
                if t.get("class") == "label" and t.get("y") == "118"}
    squeezed = captions.pop(f"{long.id} x{long.count}")
    assert (squeezed.get("textLength"), squeezed.get("lengthAdjust")) == ("116", "spacingAndGlyphs")
    assert captions and all(t.get("textLength") is None for t in captions.values())


def test_the_text_board_at_an_early_seq_spans_that_step_not_the_final_board():
    from meeple.cli.labels import cell_labels

    events = load(str(FOUR_PLAYERS)).events
    early = fold(events[:13])
    assert 2 <= len(early.board) <= 4
    header = run("show", FOUR_PLAYERS, "--at", 12, "--ascii").stdout.splitlines()[0]
    xs = [x for x, _ in [*early.board, *cell_labels(early).values()]]
    assert [int(n) for n in header.split()] == list(range(min(xs), max(xs) + 1))
    final = run("show", FOUR_PLAYERS, "--ascii").stdout.splitlines()[0]
    assert len(final.split()) > len(header.split()) + 4
