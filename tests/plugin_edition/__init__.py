"""A small edition from outside meeple, as another package would ship one: ``outpost``."""
