"""The Bluff levels players pick, weakest first: ``cautious``, ``easy``, ``normal``,
``hard`` and ``expert``. Each class here is the whole of its level's decision, or the
settings of the search it runs (:mod:`usotsuki.bots.bluff.search`).

They differ in where their probabilities come from more than in how they act on them:

- ``cautious`` and ``easy``: the exact odds of their own cards (B8), nothing else.
- ``normal``: a small calibrated particle belief (64 deals weighted by how well they
  explain the round's calls, :mod:`usotsuki.bots.bluff.calibration`) and a mixed rule
  (:mod:`usotsuki.bots.bluff.policy`): it bluffs, challenges near its threshold only some
  of the time, and varies among near-equal calls, so one call does not pin its hand.
  At a table of two it plays a rule of its own (:data:`NORMAL_HEADS_UP`): no bluffs, and
  raises only to calls it finds likelier.
- ``hard`` and ``expert``: the same search over calibrated beliefs, ``hard`` on a budget
  of a few milliseconds a decision, ``expert`` with more worlds, particles and options.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from usotsuki.bluff.actions import CHALLENGE, Action, Call, Challenge
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff import solved
from usotsuki.bots.bluff.calibration import beliefs, calibration
from usotsuki.bots.bluff.policy import (
    FloatArray,
    IntArray,
    MixedRule,
    as_action,
    deck_probs,
    distribution,
    draw,
    first_legal_index,
)
from usotsuki.bots.bluff.search import SearchBluffBot, SearchSettings
from usotsuki.odds import call_probabilities, call_probability, deck_mask


class CautiousBluffBot:
    """Raises only to calls that are likely true given its cards (exact odds, B8);
    challenges a call that its cards make unlikely, or when no plausible raise is left."""

    name = "cautious"
    plausible = 0.5  # raises only to calls at least this likely
    doubt_below = 0.4  # challenges a call less likely than this

    def act(self, view: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        hand = view.hand or ()
        unseen = view.cards_in_play - len(hand)
        odds = call_probabilities(hand, unseen, view.ranks)  # every call at once (B8)
        raises = [(float(odds[a.index]), a) for a in legal if isinstance(a, Call)]
        challenge = next((a for a in legal if isinstance(a, Challenge)), None)
        best = max((p for p, _ in raises), default=0.0)
        if challenge is not None and view.current_call is not None:
            # A challenge wins when the call is false; a raise, roughly, when it is true.
            p_current = call_probability(view.current_call, hand, unseen, view.ranks)
            if p_current < self.doubt_below or 1.0 - p_current > best:
                return challenge
        # The weakest few plausible raises, so the bot does not leap needlessly; when
        # nothing is plausible, the likeliest call.
        floor = min(self.plausible, best)
        plausible = [a for p, a in raises if p >= floor]
        return plausible[rng.randrange(min(3, len(plausible)))]


class EasyBluffBot:
    """Random raises a few steps up; challenges a fifth of the time, always when the call
    cannot be true given the cards in play and its own hand, never when its own cards
    already make the call true."""

    name = "easy"
    reach = 6  # raises to one of this many weakest legal calls
    whim = 0.2  # how often it challenges a call its cards leave uncertain

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        calls = [a for a in legal if isinstance(a, Call)]
        current = v.current_call
        if current is not None:
            hand = v.hand or ()
            p = call_probability(current, hand, v.cards_in_play - len(hand), v.ranks)
            if not calls or p == 0.0 or (p < 1.0 and rng.random() < self.whim):
                return CHALLENGE
        return calls[rng.randrange(min(self.reach, len(calls)))]

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        """The actions (indices into ALL_CALLS, -1 to challenge) :meth:`act` may take at
        ``v`` and their probabilities (for a faithful reader, :mod:`.faithful`)."""
        start = first_legal_index(v)
        calls = start + np.flatnonzero(deck_mask(v.ranks)[start:])[:self.reach]
        challenge = 0.0
        current = v.current_call
        if current is not None:
            hand = v.hand or ()
            p = call_probability(current, hand, v.cards_in_play - len(hand), v.ranks)
            challenge = 1.0 if not calls.size or p == 0.0 else self.whim if p < 1.0 else 0.0
        weights = np.concatenate([[challenge], np.full(calls.size, (1.0 - challenge)
                                                       / max(1, calls.size))])
        indices = np.concatenate([[-1], calls]).astype(np.int64)
        keep = weights > 0.0
        return indices[keep], weights[keep]


NORMAL_RULE = MixedRule(plausible=0.5, doubt=0.3, next_doubt=0.6, softness=0.05, spread=2,
                        bluff=0.15)
"""``normal``'s mix (see :mod:`usotsuki.bots.bluff.policy` for why each part); also how
every seat plays in the searching levels' playouts (a mixed policy, so a playout does not
assume opponents who never bluff)."""


NORMAL_HEADS_UP = replace(NORMAL_RULE, plausible=0.7, bluff=0.0)
"""``normal``'s rule at a table of two: no bluffs, and an honest raise only to a call it
finds at least 0.7 likely (else, as always, the likeliest call). Heads-up, a reader that
rebuilds ``normal``'s rule (``x-faithful-normal``) knows which calls it bluffs to (the
weakest ones it does not believe); against that reader this rule lost fewer rounds than
:data:`NORMAL_RULE` (docs/experiments.md, "Bluff `normal` heads-up").

