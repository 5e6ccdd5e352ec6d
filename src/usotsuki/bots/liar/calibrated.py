"""A calibrated belief that the Liar Game's current play is truthful: "given how people
play", fitted to how the bots actually declare.

The exact odds (:func:`usotsuki.odds_liar.truth_probability`) take the played cards as a
uniform sample of the player's hand. Players choose their cards: they play truthfully
when they can, mostly at the lowest legal rate, and lie when they cannot, so plays the
odds call unlikely are mostly truthful. Exact for their model, misleading for a person.

**The model.** A logistic model of ``P(truthful | what the seat sees)`` over a few
features that say how the player could and would declare (:func:`features`): the log-odds
that the player *could* make the play truthfully (exact, :func:`usotsuki.odds_liar.
able_before_play`), the plain odds, the structural belief of :mod:`usotsuki.bots.liar.
belief` (truthful when able, lowest truthful rate, passes as evidence), whether the
player led, emptied its hand, declared the lowest rate legal then (and how far above it:
:meth:`usotsuki.liar.view.LiarView.before_last_play`), the field's size, the player's
lies and truths caught in doubts this game (counts, and their log-odds alone and times
the able log-odds), a multi-card play, and the player's hand size. A claim the seat knows
to be impossible (fewer unplaced cards of the rate than the play holds) is a lie with
probability 0 exactly, before any fit.

**The fit.** Maximum likelihood (logistic regression, a small ridge, then a second
logistic stage on a piecewise-linear function of the first's log-odds, see
:func:`link_basis`, then a monotone map of that probability fitted by pool-adjacent-
violators, see :func:`calibrate`) on self-play records of the levels below the expert
and of players who lie more than they do (``x-always-lie``, ``hard`` lying in some of its
truthful plays or leads, ``expert-v1``): each play by a bot, seen by the next seat to
move, labelled by whether it was truthful (:mod:`usotsuki.research.liar_fit`,
``scripts/fit_liar_calibration.py``). The coefficients ship as data
(``calibration.json``) with the held-out reliability table and Brier scores the script
measured. People at a table cannot tell which level made a play, so the bots use the
pooled model (``level=None``) and the hint a refit of it on the shipped bots' games
(:func:`hint_truth`). A pooled model cannot tell one player from another: the reads
(:func:`read_truth`) shift it by each player's own record. ``docs/experiments.md``
(Liar expert) has the fits and the trials behind these choices.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from usotsuki.bots.liar.belief import doubted_record, pass_factor, truth_belief
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import able_before_play, truth_probability

FEATURES = ("bias", "able", "odds", "belief", "leading", "final", "lowest", "above",
            "field", "lies", "truths", "multi", "hand", "passed", "heads", "stock",
            "liar", "liar_able")
"""The names of :func:`features`' entries, in order (the data file names them too)."""

DATA = "calibration.json"
CLIP = 1e-3  # probabilities are clipped to [CLIP, 1 - CLIP] before their log-odds


def logit(p: float) -> float:
    p = min(1.0 - CLIP, max(CLIP, p))
    return math.log(p / (1.0 - p))


def features(view: LiarView) -> list[float] | None:
    """The model's inputs for the current play as ``view``'s seat sees it (see the module
    docstring); None when there is no current play, it is the seat's own, or the seat
    knows it cannot be truthful (then the belief is exactly 0)."""
    able = able_before_play(view)
    if able is None:
        return None
    if able <= 0.0:
        return None
    odds = truth_probability(view) or 0.0
    belief = truth_belief(view) or 0.0
    field = view.field
    current = field[-1]
    seat = current.seat
    # how far above the lowest rate legal then, in the order then in force (L6, O2-O6)
    position = view.before_last_play().ranked.index(current.rate)
    lies = sum(1 for d in view.doubts if d.doubted == seat and not d.truthful)
    truths = sum(1 for d in view.doubts if d.doubted == seat and d.truthful)
    # the player's own record in this game's doubts (:func:`liar_record`): a player caught
    # lying again and again is a liar whatever the cards say; its weight against the able
    # odds is fitted too (``liar_able``)
    liar = math.log((lies + 0.5) / (truths + 0.5))
    passed = pass_factor(view, 1.0, 0, 1) < 1.0  # passed where this rate was legal
    return [1.0, logit(able), logit(odds), logit(belief), float(len(field) == 1),
            float(view.hand_sizes[seat] == 0), float(position == 0),
            math.log1p(position), math.log1p(sum(p.count for p in field)),
            float(min(lies, 3)), float(min(truths, 3)), float(current.count > 1),
            math.log1p(view.hand_sizes[seat] + current.count), float(passed),
            float(view.rules.players == 2), math.log1p(view.stock_size),
            liar, liar * logit(able)]


