"""The placement labels the board shows (``b2``), from ``meeple.engine.notation``."""

from meeple.engine.notation import cell_labels, label, parse_placement, rotation_number, spots

__all__ = ["cell_labels", "label", "parse_placement", "rotation_number", "spots"]
