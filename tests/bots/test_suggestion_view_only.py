"""The browser's suggested move (``server.advice.suggestion``, the terminal's ``hint``)
reads the asking seat's view alone: the same view with other hidden cards gives the same
move and the same reason."""

from __future__ import annotations

import random

from test_bluff_levels import mid_round, with_other_hands
from test_liar_levels import hidden_twin, played_positions

from usotsuki.bluff import legal_actions, view
from usotsuki.bots.bluff.hints import REASONS as BLUFF_REASONS
from usotsuki.bots.liar.hints import REASONS as LIAR_REASONS
from usotsuki.liar import legal_summary
from usotsuki.liar import view as liar_view
from usotsuki.server.advice import suggestion


def test_a_bluff_suggestion_ignores_the_others_hidden_cards() -> None:
    for calls in (["pair 7"], ["pair 7", "two-pair 9 4"]):
        state = mid_round(3, calls)
        seat = state.to_move
        assert seat is not None
        legal = legal_actions(state)
        found = suggestion("bluff", view(state, seat), legal)
        assert found["move"] in {str(a) for a in legal}
        assert found["reason"] in BLUFF_REASONS
        assert found["text"] == BLUFF_REASONS[found["reason"]].format(**found["args"])
        for k in range(3):
            other = with_other_hands(state, seat, random.Random(k))
            assert other.hands != state.hands and view(other, seat) == view(state, seat)
            assert suggestion("bluff", view(other, seat), legal_actions(other)) == found


def test_a_liar_suggestion_ignores_the_others_hidden_cards() -> None:
    checked = 0
    rng = random.Random(5)
    for _, state in played_positions(range(12), rng, moves=20):
        seat = state.to_move
        assert seat is not None
        twin = hidden_twin(state, seat, rng)
        assert twin.hands != state.hands or twin.stock != state.stock
        found = suggestion("liar", liar_view(state, seat), legal_summary(state))
        assert found["reason"] in LIAR_REASONS
        assert suggestion("liar", liar_view(twin, seat), legal_summary(twin)) == found
        checked += 1
        if checked == 4:
            break
    assert checked == 4
