"""Beliefs about the other Bluff hands: a particle model conditioned on this round's calls.

Particles are deals of the cards this seat cannot see to the other seats, drawn
uniformly (the exact prior: B3 shuffles the whole deck, B13's short deck if so). Each
particle is weighted by how likely the calls made so far in the round are under a simple
model of the callers' policy: a player tends to call cards they hold. For a call naming
``need`` cards of a rank, a caller holding ``k`` of them (capped at ``need``) makes it with weight
``exp(support * k)``; a straight flush counts the caller's cards of that sequence. A
player who raised rather than challenged also shows some faith in the call they raised
over, weighted by ``faith`` the same way. ``support = faith = 0`` gives the plain
hypergeometric odds of :mod:`usotsuki.odds`.

Everything is vectorised over particles with numpy; the random draws come from a numpy
generator seeded by the bot's own ``random.Random``, so games replay exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from usotsuki.bluff.view import BluffView
from usotsuki.odds import FIRST_STRAIGHT, NEED1, NEED2, RANK1, RANK2, STRAIGHT_CARDS

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
FloatArray = npt.NDArray[np.float64]

R1, N1, R2, N2, SF_CARDS = RANK1, NEED1, RANK2, NEED2, STRAIGHT_CARDS
FIRST_SF = FIRST_STRAIGHT
_RANK_BASE = np.arange(13, dtype=np.int64) * 5


@dataclass(frozen=True, slots=True)
class BeliefModel:
    """How much a call says about its caller's hand (see the module docstring)."""

    particles: int = 256
    support: float = 1.0
    faith: float = 0.3


@dataclass(frozen=True, slots=True)
class Particles:
    """Sampled deals of the unseen cards and their weights (normalised to sum 1)."""

    presence: BoolArray  # (n, 52): card held by anyone, in this particle
    counts: IntArray  # (n, 13): cards of each rank held by everyone together
    owner: IntArray  # (n, 52): seat holding the card, -1 for nobody
    weights: FloatArray  # (n,)

    def truth(self, rows: IntArray | None = None) -> BoolArray:
        """(n, 326): whether each call is true in each particle (B8); ``rows``: in those
        particles only, in that order."""
        c = self.counts if rows is None else self.counts[rows]
        presence = self.presence if rows is None else self.presence[rows]
        ranked = (c[:, R1] >= N1) & (c[:, R2] >= N2)
        flushes = presence[:, SF_CARDS].all(axis=2)
        return np.concatenate([ranked, flushes], axis=1)

    def probabilities(self) -> FloatArray:
        """The weighted probability that each of the 326 calls is true: from the weighted
        joint histogram of every two ranks' counts (a weighted ``bincount``), never the
        (n, 326) table of :meth:`truth`, which was most of a searching bot's decision with
        4,096 particles. (No matrix product: a threaded BLAS on a busy machine spent more
        time than the product.)"""
        code = _RANK_BASE[None, :] + self.counts  # (n, 13): rank * 5 + its count
        pairs = code[:, :, None] * 65 + code[:, None, :]  # (n, 13, 13)
        joint = np.bincount(pairs.ravel(), weights=np.repeat(self.weights, 169),
                            minlength=65 * 65).reshape(13, 5, 13, 5)
        # at_least[r1, r2, a, b]: the weight of particles with at least a of rank r1 and b
        # of rank r2 (for a one-rank call N2 is 0: every count of its R2 counts)
        at_least = joint.transpose(0, 2, 1, 3)[:, :, ::-1, ::-1].cumsum(2).cumsum(3)[
            :, :, ::-1, ::-1]
        ranked = at_least[R1, R2, N1, N2]
        flushes = self.weights @ self.presence[:, SF_CARDS].all(axis=2).astype(np.float64)
        return np.asarray(np.concatenate([ranked, flushes]), dtype=np.float64)

    def probability(self, index: int) -> float:
        """:meth:`probabilities` of one call: its column of :meth:`truth` alone (the
        server's hint asks for the current call only, at every action)."""
        if index >= FIRST_SF:
            true = self.presence[:, SF_CARDS[index - FIRST_SF]].all(axis=1)
        else:
            c = self.counts
            true = (c[:, R1[index]] >= N1[index]) & (c[:, R2[index]] >= N2[index])
        return float(self.weights @ true)

    @property
    def effective_size(self) -> float:
        """Kish's effective sample size: how many equal particles the weights are worth."""
        return float(1.0 / np.sum(self.weights ** 2))


def sample(v: BluffView, rng: random.Random, model: BeliefModel) -> Particles:
    """Particles for seat ``v.seat`` at this point of the round."""
    assert v.seat is not None
    n = model.particles
    gen = np.random.default_rng(rng.getrandbits(64))
    mine = np.zeros(52, dtype=bool)
    mine[list(v.hand or ())] = True
    in_deck = np.arange(52) >= 52 - v.deck_size  # B13: a short deck has the high ranks
    unseen = np.flatnonzero(~mine & in_deck)
    others = [s for s, inside in enumerate(v.in_play) if inside and s != v.seat]
    dealt = sum(v.hand_sizes[s] for s in others)
    # A random permutation per particle of the unseen cards; the first ``dealt`` go to
    # the other seats in seat order.
    order = np.argsort(gen.random((n, len(unseen))), axis=1)[:, :dealt]
    cards = unseen[order]
    owner = np.full((n, 52), -1, dtype=np.int64)
    owner[:, mine] = v.seat
    seat_of_column = np.repeat(others, [v.hand_sizes[s] for s in others])
    rows = np.arange(n)[:, None]
    owner[rows, cards] = seat_of_column[None, :]
    presence = owner >= 0
    counts = presence.reshape(n, 13, 4).sum(axis=2)
    log_w = _log_likelihood(v, owner, model)
    w = np.exp(log_w - log_w.max())
    return Particles(presence, counts, owner, w / w.sum())


def _log_likelihood(v: BluffView, owner: IntArray, model: BeliefModel) -> FloatArray:
    n = owner.shape[0]
    log_w = np.zeros(n)
    if model.support == 0 and model.faith == 0:
        return log_w
    held: dict[int, tuple[BoolArray, IntArray]] = {}  # per seat: cards held, rank counts
    previous: int | None = None
    for seat, call in v.calls:
        if seat != v.seat:
            if seat not in held:
                cards = owner == seat
                held[seat] = (cards, cards.reshape(n, 13, 4).sum(axis=2))
            log_w += model.support * _held(*held[seat], call.index)
            if previous is not None and model.faith:
                log_w += model.faith * _held(*held[seat], previous)
        previous = call.index
    return log_w


def _held(cards: BoolArray, per_rank: IntArray, index: int) -> FloatArray:
    """(n,): how many of the cards call ``index`` names the seat holds, capped per rank."""
    if index >= FIRST_SF:
        return np.asarray(cards[:, SF_CARDS[index - FIRST_SF]].sum(axis=1), dtype=np.float64)
    k = np.minimum(per_rank[:, R1[index]], N1[index])
    if N2[index]:
        k = k + np.minimum(per_rank[:, R2[index]], N2[index])
    return np.asarray(k, dtype=np.float64)
