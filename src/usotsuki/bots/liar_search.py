"""The ``expert`` Liar Game bot: determinized search over hidden cards drawn from beliefs.

Each iteration samples a full game state consistent with the seat's view (a
*determinization*): the current play is made truthful with the probability the belief
model gives (:func:`usotsuki.bots.liar_belief.truth_belief`), and every other unseen card
is dealt uniformly to the other hands, the face-down field and the stock, in the sizes the
view shows. A root move, chosen by UCB1 among a few candidates (the ``hard`` bot's
choices, every truthful play, lies at the lowest and the highest legal rate, pass, doubt),
is applied and the game is played on by a fast default policy up to a horizon; the
result is scored as a win chance from the hand sizes. The move with the best mean wins.

This is information-set Monte Carlo at the root (one tree over the seat's information
set, a new determinization per iteration). The issue-11 expert (:meth:`SearchLiarBot.mixed`)
searches by successive halving on common worlds instead of UCB1
(:meth:`SearchLiarBot.search_paired`), and never passes where a doubt weakly dominates
the pass (:func:`pass_dominated`). The budget is ``iterations`` and ``seconds``,
whichever ends first; with a time limit the choice depends on the machine's speed, so
exact replays want the iteration budget alone (``seconds=None``, the default).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

from usotsuki.bots.liar_belief import doubted_record, truth_belief
from usotsuki.bots.liar_common import give_cards, lie_play, order_key, owed_size, truthful_plays
from usotsuki.bots.liar_levels import NORMAL_HONESTY, LevelBot
from usotsuki.cards import Card
from usotsuki.liar.actions import CARD_RATE, DOUBT, PASS, Action, Play
from usotsuki.liar.legal import LegalSummary, playable
from usotsuki.liar.rng import FlushRng
from usotsuki.liar.state import FieldPlay, LiarState, push
from usotsuki.liar.tracking import Block, OwnCards
from usotsuki.liar.view import FieldView, LiarView
from usotsuki.odds_liar import deck_minus, hypergeometric_at_least

SHARPNESS = 0.6  # how fast the win chance falls with each extra card in hand
READ_FOLLOWS = True
"""Whether the expert (:meth:`SearchLiarBot.mixed`) reads each opponent's other plays by
its caught lies among them, as it reads its leads (:func:`usotsuki.bots.liar_calibrated.
read_all_truth`). On: paired on the same games against the expert without it (95% Wilson
intervals), one expert against three ``expert-v1`` (seed 21, games 0-99) won 37/100 =
37.0% (28.2-46.8%) against 35/100 = 35.0% (26.4-44.7%) (13 games won only with it, 11
only without); against three ``hard`` (seed 21) 45/100 = 45.0% (35.6-54.8%) against
43/100 (13 / 11); heads-up against ``expert-v1`` (seed 1) 75/100 both (3 / 3), against
``x-never-lie`` 83/100 both (every game identical: it never lies, so the read never
moves). Two games in a hundred is within the noise (a sign test on 13 against 11 is far
from significant), but no row got worse. Read only at the lowest legal rate
(``FOLLOW_LOWEST``): 35/100 against three ``expert-v1`` (11 / 11), 75/100 heads-up
(3 / 3), so that variant stays off."""


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


def old_trust(able: float, liar: float = 0.0) -> float:
    """The playouts' belief before issue 11: a fixed honesty times the able odds (the
    player's doubted record ``liar`` is ignored)."""
    return NORMAL_HONESTY * able


def record(s: LiarState, seat: int) -> float:
    """``seat``'s doubted record in the (simulated) game, as
    :func:`usotsuki.bots.liar_calibrated.liar_record` computes it from a view."""
    truths, lies = doubted_record(s.doubts, seat)
    return math.log((lies + 0.5) / (truths + 0.5))


