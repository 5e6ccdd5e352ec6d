"""A Liar Game bot with simple, explainable sense: tell the truth when it can, lie only
when it is cheap, doubt what its own cards (and the cards doubts turned up) make unlikely.

It decides from the seat's view alone, comparing each choice's expected change in its
hand size (fewer cards is better): a truthful play sheds its cards; a pass draws one card
(L6; free on an empty stock); a doubt of the current play costs the field's N cards when
the play was truthful and, when it was a lie, hands them to its player and gives this
seat the lead (L9); a lie sheds its cards but costs the field if someone doubts it.

How likely a claim is truthful: the chance that its player held the cards (the exact
odds of :func:`usotsuki.odds_liar.able_before_play`, the model the hints and the other
bots share), weighed by Bayes with ``lie_rate``, how often a player who cannot back a
claim makes it anyway (0.3: better than the raw chance, 1.0, in seeded games;
``docs/experiments.md``).
"""

from __future__ import annotations

import random

from usotsuki.bots.liar.common import give_cards, lie_play, owed_size, truthful_plays
from usotsuki.liar.actions import ACCEPT, DOUBT, PASS, Action
from usotsuki.liar.legal import LegalSummary
from usotsuki.liar.view import LiarView
from usotsuki.odds_liar import able_before_play


class SensibleLiarBot:
    """Truthful when possible, lowest rate first (keeping high cards for later); lies only
    while the field is small; doubts claims its knowledge makes impossible or unlikely."""

    name = "sensible"

    def __init__(self, lie_rate: float = 0.3, lie_risk: float = 0.35, lead_value: float = 1.0,
                 opponent_draw_value: float = 0.3, final_trust: float = 0.5,
                 cheap_final_doubt: int = 3) -> None:
        self.lie_rate = lie_rate  # how often a player who cannot back a claim makes it anyway
        self.lie_risk = lie_risk  # chance that a lie gets doubted before it is covered
        self.lead_value = lead_value  # worth of leading next, in cards
        self.opponent_draw_value = opponent_draw_value  # worth to us of a card an opponent draws
        self.final_trust = final_trust  # L10: accept a last play at least this likely true ...
        self.cheap_final_doubt = cheap_final_doubt  # ... unless doubting costs at most this

    def act(self, view: LiarView, legal: LegalSummary, rng: random.Random) -> Action:
        hand = view.hand or ()
        if legal.give:  # O7: give back the lowest cards (normal order)
            return give_cards(hand, owed_size(view))
        if not view.field:
            return self.lead(view, legal)
        p_true = self.truth_estimate(view)
        field_cards = sum(p.count for p in view.field)
        if legal.accept:  # L10: the current play emptied a hand
            if p_true < self.final_trust or field_cards <= self.cheap_final_doubt:
                return DOUBT
            return ACCEPT
        choices: list[tuple[float, int, Action]] = []  # (expected cards gained, tie, action)
        if legal.doubt:
            gain_if_lie = self.lead_value + self.opponent_draw_value * field_cards
            choices.append((p_true * field_cards - (1 - p_true) * gain_if_lie, 2, DOUBT))
        if legal.pass_:
            choices.append((1.0 if view.stock_size else 0.0, 1, PASS))
        if legal.play:
            count = legal.counts[0]  # on a field the count is fixed (L6, O1)
            truthful = truthful_plays(view, legal)  # lowest rate first
            if truthful:
                choices.append((-float(count), 0, truthful[0]))
            else:
                lie = lie_play(view, legal)
                if lie is not None:
                    risk = self.lie_risk * (field_cards + count)
                    choices.append((risk - count, 3, lie))
        return min(choices, key=lambda c: (c[0], c[1]))[2]

    def truth_estimate(self, view: LiarView) -> float:
        """How likely the current play (another seat's) is truthful: the exact chance its
        player held the cards, weighed by Bayes with ``lie_rate`` (players tell the truth
        when they can, and lie only some of the time)."""
        held = able_before_play(view) or 0.0  # None only on one's own play: L7 flushes it
        return held / (held + (1 - held) * self.lie_rate) if held else 0.0

    def lead(self, view: LiarView, legal: LegalSummary) -> Action:
        """L6: a leader must play; any rate goes, so play real cards: the lowest rate in
        the order in force, all of them when several cards may go at once (O1)."""
        return truthful_plays(view, legal)[0]