SIMPLE = ("bias", "able", "leading", "field", "lies", "truths", "heads", "liar", "liar_able")
"""The small model ``normal`` doubts by with three or more players (:func:`normal_truth`):
the log-odds that the player could make the play truthfully, the player's record in
this game's doubts (counts, ``liar`` and its product with the able odds: without the
product a few caught lies barely move a mostly honest population's belief) and three
facts read straight off the table (a lead, the field's size, heads-up: they spread
predictions that the record's few counts would bunch on a few values); none needs more
than the able odds' one count of hands (:func:`simple_features`)."""


def simple_features(view: LiarView, able: float) -> list[float]:
    """:data:`SIMPLE`'s inputs for the current play (another seat's, ``able`` > 0 the odds
    that its player could make it truthfully), in that order, computed as
    :func:`features` computes them."""
    field = view.field
    seat = field[-1].seat
    truths, lies = doubted_record(view.doubts, seat)
    liar = math.log((lies + 0.5) / (truths + 0.5))
    z = logit(able)
    return [1.0, z, float(len(field) == 1), math.log1p(sum(p.count for p in field)),
            float(min(lies, 3)), float(min(truths, 3)), float(view.rules.players == 2),
            liar, liar * z]


@cache
def _data() -> Mapping[str, Any]:
    text = resources.files("usotsuki.bots.liar").joinpath(DATA).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{DATA} was fitted on other features: {data['features']}")
    return data


def fitted(level: str | None = None) -> str:
    """The name of the model the data file holds for ``level``: its own when fitted, else
    ``"pooled"`` (None: pooled over the levels; ``"hint"``: the hint's, see
    :func:`hint_truth`; ``"simple"``: ``normal``'s small model)."""
    return level if level is not None and level in _data()["models"] else "pooled"


def coefficients(level: str | None = None) -> Sequence[float]:
    """The fitted coefficients of ``level``'s model (:func:`fitted`), one per name in
    :data:`FEATURES` (:data:`SIMPLE` for ``"simple"``)."""
    return list(_data()["models"][fitted(level)])


def link(level: str | None = None) -> Sequence[float] | None:
    """The second stage fitted for ``level``'s model (None: none, the identity)."""
    found = _data().get("links", {}).get(fitted(level))
    return None if found is None else list(found)


KNOTS = (-2.0, -1.0, 0.0, 1.0, 2.0, 3.0)
"""Where the second stage's link bends (log-odds of the first stage)."""


def link_basis(z: float) -> list[float]:
    """The second stage's inputs: a piecewise-linear function of the first stage's
    log-odds ``z`` with bends at :data:`KNOTS` (a logistic model is linear in its inputs,
    so its reliability curve cannot bend; this lets it, still fitted by likelihood)."""
    return [1.0, z, *(max(0.0, z - k) for k in KNOTS)]


def isotonic(level: str | None = None) -> Sequence[tuple[float, float]] | None:
    """The third stage fitted for ``level``'s model: knots (predicted, observed) of a
    non-decreasing map (None: none, the identity)."""
    found = _data().get("isotonic", {}).get(fitted(level))
    return None if not found else [(float(x), float(f)) for x, f in found]


