"""Beliefs about the Liar Game's current play from how people play, not only from the odds.

The exact odds (:mod:`usotsuki.odds_liar`) treat the played cards as a uniform sample of
the player's hand. People choose: someone who holds cards of a legal rate mostly plays
them truthfully, and mostly the lowest such rate (keeping higher cards for later), and a
liar mostly declares a low legal rate. So a declaration is evidence. This module is a
Bayesian model of that policy:

- the player's hand before the play is the cards it certainly held (shown in a doubt and
  tracked, ``view.known_before_play``) plus a uniform sample of the seat's unseen cards
  (the prior of :mod:`usotsuki.odds_liar`, without its ``known_places``: see
  :func:`truth_belief`);
- with probability ``q`` (the player's honesty) a player who can play truthfully does so,
  at the lowest truthful legal rate (or, leading, at a rate they hold); otherwise they
  lie, declaring a legal rate with weights falling geometrically up the order;
- ``q`` has a Beta prior updated from the player's doubted plays this game (``doubts``
  in the view, public);
- a pass is evidence too: a player who passed on this field when the declared rate was
  already legal (the field shows who played, so the seats between two plays passed)
  held no card of it then, unless they passed anyway (``1 - q``) or drew it since (each
  pass draws one card).

The posterior ``P(truthful | declared rate)`` is computed exactly under this model by
counting hands (a multivariate hypergeometric convolution over the rates), no sampling.
"""

from __future__ import annotations

from collections.abc import Sequence

from usotsuki.liar.actions import RATES
from usotsuki.liar.legal import field_rates
from usotsuki.liar.state import DoubtResult
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import choose, hands_with, knowledge

HONESTY_PRIOR = (3.0, 1.0)  # Beta(truthful, lies): most plays are truthful when they can be
LIE_DECAY = 0.55  # a liar's weight for each next-higher legal rate


def was_lead(d: DoubtResult) -> bool:
    """Whether the doubted play was a lead (the field's only play): L9 draws the whole
    field's N cards, so it was alone on the field exactly when N is its own card count
    (public: the doubt shows the cards and the draw)."""
    return d.drawn == len(d.cards)


def doubted_record(doubts: Sequence[DoubtResult], seat: int,
                   lead: bool | None = None) -> tuple[int, int]:
    """How many of ``seat``'s doubted plays in ``doubts`` were truthful, and how many lies;
    ``lead``: only its leads (True) or only its other plays (False)."""
    truthful = lies = 0
    for d in doubts:
        if d.doubted == seat and (lead is None or was_lead(d) == lead):
            if d.truthful:
                truthful += 1
            else:
                lies += 1
    return truthful, lies


def honesty(view: LiarView, seat: int) -> float:
    """The posterior mean of ``seat``'s honesty from this game's doubts of its plays."""
    truthful, lies = doubted_record(view.doubts, seat)
    prior_truthful, prior_lies = HONESTY_PRIOR
    return (truthful + prior_truthful) / (truthful + lies + prior_truthful + prior_lies)


def truth_belief(view: LiarView) -> float | None:
    """P(the current play is truthful | the declaration), under the policy model above;
    None when there is no current play or it is the seat's own."""
    if not view.field or view.hand is None or view.field[-1].seat == view.seat:
        return None
    current = view.field[-1]
    c, r = current.count, current.rate
    # Only the cards the player certainly held count here, not those certainly elsewhere:
    # this policy model undercounts truthful plays (of the top rate above all), and ruling
    # out cards under the stock pushed it into bad doubts (docs/experiments.md)
    unseen, known = knowledge(view, current.seat, before_play=True, elsewhere=False)
    pool = sum(unseen)
    hand = min(view.hand_sizes[current.seat] + c - sum(known), pool)  # its unplaced cards
    if unseen[r] + known[r] < c:
        return 0.0
    q = honesty(view, current.seat)
    then = view.before_last_play()  # the core's reading of the field (L6, O2-O6)
    legal, leading = then.ranked, then.leading
    total = choose(pool, hand)
    weights = [LIE_DECAY ** i for i in range(len(legal))]
    lie_weight = weights[legal.index(r)] / sum(weights)
    if leading:
        # a truthful leader declares a rate they can play, each such rate alike
        able = [hands_with(unseen, hand, {x: (c, 4)}, known) / total for x in RATES]
        p_true = q * able[r] / max(1.0, sum(able))
        p_lie = (1 - q) * lie_weight
    else:
        p_true = 0.0
        before: dict[int, tuple[int, int]] = {}
        for x in legal:
            if x == r:
                p_true = q * hands_with(unseen, hand, {**before, r: (c, 4)}, known) / total
            before[x] = (0, c - 1)
        p_none = hands_with(unseen, hand, before, known) / total  # no truthful legal play at all
        p_lie = (1 - q * (1 - p_none)) * lie_weight
    p_true *= pass_factor(view, q, unseen[r], pool)
    if p_true + p_lie <= 0.0:
        return 0.0
    return p_true / (p_true + p_lie)


def passes_on_field(view: LiarView, seat: int) -> list[int]:
    """Indices ``i`` of the field's plays after which ``seat`` passed: the seats strictly
    between two consecutive plays' players passed once each (a full lap of passes would
    have flushed the field, L7)."""
    n = view.rules.players
    field = view.field
    out = []
    for i in range(len(field) - 1):
        a, b = field[i].seat, field[i + 1].seat
        if 0 < (seat - a) % n < (b - a) % n:
            out.append(i)
    return out


def pass_factor(view: LiarView, q: float, rate_unseen: int, pool: int) -> float:
    """How much the current player's passes on this field weigh against a truthful
    declaration of a rate that was legal when they passed (see the module docstring)."""
    current = view.field[-1]
    r = current.rate
    passes = passes_on_field(view, current.seat)
    if not passes:
        return 1.0
    # the rates each play allowed the next (L6, O2-O6; none after an 8 under O3: a pass
    # there says nothing)
    allowed = field_rates(view.rules, view.field_record(), view.revolution)
    for i in passes:
        if r not in allowed[i]:
            continue
        drawn = len(view.field) - 1 - i  # at most one draw per pass since, roughly
        fresh = min(1.0, drawn * rate_unseen / max(1, pool))  # drew a card of the rate
        return (1 - q) + q * fresh
    return 1.0
