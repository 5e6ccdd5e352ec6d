"""The search the ``hard`` and ``expert`` Bluff levels decide by (their settings:
:mod:`usotsuki.bots.bluff.levels`).

A decision: a belief over the unseen cards (particles weighted by how well they explain
the calls, :mod:`usotsuki.bots.bluff.calibration`); the chance that the call in front of
the seat is true, judged through a fitted map where the belief is known to be off, and
shifted by what this game showed of its caller (the read); candidate actions, a challenge
(it loses exactly when that call is true, B9) and the raises a mixed rule would consider
(:mod:`usotsuki.bots.bluff.policy`); each raise valued by playing the round out in worlds
drawn from the belief (:mod:`usotsuki.bots.bluff.playouts`). The choice is drawn among
the near-best actions, and a share of decisions is handed to the candidate rule's own
mixed play, so that neither the search's choice nor an honest first call pins the hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from usotsuki.bluff import is_true
from usotsuki.bluff.actions import Action
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff.belief import N1, N2, R1, R2, SF_CARDS, Particles, sample
from usotsuki.bots.bluff.calibration import Calibration, calibration, recalibrate
from usotsuki.bots.bluff.playouts import playouts
from usotsuki.bots.bluff.policy import (
    FloatArray,
    IntArray,
    MixedRule,
    as_action,
    choose,
    deck_probs,
    distribution,
    draw,
    first_legal_index,
)
from usotsuki.odds import call_probabilities

CalibrationName = Calibration | str | None
"""A calibration, or the name of a shipped one (bluff/calibration.json); None: off."""


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """Everything that sets a searching level apart (``many_*``: with three or more seats
    in play, instead of the setting it names; None there: as with two seats)."""

    worlds: int  # deals each raise is played out in
    particles: int  # the belief's particles
    margin: float  # actions within this of the best loss rate are mixed
    temperature: float  # their weights: exp(-(loss - best) / temperature)
    cal: Calibration | str  # the belief's particle weights (and map, with current_only)
    rule: MixedRule  # the candidate raises: the raises this rule would consider
    playout: MixedRule  # how every seat plays in a playout
    mix: float  # the share of decisions played by ``rule``'s own mixed distribution
    current_only: bool  # True: ``cal``'s map judges the current call only
    challenge_map: CalibrationName  # judges the current call with at most challenge_seats
    challenge_seats: int | None  # (None: always)
    read: float | None  # the read of the caller: its shift's prior variance (None: off)
    read_seats: int | None  # the read only with at most this many seats (None: always)
    jump_seats: int | None  # the jump raise with at most this many seats (None: always)
    jump_p: float | None  # how plausible the jump must be (None: rule.plausible)
    many_worlds: int | None
    many_mix: float | None
    many_playout: MixedRule | None
    many_challenge_map: CalibrationName  # full deck only
    many_rule: MixedRule | None
    many_particles: int | None


@dataclass(frozen=True, slots=True)
class Belief:
    """What a searching seat decides on: its weighted particles (deals of the unseen
    cards; :meth:`Particles.truth` says each call's truth in those a search plays out,
    B8), every call's believed probability (:data:`usotsuki.bots.bluff.policy.NO_CALL`
    outside the deck, B13), and the chance that the call in front of it is true (None
    without one), judged and read."""

    particles: Particles
    probs: np.ndarray
    p_current: float | None


def _calibration(value: CalibrationName) -> Calibration | None:
    return calibration(value) if isinstance(value, str) else value


class SearchBluffBot:
    """Determinized search over calibrated beliefs, with mixed playouts and a mixed choice
    (module docstring); ``settings`` say how much it weighs and which options are on."""

    name = "search"

    def __init__(self, settings: SearchSettings) -> None:
        self.settings = settings
        self.cal = calibration(settings.cal) if isinstance(settings.cal, str) else settings.cal
        self.challenge_map = _calibration(settings.challenge_map)
        self.many_challenge_map = _calibration(settings.many_challenge_map)
        self._read_cache: dict[tuple[object, ...], float | None] = {}

    def believe(self, v: BluffView, rng: random.Random) -> Belief:
        """What this seat believes of the round (draws the particles from ``rng``)."""
        assert v.seat is not None
        hand = v.hand or ()
        exact = call_probabilities(hand, v.cards_in_play - len(hand), v.ranks)
        particles = sample(v, rng, self.cal.model(self.particles_for(v)))
        raw = particles.probabilities()
        if self.settings.current_only:
            probs = deck_probs(np.where((exact <= 0.0) | (exact >= 1.0), exact, raw), v.ranks)
        else:
            probs = deck_probs(recalibrate(raw, exact, self.cal), v.ranks)
        p_current = self.current_probability(v, raw, exact, probs)
        if p_current is not None and v.current_call is not None:
            p_current = self.read_caller(v, p_current, float(exact[v.current_call.index]))
        return Belief(particles, probs, p_current)

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        belief = self.believe(v, rng)
        many = v.seats_in_play >= 3
        mix = self.settings.many_mix if many and self.settings.many_mix is not None \
            else self.settings.mix
        if mix > 0.0 and rng.random() < mix:
            return as_action(choose(belief.probs, first_legal_index(v), belief.p_current,
                                    self.rule_for(v), rng))
        searched = self.search(v, rng, belief)
        if searched is None:
            return as_action(-1)  # B10
        return as_action(draw(*self.choice(*searched), rng))

    def choice(self, actions: list[int], loss: np.ndarray) -> tuple[IntArray, FloatArray]:
        """The searched ``actions`` with their unnormalised weights: those within
        ``margin`` of the best loss rate, ``exp(-(loss - best) / temperature)``."""
        best = float(loss.min())
        weights = np.where(loss <= best + self.settings.margin,
                           np.exp(-(loss - best) / max(self.settings.temperature, 1e-9)), 0.0)
        return np.asarray(actions, dtype=np.int64), weights

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        """The actions (indices into ALL_CALLS, -1 to challenge) :meth:`act` may take at
        ``v`` and their probabilities, over one belief and one search drawn from ``rng``
        (the mixed share and the search's choice weighed together): what a faithful
        reader of the level (:mod:`.faithful`) rebuilds."""
        belief = self.believe(v, rng)
        many = v.seats_in_play >= 3
        mix = self.settings.many_mix if many and self.settings.many_mix is not None \
            else self.settings.mix
        start = first_legal_index(v)
        mixed_i, mixed_w = distribution(belief.probs, start, belief.p_current, self.rule_for(v))
        searched = self.search(v, rng, belief)
        if searched is None:
            return np.array([-1], dtype=np.int64), np.ones(1)  # B10
        found_i, found_w = self.choice(*searched)
        indices = np.concatenate([mixed_i, found_i])
        weights = np.concatenate([mix * mixed_w / mixed_w.sum(),
                                  (1.0 - mix) * found_w / found_w.sum()])
        merged, where = np.unique(indices, return_inverse=True)
        return (np.asarray(merged, dtype=np.int64),
                np.asarray(np.bincount(where, weights=weights), dtype=np.float64))

    def particles_for(self, v: BluffView) -> int:
        """The belief's particles: ``many_particles`` with three or more seats in play."""
        many = v.seats_in_play >= 3
        s = self.settings
        return s.many_particles if many and s.many_particles else s.particles

    def current_probability(self, v: BluffView, raw: np.ndarray, exact: np.ndarray,
                            probs: np.ndarray) -> float | None:
        """How likely the call in front of the seat is true (None without one), given the
        particle belief ``raw``, the seat's exact card odds ``exact`` and the believed
        ``probs``: :meth:`judged` of its entries."""
        current = v.current_call
        if current is None:
            return None
        i = current.index
        return self.judged(v, float(raw[i]), float(exact[i]), float(probs[i]))

    def judged(self, v: BluffView, raw: float, exact: float, believed: float) -> float:
        """The chance the call in front of the seat is true, from the particle belief
        ``raw`` of it, the seat's exact card odds ``exact`` of it and its believed
        probability ``believed``: through ``many_challenge_map`` with three or more
        seats in play, or ``challenge_map`` with at most ``challenge_seats``, with the
        full deck (the maps were fitted there; B13's short decks keep the belief), else
        through ``cal``'s map (``current_only``) or ``believed`` as it is. A call the
        seat's own cards decide stays 0 or 1."""
        seats = v.seats_in_play

        def mapped(cal: Calibration) -> float:
            return float(recalibrate(np.array([raw]), np.array([exact]), cal)[0])

        if self.many_challenge_map is not None and v.ranks == 13 and seats >= 3:
            return mapped(self.many_challenge_map)
        limit = self.settings.challenge_seats
        if self.challenge_map is not None and v.ranks == 13 and (
                limit is None or seats <= limit):
            return mapped(self.challenge_map)
        if self.settings.current_only:
            return mapped(self.cal)
        return believed

    def read_caller(self, v: BluffView, p_current: float, exact: float) -> float:
        """``p_current`` (the chance the call in front of the seat is true) shifted on the
        logit scale by :meth:`caller_shift`, when ``read`` is on and at most
        ``read_seats`` seats are in play; a call the seat's own cards decide (``exact`` 0
        or 1) is never moved."""
        if not self.settings.read or exact <= 0.0 or exact >= 1.0 or not v.history:
            return p_current
        seats = v.seats_in_play
        if self.settings.read_seats is not None and seats > self.settings.read_seats:
            return p_current
        shift = self.caller_shift(v, v.calls[-1][0])
        q = min(max(p_current, EPS), 1.0 - EPS)
        return 1.0 / (1.0 + math.exp(-(math.log(q / (1.0 - q)) + shift)))

    def caller_shift(self, v: BluffView, caller: int) -> float:
        """How much more often (logit scale) ``caller``'s calls were true this game than
        this seat's belief said when it faced them: the maximum a posteriori shift ``d``
        of ``P(true) = sigmoid(logit(p) + d)`` over the earlier rounds' calls by
        ``caller`` that this seat answered (their truth is known from the revealed
        hands, B9), each ``p`` being the belief this seat held there (recomputed from
        the view, with a generator seeded by the round, so the read is a function of
        the view), under a normal prior ``d ~ N(0, read)``: with no history the belief
        is used as it is."""
        assert v.seat is not None and self.settings.read
        logits: list[float] = []
        truths: list[float] = []
        for k, r in enumerate(v.history):
            for i, (seat, call) in enumerate(r.calls):
                answered = r.calls[i + 1][0] if i + 1 < len(r.calls) else r.challenger
                if seat != caller or answered != v.seat:
                    continue
                p = self._past_belief(v, k, i)
                if p is None:
                    continue
                q = min(max(p, EPS), 1.0 - EPS)
                logits.append(math.log(q / (1.0 - q)))
                truths.append(float(is_true(call, r.hands)))
        if not logits:
            return 0.0
        x, y = np.array(logits), np.array(truths)
        d, prior = 0.0, self.settings.read
        for _ in range(25):  # Newton steps on a concave log posterior
            fit = 1.0 / (1.0 + np.exp(-(x + d)))
            step = (float(np.sum(y - fit)) - d / prior) / (
                float(np.sum(fit * (1.0 - fit))) + 1.0 / prior)
            d += step
            if abs(step) < 1e-6:
                break
        return d

    def _past_belief(self, v: BluffView, k: int, i: int) -> float | None:
        """The belief this seat held in round ``v.history[k]`` that its ``i``-th call was
        true, when it answered it (None where its own cards decided it): drawn on the
        particles it had there and judged as :meth:`judged` judges the call in front of
        it now, so the shift the read learns is measured from the value the shift is
        then applied to."""
        assert v.seat is not None
        r = v.history[k]
        hand = r.hands[v.seat]
        sizes = tuple(len(h) for h in r.hands)
        key = (k, i, hand, r.calls)
        if key in self._read_cache:
            return self._read_cache[key]
        index = r.calls[i][1].index
        exact = call_probabilities(hand, sum(sizes) - len(hand), v.ranks)[index]
        p: float | None = None
        if 0.0 < exact < 1.0:
            past = replace(v, hand=hand, hand_sizes=sizes, calls=r.calls[:i + 1], history=())
            parts = sample(past, random.Random(f"read:{k}:{i}"),
                           self.cal.model(self.particles_for(past)))
            raw = float(parts.weights @ _call_truth(parts, index))
            believed = float(recalibrate(np.array([raw]), np.array([exact]), self.cal)[0])
            p = self.judged(past, raw, float(exact), believed)
        if len(self._read_cache) > 4096:
            self._read_cache.clear()
        self._read_cache[key] = p
        return p

    def rule_for(self, v: BluffView) -> MixedRule:
        """The candidate rule: ``many_rule`` with three or more seats in play, if set."""
        if self.settings.many_rule is not None and v.seats_in_play >= 3:
            return self.settings.many_rule
        return self.settings.rule

    def raises(self, v: BluffView, probs: np.ndarray, p_current: float | None) -> list[int]:
        """The raises the search weighs (indices into ALL_CALLS, in the order they are
        played out): those of the candidate rule (its honest calls and bluffs), the jump
        when at most ``jump_seats`` seats are in play, and the likeliest legal call."""
        start = first_legal_index(v)
        indices, _ = distribution(probs, start, p_current, self.rule_for(v))
        raises = [int(i) for i in indices if i >= 0]
        seats = v.seats_in_play
        s = self.settings
        if s.jump_seats is None or seats <= s.jump_seats:
            # the jump: the strongest legal call the belief still finds plausible
            floor = s.rule.plausible if s.jump_p is None else s.jump_p
            strong = np.flatnonzero(probs[start:] >= floor)
            if strong.size and start + int(strong[-1]) not in raises:
                raises.append(start + int(strong[-1]))
        valid = np.flatnonzero(probs[start:] >= 0.0)
        if valid.size:
            likeliest = start + int(valid[np.argmax(probs[start:][valid])])
            if likeliest not in raises:
                raises.append(likeliest)
        return raises

    def playout_rule(self, v: BluffView) -> MixedRule:
        """How every seat plays in a playout: ``many_playout`` with three or more seats in
        play, if set."""
        many = v.seats_in_play >= 3
        s = self.settings
        return s.many_playout if many and s.many_playout is not None else s.playout

    def search(self, v: BluffView, rng: random.Random, belief: Belief
               ) -> tuple[list[int], np.ndarray] | None:
        """The candidate actions (indices into ALL_CALLS, -1 to challenge) and the chance
        of losing the round the search gives each; None when no raise is left (B10)."""
        current = v.current_call
        raises = self.raises(v, belief.probs, belief.p_current)
        if not raises:
            return None  # B10
        if current is None and len(raises) == 1:
            return raises, np.zeros(1)
        gen = np.random.default_rng(rng.getrandbits(64))
        many = v.seats_in_play >= 3
        s = self.settings
        size = s.many_worlds if many and s.many_worlds else s.worlds
        particles = belief.particles
        worlds = gen.choice(particles.weights.shape[0], size=size, p=particles.weights)
        owner = particles.owner[worlds]
        truth = particles.truth(worlds)
        actions = list(raises)
        lost = playouts(v, owner, truth, raises, self.playout_rule(v), gen) == v.seat
        losses = [float(x) for x in lost.mean(axis=1)]
        if belief.p_current is not None:
            actions.append(-1)
            losses.append(belief.p_current)  # B9: a challenge loses when the call is true
        return actions, np.array(losses)


EPS = 1e-3
"""Probabilities are clipped to [EPS, 1 - EPS] before taking a logit."""


def _call_truth(particles: Particles, index: int) -> np.ndarray:
    """(n,): whether call ``index`` is true in each particle (B8): one column of
    :meth:`Particles.truth`."""
    if index >= len(R1):
        return np.asarray(particles.presence[:, SF_CARDS[index - len(R1)]].all(axis=1))
    true = particles.counts[:, R1[index]] >= N1[index]
    if N2[index]:
        true &= particles.counts[:, R2[index]] >= N2[index]
    return np.asarray(true)
