"""The statistics an arena reports: a win rate's Wilson interval, a mean with its standard
error, and Wald's sequential probability ratio test (SPRT) on a win rate."""

from __future__ import annotations

import math

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (a tie counts half a success).

    >>> [round(v, 3) for v in wilson(15, 20)]
    [0.531, 0.888]
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_and_error(values: list[float]) -> tuple[float, float]:
    """The mean and its standard error (sample standard deviation over the root of n).

    >>> mean_and_error([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(values)
    if not n:
        return 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


class Sprt:
    """Wald's SPRT of H0 "the win rate is ``p0``" against H1 "it is ``p1``", errors ``alpha``
    and ``beta``; each game adds its score (1 a win, 0.5 a tie, 0 a loss) to the
    log-likelihood ratio.

    >>> test = Sprt(0.5, 0.65)
    >>> for _ in range(40): test.add(1.0)
    >>> test.verdict()
    'H1'
    """

    def __init__(self, p0: float, p1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not 0 < p0 < p1 < 1:
            raise ValueError("an SPRT needs 0 < P0 < P1 < 1")
        self.p0, self.p1 = p0, p1
        self.win = math.log(p1 / p0)
        self.loss = math.log((1 - p1) / (1 - p0))
        self.upper = math.log((1 - beta) / alpha)
        self.lower = math.log(beta / (1 - alpha))
        self.llr = 0.0

    def add(self, score: float) -> None:
        self.llr += score * self.win + (1 - score) * self.loss

    def verdict(self) -> str | None:
        """``H1`` (the rate is at least ``p1``), ``H0`` (at most ``p0``), or None: go on."""
        if self.llr >= self.upper:
            return "H1"
        if self.llr <= self.lower:
            return "H0"
        return None
