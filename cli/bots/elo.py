"""Elo ratings of any number of bots from their games against each other: the
Bradley-Terry model fitted by maximum likelihood, as BayesElo and Ordo fit it.

Bot ``i`` has a strength ``g_i``; it beats bot ``j`` with probability ``g_i / (g_i + g_j)``
(a tie counts half a win for each). The strengths that make the results most likely are
found by the MM algorithm of D. R. Hunter, "MM algorithms for generalized Bradley-Terry
models", Annals of Statistics 32 (2004), 384-406: ``g_i <- W_i / sum_j n_ij / (g_i + g_j)``,
``W_i`` the wins of ``i``, ``n_ij`` the games of ``i`` and ``j``. A rating is
``400 log10(g_i)``, shifted so that the ratings average 0. Its standard error comes from the
observed information (the log-likelihood's curvature at the fit, a weighted Laplacian whose
pseudo-inverse is the covariance of ratings that sum to 0), treating games as independent.

A bot that won (or lost) every game has no finite maximum; ``prior`` virtual games, drawn,
between every two bots that met keep the fit finite (BayesElo adds virtual draws likewise).
"""

from __future__ import annotations

import math

#: Elo points per unit of natural log of strength
SCALE = 400 / math.log(10)


def fit(players: list[str], results: list[tuple[str, str, float]], prior: float = 0.0,
        rounds: int = 10_000, tolerance: float = 1e-10) -> dict[str, tuple[float, float]]:
    """Each player's rating and its standard error, from ``results``: ``(a, b, score)``,
    ``score`` what ``a`` made of one game against ``b`` (1, 0.5 or 0).

    >>> ratings = fit(["a", "b"], [("a", "b", 1.0)] * 3 + [("a", "b", 0.0)])
    >>> round(ratings["a"][0] - ratings["b"][0], 1)
    190.8

    :raises ValueError: a result names a player not in ``players``, or a player has no
        finite rating (it won or lost every game and ``prior`` is 0).
    """
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    games = [[0.0] * n for _ in range(n)]
    wins = [0.0] * n
    for a, b, score in results:
        if a not in index or b not in index:
            raise ValueError(f"a result names a player not rated: {a if a not in index else b}")
        i, j = index[a], index[b]
        games[i][j] += 1
        games[j][i] += 1
        wins[i] += score
        wins[j] += 1 - score
    if prior:
        for i in range(n):
            for j in range(n):
                if i != j and games[i][j]:
                    games[i][j] += prior
                    wins[i] += prior / 2
    for i in range(n):
        if sum(games[i]) and not 0 < wins[i] < sum(games[i]):
            raise ValueError(f"{players[i]} won or lost every game: no finite rating (give "
                             "a prior)")
    strength = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            below = sum(games[i][j] / (strength[i] + strength[j]) for j in range(n) if j != i)
            new.append(wins[i] / below if below else strength[i])
        centre = math.exp(sum(math.log(s) for s in new) / n)
        new = [s / centre for s in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < tolerance:
            break
    errors = _errors(games, strength)
    return {p: (SCALE * math.log(strength[i]), errors[i]) for p, i in index.items()}


def _errors(games: list[list[float]], strength: list[float]) -> list[float]:
    """The standard errors of the ratings (summing to 0) at the fit, in Elo points."""
    n = len(strength)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j and games[i][j]:
                p = strength[i] / (strength[i] + strength[j])
                w = games[i][j] * p * (1 - p)
                info[i][j] -= w
                info[i][i] += w
    # the pseudo-inverse of a connected Laplacian L is inv(L + J/n) - J/n (J all ones)
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    try:
        inverse = _inverse(shifted)
    except ZeroDivisionError:
        return [math.inf] * n
    return [SCALE * math.sqrt(max(0.0, inverse[i][i] - 1 / n)) for i in range(n)]


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    """The inverse of a square matrix, by Gauss-Jordan elimination with partial pivoting.

    :raises ZeroDivisionError: the matrix is singular (the games leave players unconnected).
    """
    n = len(matrix)
    rows = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ZeroDivisionError("singular")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]
