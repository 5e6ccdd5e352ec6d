"""Mixed play for the Bluff levels: a decision rule that is a probability distribution.

A deterministic rule over a seat's odds lets an opponent invert it: one call can pin down
the hand behind it. :func:`distribution` turns the probabilities a level
believes into a distribution over its actions; :func:`choose` samples it with the
generator the bot was given, so a seeded game still replays exactly. Because the
distribution is a plain function of the probabilities, a model of a level (the exploiters
of :mod:`usotsuki.bots.bluff.exploiters`) can compute how likely each observed call was under
any hypothetical hand.

Three sources of randomness, each with a reason:

- **Challenge frequency.** A call is challenged with a logistic probability of the margin
  by which challenging loses less often than the best raise (``softness``). At a margin
  of 0 a level is indifferent by its own estimate, so any mix costs it nothing there; the
  logistic makes "almost indifferent" mix too, so an opponent cannot learn the exact
  probability at which a level starts to challenge (and thus what it holds) from one
  challenge or one raise. Far from indifference it plays the clear action.
- **Bluffs.** With probability ``bluff`` the raise is one of the weakest legal calls
  that are not plausible by the level's own odds. An indifference argument sets its size,
  nothing was fitted: a caller whose calls are always honest is challenged only when it
  holds nothing, and a caller who bluffs with frequency ``b`` makes a reader's posterior
  odds on a call "I hold it" vs "I do not" at most ``(1 - b) / (b / spread)``, bounded
  instead of infinite; 0.15 to 0.2 keeps that ratio near 10 to 20 while few rounds are
  staked on bluffs. (One self-play trial, 0.15 against 0.25 against the tuning half of
  the exploiters, benchmarks/exploit.py, showed no measurable difference.)
- **Near-equal calls.** The honest raise is drawn among the ``spread`` weakest plausible
  calls (weights halving), not always the weakest, so which rank is raised says less.

Every option keeps the hard facts: a call the seat's cards make certain is never
challenged, a call that cannot be true always is, and B5/B10 are respected (no challenge
without a current call; no raise past the deck's strongest call).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from usotsuki.bluff.actions import ALL_CALLS, CHALLENGE, FIRST_STRONGER, Action
from usotsuki.bluff.view import BluffView
from usotsuki.odds import deck_mask

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

CHALLENGE_INDEX = -1


@dataclass(frozen=True, slots=True)
class MixedRule:
    """How a level turns probabilities into a distribution over actions."""

    # plausible, doubt and next_doubt are hand-set thresholds (those of DETERMINISTIC), not
    # fitted
    plausible: float = 0.5  # an honest raise: a legal call at least this likely
    doubt: float = 0.3  # a current call less likely than this is worth challenging
    next_doubt: float = 0.6  # how often a false raise is expected to be challenged
    softness: float = 0.06  # logistic width of the challenge mix (0: a hard threshold)
    spread: int = 3  # near-equal honest raises, and bluff candidates, considered
    bluff: float = 0.2  # the share of raises that are bluffs, when a bluff is at hand


DETERMINISTIC = MixedRule(softness=0.0, spread=1, bluff=0.0)
"""A fixed rule (one action with probability 1): raise to the weakest legal call at least
``plausible`` likely (else the likeliest); challenge when the current call is less likely
than ``doubt``, or than the chance ``(1 - p) * next_doubt`` that this raise is false and
challenged. ``expert-v1`` plays its rounds out with it; ``x-read-v0`` models it."""
NO_CALL = -1.0
"""The probability the bots give a call a short deck does not have (B13), so that no rule
ever picks it."""


def deck_probs(probs: FloatArray, ranks: int) -> FloatArray:
    """``probs`` (326, ALL_CALLS order) with :data:`NO_CALL` for the calls outside a
    ``ranks`` deck (B13); unchanged with the full deck."""
    return probs if ranks == 13 else np.where(deck_mask(ranks), probs, NO_CALL)


def first_legal_index(v: BluffView) -> int:
    """Where the legal calls start in ALL_CALLS (B5: strictly stronger than the current)."""
    current = v.current_call
    return 0 if current is None else FIRST_STRONGER[current.index]


def as_action(index: int) -> Action:
    """The action of an index into ALL_CALLS (:data:`CHALLENGE_INDEX`: the challenge)."""
    return CHALLENGE if index < 0 else ALL_CALLS[index]


def challenge_probabilities(p_current: FloatArray | None, best_raise_p: FloatArray,
                            rule: MixedRule) -> FloatArray:
    """How often to challenge a call believed ``p_current`` likely (B9: the challenger
    loses when it is true) when the best honest raise is ``best_raise_p`` likely
    (negative: no raise is left, B10); one entry per row."""
    if p_current is None:
        return np.zeros_like(best_raise_p)  # B5: the first caller must call
    raise_loss = (1.0 - best_raise_p) * rule.next_doubt
    margin = np.maximum(rule.doubt - p_current, raise_loss - p_current)
    if rule.softness <= 0.0:
        c = (margin > 0.0).astype(np.float64)
    else:
        c = 1.0 / (1.0 + np.exp(-np.clip(margin / rule.softness, -50.0, 50.0)))
    c = np.where(p_current >= 1.0, 0.0, c)  # the seat's own cards make it true
    return np.where((p_current <= 0.0) | (best_raise_p < 0.0), 1.0, c)  # false, or B10


def distribution_rows(probs: FloatArray, start: int, p_current: FloatArray | None,
                      rule: MixedRule) -> tuple[FloatArray, FloatArray]:
    """:func:`distribution` for many rows at once (one per hypothetical hand, say):
    ``probs`` is (n, 326), ``p_current`` (n,) or None. Returns the challenge
    probability (n,) and the probability of each legal call (n, 326 - start).

    This is the one implementation of the rule; :func:`distribution` is its one-row case,
    so what a bot does and what a model of it predicts cannot drift apart.
    """
    n = probs.shape[0]
    legal = probs[:, start:]
    width = legal.shape[1]
    valid = legal >= 0.0  # NO_CALL marks calls the deck lacks (B13)
    any_valid = np.asarray(valid.any(axis=1), dtype=bool)
    plausible = valid & (legal >= rule.plausible)
    spread = max(1, rule.spread)
    rank = np.cumsum(plausible, axis=1)
    honest = plausible & (rank <= spread)
    has_plausible = np.asarray(plausible.any(axis=1), dtype=bool)
    # Without a plausible call: the likeliest legal call (the weakest of equals).
    likeliest = np.argmax(np.where(valid, legal, -2.0), axis=1) if width else np.zeros(n, int)
    fallback = np.zeros_like(honest)
    if width:
        fallback[np.arange(n), likeliest] = True
    honest = np.where(has_plausible[:, None], honest, fallback & any_valid[:, None])
    honest_w = np.where(honest, 0.5 ** np.maximum(rank - 1, 0), 0.0)
    honest_w = np.where(has_plausible[:, None], honest_w, honest.astype(np.float64))
    total = honest_w.sum(axis=1, keepdims=True)
    honest_w = np.divide(honest_w, total, out=np.zeros_like(honest_w), where=total > 0)
    if width:
        first = np.argmax(honest, axis=1)
        best_p = np.where(any_valid, legal[np.arange(n), first], -1.0)
    else:
        best_p = np.full(n, -1.0)
    weights = honest_w
    if rule.bluff > 0.0 and width:
        candidates = valid & ~plausible & (legal > 0.0) & ~honest
        bluffs = candidates & (np.cumsum(candidates, axis=1) <= spread)
        count = bluffs.sum(axis=1, keepdims=True)
        share = np.where(count > 0, rule.bluff, 0.0)
        weights = honest_w * (1.0 - share) + np.where(
            bluffs, share / np.maximum(count, 1), 0.0)
    c = challenge_probabilities(p_current, best_p, rule)
    return c, weights * (1.0 - c)[:, None]


def distribution(probs: FloatArray, start: int, p_current: float | None,
                 rule: MixedRule) -> tuple[IntArray, FloatArray]:
    """The actions (indices into ALL_CALLS, :data:`CHALLENGE_INDEX` to challenge) with a
    positive probability under ``rule``, and those probabilities.

    ``probs`` holds the 326 calls' probabilities (negative for calls the deck lacks,
    B13); ``start`` is the first legal call (B5); ``p_current`` the current call's
    probability, None when there is none.
    """
    pc = None if p_current is None else np.array([p_current])
    c, w = distribution_rows(probs[None, :], start, pc, rule)
    raises = np.flatnonzero(w[0] > 0.0)
    indices = np.concatenate([[CHALLENGE_INDEX], start + raises]).astype(np.int64)
    weights = np.concatenate([c, w[0, raises]])
    keep = weights > 0.0
    return indices[keep], weights[keep]


def choose(probs: FloatArray, start: int, p_current: float | None, rule: MixedRule,
           rng: random.Random) -> int:
    """One action drawn from :func:`distribution` with ``rng`` (at most one draw per
    decision, so a seeded game replays exactly)."""
    return draw(*distribution(probs, start, p_current, rule), rng)


def draw(indices: IntArray, weights: FloatArray, rng: random.Random) -> int:
    """One of ``indices`` drawn with ``weights`` (unnormalised): no draw when there is one,
    else exactly one ``rng.random()``."""
    if indices.size == 1:
        return int(indices[0])
    u = rng.random() * float(weights.sum())
    k = int(np.searchsorted(np.cumsum(weights), u, side="right"))
    return int(indices[min(k, indices.size - 1)])


def action_probabilities(probs: FloatArray, start: int, p_current: FloatArray | None,
                         rule: MixedRule, action: int) -> FloatArray:
    """(n,): how likely ``rule`` makes ``action`` (an index into ALL_CALLS, or
    :data:`CHALLENGE_INDEX`) in each row of ``probs``."""
    c, w = distribution_rows(probs, start, p_current, rule)
    if action == CHALLENGE_INDEX:
        return c
    return w[:, action - start] if 0 <= action - start < w.shape[1] else np.zeros_like(c)
