"""The Bluff round playout: one round played out to its challenge in many worlds at once.

A world is one deal of the cards in play (each card's seat), drawn from a belief. From a
seat's raise on, every seat in play acts in turn (B5) by a decision rule on its own cards
in that world (:mod:`usotsuki.bots.bluff.policy`) until someone challenges and B9 names
the loser. The searching levels (``hard``, ``expert``, ``expert-v1``) value their raises
by it, and the game review (:mod:`usotsuki.analysis.search`) values a move with the
expert's search, through it too.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from usotsuki.bluff.actions import ALL_CALLS, FIRST_STRONGER
from usotsuki.bluff.view import BluffView
from usotsuki.bots.bluff.policy import NO_CALL, MixedRule, distribution_rows
from usotsuki.odds import call_probabilities_rows, deck_mask

_STRONGER = np.array(FIRST_STRONGER, dtype=np.int64)


def playouts(v: BluffView, owner: np.ndarray, truth: np.ndarray, firsts: Sequence[int],
             rule: MixedRule, gen: np.random.Generator | None) -> np.ndarray:
    """(len(firsts), worlds): the seat that loses the round after seat ``v.seat`` calls
    ``ALL_CALLS[first]``, for each raise and each world (``owner``: each card's seat, -1
    outside the round; ``truth``: each call's truth there, B8), every seat then playing
    ``rule`` on its own cards, all worlds in step.

    Every raise is played out in the same worlds (common random numbers, so their
    comparison is fair), one raise after another (each step draws one uniform number a
    world still playing from ``gen``, so the draws are fixed by the worlds and the
    raises); a seat's card odds in a world (its hand does not change within the round)
    are computed once for all of them. ``gen`` None: no draws, for a rule that gives one
    action probability 1 (:data:`usotsuki.bots.bluff.policy.DETERMINISTIC`)."""
    assert v.seat is not None
    k = owner.shape[0]
    rows = np.arange(k)
    mask = deck_mask(v.ranks)
    odds: dict[int, np.ndarray] = {}  # per seat: (worlds, 326) odds of its hand there
    out = np.zeros((len(firsts), k), dtype=np.int64)
    for j, first in enumerate(firsts):
        current = np.full(k, first, dtype=np.int64)
        caller = np.full(k, v.seat, dtype=np.int64)
        loser = out[j]
        active = np.ones(k, dtype=bool)
        seat = v.next_seat(v.seat)
        for _ in range(len(ALL_CALLS)):  # every raise is stronger (B5): the round ends
            live = rows[active]
            if not live.size:
                break
            if seat not in odds:
                unseen = v.cards_in_play - v.hand_sizes[seat]
                odds[seat] = np.where(mask, call_probabilities_rows(owner == seat, unseen,
                                                                    v.ranks), NO_CALL)
            cur = current[live]
            u = np.zeros(live.size) if gen is None else gen.random(live.size)
            _, choice = moves(odds[seat], live, _STRONGER[cur], odds[seat][live, cur], rule, u)
            challenged = choice < 0
            ended = live[challenged]
            true = truth[ended, current[ended]]
            loser[ended] = np.where(true, seat, caller[ended])  # B9
            active[ended] = False
            moved = live[~challenged]
            current[moved] = choice[~challenged]
            caller[moved] = seat
            seat = v.next_seat(seat)
    return out


WINDOW = 40
"""How many calls from its first legal one a playout seat's rule is worked out on, when
they decide it (see :func:`moves`)."""
_CALLS = len(ALL_CALLS)
SMALL = 64
"""Fewer playout rows than this are worked out over all their legal calls."""


def moves(probs: np.ndarray, which: np.ndarray, starts: np.ndarray, p_cur: np.ndarray,
          rule: MixedRule, u: np.ndarray, window: int = WINDOW
          ) -> tuple[np.ndarray, np.ndarray]:
    """One step of many playouts: row ``r`` is a seat with the 326 call probabilities
    ``probs[which[r]]`` facing a call whose first stronger call is ``starts[r]``
    (believed ``p_cur[r]``); ``u[r]`` is its uniform draw. Returns
    :func:`distribution_rows`' challenge probability (it challenges when ``u < c``) and
    the call it raises to otherwise (-1 where it challenges): ``u - c`` is read off the
    cumulative raise weights.

    The rule is worked out on ``window`` calls from each row's start, plus the row's
    likeliest legal call, when those hold every call it can pick: ``spread`` plausible
    calls (or none in the whole row: then the likeliest is its honest call) and
    ``spread`` bluff candidates, or the end of the calls. The answer is then the one the
    whole row gives; the other rows are worked out over all their legal calls. (A playout
    step over all 326 calls was most of ``hard``'s and ``expert``'s time.)"""
    m = which.size
    spread = max(1, rule.spread)
    columns = np.arange(_CALLS)
    if m < SMALL:  # few rows: the window's extra steps cost more than they save
        lo = int(starts.min())  # calls below every row's start are never legal
        legal = np.where(columns[None, lo:] < starts[:, None], NO_CALL, probs[which, lo:])
        c, w = distribution_rows(legal, 0, p_cur, rule)
        choice = np.full(m, -1, dtype=np.int64)
        go = u >= c
        if go.any():
            cum = np.cumsum(w[go], axis=1)
            target = np.minimum(u[go] - c[go], cum[:, -1] * (1.0 - 1e-9))
            choice[go] = lo + np.argmax(cum > target[:, None], axis=1)
        return c, choice
    legal = np.where(columns[None, :] >= starts[:, None], probs[which], -2.0)
    likeliest = np.argmax(legal, axis=1)  # the weakest of equals, as distribution_rows
    none_plausible = legal[np.arange(m), likeliest] < rule.plausible
    index = starts[:, None] + np.arange(window)[None, :]
    inside = index < _CALLS
    index = np.minimum(index, _CALLS - 1)
    win = np.where(inside, legal[np.arange(m)[:, None], index], NO_CALL)
    # the likeliest call once more at the end, unless it is in the window already
    beyond = likeliest >= starts + window
    extra = np.where(beyond, legal[np.arange(m), likeliest], NO_CALL)
    win = np.concatenate([win, extra[:, None]], axis=1)
    index = np.concatenate([index, likeliest[:, None]], axis=1)
    valid = win[:, :window] >= 0.0
    plausible = valid & (win[:, :window] >= rule.plausible)
    enough = (plausible.sum(axis=1) >= spread) | none_plausible
    if rule.bluff > 0.0:
        candidates = (valid & ~plausible & (win[:, :window] > 0.0)).sum(axis=1)
        enough &= candidates >= spread + none_plausible  # the honest call may be one
    enough |= starts + window >= _CALLS
    c = np.empty(m)
    choice = np.full(m, -1, dtype=np.int64)
    short = np.flatnonzero(enough)
    groups = [(short, win[short], index[short])]
    full = np.flatnonzero(~enough)
    if full.size:
        lo = int(starts[full].min())  # calls below every row's start are never legal
        rest = np.where(legal[full, lo:] < 0.0, NO_CALL, legal[full, lo:])
        groups.append((full, rest, np.broadcast_to(columns[lo:], rest.shape)))
    for rows, matrix, at in groups:
        if not rows.size:
            continue
        cg, w = distribution_rows(matrix, 0, p_cur[rows], rule)
        c[rows] = cg
        go = u[rows] >= cg
        if go.any():
            cum = np.cumsum(w[go], axis=1)
            target = np.minimum(u[rows][go] - cg[go], cum[:, -1] * (1.0 - 1e-9))
            picked = np.argmax(cum > target[:, None], axis=1)
            choice[rows[go]] = at[go][np.arange(picked.size), picked]
    return c, choice
