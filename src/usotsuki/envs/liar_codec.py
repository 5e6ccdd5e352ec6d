"""The Liar Game for learning agents: action ids and a fixed-shape tensor of a seat's view.

**Actions** (783 ids). With O1 a play may hold any number of cards, too many to number
one by one, so a play (and an O7 give) is made card by card, lowest card first: ``select``
puts a card aside, and the last card comes with the play's rate (or the give) and
completes the action, which the core then judges as one Part 3 action.

=================  ==========  =====================================================
ids                action      meaning
=================  ==========  =====================================================
``13 * c + r``     play        the selected cards and card ``c`` (0..51, ``Card``'s
                               index), declared as rate ``r`` (0 = ``3`` .. 12 = ``2``)
``676 + c``        select      card ``c`` goes into the play or give in progress (O1, O7)
``728 + c``        give        the selected cards and card ``c`` are given (O7)
``780 781 782``    pass, doubt, accept
=================  ==========  =====================================================

Only completions that the core allows are offered (the counts and rates of its
``LegalSummary``; a select only when the action can still be completed).

**Observation** (float32; seats relative to the observer: 0 is the seat itself, 1 the
next seat clockwise, ...; counts are divided by 52):

================  ============  ====================================================
piece             shape         meaning
================  ============  ====================================================
``hand``          52            the seat's cards
``selected``      52            cards selected for the play or give in progress
``hand_sizes``    P             each seat's card count / 52
``stock``         1             stock size / 52
``current``       P + 13 + 1    the current play: its seat, rate, card count / 52
``field``         2             cards on the field / 52, plays on the field / 52
``own_field``     52            the seat's own cards on the field
``known``         52 x (P+1)    shown cards certainly in the stock (column 0) or in a
                                seat's hand (column 1 + relative seat), L9 tracking
``own_places``    52 x (P+1)    the same for the cards this seat played or gave
``flags``         5             order reversed, revolution, J-back, bound, 8-cut
``to_move``       P             one-hot seat to act
``legal``         4 + 52 + 13   pass, doubt, accept, give; play counts 1..52; rates
``turns``         2             turns / turn limit (0 without one), game index / 8 (at most 1)
================  ============  ====================================================
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from usotsuki.cards import DECK, Card
from usotsuki.liar import ACCEPT, DOUBT, PASS, Action, Give, LegalSummary, LiarView, Play
from usotsuki.liar.actions import RATE_COUNT
from usotsuki.liar.legal import legal_summary
from usotsuki.liar.state import LiarState

Array = npt.NDArray[np.float32]

PLAY_BASE, SELECT_BASE, GIVE_BASE = 0, 52 * RATE_COUNT, 52 * RATE_COUNT + 52
PASS_ID, DOUBT_ID, ACCEPT_ID = GIVE_BASE + 52, GIVE_BASE + 53, GIVE_BASE + 54
NUM_ACTIONS = ACCEPT_ID + 1


def action_text(action_id: int, selected: Sequence[Card] = ()) -> str:
    """An id in words (with the selected cards it completes)."""
    if action_id == PASS_ID:
        return "pass"
    if action_id == DOUBT_ID:
        return "doubt"
    if action_id == ACCEPT_ID:
        return "accept"
    if action_id >= GIVE_BASE:
        return "give " + " ".join(str(c) for c in (*selected, DECK[action_id - GIVE_BASE]))
    if action_id >= SELECT_BASE:
        return f"select {DECK[action_id - SELECT_BASE]}"
    from usotsuki.liar import RATE_NAMES
    card, rate = divmod(action_id, RATE_COUNT)
    return "play " + " ".join(str(c) for c in (*selected, DECK[card])) + f" as {RATE_NAMES[rate]}"


def legal_ids(state: LiarState, selected: Sequence[Card] = ()) -> list[int]:
    """The ids the player to move may take, ascending, with ``selected`` cards put aside
    for a play or give in progress."""
    seat = state.to_move
    summary = legal_summary(state)
    if seat is None or summary is None:
        return []
    owed = state.owed[0].size if summary.give else 0
    return summary_ids(summary, state.hands[seat], owed, selected)


def view_legal_ids(view: LiarView, selected: Sequence[Card] = ()) -> list[int]:
    """:func:`legal_ids` from the seat's view (its ``legal`` summary, hand and owed
    gives): none unless the view's seat is to move."""
    summary = view.legal
    if view.seat is None or view.to_move != view.seat or summary is None or view.hand is None:
        return []
    owed = view.owed[0].size if summary.give else 0
    return summary_ids(summary, view.hand, owed, selected)


