"""Worked examples of the numbered rules, each a short scripted deal played on the cores.

An example is a game record (RULES.md Part 4) with every hand written out, and perhaps
one more action that the rules refuse. :func:`worked_example` replays it with the game's
own ``replay`` and reports, step by step, the events the cores made (who lost a
challenge, who drew after a doubt, when the order turned), what is legal at the end
(Part 5 ``legal``) and the cores' own message for the refused action. Nothing here
decides a rule: the shells draw what the cores answered.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from usotsuki import bluff, liar
from usotsuki.cards import format_cards, parse_cards
from usotsuki.core.record import ReplayStep

DECK = [f"{rank}{suit}" for rank in "23456789TJQKA" for suit in "SHDC"]


@dataclass(frozen=True)
class Script:
    """One example: the record to replay and, maybe, one action the rules refuse after it.

    ``refuse`` is tried by the seat to move where the record stops; with ``record`` alone
    refused (B1's nine players) the record itself is what the cores turn down."""

    record: dict[str, Any]
    refuse: str | None = None
    legal: bool = False  # show what is legal where the record stops


def bluff_record(rounds: Sequence[tuple[Sequence[str], Sequence[str]]], players: int = 3,
                 **rules: Any) -> dict[str, Any]:
    """A Bluff record: each round's hands (one string of cards per seat) and actions."""
    return {"game": "bluff", "players": players, "rules": rules,
            "rounds": [{"hands": [h.split() for h in hands], "actions": list(actions)}
                       for hands, actions in rounds]}


def liar_game(hands: Sequence[str], actions: Sequence[str], stock_top: str = "",
              ) -> dict[str, Any]:
    """One game of a Liar Game record: the hands, the stock (``stock_top`` first, then
    the rest of the deck in order) and the actions."""
    dealt = [h.split() for h in hands]
    top = stock_top.split()
    used = {c for hand in dealt for c in hand} | set(top)
    return {"hands": dealt, "stock": top + [c for c in DECK if c not in used],
            "actions": list(actions)}


def liar_record(hands: Sequence[str], actions: Sequence[str], stock_top: str = "",
                **rules: Any) -> dict[str, Any]:
    players = len(hands)
    rules.setdefault("hand_size", len(hands[0].split()))
    return {"game": "liar", "players": players, "rules": rules,
            "games": [liar_game(hands, actions, stock_top)]}


def _dealt_all(players: int) -> list[str]:
    """L3: 52 cards dealt one at a time from seat 0."""
    return [" ".join(DECK[seat::players]) for seat in range(players)]


TWO_LOSSES = bluff_record([(("7S", "QD", "2C"), ("card K", "challenge")),
                           (("7H", "QS KD", "2D"), ("card 2", "card 7", "pair Q", "challenge"))],
                          max_cards=2)
"""Seat 1 loses round 1, then again holding two cards: out with max_cards 2 (B2, B11)."""
THREE = ("3S 9D", "KC 5H", "7C JD")  # three small Liar Game hands; 3S leads (L4)

SCRIPTS: dict[str, Script] = {
    # Part 1: Bluff. Round 1 deals one card each; the dealer is seat 0, so seat 1 calls first.
    "B1": Script(bluff_record([(("7S",) * 9, ())], players=9)),
    "B2": Script(TWO_LOSSES),
    "B3": Script(bluff_record([(("7S", "QD", "2C"), ("card K", "challenge")),
                               (("7H", "QS KD", "2D"), ())])),
    "B4": Script(bluff_record([(("7S", "QD", "2C"), ("card 7", "card Q", "challenge")),
                               (("7H QS", "KD", "2D"), ())])),
    "B5": Script(bluff_record([(("7S", "QD", "2C"), ("pair 7",))]), refuse="card A"),
    "B6": Script(bluff_record([(("7S", "QD", "2C", "9H"),
                                ("card 7", "pair 7", "two-pair 7 2", "three 7",
                                 "full-house 7 2", "four 7", "straight-flush 9 H",
                                 "challenge"))], players=4)),
    "B7": Script(bluff_record([(("7S", "QD", "2C"), ("two-pair K 8",))]),
                 refuse="two-pair Q J"),
    "B8": Script(bluff_record([(("8S", "8H", "8D", "7C"), ("pair 7", "challenge"))],
                              players=4)),
    "B9": Script(bluff_record([(("7S", "7H", "KD"), ("pair 7", "challenge"))])),
    "B10": Script(bluff_record([(("7S", "QD", "2C"), ("straight-flush A S",))]),
                  refuse="straight-flush A H", legal=True),
    "B11": Script(TWO_LOSSES),
    "B12": Script(bluff_record([(("7S", "QD", "2C"), ("card A", "challenge")),
                                (("QS", "", "2D"), ("pair A", "challenge"))],
                               max_cards=1)),
    "B13": Script(bluff_record([(("9S", "QD", "AC"), ("card Q",))], ranks=6),
                  refuse="card 8"),
    # Part 2: the Liar Game. Small hands (option hand_size), so every card can be shown.
    "L1": Script({"game": "liar", "players": 9, "games": []}),
    "L2": Script(liar_record(THREE, ["play 3S as 2"]), refuse="play KC as A", legal=True),
    "L3": Script(liar_record(_dealt_all(6), [], hand_size=9), legal=True),
    "L4": Script(liar_record(("9D 4S", "KC 3H", "7C JD"), ["play 3H as 3"],
                             stock_top="3S")),
    "L5": Script(liar_record(THREE, ["play 3S as 4", "play 5H as 9"]), legal=True),
    "L6": Script(liar_record(THREE, ["play 3S as 4", "pass", "play 7C as 8"]),
                 refuse="play 9D as 5", legal=True),
    "L7": Script(liar_record(THREE, ["play 3S as 4", "pass", "pass"]), legal=True),
    "L8": Script(liar_record(THREE, ["play 3S as 3", "play 5H as 9", "doubt"],
                             stock_top="2S 2H")),
    "L9": Script(liar_record(THREE, ["play 3S as 3", "play KC as 9", "doubt"],
                             stock_top="2S 2H 2D")),
    "L10": Script(liar_record(("3S", "KC", "7C"), ["play 3S as 3"]), legal=True),
    "L11": Script(liar_record(("3S", "KC", "7C"), ["play 3S as 3"], final_doubt=False)),
    "O1": Script(liar_record(("3S 3H 9D 4C", "KC 5H 2C 6D", "7C JD QH 8S"),
                             ["play 3S 3H 9D as 3"],
                             multi=True), refuse="play KC as 5", legal=True),
    "O2": Script(liar_record(("3S 3H 3D 9D 4C", "KC 5H 2C 8D QC", "7C JD QH 6S AH"),
                             ["play 3S 3H 3D 9D as 9"], multi=True, revolution=True),
                 legal=True),
    "O3": Script(liar_record(THREE, ["play 3S as 8"], eight_cut=True), refuse="play KC as K",
                 legal=True),
    "O4": Script(liar_record(THREE, ["play 3S as J"], jack_back=True), legal=True),
    "O5": Script(liar_record(THREE, ["play 3S as J", "play 5H as 6"], jack_back=True,
                             six_up=True), legal=True),
    "O6": Script(liar_record(THREE, ["play 3S as 5", "play 5H as 6"], binding=True),
                 refuse="play 7C as 9", legal=True),
    "O7": Script({"game": "liar", "players": 3,
                  "rules": {"hand_size": 2, "classes": True, "final_doubt": False},
                  "games": [liar_game(("3S 4S", "KC 5H", "7C 9D"),
                                      ["play 3S as 3", "play KC as K", "pass", "play 4S as A"]),
                            liar_game(("3S 4D", "KC 5H", "AC 2D"), ["give 3S"])]},
                 legal=True),
}


@dataclass
class Example:
    """What the cores made of a script, as JSON for both shells (:meth:`to_json`)."""

    game: str
    players: int
    rules: dict[str, Any]
    deals: list[dict[str, Any]] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    refused: dict[str, Any] | None = None
    legal: Any = None
    to_move: int | None = None
    standings: list[list[int]] | None = None

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "players": self.players, "rules": self.rules,
                "deals": self.deals, "steps": self.steps, "refused": self.refused,
                "legal": self.legal, "to_move": self.to_move, "standings": self.standings}


