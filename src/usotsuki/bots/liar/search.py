"""The ``expert`` Liar Game bot: determinized search over hidden cards drawn from beliefs.

Each playout samples a full game state consistent with the seat's view (a
*determinization*): the current play is made truthful with the probability the belief
gives, and every other unseen card is dealt uniformly to the other hands, the face-down
field and the stock, in the sizes the view shows. A root move among a few candidates (the
root rule's choice, every truthful play, lies at the lowest and the highest legal rate,
pass, doubt) is applied and the game is played on by a fast default policy
(:func:`rollout_action`) up to a horizon; the result is scored as a win chance from the
hand sizes (:func:`score`). This is information-set Monte Carlo at the root (one tree
over the seat's information set, a new determinization per playout).

:class:`SearchSettings` says how: :data:`EXPERT`, the level players meet, and
:data:`EXPERT_V1`, kept to measure it against, side by side. The expert spends its
playouts by successive halving on common worlds (:meth:`SearchLiarBot.search_paired`),
drops a pass a doubt weakly dominates (:func:`pass_dominated`) and mixes its final
choice among statistically tied moves; ``expert-v1`` spends fewer by UCB1
(:meth:`SearchLiarBot.search_ucb`) and takes the best. Only the playout budget bounds a
decision, so a seeded game replays exactly on any machine. This module is compiled with
mypyc (:mod:`usotsuki._native`): the playouts are where the expert spends its time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple

from usotsuki.bots.liar.belief import truth_belief
from usotsuki.bots.liar.calibrated import read_all_truth
from usotsuki.bots.liar.common import give_cards, lie_play, order_key, owed_size, truthful_plays
from usotsuki.bots.liar.levels import EXPERT_ROOT_WEIGHTS, NORMAL_HONESTY, LevelBot, Weights
from usotsuki.cards import Card
from usotsuki.liar.actions import CARD_RATE, DOUBT, PASS, Action, Play
from usotsuki.liar.legal import LegalSummary, playable
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.state import FieldPlay, LiarState, push
from usotsuki.liar.tracking import Block, OwnCards
from usotsuki.liar.view import FieldView, LiarView
from usotsuki.odds_liar import deck_minus, hypergeometric_at_least

SHARPNESS = 0.6  # how fast the win chance falls with each extra card in hand
EXPLORATION = 0.35  # UCB1's exploration weight (``expert-v1``)


class SearchSettings(NamedTuple):
    """How a search bot decides: every choice of :class:`SearchLiarBot` in one place."""

    playouts: int  # playouts a decision
    horizon: int  # actions a playout runs before it is scored
    # P(the current play is truthful): the root rule's doubt estimate and the chance each
    # determinization makes that play truthful
    belief: Callable[[LiarView], float | None]
    root: Weights  # the ``hard``-like rule whose choice is searched first (LevelBot)
    paired: bool  # successive halving on common worlds (else UCB1)
    margin: float  # mix the final choice among moves within this of the best mean
    low_lead: bool  # playout leaders lead their lowest rate (as the mixed levels do)
    dominance: bool  # drop a pass that a doubt weakly dominates (:func:`pass_dominated`)


EXPERT = SearchSettings(playouts=800, horizon=24, belief=read_all_truth,
                        root=EXPERT_ROOT_WEIGHTS, paired=True, margin=0.02, low_lead=True,
                        dominance=True)
"""The ``expert``: the calibrated belief read for each opponent apart
(:func:`usotsuki.bots.liar.calibrated.read_all_truth`: its leads by its own doubted leads,
its other plays by its caught lies among them), at the root and in the determinizations;
the mixed ``hard`` rule at its lowest temperature at the root; 800 playouts (the compiled
search makes them well within a second) by successive halving, so near-equal moves are
told apart by paired differences rather than two independent noisy means; a final choice
mixed among the moves within 0.02 of the best mean. Its playouts keep the fixed-honesty
belief of :func:`playout_trust` and lead low. ``docs/experiments.md`` (Liar expert) has
the trials behind each choice."""

EXPERT_V1 = SearchSettings(playouts=160, horizon=24, belief=truth_belief, root=Weights(),
                           paired=False, margin=0.0, low_lead=False, dominance=False)
"""``expert-v1``, kept as the yardstick the expert is measured against (hidden from
players): the structural belief (:func:`usotsuki.bots.liar.belief.truth_belief`), the
unmixed cost rule leading high at the root, UCB1 over 160 playouts, the best mean."""


def determinize(view: LiarView, rng: random.Random, p_truth: float | None) -> LiarState:
    """A full state consistent with ``view``: its seat's hand as it is, the shown cards in
    their certain places (``view.known_places``; the current player's ``known_before_play``
    in its hand or play), the rest dealt from the unseen cards; the current play truthful
    with probability ``p_truth``. Shown cards certainly in the stock go to its bottom (the
    view does not say how deep their blocks lie). The seat's own plays keep their cards and
    the cards it knows the place of (``view.own_places``) stay there."""
    me = view.seat
    assert me is not None and view.hand is not None
    held: dict[int, list[Card]] = {}
    stocked: list[Card] = []
    own_stocked: list[Card] = []
    for card, place in view.known_places:
        if isinstance(place, str):
            stocked.append(card)
        elif place != me:
            held.setdefault(place, []).append(card)
    for card, place in view.own_places:
        if isinstance(place, str):
            own_stocked.append(card)
        else:
            held.setdefault(place, []).append(card)
    own_played = [c for p in view.field if p.cards is not None for c in p.cards]
    before = [c for c in view.known_before_play if c not in view.hand and c not in own_played]
    pool = deck_minus((*view.hand, *(c for c, _ in view.known_places), *before,
                       *(c for c, _ in view.own_places), *own_played))
    rng.shuffle(pool)
    played: list[tuple[Card, ...]] = [p.cards or () for p in view.field]
    if view.field:
        current = view.field[-1]
        if current.seat == me:  # its own play: the view holds its cards
            pass
        elif before or p_truth is not None:
            cards, kept, pool = _current_play(current, before, pool,
                                              view.hand_sizes[current.seat], rng, p_truth)
            played[-1] = cards
            held.setdefault(current.seat, []).extend(kept)
    at = 0
    for i, p in enumerate(view.field):
        if not played[i]:
            played[i] = tuple(pool[at:at + p.count])
            at += p.count
    hands: list[tuple[Card, ...]] = []
    for seat, size in enumerate(view.hand_sizes):
        if seat == me:
            hands.append(view.hand)
        else:
            part = held.get(seat, [])
            need = size - len(part)
            hands.append((*part, *pool[at:at + need]))
            at += need
    stock = (*pool[at:], *own_stocked, *stocked)
    field = tuple(FieldPlay(p.seat, cards, p.rate) for p, cards in zip(view.field, played,
                                                                       strict=True))
    under = len(stocked) + len(own_stocked)
    known_stock = (Block(0, under, tuple(stocked),
                         (OwnCards(me, tuple(own_stocked)),) if own_stocked else ()),) \
        if under else ()
    known_hands = tuple((c, place) for c, place in view.known_places
                        if not isinstance(place, str))
    secret = tuple((c, place, me) for c, place in view.own_places if not isinstance(place, str))
    return LiarState(view.rules, tuple(hands), stock, field, view.to_move, view.revolution,
                     view.jack_back, view.bound, view.turns, view.owed, view.doubts, None,
                     None, view.classes, view.game, FlushRng.from_seed(rng.getrandbits(32)),
                     known_stock, known_hands, view.known_before_play, secret)


def _current_play(current: FieldView, before: list[Card], pool: list[Card], size: int,
                  rng: random.Random, p_truth: float | None
                  ) -> tuple[tuple[Card, ...], list[Card], list[Card]]:
    """Another seat's current play from its hand before the play: the ``before`` cards it
    certainly held and the rest from the shuffled ``pool``; truthful with probability
    ``p_truth`` when possible, else (given a ``p_truth``) a lie when possible. Returns the
    played cards, the cards known to stay in its hand, and the pool left."""
    count, rate = current.count, current.rate
    if p_truth is not None and rng.random() < p_truth:
        cards = ([c for c in before if CARD_RATE[c] == rate]
                 + [c for c in pool if CARD_RATE[c] == rate])[:count]
        kept = [c for c in before if c not in cards]
        if len(cards) == count and len(kept) <= size:
            return tuple(cards), kept, [c for c in pool if c not in cards]
    fill = size + count - len(before)
    hand = before + pool[:fill]
    cards = rng.sample(hand, count)
    if p_truth is not None and all(CARD_RATE[c] == rate for c in cards):
        other = next((c for c in hand if CARD_RATE[c] != rate), None)
        if other is not None:
            cards[-1] = other
    return tuple(cards), [c for c in hand if c not in cards], pool[fill:]


def playout_trust(able: float) -> float:
    """The playouts' belief that the current play is truthful: a fixed honesty times the
    odds that its player could make it (doubt-prone, so the searched lies are tested)."""
    return NORMAL_HONESTY * able


def rollout_action(s: LiarState, rng: random.Random, low_lead: bool = False) -> Action:
    """The default policy inside simulations: a fast ``normal``-like player that acts on
    its own (determinized) hand only, believing the current play by :func:`playout_trust`;
    ``low_lead``: a leader leads its lowest rate, as the mixed levels do, else its top
    one."""
    seat = s.to_move
    assert seat is not None
    hand = s.hands[seat]
    if s.owed:
        return give_cards(hand, s.owed[0].size)
    field = s.field
    if field and not s.hands[field[-1].seat]:
        return DOUBT  # L10
    counts, rates = playable(s)
    rev = s.revolution != s.jack_back
    if rates:
        held = [0] * 13
        for c in hand:
            held[CARD_RATE[c]] += 1
        if not field:  # lead the top (or lowest) rate held, all its cards with O1
            rate = max((CARD_RATE[c] for c in hand),
                       key=lambda r: -r if rev != low_lead else r)
            count = held[rate] if s.rules.multi else 1
            return Play(tuple(c for c in hand if CARD_RATE[c] == rate)[:count], rate)
        count = counts[0]
        for rate in (rates if not rev else reversed(rates)):
            if held[rate] >= count:
                return Play(tuple(c for c in hand if CARD_RATE[c] == rate)[:count], rate)
    if field:
        current = field[-1]
        n = sum(len(p.cards) for p in field)
        own = sum(1 for c in hand if CARD_RATE[c] == current.rate)
        size = len(current.cards)
        # a belief from the chance the player held the cards, on this determinized seat's
        # own hand only: the odds model's primitive, for speed
        p = playout_trust(hypergeometric_at_least(size, 52 - len(hand), 4 - own,
                                                  len(s.hands[current.seat]) + size))
        doubt = p * (n + 0.7) - (1 - p) * (n * 0.5 + 0.7)
        best: tuple[float, Action] = (1.0 if s.stock else 0.0, PASS)
        if doubt < best[0]:
            best = (doubt, DOUBT)
        if rates and len(hand) > counts[0]:
            rate = rates[0] if not rev else rates[-1]
            spare = [c for c in hand if CARD_RATE[c] != rate]
            size = counts[0]
            if len(spare) >= size and -size + 0.45 * (n + size + 0.7) < best[0]:
                best = (0.0, Play(tuple(spare[:size]), rate))
        return best[1]
    return Play((hand[rng.randrange(len(hand))],), rates[rng.randrange(len(rates))])


def score(s: LiarState, me: int) -> float:
    """The seat's win chance, guessed: 1 or 0 once the game is over (a share on a no-winner
    end), else a soft-min of hand sizes."""
    if s.standings is not None:
        if s.winner is not None:
            return 1.0 if s.winner == me else 0.0
        first = s.standings[0]
        return 1.0 / len(first) if me in first else 0.0
    weights = [math.exp(-SHARPNESS * len(h)) for h in s.hands]
    return weights[me] / sum(weights)


def candidates(view: LiarView, legal: LegalSummary, root_choice: Action) -> list[Action]:
    """The root moves worth searching, the root rule's choice first; lies at the lowest
    legal rate and the top one."""
    out: list[Action] = [root_choice]
    if legal.play:
        out += truthful_plays(view, legal)
        key = order_key(view.reversed)
        lowest = lie_play(view, legal, min(legal.rates, key=key))
        if lowest is not None:
            out.append(lowest)
            top = lie_play(view, legal, max(legal.rates, key=key))
            if top is not None:
                out.append(top)
    if legal.pass_:
        out.append(PASS)
    if legal.doubt:
        out.append(DOUBT)
    unique: list[Action] = []
    for a in out:
        if a not in unique:
            unique.append(a)
    return unique[:10]


def pass_dominated(view: LiarView) -> bool:
    """Whether a doubt weakly dominates passing here: the field holds one card, the stock
    is not empty and this seat's pass would bring the turn back to the current play's
    player. Passing then draws the stock's top card, flushes the field (L7) and the
    player leads; a doubt flushes first and, on a truthful play, this seat draws that
    same card (the field's one card goes under it, L8, L9) and the player leads: the
    same state but for the doubt's record and the card shown. On a lie the player draws
    it and this seat leads instead. So passing can only be as good as doubting."""
    if view.seat is None or not view.field or view.stock_size < 1:
        return False
    if sum(p.count for p in view.field) != 1:
        return False
    return (view.seat + 1) % view.rules.players == view.field[-1].seat


class SearchLiarBot:
    """Determinized search (see the module docstring) as its :class:`SearchSettings` say;
    ``name`` is the registry's (``expert``, ``expert-v1``)."""

    def __init__(self, settings: SearchSettings, name: str) -> None:
        self.settings = settings
        self.name = name
        self.root = LevelBot("hard", settings.belief, settings.root)

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        """O7 gives and L10 answers as the root rule says; otherwise the candidates'
        searched values decide: the best, or one drawn among those within ``margin``."""
        hand = view.hand or ()
        if legal.give:
            return give_cards(hand, owed_size(view))
        root_choice = self.root.act(view, legal, rng)
        if legal.accept:
            return root_choice
        settings = self.settings
        moves = candidates(view, legal, root_choice)
        if settings.dominance and DOUBT in moves and PASS in moves and pass_dominated(view):
            moves.remove(PASS)
        if len(moves) == 1:
            return moves[0]
        values = (self.search_paired if settings.paired else self.search_ucb)(view, moves, rng)
        best = max(range(len(moves)), key=lambda i: (values[i], -i))
        if settings.margin <= 0.0:
            return moves[best]
        near = [i for i in range(len(moves)) if values[i] >= values[best] - settings.margin]
        return moves[near[rng.randrange(len(near))]]

    def playout(self, world: LiarState, move: Action, rng: random.Random, me: int) -> float:
        """``move`` played in ``world``, then the default policy up to the horizon: the
        seat's :func:`score` at the end."""
        s = push(world, move)
        for _ in range(self.settings.horizon):
            if s.to_move is None:
                break
            s = push(s, rollout_action(s, rng, self.settings.low_lead))
        return score(s, me)

    def search_ucb(self, view: LiarView, moves: Sequence[Action],
                   rng: random.Random) -> list[float]:
        """The mean simulated score of each move, the playouts shared by UCB1 (a new
        determinization for each)."""
        me = view.seat
        assert me is not None
        p_truth = self.settings.belief(view)
        totals = [0.0] * len(moves)
        visits = [0] * len(moves)
        for it in range(self.settings.playouts):
            if it < len(moves):
                i = it
            else:
                log_n = math.log(it)
                i = max(range(len(moves)), key=lambda j: totals[j] / visits[j]
                        + EXPLORATION * math.sqrt(log_n / visits[j]))
            totals[i] += self.playout(determinize(view, rng, p_truth), moves[i], rng, me)
            visits[i] += 1
        return [totals[i] / visits[i] if visits[i] else -1.0 for i in range(len(moves))]

    def search_paired(self, view: LiarView, moves: Sequence[Action],
                      rng: random.Random) -> list[float]:
        """The mean simulated score of each move, by successive halving on common worlds:
        every move still in the running is played out in the same determinizations, with
        the same playout generator (common random numbers: the rollout policy is almost
        deterministic, so two moves' scores in one world differ mostly by the moves
        themselves, not by the deal), and after each round the worse half is dropped,
        the budget of a round being shared by the moves left. A dropped move reports
        -1 (it is never chosen, nor mixed in)."""
        me = view.seat
        assert me is not None
        p_truth = self.settings.belief(view)
        k = len(moves)
        alive = list(range(k))
        totals = [0.0] * k
        visits = [0] * k
        rounds = max(1, math.ceil(math.log2(k)))
        for r in range(rounds):
            worlds = max(1, self.settings.playouts // (rounds * len(alive)))
            for _ in range(worlds):
                world = determinize(view, rng, p_truth)
                seed = rng.getrandbits(32)
                for i in alive:
                    totals[i] += self.playout(world, moves[i], random.Random(seed), me)
                    visits[i] += 1
            if r < rounds - 1 and len(alive) > 2:
                alive.sort(key=lambda j: (-totals[j] / max(1, visits[j]), j))
                alive = sorted(alive[:(len(alive) + 1) // 2])
        return [totals[i] / visits[i] if i in alive and visits[i] else -1.0
                for i in range(k)]
