"""The texts under an SVG board (the sides' names and points, the legend's labels) never run
into one another or into an icon, whatever sans-serif font draws them: measured as Chromium
lays them out (``getBoundingClientRect``) and as ``rsvg-convert`` paints them (each text
rendered alone, its ink found pixel by pixel), in the default sans-serif, DejaVu Sans (the
widest common one) and Liberation Sans (Arial's metrics).

Skipped without Chromium, Playwright or rsvg-convert, unless ``MEEPLE_BROWSER_TESTS=required``.
"""

import base64
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from helpers import run

FIXTURES = Path(__file__).parent.parent.parent / "fixtures"
FAMILIES = ["sans-serif", "DejaVu Sans", "Liberation Sans"]
#: (rsvg-convert takes seconds a picture: its sans-serif is fontconfig's, here DejaVu Sans)
RSVG_FAMILIES = ["sans-serif", "Liberation Sans"]
#: texts of the panel under the board, and the figures and icons beside them
TEXTS = ".scores text, .legend text"
ICONS = ".side > g, .legend-entry > :not(text)"
#: how far an icon of the panel reaches from its centre (figures and legend icons alike)
ICON_REACH = 14
LONG_NAMES = "Wolfgang Wilhelm Maximilian von Wuerttemberg-Mommsen,MMMMMMMMMMMMMMMMMMMMMMMMMMMMMM"


@pytest.fixture(scope="module")
def pictures(tmp_path_factory) -> dict[str, str]:
    """Board pictures whose panels differ: a whole Star Wars game of four, a classic game of
    five with La Fiesta, and an early board (narrower than its panel) with long names."""
    folder = tmp_path_factory.mktemp("legends")
    made = {}
    for name, game, at in [("star_wars", FIXTURES / "random_4p_seed_0.jsonl", None),
                           ("la_fiesta", FIXTURES / "classic_la_fiesta_random_5p_seed_3.jsonl", None)]:
        out = folder / f"{name}.svg"
        run("show", game, "--svg", out, *(["--at", at] if at else []))
        made[name] = out.read_text()
    game = folder / "names.jsonl"
    run("new", game, "--players", "red,black", "--names", LONG_NAMES, "--seed", "3")
    run("autoplay", game, "--turns", "2")
    run("show", game, "--svg", folder / "names.svg")
    made["long_names"] = (folder / "names.svg").read_text()
    return made


def in_family(svg: str, family: str) -> str:
    return svg if family == "sans-serif" else svg.replace("sans-serif", f"'{family}'")


Box = tuple[float, float, float, float]  # left, top, right, bottom


def crossing(boxes: list[tuple[str, Box]]) -> list[tuple[str, str]]:
    """The pairs of boxes that overlap (boxes that touch do not)."""
    found = []
    for i, (a, (l1, t1, r1, b1)) in enumerate(boxes):
        for b, (l2, t2, r2, b2) in boxes[i + 1:]:
            if l1 < r2 and l2 < r1 and t1 < b2 and t2 < b1:
                found.append((a, b))
    return found


def picture_width(svg: str) -> int:
    found = re.match(r'<svg [^>]*\bwidth="(\d+)"', svg)
    assert found
    return int(found.group(1))


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("name", ["star_wars", "la_fiesta", "long_names"])
def test_no_text_of_the_panel_runs_into_another_in_chromium(browser, pictures, tmp_path, name,
                                                           family):
    svg = in_family(pictures[name], family)
    path = tmp_path / f"{name}.svg"
    path.write_text(svg)
    page = browser.new_page(viewport={"width": 800, "height": 600})
    page.goto(path.as_uri())
    measure = ("(els) => els.map((e) => { const r = e.getBoundingClientRect(); "
               "return [e.textContent || e.tagName, [r.left, r.top, r.right, r.bottom]]; })")
    texts = page.eval_on_selector_all(TEXTS, measure)
    icons = page.eval_on_selector_all(ICONS, measure)
    reach = page.eval_on_selector_all(".legend-entry", """(es) => es.map((e) => {
        const at = e.getCTM(), icon = e.firstElementChild.getBoundingClientRect();
        return Math.max(at.e - icon.left, icon.right - at.e, at.f - icon.top, icon.bottom - at.f);
      })""")
    page.close()
    assert max(reach) <= ICON_REACH, "a legend icon lies within its reach of its centre"
    assert len(texts) >= 10 and len(icons) >= 9
    boxes = [(label, tuple(box)) for label, box in texts + icons]
    assert crossing(boxes) == []
    width = picture_width(svg)
    outside = [label for label, (left, _, right, _) in texts if left < 0 or right > width]
    assert outside == [], f"beyond the picture's {width} px"


def _rsvg() -> str:
    found = shutil.which("rsvg-convert")
    if found is None:
        why = "no rsvg-convert (apt-get install librsvg2-bin)"
        if os.environ.get("MEEPLE_BROWSER_TESTS") == "required":
            pytest.fail(f"browser tests are required here, but {why}")
        pytest.skip(why)
    return found