def calibrate(p: float, knots: Sequence[tuple[float, float]] | None) -> float:
    """``p`` through the monotone map given by ``knots`` (linear between knots; the ends
    are (0, 0) and (1, 1)): the maximum-likelihood non-decreasing fix of what the two
    logistic stages leave (their curve cannot follow every bend of the observed one)."""
    if not knots:
        return p
    x0, f0 = knots[0]
    if p <= x0:
        return f0
    for x1, f1 in knots[1:]:
        if p <= x1:
            return f0 + (f1 - f0) * (p - x0) / (x1 - x0) if x1 > x0 else f1
        x0, f0 = x1, f1
    return f0


def probability(x: Sequence[float], coef: Sequence[float],
                link: Sequence[float] | None = None,
                knots: Sequence[tuple[float, float]] | None = None) -> float:
    z = sum(a * b for a, b in zip(x, coef, strict=True))
    if link is not None:
        z = sum(a * b for a, b in zip(link_basis(z), link, strict=True))
    return calibrate(1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), knots)


def calibrated_truth(view: LiarView, level: str | None = None) -> float | None:
    """P(the current play is truthful), calibrated on how the bots play (see the module
    docstring); None when there is no current play or it is the seat's own; 0.0 when the
    seat knows the claim is impossible."""
    if not view.field or view.hand is None or view.field[-1].seat == view.seat:
        return None
    x = features(view)
    if x is None:
        return 0.0
    return probability(x, coefficients(level), link(level), isotonic(level))


def hint_truth(view: LiarView) -> float | None:
    """The hint's "given how people play" (:mod:`usotsuki.bots.liar.hints`): the pooled
    model's procedure, refitted on games of the shipped bots (the ``"hint"`` model; until
    one is fitted, the pooled model). The bots' own pooled model is part of how ``hard`` and
    the expert play, so refitting it changes the games it was fitted on and it lags one
    refit behind them; nobody plays by the hint, so it stays calibrated for the bots whose
    games it was fitted on."""
    return calibrated_truth(view, "hint")


def liar_record(view: LiarView, seat: int) -> float:
    """The ``liar`` feature: log-odds of a lie in ``seat``'s plays doubted this game (a half
    of each as prior; 0 before any doubt)."""
    truths, lies = doubted_record(view.doubts, seat)
    return math.log((lies + 0.5) / (truths + 0.5))


def simple_truth(view: LiarView) -> float | None:
    """``normal``'s calibrated belief (:data:`SIMPLE`), as :func:`calibrated_truth`."""
    able = able_before_play(view)
    if able is None:
        return None
    if able <= 0.0:
        return 0.0
    return probability(simple_features(view, able), coefficients("simple"), link("simple"),
                       isotonic("simple"))


def normal_truth(view: LiarView) -> float | None:
    """``normal``'s belief: heads-up the full calibrated belief (:func:`calibrated_truth`),
    with three or more players the small model (:func:`simple_truth`). Heads-up every
    play ``normal`` believes is a gain to its one opponent, and a reader of ``normal``'s
    rule lies where the small model believes the play, at the lowest rate legal then,
    while its truthful plays are often higher; the small model, which reads only the odds
    and the record, cannot tell the two apart, the full one reads the declared rate's
    place among the legal ones, the passes and the structural belief
    (``docs/experiments.md``, Liar `normal` heads-up). With more players the decisions
    stay those of the small model."""
    if view.rules.players == 2:
        return calibrated_truth(view)
    return simple_truth(view)


LEAD_READ = (20.0, 0.2)
"""The per-opponent read's prior (:func:`read_truth`): a Beta(truthful, lies) of weights
``(20, 0.2)`` on how a player's leads go beyond what the pooled model says, fitted by
maximum likelihood on the leads of self-play games with players who lie at their leads
(``scripts/fit_liar_read.py``). The lies' weight barely depends on the truthful one (a
player's truthful leads add little to a pooled model that already expects truthful
leads); 20 keeps the prior proper."""