def rollout_action(s: LiarState, rng: random.Random,
                   trust: Callable[[float, float], float] = old_trust,
                   low_lead: bool = False) -> Action:
    """The default policy inside simulations: a fast ``normal``-like player that acts on
    its own (determinized) hand only; ``trust`` turns the odds that the current play's
    player could make it truthfully, and that player's doubted record (:func:`record`;
    ``old_trust`` ignores it), into its belief that it did; ``low_lead``: a leader leads
    its lowest rate, as the mixed levels do, else its top one (as before)."""
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
        p = trust(hypergeometric_at_least(size, 52 - len(hand), 4 - own,
                                          len(s.hands[current.seat]) + size),
                  record(s, current.seat))
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


def candidates(view: LiarView, legal: LegalSummary, hard_choice: Action,
               lie_rates: int = 1) -> list[Action]:
    """The root moves worth searching, the ``hard`` bot's choice first; lies at the
    ``lie_rates`` lowest legal rates and the top one."""
    out: list[Action] = [hard_choice]
    if legal.play:
        out += truthful_plays(view, legal)
        key = order_key(view.reversed)
        lies = [lie_play(view, legal, r) for r in sorted(legal.rates, key=key)[:lie_rates]]
        if lies[0] is not None:
            out += [lie for lie in lies if lie is not None]
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
    """Determinized search (see the module docstring) with an iteration and time budget.

    ``fallback`` is the bot whose choice is searched first (and played when only one move
    is worth searching); ``belief`` gives the chance the current play is truthful that the
    determinizations use; ``margin`` mixes the final choice: every move whose mean score is
    within ``margin`` of the best is taken with equal chance (0: the best, as before).
    """

    name = "expert"

    def __init__(self, iterations: int = 160, horizon: int = 24,
                 seconds: float | None = None, exploration: float = 0.35,
                 fallback: LevelBot | None = None,
                 belief: Callable[[LiarView], float | None] = truth_belief,
                 margin: float = 0.0, lie_rates: int = 1, name: str = "expert-v1",
                 trust: Callable[[float, float], float] = old_trust,
                 low_lead: bool = False, paired: bool = False,
                 dominance: bool = False) -> None:
        self.iterations = iterations
        self.horizon = horizon
        self.seconds = seconds
        self.exploration = exploration
        self.fallback = fallback or LevelBot("hard", truth_belief)
        self.belief = belief
        self.margin = margin
        self.lie_rates = lie_rates
        self.name = name
        self.trust = trust
        self.low_lead = low_lead
        self.paired = paired
        self.dominance = dominance

    @classmethod
    def mixed(cls, follows: bool | None = None) -> SearchLiarBot:
        """The issue-11 expert: the mixed ``hard`` rule (at its first temperature,
        ``EXPERT_ROOT_WEIGHTS``) at the root, the calibrated belief in
        the determinizations, and a final choice mixed among moves within 0.02 of the best
        mean (statistically tied); its playouts lead low, as the mixed levels now do
        (:data:`usotsuki.bots.liar_levels.HARD_WEIGHTS`), and it runs 800 playouts a
        decision, five times ``expert-v1``'s 160: the compiled search makes them in well
        under the 1 s budget (benchmarks/liar_levels_bench.py times it in CPU time). The
        playouts keep the old, doubt-prone belief and the lies are scored at the lowest
        legal rate and the top one, as before: a first version whose playouts doubted by
        the calibrated belief and which searched lies at three rates lied in most of its
        plays (42% truthful in self-play) and lost to the threshold doubters (1 of 12
        heads-up games against ``x-doubt-70``) and to ``expert-v1`` (9 of 30).

        Its 800 playouts are spent by successive halving on common worlds
        (:meth:`search_paired`, ``paired``): every move left is played out in the same
        determinizations, so near-equal moves are told apart by paired differences, not
        by two independent noisy means (UCB1 split them as 800 independent samples). And
        it drops a pass that a doubt weakly dominates (:func:`pass_dominated`,
        ``dominance``): against ``expert-v1``, which lies in about half of its leads, its
        calibrated belief (fitted on the levels below it, which lead truthfully) put those
        leads at 0.97 on average (8 heads-up games of ``expert-v1`` against itself: of
        85 leads the belief put at 0.9 or more, 49% were truthful),
        so a doubt looked barely better than the pass, within the noise of the old
        search and the 0.02 margin, though the pass gives up the same card and the lead
        as a doubt found truthful and never catches the lie.

        Its belief, at the root and in the determinizations, reads each opponent apart
        (:func:`usotsuki.bots.liar_calibrated.read_truth`): a lead by a player caught
        lying at its leads in this game is believed less than the pooled model says.
        ``follows`` (default :data:`READ_FOLLOWS`): its other plays are read too, by the
        player's own doubted other plays (:func:`usotsuki.bots.liar_calibrated.
        read_all_truth`)."""
        from usotsuki.bots.liar_calibrated import read_all_truth, read_truth
        from usotsuki.bots.liar_levels import EXPERT_ROOT_WEIGHTS

        read = read_all_truth if (READ_FOLLOWS if follows is None else follows) else read_truth
        root = LevelBot("hard", read, EXPERT_ROOT_WEIGHTS)
        return cls(iterations=800, fallback=root, belief=read, margin=0.02,
                   name="expert", low_lead=True, paired=True, dominance=True)

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        hand = view.hand or ()
        if legal.give:
            return give_cards(hand, owed_size(view))
        hard_choice = self.fallback.act(view, legal, rng)
        if legal.accept:
            return hard_choice
        moves = candidates(view, legal, hard_choice, self.lie_rates)
        if self.dominance and DOUBT in moves and PASS in moves and pass_dominated(view):
            moves.remove(PASS)
        if len(moves) == 1:
            return moves[0]
        values = (self.search_paired if self.paired else self.search)(view, moves, rng)
        best = max(range(len(moves)), key=lambda i: (values[i], -i))
        if self.margin <= 0.0:
            return moves[best]
        near = [i for i in range(len(moves)) if values[i] >= values[best] - self.margin]
        return moves[near[rng.randrange(len(near))]]

    def search(self, view: LiarView, moves: Sequence[Action],
               rng: random.Random) -> list[float]:
        """The mean simulated score of each move."""
        me = view.seat
        assert me is not None
        p_truth = self.belief(view)
        totals = [0.0] * len(moves)
        visits = [0] * len(moves)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for it in range(self.iterations):
            if deadline is not None and time.perf_counter() > deadline:
                break
            if it < len(moves):
                i = it
            else:
                log_n = math.log(it)
                i = max(range(len(moves)), key=lambda j: totals[j] / visits[j]
                        + self.exploration * math.sqrt(log_n / visits[j]))
            s = push(determinize(view, rng, p_truth), moves[i])
            for _ in range(self.horizon):
                if s.to_move is None:
                    break
                s = push(s, rollout_action(s, rng, self.trust, self.low_lead))
            totals[i] += score(s, me)
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
        p_truth = self.belief(view)
        k = len(moves)
        alive = list(range(k))
        totals = [0.0] * k
        visits = [0] * k
        rounds = max(1, math.ceil(math.log2(k)))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        for r in range(rounds):
            worlds = max(1, self.iterations // (rounds * len(alive)))
            for _ in range(worlds):
                if deadline is not None and time.perf_counter() > deadline:
                    break
                world = determinize(view, rng, p_truth)
                seed = rng.getrandbits(32)
                for i in alive:
                    playout_rng = random.Random(seed)
                    s = push(world, moves[i])
                    for _ in range(self.horizon):
                        if s.to_move is None:
                            break
                        s = push(s, rollout_action(s, playout_rng, self.trust, self.low_lead))
                    totals[i] += score(s, me)
                    visits[i] += 1
            if r < rounds - 1 and len(alive) > 2:
                alive.sort(key=lambda j: (-totals[j] / max(1, visits[j]), j))
                alive = sorted(alive[:(len(alive) + 1) // 2])
        return [totals[i] / visits[i] if i in alive and visits[i] else -1.0
                for i in range(k)]
