"""The exact exploitability of a Liar Game policy on a small heads-up setting.

**The setting.** ``LiarRules(players=2, hand_size=H, turn_limit=T)``: the whole game of
RULES.md Part 2 with its full 52-card deck and thirteen rates, two players (L1's
variant), ``H`` cards each (L3) and L11's turn limit, after which the game ends and the
player with fewer cards is placed first (a player out of cards and awaiting the final
doubt first of all; equal counts share the place). Nothing else changes: a lead, plays,
passes that draw, doubts and the final doubt (L10) are the game's own, decided by the
core (``push``). What makes it small is ``H`` and ``T`` alone.

**Payoff and exploitability.** +1 to the first place, -1 to the second, 0 each when they
share it (the OpenSpiel game's place rewards). Who leads is decided by the cards (L4), not
the seat, so the two seats are alike and the game's value is 0: the exploitability of a
policy played by both seats (NashConv / 2, as :mod:`usotsuki.research.evaluate` reports
it for Bluff) is the best response's expected payoff against it, 0 for an equilibrium,
at most 1.

**The best response** (:func:`best_response_value`) is exact: a walk of the best
responder's information sets, each holding every world it cannot tell apart (the other
seat's hand, the stock, the field's hidden cards) with its probability, chance and the
policy's own probabilities multiplied in (the policy's :meth:`distribution`, the exact
mixing of its rule); at each of its decisions the responder takes the move of highest
expected payoff summed over the worlds. Cards count by rate: a suit changes nothing in
this setting but who leads (L4), which the deal's enumeration settles (``_deals``), so
worlds that differ only in suits are one world, and the responder's moves are "a card of
rate ``x``". Draws come from the stock's unseen top (the field's cards go under it,
L8, and ``T`` actions never reach them), each rate as likely as its unseen cards.

    python -m usotsuki.research.liar_small --levels easy,normal,hard --hand 2 --turns 3
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from itertools import combinations_with_replacement
from typing import Any, Protocol

from usotsuki.cards import DECK, Card
from usotsuki.liar import LiarRules, LiarState
from usotsuki.liar.actions import ACCEPT, CARD_RATE, DOUBT, PASS, Action, Play
from usotsuki.liar.legal import LegalSummary, legal_summary
from usotsuki.liar.state import new_game, push
from usotsuki.liar.view import LiarView, view

RATES = 13
SUITS = 4


class Policy(Protocol):
    """A Liar Game bot whose mixed strategy is known exactly."""

    def distribution(self, view: LiarView, legal: LegalSummary) -> dict[Action, float]: ...


@dataclass(frozen=True, slots=True)
class World:
    """One state the responder cannot tell from the others of its information set.
    ``fresh``: how many cards at the stock's top nobody has seen (draws come from them)."""

    state: LiarState
    fresh: int
    weight: float


def _cards_of(rates: tuple[int, ...], taken: set[Card]) -> list[Card]:
    """Cards of the given rates, the earliest suits (S H D C) not yet ``taken``."""
    out = []
    for r in rates:
        card = next(c for c in DECK if CARD_RATE[c] == r and c not in taken)
        taken.add(card)
        out.append(card)
    return out


def _deal_ways(first: tuple[int, ...], second: tuple[int, ...]) -> int:
    """Card-level deals giving these rate multisets to the two seats."""
    a, b = Counter(first), Counter(second)
    ways = 1
    for r in set(a) | set(b):
        ways *= math.comb(SUITS, a[r]) * math.comb(SUITS - a[r], b[r])
    return ways


