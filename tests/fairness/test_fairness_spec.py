"""docs/fairness.md's test vector and rules, checked against the Python implementation:
the numbers in the page are the numbers the code makes."""

from __future__ import annotations

import hashlib
import hmac
from pathlib import Path

import pytest

from usotsuki.cards import format_cards, parse_cards
from usotsuki.fairness import (
    Contribution,
    FairDeals,
    Fairness,
    FairnessError,
    Stream,
    commitment,
    key,
)

DOC = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text(encoding="utf-8")
SECRET = bytes(range(32)).hex()
CONTRIBUTIONS = (Contribution(0, "ff" * 32),)
DEALS = FairDeals(key(SECRET, "local", 0, CONTRIBUTIONS))


def in_doc(value: str) -> None:
    assert f"`{value}`" in DOC, f"docs/fairness.md should show {value!r}"


def test_commitment_and_key_of_the_vector() -> None:
    in_doc(commitment("local", 0, SECRET))
    in_doc(DEALS.key.hex())
    in_doc(key(SECRET, "local", 0, ()).hex())
    in_doc(DEALS.stream("bluff:round:0").read(32).hex())


def test_texts_are_the_documented_bytes() -> None:
    """Recomputed here from the page's text rules with hashlib/hmac directly."""
    text = f"usotsuki-fair-1\ncommit\ntable:local\ngame:0\nsecret:{SECRET}"
    assert commitment("local", 0, SECRET) == hashlib.sha256(text.encode()).hexdigest()
    message = "usotsuki-fair-1\nkey\ntable:local\ngame:0\ncontribution:0:" + "ff" * 32
    k = hmac.new(bytes(range(32)), message.encode(), hashlib.sha256).digest()
    assert DEALS.key == k
    block1 = hmac.new(k, b"usotsuki-fair-1\nstream:liar:seed\nblock:1", hashlib.sha256)
    stream = DEALS.stream("liar:seed")
    stream.read(32)
    assert stream.read(32) == block1.digest()


def test_draws_deals_and_seed_of_the_vector() -> None:
    stream = DEALS.stream("bluff:round:0")
    in_doc(" ".join(str(stream.uniform(52 - i)) for i in range(5)))
    for hand in DEALS.bluff_hands(0, 13, [1, 1, 1, 1]):
        in_doc(format_cards(hand))
    for hand, shown in zip(DEALS.bluff_hands(1, 6, [2, 1, 3]), ["QS AC", "AH", "TD KS KC"],
                           strict=True):
        assert hand == tuple(sorted(parse_cards(shown.split())))
    assert "`QS AC`, `AH`, `TD KS KC`" in DOC
    hands, stock = DEALS.liar_deal(0, 4, 36)
    assert " / ".join(f"`{format_cards(h)}`" for h in hands) in DOC
    in_doc(format_cards(stock))
    in_doc(str(DEALS.liar_seed()))


def test_uniform_rejects_the_top_of_the_range() -> None:
    """n = 3: 2^32 mod 3 = 1, so exactly x = 2^32 - 1 is rejected and the next word read."""
    class Fixed(Stream):
        def __init__(self, words: list[int]) -> None:
            self.data = b"".join(w.to_bytes(4, "big") for w in words)

        def read(self, count: int) -> bytes:
            taken, self.data = self.data[:count], self.data[count:]
            return taken

    assert Fixed([2**32 - 1, 7]).uniform(3) == 1
    assert Fixed([2**32 - 2]).uniform(3) == (2**32 - 2) % 3
    assert Fixed([5]).uniform(1) == 0


def test_streams_of_purposes_differ_and_read_on() -> None:
    a, b = DEALS.stream("bluff:round:0"), DEALS.stream("bluff:round:1")
    first = a.read(40)
    assert first != b.read(40)
    assert a.read(24) + a.read(0) == DEALS.stream("bluff:round:0").read(64)[40:]


def test_the_object_round_trips_and_refuses_bad_shapes() -> None:
    fair = Fairness.committed("k3TqZ8wA", 2, SECRET, [Contribution(0, "ab" * 32),
                                                     Contribution(3, None)])
    assert Fairness.from_json(fair.to_json(), 4) == fair
    assert fair.unrevealed().to_json()["secret"] is None
    bad = [
        {**fair.to_json(), "version": "usotsuki-fair-2"},
        {**fair.to_json(), "game": -1},
        {**fair.to_json(), "game": True},
        {**fair.to_json(), "table": "a\nb"},
        {**fair.to_json(), "table": ""},
        {**fair.to_json(), "commitment": fair.commitment.upper()},
        {**fair.to_json(), "secret": SECRET[:-2]},
        {**fair.to_json(), "contributions": [{"seat": 3, "value": None},
                                             {"seat": 0, "value": None}]},
        {**fair.to_json(), "contributions": [{"seat": 4, "value": None}]},
        {**fair.to_json(), "contributions": [{"seat": 0, "value": "xyz"}]},
        {**fair.to_json(), "contributions": [{"seat": 0}]},
        {**fair.to_json(), "extra": 1},
        {k: v for k, v in fair.to_json().items() if k != "secret"},
        [],
    ]
    for value in bad:
        with pytest.raises(FairnessError):
            Fairness.from_json(value, 4)
