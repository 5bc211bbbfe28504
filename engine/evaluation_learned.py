"""A learned value of a position, for the searches (RULES SW-8 / CL-6 as the end of the game
pays them): a linear model over a few numbers of each side, its weights fitted by least
squares to the final score difference of self-play games (``docs/fit_learned.py``).

Edition-neutral: the realms are told apart by the roles of the tile set's vocabulary
(``path``, ``area``, ``centre``, ``field``), the points come from the edition's scoring
(``completed_points``, ``final_payment``, ``scorers``) and a figure's worth in reserve from
``Edition.reserve_worth``, as in ``meeple.engine.evaluation``. The features of a side
(``FEATURES``, in that order), with ``share`` the share of the game's tiles still to draw:

- its points, and its figures in reserve at their worth (``reserve_points``), also times
  ``share``;
- for the realms its figures hold, by role (path, area, centre): their completed points times
  their completion chance (``completion_chance``, 0 for a dead realm) and their end-of-game
  points times the chance they are not completed;
- the fields it holds at what the end would pay now, also times ``share``;
- the open ends of the realms it holds (a centre feature's empty cells around it), also
  times ``share``; how many of them are dead;
- the completion-weighted points of all its realms times ``share``.

A side's value is the weights' sum over its features; the bots use the difference of a side's
value and the best other's, so only differences between sides count (there is no constant).
"""

from __future__ import annotations

from meeple.engine.evaluation import held_realms, reserve_points, share_left
from meeple.engine.state import GameState

#: the features of a side, in the order of ``WEIGHTS``
FEATURES = (
    "points", "reserve", "reserve x share",
    "path completed x chance", "path end x (1 - chance)",
    "area completed x chance", "area end x (1 - chance)",
    "centre completed x chance", "centre end x (1 - chance)",
    "field end", "field end x share",
    "open ends", "open ends x share", "dead realms",
    "completed x chance x share",
)

#: the weight of each feature (``FEATURES``), one table for every edition: fitted by
#: ``docs/fit_learned.py`` to 58,363 positions of 400 classic and 400 Star Wars games
WEIGHTS = (
    0.967, 4.68, -3.671,
    1.015, 0.754,
    0.827, 0.845,
    0.803, 0.796,
    0.888, -0.613,
    0.08, -0.454, -1.294,
    0.243,
)

#: the slot of each role's two features (completed x chance, end x (1 - chance))
_PATH, _AREA, _CENTRE = 3, 5, 7


def features(state: GameState) -> dict[str, list[float]]:
    """Each side's features (``FEATURES``), by side."""
    share = share_left(state)
    reserve = reserve_points(state)
    rows = {side: [float(points), reserve[side], reserve[side] * share] + [0.0] * 12
            for side, points in state.scores.items()}
    vocabulary = state.tileset.vocabulary
    centre, path = vocabulary.centre, vocabulary.path
    completed_points = state.edition.completed_points
    for realm, holders, end, missing, dead, chance in held_realms(state):
        if missing < 0:
            for side in holders:
                row = rows[side]
                row[9] += end
                row[10] += end * share
            continue
        slot = _CENTRE if realm.kind == centre else _PATH if realm.kind == path else _AREA
        completed = chance * completed_points(realm)[0]
        rest = (1 - chance) * end
        for side in holders:
            row = rows[side]
            row[slot] += completed
            row[slot + 1] += rest
            row[11] += missing
            row[12] += missing * share
            row[13] += dead
            row[14] += completed * share
    return rows


def learned_value(state: GameState, weights: tuple[float, ...] = WEIGHTS) -> dict[str, float]:
    """Each side's value: the weights' sum over its features (see the module's docstring)."""
    return {side: sum(w * f for w, f in zip(weights, row, strict=True))
            for side, row in features(state).items()}