def _panel_only(svg: str, style: str) -> tuple[str, int]:
    """The picture cut to the panel under the board (so that renders are small), with
    ``style`` added; and where the panel begins."""
    top = int(re.search(r'<g class="scores"><text class="heading" x="\d+" y="(\d+)"', svg)[1]) - 24
    width = picture_width(svg)
    height = int(re.match(r'<svg [^>]*\bheight="(\d+)"', svg)[1]) - top
    svg = re.sub(r'^<svg ([^>]*)width="\d+" height="\d+" viewBox="[^"]*"',
                 f'<svg \\1width="{width}" height="{height}" viewBox="0 {top} {width} {height}"',
                 svg, count=1)
    return svg.replace("</style>", style + "</style>", 1), top


#: reads PNG files (as base64) in the browser and gives, for each after the first, the box of
#: the pixels where it differs from the first
_INK = """async (pngs) => {
  const pixels = [];
  for (const data of pngs) {
    const img = new Image();
    img.src = `data:image/png;base64,${data}`;
    await img.decode();
    const canvas = new OffscreenCanvas(img.width, img.height);
    const ctx = canvas.getContext("2d");
    ctx.drawImage(img, 0, 0);
    pixels.push([img.width, img.height, ctx.getImageData(0, 0, img.width, img.height).data]);
  }
  const [w, h, base] = pixels[0];
  return pixels.slice(1).map(([, , p]) => {
    let box = null;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = 4 * (y * w + x);
      let change = 0;
      for (let c = 0; c < 4; c++) change += Math.abs(p[i + c] - base[i + c]);
      if (change > 24) {
        if (!box) box = [x, y, x + 1, y + 1];
        else { box[0] = Math.min(box[0], x); box[1] = Math.min(box[1], y);
               box[2] = Math.max(box[2], x + 1); box[3] = Math.max(box[3], y + 1); }
      }
    }
    return box;
  });
}"""

_HIDDEN = ".scores text,.legend text{fill-opacity:0}"
_NO_ICONS = ".side>g,.legend-entry>:not(text){opacity:0}"


def _render(rsvg: str, svg: str, where: Path) -> str:
    where.write_text(svg)
    png = where.with_suffix(".png")
    subprocess.run([rsvg, str(where), "-o", str(png)], check=True, timeout=60)
    return base64.b64encode(png.read_bytes()).decode()


@pytest.mark.parametrize("family", RSVG_FAMILIES)
@pytest.mark.parametrize("name", ["star_wars", "la_fiesta", "long_names"])
def test_no_text_of_the_panel_runs_into_another_in_rsvg(browser, pictures, tmp_path, name,
                                                       family):
    rsvg = _rsvg()
    svg = in_family(pictures[name], family)
    blank, top = _panel_only(svg, _HIDDEN)
    texts = list(re.finditer(r'<text class="(?:heading|side-name|points|winner|legend-label)'
                             r'[^"]*" x="\d+" y="\d+"', blank))
    scores = blank[blank.index('<g class="scores">'):blank.index('<g class="legend">')]
    icons = [(float(m[1]), float(m[2]) - top) for m in [
        *re.finditer(r'class="figure" transform="translate\(([\d.]+),([\d.]+)\)', scores),
        *re.finditer(r'class="legend-entry" transform="translate\(([\d.]+),([\d.]+)\)"', blank)]]
    renders = [_render(rsvg, blank, tmp_path / "blank.svg"),
               _render(rsvg, blank.replace(_HIDDEN, _HIDDEN + _NO_ICONS), tmp_path / "bare.svg")]
    for k, found in enumerate(texts):
        alone = blank[:found.end()] + ' style="fill-opacity:1"' + blank[found.end():]
        renders.append(_render(rsvg, alone, tmp_path / f"text{k}.svg"))
    page = browser.new_page()
    boxes = page.evaluate(_INK, renders)
    page.close()
    icon_ink, ink = boxes[0], boxes[1:]
    assert icon_ink is not None and all(box is not None for box in ink), "every text is painted"
    labels = [re.search(r">([^<]*)<", blank[m.end():])[1] for m in texts]
    drawn = list(zip(labels, map(tuple, ink), strict=True))
    # icons are drawn alike whatever the font: each within its reach of its centre (as
    # measured in Chromium), and all of them within those boxes in rsvg's rendering too
    drawn += [(f"icon {i}", (x - ICON_REACH, y - ICON_REACH, x + ICON_REACH, y + ICON_REACH))
              for i, (x, y) in enumerate(icons)]
    left, upper, right, lower = icon_ink
    assert any(x - ICON_REACH <= left for x, _ in icons) and any(y + ICON_REACH >= lower for _, y in icons)
    assert len(texts) >= 10 and len(icons) >= 9
    assert [pair for pair in crossing(drawn) if not pair[0].startswith("icon ")] == []
    width = picture_width(svg)
    assert [label for label, box in drawn[:len(labels)] if box[2] > width] == []