It is keyed on the table, not on the seats still in the game: this rule also beats
``hard`` heads-up, and played in the endgames of 4-player games (two seats left) it
lowered ``hard``'s share against three ``normal`` (the ladder's row) below the ladder's
interval. At a table of three or more ``normal`` plays :data:`NORMAL_RULE` to the end,
so every decision of the 4-player ladder is :data:`NORMAL_RULE`'s."""


class NormalBluffBot:
    """``normal``: the mixed rule over a small calibrated belief (64 particles) that reads
    every call of the round (:func:`usotsuki.bots.bluff.calibration.beliefs`): its raises
    are judged by the particle weights fitted to ``normal``'s self-play, the call in front
    of it also through the fitted recalibration map. (Its raises are not: the map lifts
    hopeless raises to "plausible", and a reader of its rule then challenges them.) The
    rule is :data:`NORMAL_RULE`, or :data:`NORMAL_HEADS_UP` at a table of two."""

    name = "normal"
    rule = NORMAL_RULE
    heads_up_rule = NORMAL_HEADS_UP
    particles = 64

    def __init__(self) -> None:
        self.cal = calibration("normal")

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        return as_action(draw(*self.distribution(v, rng), rng))

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        """The actions (indices into ALL_CALLS, -1 to challenge) this level may take at
        ``v`` and their probabilities, over a belief drawn from ``rng``: what :meth:`act`
        draws from, and what a faithful reader of it (:mod:`.faithful`) rebuilds."""
        probs, p_current = beliefs(v, rng, self.cal, self.particles)
        return distribution(deck_probs(probs, v.ranks), first_legal_index(v), p_current,
                            self.rule_for(v))

    def rule_for(self, v: BluffView) -> MixedRule:
        """The mixed rule at ``v``: :attr:`heads_up_rule` at a table of two (B1's
        variant), else :attr:`rule`, also once only two seats are left."""
        return self.heads_up_rule if v.players == 2 else self.rule


HARD_CANDIDATES = MixedRule(plausible=0.5, doubt=0.35, next_doubt=0.6, softness=0.04,
                            spread=1, bluff=0.2)
"""``hard``'s candidates: one honest raise and one bluff (plus the likeliest call)."""
EXPERT_RULE = MixedRule(plausible=0.5, doubt=0.35, next_doubt=0.6, softness=0.04, spread=2,
                        bluff=0.2)
"""The candidates the expert weighs: two honest raises and two bluffs (plus the likeliest
call and the jump); a narrower challenge band than ``normal``'s, over sharper beliefs."""

HARD = SearchSettings(
    worlds=32, particles=256, margin=0.05, temperature=0.02,
    cal="normal", current_only=True,  # normal's belief: its map for the current call only
    rule=HARD_CANDIDATES, playout=NORMAL_RULE, mix=0.2,
    challenge_map=None, challenge_seats=2,
    read=None, read_seats=2,  # never reads its caller
    jump_seats=0, jump_p=0.7,  # never jumps
    many_worlds=None, many_mix=None, many_playout=None, many_challenge_map=None,
    many_rule=None, many_particles=None)  # plays three or more seats as two
"""``hard``: the search on a small budget (32 worlds, three candidate raises at most), so a
decision stays within a few milliseconds, over ``normal``'s calibrated belief on 256
particles, with none of the expert's options. A little search is what sets it apart from
``normal``: the mixed rule alone over the same belief was no stronger at four players."""

EXPERT = SearchSettings(
    worlds=160, particles=256, margin=0.05, temperature=0.02,
    cal="search", current_only=False,  # support 2, faith 0.3, no map (calibration.json)
    rule=EXPERT_RULE, playout=NORMAL_RULE, mix=0.15,
    challenge_map=None, challenge_seats=2,  # the heads-up map stays off: easier to exploit
    read=1.0, read_seats=2,  # reads its caller heads-up
    jump_seats=2, jump_p=0.7,  # the jump raise heads-up
    many_worlds=None, many_mix=0.0, many_playout=None, many_challenge_map="many-4096",
    many_rule=None, many_particles=4096)
