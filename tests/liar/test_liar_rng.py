"""Part 4: the flush generator is exactly ``random.Random(seed)``, as an immutable value."""

from __future__ import annotations

import copy
import pickle
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from usotsuki.liar.rng import FlushRng


def test_part4_shuffles_match_one_random_random_per_record() -> None:
    reference = random.Random("seed")
    rng = FlushRng.from_seed("seed")
    for length in (3, 1, 0, 7, 2, 12):
        want, got = list(range(length)), list(range(length))
        reference.shuffle(want)
        rng = rng.shuffled(got)
        assert got == want
    assert rng.getstate() == reference.getstate()


@settings(max_examples=60)
@given(st.integers() | st.text(max_size=8), st.lists(st.integers(0, 20), max_size=8),
       st.integers(0, 8))
def test_part4_a_state_reused_gives_the_same_shuffles(seed: int | str, lengths: list[int],
                                                      branch: int) -> None:
    states = [FlushRng.from_seed(seed)]
    for length in lengths:
        states.append(states[-1].shuffled(list(range(length))))
    again = states[min(branch, len(states) - 1)]  # go back, as a search would
    first, second = list(range(9)), list(range(9))
    after_first, after_second = again.shuffled(first), again.shuffled(second)
    assert first == second and after_first == after_second
    reference = random.Random(seed)
    for length in lengths[:min(branch, len(states) - 1)]:
        reference.shuffle(list(range(length)))
    assert again.getstate() == reference.getstate()


def test_flush_rng_is_a_value() -> None:
    a = FlushRng.from_seed(7).shuffled(list(range(5)))
    b = FlushRng.from_seed(7).shuffled(list(range(5)))
    assert a == b and hash(a) == hash(b) and a != FlushRng.from_seed(7)
    assert copy.deepcopy(a) is a and pickle.loads(pickle.dumps(a)) == a
    assert FlushRng.from_state(a.getstate()) == a
