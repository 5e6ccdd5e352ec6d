"""One heads-up Bluff round as a two-player zero-sum game (the solver's game).

Seat 0 calls first (B4, B5) holding ``sizes[0]`` cards, seat 1 holds ``sizes[1]``; both
are dealt from the short deck of ``ranks`` ranks (B3, B13). The round ends at a challenge
(B9): its loser gets -1, the other +1.

**Hands by rank.** With at most four cards in play no call that can be true names a suit
(a straight flush or a full house needs five cards, B6), so a hand is the multiset of its
ranks; suits change nothing a call can depend on, and the chance weight of a pair of
rank multisets counts the card deals behind it. The truth of every call in every pair of
hands is asked of the core (:func:`usotsuki.bluff.is_true`) on representative cards.

**Pruning (B5).** Every stronger call is legal, even one that cannot be true with the
cards in play; such calls explode the tree (2^34 call sequences for ranks 4). A call
naming more cards than the round holds in total (``need > sizes[0] + sizes[1]``) is false
whatever the deal, and both players know it. Claim: dropping those calls (a player who
faces one challenges it) changes neither the game's value nor any strategy's
exploitability. Proof. (1) Facing an impossible call, a challenge wins the round for
certain: +1, the most any outcome pays, so challenging is a best reply (and is what the
pruned game's strategies do). (2) Making an impossible call: the opponent may challenge
and win for certain, so against a best reply it pays -1, the least any outcome pays;
every other action (a challenge, or a call that can be true; the first caller always has
one, ``card`` of any rank) pays at least -1. So a best response never gains by an
impossible call, and a best response in the pruned game is one in the full game. Hence
for any pruned-game strategy profile extended by "never make an impossible call, always
challenge one", each player's best-response value is the same in both games: the
exploitability is unchanged, and with it (a Nash equilibrium being a profile of
exploitability 0 whose value is the game's) the value. ``tests/research`` checks both on
a deck small enough to solve unpruned (ranks 2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations_with_replacement
from math import comb, prod

import numpy as np
import numpy.typing as npt

from usotsuki.bluff import Call, calls_for, is_true, requirements
from usotsuki.cards import RANKS, Card, card

Hand = tuple[int, ...]  # rank indices (0 = 2 .. 12 = A), ascending
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def cards_named(call: Call) -> int:
    """B8: how many cards ``call`` needs in play at least (from the core's requirements)."""
    return sum(need for _, need in requirements(call))


@dataclass(frozen=True, slots=True)
class RoundSpec:
    """Which round: the deck (B13) and the hand sizes, first caller first."""

    ranks: int
    sizes: tuple[int, int]
    prune: bool = True  # drop the calls that cannot be true (see the module docstring)

    def __post_init__(self) -> None:
        if not 2 <= self.ranks <= 13:
            raise ValueError(f"ranks must be from 2 to 13, not {self.ranks} (B13)")
        if len(self.sizes) != 2 or min(self.sizes) < 1 or sum(self.sizes) > 4:
            raise ValueError(f"sizes must be two hand sizes of at least 1 card and at most 4 "
                             f"cards together (hands by rank need no suits), not {self.sizes}")

    @property
    def name(self) -> str:
        """``r4-1v2``: ranks 4, the first caller holds 1 card, the other 2."""
        return f"r{self.ranks}-{self.sizes[0]}v{self.sizes[1]}" + ("" if self.prune else "-full")


def _hands(ranks: int, size: int) -> tuple[Hand, ...]:
    low = 13 - ranks
    return tuple(h for h in combinations_with_replacement(range(low, 13), size)
                 if max(h.count(r) for r in h) <= 4)


@dataclass(frozen=True)
class RoundGame:
    """The round of ``spec`` as arrays: hands per seat, calls, chance and truth."""

    spec: RoundSpec
    calls: tuple[Call, ...] = field(init=False)
    hands: tuple[tuple[Hand, ...], tuple[Hand, ...]] = field(init=False)

    def __post_init__(self) -> None:
        total = sum(self.spec.sizes)
        deck_calls = calls_for(self.spec.ranks).calls
        calls = tuple(c for c in deck_calls if not self.spec.prune or cards_named(c) <= total)
        strengths = [c.strength for c in calls]
        if len(set(strengths)) != len(strengths):  # B7: equal straight flushes
            raise ValueError("trees with straight flushes of equal strength are not supported")
        if len(calls) > 24:
            raise ValueError(f"{len(calls)} calls make 2^{len(calls)} call sequences: too many")
        object.__setattr__(self, "calls", calls)
        object.__setattr__(self, "hands", tuple(_hands(self.spec.ranks, s)
                                                for s in self.spec.sizes))

    @property
    def m(self) -> int:
        """How many calls the tree has; its call sequences are the 2^m subsets."""
        return len(self.calls)

    @cached_property
    def chance(self) -> FloatArray:
        """(H0, H1): the probability of each pair of hands (B3: a uniform deal)."""
        a, b = self.spec.sizes
        deals = comb(4 * self.spec.ranks, a) * comb(4 * self.spec.ranks - a, b)
        w = np.zeros((len(self.hands[0]), len(self.hands[1])))
        for i, h0 in enumerate(self.hands[0]):
            for j, h1 in enumerate(self.hands[1]):
                ways = prod(comb(4, h0.count(r)) * comb(4 - h0.count(r), h1.count(r))
                            for r in set(h0) | set(h1))
                w[i, j] = ways / deals
        return w

    @cached_property
    def truth(self) -> BoolArray:
        """(m, H0, H1): whether each call is true with each pair of hands (the core's B8)."""
        t = np.zeros((self.m, len(self.hands[0]), len(self.hands[1])), dtype=bool)
        for i, h0 in enumerate(self.hands[0]):
            for j, h1 in enumerate(self.hands[1]):
                if self.chance[i, j] == 0.0:
                    continue  # more than four cards of a rank: no such deal
                held = representative_cards((h0, h1))
                for k, call in enumerate(self.calls):
                    t[k, i, j] = is_true(call, held)
        return t

    @cached_property
    def payoff(self) -> FloatArray:
        """(m, H0, H1): chance times (+1 if the call is true, -1 if not)."""
        return self.chance[None] * np.where(self.truth, 1.0, -1.0)

    def hand_index(self, seat: int, hand: Sequence[Card]) -> int:
        """The index of a concrete hand among ``hands[seat]``."""
        return self.hands[seat].index(tuple(sorted(c.rank for c in hand)))

    def call_position(self, call: Call) -> int | None:
        """The position of ``call`` among :attr:`calls`; None for a pruned call."""
        try:
            return self.calls.index(call)
        except ValueError:
            return None

    def hand_text(self, seat: int, index: int) -> str:
        return "".join(RANKS[r] for r in self.hands[seat][index])


def representative_cards(hands: Sequence[Hand]) -> tuple[tuple[Card, ...], ...]:
    """Concrete cards for hands given by rank: each rank's suits handed out in order."""
    used: dict[int, int] = {}
    out = []
    for hand in hands:
        cards = []
        for r in hand:
            cards.append(card(r, used.get(r, 0)))
            used[r] = used.get(r, 0) + 1
        out.append(tuple(cards))
    return tuple(out)