def summary_ids(summary: LegalSummary, held: Sequence[Card], owed: int,
                selected: Sequence[Card] = ()) -> list[int]:
    """The ids a seat holding ``held`` may take under the core's ``summary`` (``owed``:
    the cards an O7 give must hold), ``selected`` cards put aside already."""
    hand = sorted(c for c in held if c not in selected)
    last = selected[-1] if selected else -1
    k = len(selected)
    ids: list[int] = []
    if summary.give:  # O7: exactly the owed number of cards
        above = [c for c in hand if c > last]
        for i, c in enumerate(above):
            if k + 1 == owed:
                ids.append(GIVE_BASE + c)
            elif len(above) - i - 1 >= owed - k - 1:
                ids.append(SELECT_BASE + c)
        return sorted(ids)
    if summary.play:
        above = [c for c in hand if c > last]
        finish = k + 1 in summary.counts
        for i, c in enumerate(above):
            if finish:
                ids += [PLAY_BASE + c * RATE_COUNT + r for r in summary.rates]
            rest = len(above) - i - 1  # cards above c that could follow it
            if any(n >= k + 2 and rest >= n - k - 1 for n in summary.counts):
                ids.append(SELECT_BASE + c)
    if k == 0:
        ids += [i for i, ok in ((PASS_ID, summary.pass_), (DOUBT_ID, summary.doubt),
                                (ACCEPT_ID, summary.accept)) if ok]
    return sorted(ids)


def decode(action_id: int, selected: Sequence[Card] = ()) -> Action | Card:
    """The core action an id completes, or the card a ``select`` puts aside."""
    if action_id == PASS_ID:
        return PASS
    if action_id == DOUBT_ID:
        return DOUBT
    if action_id == ACCEPT_ID:
        return ACCEPT
    if not 0 <= action_id < NUM_ACTIONS:
        raise IndexError(f"no Liar Game action id {action_id} (0 to {NUM_ACTIONS - 1})")
    if action_id >= GIVE_BASE:
        return Give((*selected, DECK[action_id - GIVE_BASE]))
    if action_id >= SELECT_BASE:
        return DECK[action_id - SELECT_BASE]
    card, rate = divmod(action_id, RATE_COUNT)
    return Play((*selected, DECK[card]), rate)


class LiarCodec:
    """The observation tensor of :mod:`usotsuki.envs.liar_codec` for ``players`` seats."""

    def __init__(self, players: int, turn_limit: int | None = None) -> None:
        p = self.players = players
        self.turn_limit = turn_limit
        self.pieces: tuple[tuple[str, tuple[int, ...]], ...] = (
            ("hand", (52,)), ("selected", (52,)), ("hand_sizes", (p,)), ("stock", (1,)),
            ("current", (p + RATE_COUNT + 1,)), ("field", (2,)), ("own_field", (52,)),
            ("known", (52, p + 1)), ("own_places", (52, p + 1)), ("flags", (5,)),
            ("to_move", (p,)), ("legal", (4 + 52 + RATE_COUNT,)), ("turns", (2,)))
        self.offsets: dict[str, int] = {}
        i = 0
        for name, shape in self.pieces:
            self.offsets[name] = i
            i += int(np.prod(shape))
        self.size = i

    def encode(self, view: LiarView, out: Array, selected: Sequence[Card] = (),
               private: bool = True) -> None:
        """Write ``view`` (and the cards selected so far) into ``out``, zeroed first.
        ``private`` False leaves out what only the seat knows (a public observation)."""
        out.fill(0)
        p, o = self.players, self.offsets
        me = view.seat if view.seat is not None else 0

        def rel(seat: int) -> int:
            return (seat - me) % p

        if private:
            for c in view.hand or ():
                out[o["hand"] + c] = 1
            for c in selected:
                out[o["selected"] + c] = 1
        for seat, size in enumerate(view.hand_sizes):
            out[o["hand_sizes"] + rel(seat)] = size / 52
        out[o["stock"]] = view.stock_size / 52
        if view.field:
            play = view.field[-1]
            i = o["current"]
            out[i + rel(play.seat)] = 1
            out[i + p + play.rate] = 1
            out[i + p + RATE_COUNT] = play.count / 52
            out[o["field"]] = sum(f.count for f in view.field) / 52
            out[o["field"] + 1] = len(view.field) / 52
            if private:
                for f in view.field:
                    for c in f.cards or ():
                        out[o["own_field"] + c] = 1
        for key, places in (("known", view.known_places), ("own_places", view.own_places)):
            if key == "own_places" and not private:
                continue
            for c, place in places:
                column = 0 if place == "stock" else 1 + rel(int(place))
                out[o[key] + c * (p + 1) + column] = 1
        flags = (view.reversed, view.revolution, view.jack_back, view.bound, view.eight_cut)
        out[o["flags"]:o["flags"] + 5] = flags
        if view.to_move is not None:
            out[o["to_move"] + rel(view.to_move)] = 1
        self._legal(view.legal, out, o["legal"])
        if self.turn_limit:
            out[o["turns"]] = view.turns / self.turn_limit
        out[o["turns"] + 1] = min(view.game, 8) / 8  # stays in the box past 8 games

    @staticmethod
    def _legal(legal: LegalSummary | None, out: Array, i: int) -> None:
        if legal is None:
            return
        out[i:i + 4] = (legal.pass_, legal.doubt, legal.accept, legal.give)
        for n in legal.counts:
            out[i + 4 + n - 1] = 1
        for r in legal.rates:
            out[i + 4 + 52 + r] = 1

    def observation(self, view: LiarView, selected: Sequence[Card] = ()) -> Array:
        out = np.zeros(self.size, np.float32)
        self.encode(view, out, selected)
        return out
