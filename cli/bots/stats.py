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


def pair_scores(points: list[float]) -> tuple[float, float]:
    """The mean score a game and its standard error from paired results: each entry is what
    one bot made of one pair of games (a seed played in both seatings; 1 a win, 0.5 a tie),
    0 to 2 points. The error comes from the spread of the pairs, the pentanomial model of
    engine testing (fishtest; M. Van den Bergh, "Normalized Elo", 2020): the two games of a
    seed share its tiles, so they are not independent draws.

    >>> [round(v, 4) for v in pair_scores([2.0, 1.0, 1.0, 0.0])]
    [0.5, 0.2041]
    """
    mean, error = mean_and_error([p / 2 for p in points])
    return mean, error


def elo_of(score: float) -> float:
    """The Elo difference a mean score stands for under the logistic model (infinite at 0
    and 1): ``-400 log10(1/score - 1)``.

    >>> round(elo_of(0.75), 1)
    190.8
    """
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


#: the five outcomes of a pair of games, in points out of 2, as a mean score a game
PAIR_OUTCOMES = (0.0, 0.25, 0.5, 0.75, 1.0)
#: the count given to an outcome never seen, so that the likelihood stays finite (fishtest
#: regularises the same way)
_UNSEEN = 1e-3


def pentanomial(points: list[float]) -> list[int]:
    """How many pairs scored 0, 0.5, 1, 1.5 and 2 points.

    >>> pentanomial([2.0, 1.0, 1.0, 0.5])
    [0, 1, 2, 0, 1]
    """
    counts = [0] * 5
    for p in points:
        counts[min(4, max(0, round(p * 2)))] += 1
    return counts


def _log_likelihood_at(counts: list[float], score: float) -> float:
    """The log-likelihood of the pair counts under the pentanomial distribution of mean
    ``score`` that fits them best: its probabilities are ``f_i / (1 + L (a_i - score))``
    (``f_i`` the observed frequencies, ``a_i`` the outcomes), ``L`` chosen so that they sum
    to one (a Lagrange multiplier, found by bisection; the sum falls as ``L`` grows)."""
    total = sum(counts)
    freq = [c / total for c in counts]
    gaps = [a - score for a in PAIR_OUTCOMES]
    low, high = -1 / gaps[-1], -1 / gaps[0]  # where some 1 + L gap reaches 0
    for _ in range(200):
        lam = (low + high) / 2
        if sum(f * g / (1 + lam * g) for f, g in zip(freq, gaps, strict=True)) > 0:
            low = lam
        else:
            high = lam
    lam = (low + high) / 2
    return sum(c * math.log(f / (1 + lam * g))
               for c, f, g in zip(counts, freq, gaps, strict=True) if c)


class PairSprt:
    """The generalized SPRT on pairs of games, as fishtest runs it (M. Van den Bergh, "A
    pentanomial model for engine testing", and fishtest's LLR on the pentanomial): H0 "the
    first bot's mean score a game is ``s0``" against H1 "it is ``s1``", errors ``alpha`` and
    ``beta``. The log-likelihood ratio compares the pentanomial distributions of mean ``s1``
    and of mean ``s0`` that best fit the pairs seen (each outcome never seen counted as
    1/1000 of a pair); Wald's bounds decide.

    >>> test = PairSprt(0.5, 0.65)
    >>> for _ in range(20): test.add(2.0)
    >>> test.verdict()
    'H1'
    """

    def __init__(self, s0: float, s1: float, alpha: float = 0.05, beta: float = 0.05) -> None:
        if not 0 < s0 < s1 < 1:
            raise ValueError("an SPRT needs 0 < P0 < P1 < 1")
        self.p0, self.p1 = s0, s1
        self.counts = [0] * 5
        self.upper = math.log((1 - beta) / alpha)
        self.lower = math.log(beta / (1 - alpha))

    def add(self, points: float) -> None:
        """One more pair: the first bot's points over its two games (0 to 2)."""
        self.counts[min(4, max(0, round(points * 2)))] += 1

    @property
    def llr(self) -> float:
        if not any(self.counts):
            return 0.0
        counts = [c if c else _UNSEEN for c in self.counts]
        return _log_likelihood_at(counts, self.p1) - _log_likelihood_at(counts, self.p0)

    def verdict(self) -> str | None:
        """``H1`` (the score is at least ``s1``), ``H0`` (at most ``s0``), or None: go on."""
        llr = self.llr
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None