def _deals(rules: LiarRules) -> Iterator[tuple[float, tuple[int, ...], LiarState]]:
    """Every deal up to suits, as (probability, seat 0's rates, the starting state): the
    hands as rate multisets; when both seats hold the lowest rate dealt, each leads with
    probability one half (L4 then turns on suits, dealt alike to both)."""
    size = rules.hand_size
    total = math.comb(52, size) * math.comb(52 - size, size)
    hands = list(combinations_with_replacement(range(RATES), size))
    for h0 in hands:
        for h1 in hands:
            if any(Counter(h0)[r] + Counter(h1)[r] > SUITS for r in set(h0)):
                continue
            p = _deal_ways(h0, h1) / total
            low = min(h0 + h1)
            starters = [s for s, h in enumerate((h0, h1)) if low in h]
            for starter in starters:
                # the starter gets the first suit of the lowest rate, so L4 picks it
                taken: set[Card] = set()
                order = (starter, 1 - starter)
                dealt: dict[int, list[Card]] = {0: [], 1: []}
                for seat in order:
                    mine = h0 if seat == 0 else h1
                    dealt[seat] = _cards_of(mine, taken)
                stock = [c for c in DECK if c not in taken]
                state = new_game(rules, (dealt[0], dealt[1]), stock)
                yield p / len(starters), h0, state


def _rates(cards: tuple[Card, ...]) -> tuple[int, ...]:
    return tuple(sorted(CARD_RATE[c] for c in cards))


def _with_top(world: World, rates: tuple[int, ...]) -> tuple[World, float] | None:
    """The world with cards of ``rates`` moved to the stock's top, in that order, and the
    chance of drawing them so from its unseen top; None if too few are unseen."""
    state, fresh = world.state, world.fresh
    unseen = list(state.stock[:fresh])
    p = 1.0
    top: list[Card] = []
    for r in rates:
        left = [c for c in unseen if CARD_RATE[c] == r]
        if not left:
            return None
        p *= len(left) / len(unseen)
        top.append(left[0])
        unseen.remove(left[0])
    stock = tuple(top) + tuple(unseen) + state.stock[fresh:]
    return World(replace(state, stock=stock), fresh, world.weight * p), p


def _draws(world: World, count: int) -> Iterator[tuple[World, int]]:
    """The world before a draw of ``count`` cards, once for each sequence of rates the
    draw may bring (weights times its chance); with the number of fresh cards after."""
    if count == 0:
        yield world, world.fresh
        return
    unseen = Counter(CARD_RATE[c] for c in world.state.stock[:world.fresh])
    if world.fresh < count:
        raise ValueError("the setting draws past the stock's unseen cards: fewer turns")

    def sequences(n: int) -> Iterator[tuple[int, ...]]:
        if n == 0:
            yield ()
            return
        for r in unseen:
            for rest in sequences(n - 1):
                yield (r,) + rest

    for seq in sequences(count):
        moved = _with_top(world, seq)
        if moved is not None:
            yield moved[0], world.fresh - count


def _draw_count(state: LiarState, action: Action) -> int:
    """How many cards ``action`` makes someone draw from the stock's top."""
    if action == PASS:
        return 1 if state.stock else 0
    if action == DOUBT:
        return sum(len(p.cards) for p in state.field)
    return 0


def _step(world: World, action: Action, p: float) -> Iterator[World]:
    """The worlds after ``action`` (taken with probability ``p``), one per draw it brings."""
    for before, fresh in _draws(world, _draw_count(world.state, action)):
        yield World(push(before.state, action), fresh, before.weight * p)


def _observed(state: LiarState, seat: int) -> tuple[Any, ...]:
    """What ``seat`` sees of a state, suits left out (rates only): with the same history
    before, two worlds of one information set stay together exactly when these agree."""
    return (_rates(state.hands[seat]), tuple(len(h) for h in state.hands), len(state.stock),
            tuple((p.seat, len(p.cards), p.rate) for p in state.field),
            tuple((d.doubter, d.doubted, _rates(d.cards), d.truthful) for d in state.doubts),
            state.to_move, state.turns, state.winner)


def _merge_key(world: World, other: int) -> tuple[Any, ...]:
    """What distinguishes two worlds of one information set for the rest of the game:
    the other seat's hand, the field's hidden cards and the unseen cards' rates."""
    s = world.state  # the unseen cards are all but the hands, the field and those under
    return (_rates(s.hands[other]), tuple(_rates(p.cards) for p in s.field),
            _rates(s.stock[world.fresh:]))


def _merge(worlds: list[World], other: int) -> list[World]:
    merged: dict[tuple[Any, ...], World] = {}
    for w in worlds:
        key = _merge_key(w, other)
        if key in merged:
            m = merged[key]
            merged[key] = World(m.state, m.fresh, m.weight + w.weight)
        else:
            merged[key] = w
    return list(merged.values())


