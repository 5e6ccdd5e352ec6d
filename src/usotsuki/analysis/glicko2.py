"""Glicko-2 ratings for puzzles: a player and a puzzle each hold a rating, a deviation and a
volatility, and every attempt is a game between them (solved: the player won).

Mark Glickman's algorithm as published in "Example of the Glicko-2 system" (2022,
http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the Illinois algorithm for
the volatility (step 5). tests/analysis/test_glicko2.py checks it against that paper's
worked example. Like lichess's puzzles, each attempt is its own rating period of one
game, for both sides.

The Python package ``glicko2`` (the one on PyPI) was not used: in step 5 it compares
Δ² with μ² + v where the paper has φ² + v (and likewise in f(x)), which goes unnoticed on
the paper's example (μ = 0 there) but moves every other rating wrongly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178  # step 2: Glicko to Glicko-2 scale
TAU = 0.5  # the system constant, which constrains the change in volatility
EPSILON = 0.000001  # step 5's convergence tolerance
DEFAULT_RATING, DEFAULT_RD, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
MIN_RD, MAX_RD = 45.0, 350.0  # lichess's bounds: a rating never turns certain, nor wilder
# than a new one


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale (1500 new), its deviation and its volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def to_json(self) -> dict[str, float]:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "volatility": round(self.volatility, 6)}

    @classmethod
    def from_json(cls, data: object) -> Rating:
        """A rating from :meth:`to_json`'s object; a new one for anything that is not such
        an object (a browser's stored value may be anything).

        :raises ValueError: for values out of range."""
        if not isinstance(data, dict):
            return cls()
        try:
            rating = float(data["rating"])
            rd = float(data["rd"])
            volatility = float(data["volatility"])
        except (KeyError, TypeError, ValueError):
            return cls()
        if not (0 < rating < 5000 and 0 < rd <= MAX_RD and 0 < volatility < 1):
            raise ValueError("a rating is a number from 0 to 5000, its deviation up to "
                             f"{MAX_RD:g}, its volatility from 0 to 1")
        return cls(rating, rd, volatility)


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Rating, results: list[tuple[Rating, float]], tau: float = TAU,
           bounded: bool = True) -> Rating:
    """``player``'s rating after one rating period of ``results`` (opponent, score: 1 a
    win, 0 a loss, 0.5 a draw). ``bounded``: keep the deviation within lichess's bounds
    (off for the paper's example)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:  # step 6 only: the deviation grows
        return _bounded(Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma),
                               sigma), bounded)
    opponents = [((r.rating - DEFAULT_RATING) / SCALE, r.rd / SCALE, s) for r, s in results]
    # steps 3 and 4: the estimated variance and the improvement
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in opponents:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * gain
    sigma = _volatility(phi, sigma, v, delta, tau)
    # steps 6 to 8
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * gain
    return _bounded(Rating(SCALE * mu + DEFAULT_RATING, SCALE * phi, sigma), bounded)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = c, f_c
    return math.exp(big_a / 2.0)


def _bounded(r: Rating, bounded: bool) -> Rating:
    if not bounded:
        return r
    return Rating(r.rating, min(MAX_RD, max(MIN_RD, r.rd)), r.volatility)


def attempt(player: Rating, puzzle: Rating, solved: bool) -> tuple[Rating, Rating]:
    """The player's and the puzzle's ratings after one attempt (solved: the player won)."""
    score = 1.0 if solved else 0.0
    return update(player, [(puzzle, score)]), update(puzzle, [(player, 1.0 - score)])
