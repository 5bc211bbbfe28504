"""The placement labels the board shows (``b2``), from ``meeple.engine.notation``."""

from meeple.engine.notation import (
    cell_labels,
    distinct_rotations,
    label,
    parse_placement,
    rotation_number,
    shown_spots,
    spots,
)

__all__ = ["cell_labels", "distinct_rotations", "label", "parse_placement", "rotation_number",
           "shown_spots", "spots"]