def last_payoff(state: LiarState, action: Action, seat: int) -> float:
    """``seat``'s payoff when ``action`` is the game's last (it reaches the turn limit):
    :func:`payoff` of ``push(state, action)`` without building it (L9-L11 by counts)."""
    actor = state.to_move
    assert actor is not None
    sizes = [len(h) for h in state.hands]
    winner = None
    if isinstance(action, Play):
        sizes[actor] -= 1
    elif action == PASS:
        sizes[actor] += 1 if state.stock else 0
    else:
        current = state.field[-1]
        if action == DOUBT and CARD_RATE[current.cards[0]] != current.rate:
            sizes[current.seat] += sum(len(p.cards) for p in state.field)  # a lie (L9)
        else:  # a truthful play doubted, or accepted: out of cards, its player wins (L10)
            if not sizes[current.seat]:
                winner = current.seat
            elif action == DOUBT:
                sizes[actor] += sum(len(p.cards) for p in state.field)
    if winner is not None:
        return 1.0 if winner == seat else -1.0
    mine, theirs = sizes[seat], sizes[1 - seat]
    return 0.0 if mine == theirs else (1.0 if mine < theirs else -1.0)


def payoff(state: LiarState, seat: int) -> float:
    """The place reward of a finished game (see the module docstring)."""
    standings = state.standings
    assert standings is not None
    first = standings[0]
    if len(first) == 2:
        return 0.0
    return 1.0 if seat in first else -1.0


class BestResponse:
    """The best response of ``seat`` to ``policy`` in the other seat (see the module
    docstring); the policy's distributions are cached by the other seat's view."""

    def __init__(self, policy: Policy, seat: int = 0) -> None:
        self.policy = policy
        self.seat = seat
        self.other = 1 - seat
        self.cache: dict[Any, list[tuple[Action, float]]] = {}
        self.infosets = 0

    def moves(self, state: LiarState) -> list[tuple[Action, float]]:
        """The policy's moves and their probabilities in ``state``; cached by what the
        other seat sees, rates only (a play is kept as the rate of its card)."""
        key = _observed(state, self.other) + (
            tuple(_rates(p.cards) for p in state.field if p.seat == self.other),)
        found = self.cache.get(key)
        if found is None:
            v = view(state, self.other)
            assert v.legal is not None
            found = [(_by_rate(a), p) for a, p in self.policy.distribution(v, v.legal).items()
                     if p > 0.0]
            self.cache[key] = found
        hand = state.hands[self.other]
        return [(_concrete(a, hand), p) for a, p in found]

    def value(self, worlds: list[World]) -> float:
        """The best response's expected payoff summed over ``worlds`` (weights included),
        all of one information set of the responder or all after its last observation."""
        live = [w for w in worlds if w.weight > 0.0]
        if not live:
            return 0.0
        state = live[0].state
        if state.is_over:
            return sum(w.weight * payoff(w.state, self.seat) for w in live)
        last = state.rules.turn_limit == state.turns + 1
        if state.to_move == self.seat:
            self.infosets += 1
            if last:  # the game ends with this move: the payoffs by counts
                return max(sum(w.weight * last_payoff(w.state, make(w.state), self.seat)
                               for w in live) for make in self._my_actions(state))
            return max(self._children_value(children)
                       for children in self._my_moves(live))
        if last:
            return sum(w.weight * p * last_payoff(w.state, action, self.seat)
                       for w in live for action, p in self.moves(w.state))
        children: list[World] = []
        for w in live:
            for action, p in self.moves(w.state):
                children.extend(_step(w, action, p))
        return self._children_value(children)

    def _children_value(self, children: list[World]) -> float:
        """Split worlds by what the responder sees next, and sum their values."""
        groups: dict[tuple[Any, ...], list[World]] = {}
        for w in children:
            groups.setdefault(_observed(w.state, self.seat), []).append(w)
        return sum(self.value(_merge(g, self.other)) for g in groups.values())

    def _my_moves(self, worlds: list[World]) -> Iterator[list[World]]:
        """For each of the responder's moves, the worlds after it."""
        for make in self._my_actions(worlds[0].state):
            out: list[World] = []
            for w in worlds:
                out.extend(_step(w, make(w.state), 1.0))
            yield out

    def _my_actions(self, state: LiarState) -> list[Callable[[LiarState], Action]]:
        """The responder's moves, each as the action it is in a world (a play is named by
        the rate of its card: the worlds of one information set hold the same rates)."""
        legal = legal_summary(state)
        assert legal is not None
        kinds: list[Callable[[LiarState], Action]] = []
        if legal.pass_:
            kinds.append(lambda s: PASS)
        if legal.doubt or legal.accept:
            kinds.append(lambda s: DOUBT)
        if legal.accept:
            kinds.append(lambda s: ACCEPT)
        if legal.play:
            if legal.counts != (1,):
                raise ValueError("the best response is written for one-card plays (no O1)")
            for card_rate in sorted(set(_rates(state.hands[self.seat]))):
                for rate in legal.rates:
                    kinds.append(_play_of(self.seat, card_rate, rate))
        return kinds


