"""The rules core stays pure (STYLE.md): no web, async, numeric or schema libraries, no
global ``random``, and a typed error for every bad input."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from usotsuki.bluff import BluffRules, Call, CallKind, apply, new_game, start_round
from usotsuki.cards import parse_cards
from usotsuki.core.errors import IllegalAction

FORBIDDEN = ("fastapi", "asyncio", "numpy", "pydantic", "starlette", "typer", "rich")


def test_importing_the_bluff_core_brings_no_heavy_modules() -> None:
    # A fresh interpreter, so that other tests' imports do not count.
    code = textwrap.dedent(f"""
        import sys
        import usotsuki.bluff, usotsuki.bluff.record, usotsuki.bluff.deal
        import usotsuki.bluff.view, usotsuki.bluff.events, usotsuki.replay
        print(",".join(m for m in {FORBIDDEN!r} if m in sys.modules))
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60, check=True)
    assert run.stdout.strip() == ""


def test_rules_core_does_not_use_the_global_random_generator() -> None:
    code = textwrap.dedent("""
        import random
        def trap(*args, **kwargs):
            raise AssertionError("global random used")
        for name in ("random", "randint", "choice", "shuffle", "sample", "seed",
                     "getrandbits", "randrange"):
            setattr(random, name, trap)
        from usotsuki.bluff import BluffRules, new_game, start_round, apply, parse_action
        from usotsuki.bluff.deal import deal_hands
        from usotsuki.bluff.record import replay, write_record
        state = new_game(BluffRules(players=3))
        state = start_round(state, deal_hands(state, random.Random(1))).state
        state = apply(state, parse_action("card 2")).state
        state = apply(state, parse_action("challenge")).state
        assert replay(write_record(state)).state == state
        print("ok")
    """)
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert run.stdout.strip() == "ok", run.stderr


@pytest.mark.parametrize("call", [
    Call(CallKind.TWO_PAIR, (3, 10)),  # lower pair first: not canonical
    Call(CallKind.FULL_HOUSE, (4, 4)),
    Call(CallKind.CARD, (13,)),
    Call(CallKind.STRAIGHT_FLUSH, (12,)),  # no suit
    Call(CallKind.STRAIGHT_FLUSH, (2,), 0),  # top 4
    Call(CallKind.PAIR, (1, 2)),
])
def test_b6_a_hand_built_call_that_does_not_exist_is_illegal_not_a_crash(call: Call) -> None:
    state = new_game(BluffRules(players=3))
    state = start_round(state, [parse_cards([c]) for c in ("2S", "3S", "4S")]).state
    with pytest.raises(IllegalAction):
        apply(state, call)
