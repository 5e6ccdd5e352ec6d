"""A second, independent reading of the Liar Game, written from RULES.md alone.

It imports nothing from ``usotsuki.liar`` (only ``usotsuki.cards`` to read card tokens)
and keeps its own plain, mutable state: the point is to disagree with the core wherever
the core departs from the text. :func:`report` gives the Part 5 object of a parsed
record; :func:`replay` also calls ``on_step`` with the Part 5 view after every step.

Readings (where the text leaves a choice, the sentence that decides is quoted in tests):
- Faults: a game that is not over followed by another game is found when its own
  actions end (replay order), so it comes before "a second game without O7".
- O7 "as many cards are exchanged as both hands allow": both sides of a pair move
  k = min(nominal, |lower hand|, |higher hand|) cards, hands as dealt.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from usotsuki.cards import parse_card

RATES = "3456789TJQKA2"  # L2: the normal order, low to high
SUIT_ORDER = "SHDC"  # L4, O7
OPTIONS: dict[str, Any] = {
    "multi": False, "revolution": False, "eight_cut": False, "jack_back": False,
    "six_up": False, "binding": False, "classes": False, "final_doubt": True,
    "hand_size": 9, "deal_all": False, "turn_limit": None,
}
_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class Fault(Exception):
    def __init__(self, message: str, round: int | None = None, index: int | None = None,
                 action: Any = None, at_action: bool = False) -> None:
        super().__init__(message)
        self.round, self.index, self.action, self.at_action = round, index, action, at_action


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def rate_of(card: str) -> str:
    return "T" if card[0] == "1" else card[0]


def parse_rate(token: str) -> str:
    text = token.upper() if token.isascii() else token  # Part 3: case-insensitive
    text = "T" if text == "10" else text
    if len(text) != 1 or text not in RATES:
        raise ValueError(f"{token!r} is not a rate")
    return text


def card_name(token: Any) -> str:
    if not isinstance(token, str):
        raise ValueError(f"{token!r} is not a card")
    return str(parse_card(token))  # raises InvalidNotation, a ValueError


def gift_key(card: str) -> tuple[int, int]:
    """O7: highest rate first (normal order), then S H D C."""
    return (-RATES.index(rate_of(card)), SUIT_ORDER.index(card[1]))


# -- rules and record checks --------------------------------------------------------------


def read_rules(record: dict[str, Any]) -> tuple[int, dict[str, Any], Any]:
    players = record.get("players")
    if _is_int(players):
        n = players
    elif isinstance(players, list) and all(isinstance(p, str) for p in players):
        n = len(players)
    else:
        raise Fault("players")
    if not 2 <= n <= 8:
        raise Fault("players count")
    rules = record.get("rules")
    if rules is None:
        rules = {}
    if not isinstance(rules, dict):
        raise Fault("rules")
    opts = dict(OPTIONS)
    for key, value in rules.items():
        if key not in OPTIONS:
            raise Fault(f"unknown rule {key}")
        if key == "hand_size":
            ok = _is_int(value) and value >= 1
        elif key == "turn_limit":
            ok = value is None or (_is_int(value) and value >= 1)
        else:
            ok = isinstance(value, bool)
        if not ok:
            raise Fault(f"bad value for {key}")
        opts[key] = value
    if opts["revolution"] and not opts["multi"]:
        raise Fault("revolution needs multi")
    if opts["six_up"] and not opts["jack_back"]:
        raise Fault("six_up needs jack_back")
    seed = record.get("seed", 0)
    if not (_is_int(seed) or isinstance(seed, str)):
        raise Fault("seed")
    return n, opts, seed


def dealt_sizes(n: int, opts: dict[str, Any]) -> list[int]:
    """L3."""
    if opts["deal_all"] or n * opts["hand_size"] > 52:
        return [52 // n + (1 if seat < 52 % n else 0) for seat in range(n)]
    return [opts["hand_size"]] * n


def read_deal(entry: Any, number: int, n: int, opts: dict[str, Any]
              ) -> tuple[list[list[str]], list[str], list[Any]]:
    def fault(why: str) -> Fault:
        return Fault(f"game {number}: {why}", round=number)

    if not isinstance(entry, dict):
        raise fault("not an object")
    for key in ("hands", "stock", "actions"):
        if key not in entry or not isinstance(entry[key], list):
            raise fault(f"{key} missing or not a list")
    raw_hands, raw_stock = entry["hands"], entry["stock"]
    if len(raw_hands) != n or not all(isinstance(h, list) for h in raw_hands):
        raise fault("hands")
    try:
        hands = [[card_name(c) for c in hand] for hand in raw_hands]
        stock = [card_name(c) for c in raw_stock]
    except ValueError:
        raise fault("bad card") from None
    if [len(h) for h in hands] != dealt_sizes(n, opts):
        raise fault("hand sizes (L3)")
    every = [c for h in hands for c in h] + stock
    if len(every) != 52 or len(set(every)) != 52:
        raise fault("hands and stock must hold the 52 cards once")
    return hands, stock, entry["actions"]


# -- one game ------------------------------------------------------------------------------


@dataclass
class Play:
    seat: int
    cards: list[str]
    rate: str


@dataclass
class Game:
    n: int
    opts: dict[str, Any]
    rng: random.Random
    hands: list[list[str]]
    stock: list[str]
    field: list[Play] = dc_field(default_factory=list)
    revolution: bool = False
    jack_back: bool = False
    bound: bool = False
    to_move: int = 0
    awaiting_final: int | None = None  # L10: the seat that went out, doubt or accept due
    gives: list[tuple[int, int, int]] = dc_field(default_factory=list)  # (giver, to, count)
    actions: int = 0  # L11: every action but give
    over: bool = False
    winner: int | None = None
    standings: list[list[int]] | None = None
    doubts: list[dict[str, Any]] = dc_field(default_factory=list)

    # -- order (L2, O2, O4) --
    @property
    def reversed(self) -> bool:
        return self.revolution != self.jack_back

    def pos(self, rate: str) -> int:
        i = RATES.index(rate)
        return 12 - i if self.reversed else i

    def starting_seat(self) -> int:
        """L4: 3S, else the first of 3S 3H 3D 3C 4S ... held by someone."""
        for rate in RATES:
            for suit in SUIT_ORDER:
                for seat, hand in enumerate(self.hands):
                    if rate + suit in hand:
                        return seat
        raise AssertionError("nobody holds a card")

    def next(self, seat: int) -> int:
        return (seat + 1) % self.n

    # -- what may be done --
    def legal(self) -> dict[str, Any] | None:
        if self.over:
            return None
        out: dict[str, Any] = {"pass": False, "doubt": False, "accept": False,
                               "give": False, "play": None}
        if self.gives:
            out["give"] = True
            return out
        if self.awaiting_final is not None:
            out["doubt"] = out["accept"] = True
            return out
        hand = self.hands[self.to_move]
        if not self.field:  # L6: the leader must play, any rate
            counts = list(range(1, len(hand) + 1)) if self.opts["multi"] else [1]
            out["play"] = {"counts": counts, "rates": list(RATES)}
            return out
        out["pass"] = out["doubt"] = True
        rates = self.rates_on_field()
        count = len(self.field[-1].cards)
        if rates and len(hand) >= count:
            out["play"] = {"counts": [count], "rates": rates}
        return out

    def rates_on_field(self) -> list[str]:
        current = self.field[-1].rate
        if self.opts["eight_cut"] and current == "8":  # O3
            return []
        above = [r for r in RATES if self.pos(r) > self.pos(current)]  # L6
        if self.bound:  # O6
            above = [r for r in above if self.pos(r) == self.pos(current) + 1]
        return above

    # -- actions --
    def act(self, text: str) -> None:
        words = text.split()
        if not words:
            raise ValueError("empty action")
        head = words[0].translate(_LOWER) if words[0].isascii() else words[0]
        if head == "give":
            self.give([card_name(w) for w in words[1:]])
            return
        if self.over:
            raise ValueError("the game is over")
        if self.gives:
            raise ValueError("an O7 give is owed")
        if head == "play":
            if len(words) < 4 or words[-2].translate(_LOWER) != "as":
                raise ValueError("play C1 [C2 ...] as R")
            self.play([card_name(w) for w in words[1:-2]], parse_rate(words[-1]))
        elif head == "pass" and len(words) == 1:
            self.pass_()
        elif head == "doubt" and len(words) == 1:
            self.doubt()
        elif head == "accept" and len(words) == 1:
            self.accept()
        else:
            raise ValueError(f"unknown action {text!r}")
        self.actions += 1
        limit = self.opts["turn_limit"]
        if not self.over and limit is not None and self.actions >= limit:
            self.end(None)  # L11: no winner

    def give(self, cards: list[str]) -> None:
        if self.over or not self.gives:
            raise ValueError("no give owed")
        giver, to, count = self.gives[0]
        hand = self.hands[giver]
        if len(cards) != count or len(set(cards)) != count or any(c not in hand for c in cards):
            raise ValueError("bad give")
        for c in cards:
            hand.remove(c)
            self.hands[to].append(c)
        self.gives.pop(0)
        self.to_move = self.gives[0][0] if self.gives else self.starting_seat()

    def play(self, cards: list[str], rate: str) -> None:
        if self.awaiting_final is not None:
            raise ValueError("L10: doubt or accept")
        seat, hand = self.to_move, self.hands[self.to_move]
        if len(set(cards)) != len(cards) or any(c not in hand for c in cards):
            raise ValueError("cards not in hand")
        if not self.field:
            if len(cards) != 1 and not self.opts["multi"]:
                raise ValueError("one card without O1")
        else:
            if len(cards) != len(self.field[-1].cards) or rate not in self.rates_on_field():
                raise ValueError("not allowed on this field")
            if self.opts["binding"] and self.pos(rate) == self.pos(self.field[-1].rate) + 1:
                self.bound = True  # O6, in the order before this play
        for c in cards:
            hand.remove(c)
        self.field.append(Play(seat, cards, rate))
        if self.opts["revolution"] and len(cards) >= 4:
            self.revolution = not self.revolution  # O2
        if self.opts["jack_back"] and rate == "J":
            self.jack_back = not self.jack_back  # O4
        elif self.opts["six_up"] and rate == "6" and self.jack_back:
            self.jack_back = False  # O5
        self.to_move = self.next(seat)
        if not hand:
            if self.opts["final_doubt"]:
                self.awaiting_final = seat
            else:
                self.end(seat)

    def pass_(self) -> None:
        if not self.field or self.awaiting_final is not None:
            raise ValueError("no current play to pass on")
        if self.stock:
            self.hands[self.to_move].append(self.stock.pop(0))  # L6: draws at once
        self.to_move = self.next(self.to_move)
        if self.to_move == self.field[-1].seat:  # L7
            self.flush()

    def doubt(self) -> None:
        if not self.field:
            raise ValueError("nothing to doubt")
        current = self.field[-1]
        doubter, doubted = self.to_move, current.seat
        truthful = all(rate_of(c) == current.rate for c in current.cards)
        count = sum(len(p.cards) for p in self.field)
        self.flush()  # L9: first
        drawer = doubter if truthful else doubted
        self.hands[drawer].extend(self.stock[:count])
        del self.stock[:count]
        self.doubts.append({"doubter": doubter, "doubted": doubted, "truthful": truthful,
                            "drawer": drawer, "drawn": count})
        final = self.awaiting_final is not None
        self.awaiting_final = None
        if final and truthful:
            self.end(doubted)  # L10
        else:
            self.to_move = doubted if truthful else doubter

    def accept(self) -> None:
        if self.awaiting_final is None:
            raise ValueError("nothing to accept")
        seat, self.awaiting_final = self.awaiting_final, None
        self.end(seat)

    def flush(self) -> None:
        """L8 and Part 4: shuffle in play order, put under the stock."""
        cards = [c for p in self.field for c in p.cards]
        self.rng.shuffle(cards)
        self.stock.extend(cards)
        self.field = []
        self.jack_back = False
        self.bound = False

    def end(self, winner: int | None) -> None:
        self.over, self.winner = True, winner
        sizes = sorted({len(h) for s, h in enumerate(self.hands) if s != winner})
        places = [[s for s in range(self.n) if s != winner and len(self.hands[s]) == k]
                  for k in sizes]
        self.standings = ([[winner]] if winner is not None else []) + places

    def classes(self) -> list[int]:
        """O7: first .. last; ties clockwise from the winner, or by seat with none."""
        assert self.standings is not None
        w = self.winner
        return [s for place in self.standings
                for s in sorted(place, key=lambda s: (s - w) % self.n if w is not None else s)]

    def report(self) -> dict[str, Any]:
        return {"doubts": [dict(d) for d in self.doubts],
                "hand_sizes": [len(h) for h in self.hands],
                "stock_size": len(self.stock),
                "field_size": sum(len(p.cards) for p in self.field),
                "order": "reversed" if self.reversed else "normal",
                "standings": None if self.standings is None else [list(p) for p in
                                                                   self.standings]}


def start_game(n: int, opts: dict[str, Any], rng: random.Random, hands: list[list[str]],
               stock: list[str], before: Game | None) -> Game:
    game = Game(n, opts, rng, [list(h) for h in hands], list(stock))
    if before is not None:  # O7
        order = before.classes()
        pairs = [(order[0], order[-1], 2), (order[1], order[-2], 1)] if n >= 4 else \
            [(order[0], order[-1], 1)]
        pairs = [(hi, lo, min(k, len(game.hands[hi]), len(game.hands[lo])))
                 for hi, lo, k in pairs]
        for hi, lo, k in pairs:  # every automatic gift first
            gift = sorted(game.hands[lo], key=gift_key)[:k]
            for c in gift:
                game.hands[lo].remove(c)
                game.hands[hi].append(c)
        game.gives = [(hi, lo, k) for hi, lo, k in pairs if k > 0]
    game.to_move = game.gives[0][0] if game.gives else game.starting_seat()
    return game


# -- a record ---------------------------------------------------------------------------------


def snapshot(done: list[Game], current: Game | None) -> dict[str, Any]:
    """Part 5 keys (but game/ok/error) for the games so far."""
    games = done + ([current] if current is not None else [])
    last = games[-1] if games else None
    finished = last is not None and last.over
    live = last if last is not None and not finished else None
    return {"finished": finished,
            "standings": last.report()["standings"] if finished and last else None,
            "to_move": live.to_move if live else None,
            "legal": live.legal() if live else None,
            "games": [g.report() for g in games],
            "cards": (([sorted(h) for h in last.hands], list(last.stock)) if last else None)}


def replay(record: Any, on_step: Callable[[dict[str, Any]], None] | None = None
           ) -> dict[str, Any]:
    """The Part 5 object of a parsed Liar Game record, per RULES.md."""
    done: list[Game] = []
    current: Game | None = None
    try:
        if not isinstance(record, dict) or record.get("game") != "liar":
            raise Fault("not a Liar Game record")
        n, opts, seed = read_rules(record)
        if "games" not in record or not isinstance(record["games"], list) \
                or not record["games"]:
            raise Fault("games")
        rng = random.Random(seed)  # Part 4: one per record
        entries = record["games"]
        for number, entry in enumerate(entries):
            if number > 0 and not opts["classes"]:
                raise Fault("a second game without O7", round=number)
            hands, stock, actions = read_deal(entry, number, n, opts)
            before = done[-1] if done else None
            current = start_game(n, opts, rng, hands, stock, before)
            if on_step:
                on_step(snapshot(done, current))
            for index, text in enumerate(actions):
                if not isinstance(text, str):
                    raise Fault("not text", number, index, text, at_action=True)
                try:
                    current.act(text)
                except ValueError as exc:
                    raise Fault(str(exc), number, index, text, at_action=True) from None
                if on_step:
                    on_step(snapshot(done, current))
            if number + 1 < len(entries) and not current.over:
                raise Fault("a game that is not over is followed by another", round=number)
            done.append(current)
            current = None
    except Fault as fault:
        action = fault.action
        if action is not None and not isinstance(action, str):
            action = json.dumps(action, ensure_ascii=False)
        known = isinstance(record, dict) and record.get("game") == "liar"
        out = {"game": "liar" if known else None, "ok": False,
               "error": {"round": fault.round, "index": fault.index, "action": action},
               **snapshot(done, current if fault.at_action else None)}
        del out["cards"]
        return out
    out = {"game": "liar", "ok": True, "error": None, **snapshot(done, None)}
    del out["cards"]
    return out


report = replay