def _by_rate(action: Action) -> Any:
    """A one-card play as (rate of its card, declared rate); other moves as they are."""
    if isinstance(action, Play):
        if len(action.cards) != 1:
            raise ValueError("the best response is written for one-card plays (no O1)")
        return (CARD_RATE[action.cards[0]], action.rate)
    return action


def _concrete(move: Any, hand: tuple[Card, ...]) -> Action:
    """:func:`_by_rate`'s move with a card of that rate from ``hand``."""
    if isinstance(move, tuple):
        card_rate, rate = move
        return Play((next(c for c in hand if CARD_RATE[c] == card_rate),), rate)
    action: Action = move
    return action


def _play_of(seat: int, card_rate: int, rate: int) -> Callable[[LiarState], Action]:
    def make(state: LiarState) -> Action:
        card = next(c for c in state.hands[seat] if CARD_RATE[c] == card_rate)
        return Play((card,), rate)

    return make


def best_response_value(policy: Policy, rules: LiarRules, seat: int = 0) -> tuple[float, int]:
    """The best response's expected payoff against ``policy`` (the policy's
    exploitability, see the module docstring) and the responder's information sets."""
    if rules.players != 2 or rules.turn_limit is None or rules.multi:
        raise ValueError("the small setting is two players, a turn limit and no O1")
    br = BestResponse(policy, seat)
    # information sets at the deal: the responder's rates and who leads
    groups: dict[tuple[Any, ...], list[World]] = {}
    for p, _, state in _deals(rules):
        w = World(state, len(state.stock), p)
        groups.setdefault(_observed(state, seat), []).append(w)
    total = sum(br.value(_merge(g, 1 - seat)) for g in groups.values())
    return total, br.infosets


def level_policy(name: str) -> Policy:
    """A level (or ``random``) by name, whose exact mixed strategy the walk needs."""
    from usotsuki.bots.liar.levels import LEVELS
    from usotsuki.bots.liar.random_play import RandomLiarBot

    bot = RandomLiarBot() if name == "random" else LEVELS[name]()
    if not hasattr(bot, "distribution"):
        raise ValueError(f"{name}'s mixed strategy is not known exactly (a sampled search)")
    policy: Policy = bot
    return policy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="easy,normal,hard")
    parser.add_argument("--hand", type=int, default=2, help="hand_size (L3)")
    parser.add_argument("--turns", type=int, default=3, help="turn_limit (L11)")
    parser.add_argument("--json", help="append each row to this JSON-lines file")
    args = parser.parse_args(argv)
    rules = LiarRules(players=2, hand_size=args.hand, turn_limit=args.turns)
    for name in [n.strip() for n in args.levels.split(",") if n.strip()]:
        t0 = time.process_time()
        value, infosets = best_response_value(level_policy(name), rules)
        row = {"level": name, "hand_size": args.hand, "turn_limit": args.turns,
               "exploitability": round(value, 6), "infosets": infosets,
               "cpu_seconds": round(time.process_time() - t0, 1)}
        print(json.dumps(row), flush=True)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
