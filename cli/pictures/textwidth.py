"""How wide a line of an SVG picture's text may be drawn, whatever font the viewer picks
for ``sans-serif``: what the pictures' legends and score rows are laid out by, so that no
label runs into another in any renderer (``meeple.cli.pictures.svg``).

Each printable ASCII character counts its advance in the widest of the fonts a sans-serif
picture commonly falls back to (DejaVu Sans, the widest, and Liberation Sans, metric twin of
Arial and Helvetica; regular and bold); any other character counts a full em and a fifth,
more than a CJK ideograph or most emoji take.
"""

#: advances of " " to "~" in thousandths of an em, the largest of those fonts' for each
_ASCII = (
    348, 456, 555, 838, 696, 1002, 872, 306, 457, 457, 523, 838,
    380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696,
    696, 696, 400, 400, 838, 838, 838, 611, 1015, 774, 762, 734,
    830, 683, 683, 821, 837, 389, 556, 778, 667, 995, 837, 850,
    733, 850, 770, 720, 682, 812, 774, 1103, 771, 724, 725, 457,
    365, 457, 838, 556, 500, 675, 716, 593, 716, 678, 435, 716,
    712, 343, 343, 665, 343, 1042, 712, 687, 716, 716, 493, 595,
    478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
)
_OTHER = 1200


def text_width(text: str, size: float) -> float:
    """The most width ``text`` (as drawn: escaped already) takes at font size ``size``."""
    total = 0
    for ch in text:
        code = ord(ch) - 32
        total += _ASCII[code] if 0 <= code < len(_ASCII) else _OTHER
    return total * size / 1000