def lead_read(view: LiarView, seat: int) -> float:
    """The log-odds shift :func:`read_truth` gives ``seat``'s leads: what its own leads
    doubted in this game (public, ``view.doubts``) say. The model: each player's leads are
    truthful with the pooled odds times a factor of its own, whose prior is the
    ``LEAD_READ`` Beta(a, b) on the odds' scale (mean odds a / b before any lead is doubted,
    the pooled model's own); after ``t`` truthful and ``l`` lying leads doubted, the
    conjugate posterior is Beta(a + t, b + l), so the factor is (a + t) / a over (b + l) / b.
    One caught lead lie divides the odds by 6, two by 11, three by 16. Doubted leads are a
    fairer sample of a player's leads than doubted plays are of its other plays: a lead
    may declare any rate (L6), so the pooled model rates most leads alike (half of the
    fitting games' leads at 0.955 or more) and a doubter's belief sorts them little. The
    other plays are not read so: which of them are doubted depends on the doubter's
    belief (in those games ``hard``'s doubts of ``normal`` found lies in 58% of them,
    ``normal``'s doubts of ``hard`` in 19%), so their record says more about the doubter
    than about the player; the pooled model reads the whole record through its ``liar``
    feature (and a shift fitted for them too came out with the wrong sign)."""
    a, b = LEAD_READ
    truths, lies = doubted_record(view.doubts, seat, lead=True)
    return math.log((a + truths) / a) - math.log((b + lies) / b)


FOLLOW_READ = 5.15
"""The read of other plays (:func:`follow_read`): the weight ``b`` of a Beta prior's lies,
as in :data:`LEAD_READ`, with the truthful weight unbounded (a player's truthful plays
found in doubts say nothing beyond the pooled model, which reads them itself). Fitted by
maximum likelihood on the plays that answered another in self-play games
(``scripts/fit_liar_read.py --fit --follows``). One caught lie multiplies the odds by
0.84, three by 0.63, five by 0.51."""


def follow_read(view: LiarView, seat: int, lies_weight: float = FOLLOW_READ) -> float:
    """The log-odds shift :func:`read_all_truth` gives ``seat``'s plays that answer another:
    what its own such plays found lies in this game's doubts (public, ``view.doubts``)
    say: the posterior of :func:`lead_read`'s model with the prior's truthful weight
    unbounded and ``lies_weight`` (:data:`FOLLOW_READ`), so ``l`` caught lies multiply the
    odds by b / (b + l). Unlike a lead, which play of this kind gets doubted depends on
    the doubter's belief, so the record overstates a player's lies (doubts pick the
    likelier lies); that is why the fitted weight is large, the shift mild."""
    _, lies = doubted_record(view.doubts, seat, lead=False)
    return -math.log((lies_weight + lies) / lies_weight)


def read_truth(view: LiarView, level: str | None = None, follows: bool = False
               ) -> float | None:
    """:func:`calibrated_truth` read for the current play's player: a lead's log-odds
    shifted by that player's own record of doubted leads in this game
    (:func:`lead_read`), other plays as the pooled model says (``follows``: shifted by
    the player's own record of doubted other plays, :func:`follow_read`). A pooled model
    of everyone cannot tell one player from another: a player who lies at many of its
    leads gets the pooled model's trust in truthful leaders until its own record says
    otherwise. The view's public doubts alone: no hidden card."""
    p = calibrated_truth(view, level)
    if p is None or not 0.0 < p < 1.0:
        return p
    seat = view.field[-1].seat
    if len(view.field) == 1:
        shift = lead_read(view, seat)
    elif follows:
        shift = follow_read(view, seat)
    else:
        return p
    z = math.log(p / (1.0 - p)) + shift
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def read_all_truth(view: LiarView) -> float | None:
    """:func:`read_truth` with the read of other plays too (``follows``)."""
    return read_truth(view, follows=True)