"""``expert``'s settings (what each does and why: :class:`ExpertBluffBot`)."""


HARD_HEADS_UP = replace(HARD, cal="search", current_only=False, read=1.0)
"""``hard`` at a table of two: the expert's belief (the ``search`` calibration for every
call, not ``normal``'s map for the call in front) and its read of the caller (trust in
the caller's calls moved by how honest its revealed hands proved this game), on
``hard``'s budget. Heads-up, ``normal``'s own rule (:data:`NORMAL_HEADS_UP`) never
bluffs, and over ``normal``'s belief ``hard`` challenged its true calls too often; the
read of the caller learns such a caller (docs/experiments.md, "Bluff `hard` at a table
of two")."""


class HardBluffBot:
    """``hard``: the search with the :data:`HARD` settings, or :data:`HARD_HEADS_UP` at a
    table of two (keyed on the table, not on the seats still in the game, so a 4-player
    game plays :data:`HARD` to its end)."""

    name = "hard"

    def __init__(self) -> None:
        self.table = SearchBluffBot(HARD)
        self.heads_up = SearchBluffBot(HARD_HEADS_UP)

    def search_for(self, v: BluffView) -> SearchBluffBot:
        """The search that plays at ``v``'s table."""
        return self.heads_up if v.players == 2 else self.table

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        return self.search_for(v).act(v, legal, rng)

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        """What :meth:`act` draws from at ``v`` (:meth:`SearchBluffBot.distribution`)."""
        return self.search_for(v).distribution(v, rng)


class ExpertBluffBot(SearchBluffBot):
    """``expert``: the search (:mod:`usotsuki.bots.bluff.search`) with the :data:`EXPERT`
    settings; keywords change any of them (a field of :class:`SearchSettings`), for
    comparisons. What they do, and why they are set so (the measurements behind each are
    in docs/experiments.md, "Bluff expert"):

    - **Belief**: 256 particles weighted by the ``search`` calibration (support 2, faith
      0.3); with three or more seats in play 4,096, since every caller multiplies the
      weights and 256 left a few effective deals.
    - **The call in front of it**: the belief is too sure of it with three or more seats,
      so there it is judged through the ``many-4096`` map fitted on that belief. Heads-up,
      the read of the caller (``read``) shifts it by how honest this caller's calls have
      proved this game (their hands were revealed at each challenge, B9): an honest caller
      is trusted only after it has shown it, so a bluffer cannot exploit a fixed trust (a
      fixed heads-up map won more against honest callers and lost to bluffers: off).
    - **Candidates**: a challenge (it loses exactly when the call is true), the raises
      :data:`EXPERT_RULE` would consider, the likeliest call, and heads-up the jump: the
      strongest legal call it puts at 0.7 or more, which leaves the next caller little
      room.
    - **Values**: each raise played out in 160 worlds drawn from the belief (the same for
      every raise), every seat playing ``normal``'s mixed rule on its own cards there.
    - **Choice**: drawn among the actions within 0.05 of the best loss rate, weighted
      ``exp(-(loss - best) / 0.02)``, so near-equal actions are mixed. Heads-up, 15% of
      decisions play the candidate rule's own mixed distribution instead (its bluffs
      included), which keeps a reader's odds on "it holds what it calls" bounded; with
      three or more seats no reader came close, and the search alone lost fewer rounds.
    - **Solved rounds**: in a heads-up round of a deck and hand sizes that have been solved
      (:mod:`usotsuki.bots.bluff.solved`: ranks 4 to 6, up to two cards each where the
      solution fits), it plays the stored equilibrium strategy instead of searching.
    """

    name = "expert"

    def __init__(self, **changes: Any) -> None:
        super().__init__(replace(EXPERT, **changes))

    def act(self, v: BluffView, legal: Sequence[Action], rng: random.Random) -> Action:
        # A solved heads-up short-deck round (docs/solver.md): its stored equilibrium.
        if (dist := solved.policy(v)) is not None:
            return solved.sample(dist, rng)
        return super().act(v, legal, rng)

    def distribution(self, v: BluffView, rng: random.Random) -> tuple[IntArray, FloatArray]:
        """What :meth:`act` draws from at ``v``: the stored equilibrium's probabilities in a
        solved round, else the search's (:meth:`SearchBluffBot.distribution`)."""
        if (dist := solved.policy(v)) is not None:
            indices = [a.index if isinstance(a, Call) else -1 for a in dist]
            weights = np.fromiter(dist.values(), dtype=np.float64, count=len(dist))
            return np.asarray(indices, dtype=np.int64), weights / weights.sum()
        return super().distribution(v, rng)