def _step_json(step: ReplayStep[Any]) -> dict[str, Any]:
    return {"seat": step.actor, "action": step.action,
            "events": [e.to_json() for e in step.events]}


def _deal_json(game: str, record: dict[str, Any], number: int) -> dict[str, Any]:
    entry = record["rounds" if game == "bluff" else "games"][number]
    deal: dict[str, Any] = {"hands": [format_cards(parse_cards(h)).split()
                                      for h in entry["hands"]]}
    if game == "liar":
        deal["stock"] = len(entry["stock"])
    return deal


def _report(game: str, record: dict[str, Any]) -> dict[str, Any]:
    return (bluff.replay_report if game == "bluff" else liar.replay_report)(record)


def replay_steps(code: str) -> list[ReplayStep[Any]]:
    """Every step of the example's record as the game's own ``replay`` takes it."""
    record = SCRIPTS[code].record
    steps: list[ReplayStep[Any]] = []
    replayer = bluff.replay if record["game"] == "bluff" else liar.replay
    replayer(record, on_step=steps.append)
    return steps


@functools.cache
def worked_example(code: str) -> dict[str, Any]:
    """The example of rule ``code`` as the cores played it (JSON; the same every time).

    :raises KeyError: for a code without an example.
    """
    script = SCRIPTS[code]
    record = script.record
    game = record["game"]
    example = Example(game, record["players"], dict(record.get("rules") or {}))
    for step in replay_steps(code):
        if step.actor is None:
            example.deals.append({**_deal_json(game, record, step.number),
                                  "step": len(example.steps),
                                  "events": [e.to_json() for e in step.events]})
        else:
            example.steps.append(_step_json(step))
    report = _report(game, record)
    if report["error"] is not None:  # the record itself is what the rules turn down
        example.refused = {"seat": None, "action": None, "message": report["error"]["message"]}
        return example.to_json()
    example.to_move = report["to_move"]
    example.standings = report["standings"]
    if script.refuse is not None:
        example.refused = _refusal(game, record, script.refuse, report["to_move"])
    if script.legal:
        example.legal = report["legal"]
    return example.to_json()


def _refusal(game: str, record: dict[str, Any], action: str, seat: int | None,
             ) -> dict[str, Any]:
    """The cores' message for ``action`` made where ``record`` stops."""
    key = "rounds" if game == "bluff" else "games"
    tried = {**record, key: [*record[key][:-1],
                             {**record[key][-1],
                              "actions": [*record[key][-1]["actions"], action]}]}
    error = _report(game, tried)["error"]
    if error is None:
        raise ValueError(f"the rules allow {action!r}: no refusal to show")
    return {"seat": seat, "action": action, "message": error["message"]}
