"""The shared fairness test records (docs/fairness.md): valid ones and tampered ones, with
the answer each must get, for the Python verifier (``test_fairness_fixtures.py``) and the browser's
independent JavaScript one (``static/js/fairness.js``, tested with node).

``python tests/fairness/fairness_fixtures.py`` writes them to ``tests/fairness/records/`` and
``tests/fairness/expected.json``; ``test_fairness_fixtures.py`` checks that the files are what
this module makes (deterministic: seeded secrets, seeded random play).

``expected.json`` maps each file name to ``{"verified": bool, "exit": 0|1|2, "place":
..., "round": ..., "seat": ...}``: ``exit`` and ``place`` as ``usotsuki verify --json``
gives them (``round`` the index in ``rounds`` or ``games``, ``seat`` the hand's seat).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from usotsuki import bluff, liar
from usotsuki.fairness import Contribution, FairDeals, Fairness, seeded_secret
from usotsuki.session import BluffSession, LiarSession, Session, chance_source

HERE = Path(__file__).resolve().parent
RECORDS = HERE / "records"
EXPECTED = HERE / "expected.json"

Record = dict[str, Any]


def play_out(session: Session[Any, Any, Any], rng: random.Random) -> Record:
    """Random legal play to the end; the record with its secret revealed."""
    while not session.is_over:
        if session.chance_due:
            session, _ = session.deal(session.draw_chance(chance_source(session, rng)))
        else:
            session, _ = session.apply(session.random_action(rng))
    return session.record()


def fairness(name: str, game: int, seats: dict[int, bool]) -> Fairness:
    """A table's object: each listed person's seat contributed (True) or not (None)."""
    contributions = [Contribution(seat, seeded_secret(f"{name}:{seat}", "contribution")
                                  if given else None) for seat, given in sorted(seats.items())]
    return Fairness.committed(f"fixture-{name}", game, seeded_secret(name), contributions)


def bluff_game(name: str, rules: bluff.BluffRules, seats: dict[int, bool]) -> Record:
    f = fairness(name, 3, seats)
    return play_out(BluffSession.create(rules, None, f), random.Random(name))


def liar_game(name: str, rules: liar.LiarRules, games: int, seats: dict[int, bool]) -> Record:
    f = fairness(name, 0, seats)
    session = LiarSession.create(rules, FairDeals.of(f).liar_seed(), games, None, f)
    return play_out(session, random.Random(name))


def swap_between_seats(record: Record, number: int, a: int, b: int) -> Record:
    """The first cards of seats ``a`` and ``b`` swapped: the deal stays a legal one."""
    out = copy.deepcopy(record)
    hands = out["rounds" if out["game"] == "bluff" else "games"][number]["hands"]
    hands[a][0], hands[b][0] = hands[b][0], hands[a][0]
    return out


def build() -> dict[str, tuple[Record, dict[str, Any]]]:
    """Every fixture: its record and its expected answer."""
    b = bluff_game("bluff", bluff.BluffRules(players=3, max_cards=2), {0: True, 2: True})
    b13 = bluff_game("bluff-b13", bluff.BluffRules(players=4, max_cards=3, ranks=6),
                     {1: True})
    lone = liar_game("liar", liar.parse_rules_text("", 4, turn_limit=40), 1,
                     {0: True, 1: True, 3: False})
    match = liar_game("liar-match", liar.parse_rules_text("classes,multi", 3, turn_limit=30),
                      2, {0: True})
    bots = liar_game("liar-bots-only", liar.parse_rules_text("deal_all=true", 5,
                                                             turn_limit=20), 1, {})

    def tamper(record: Record, change: Callable[[Record], None]) -> Record:
        out = copy.deepcopy(record)
        change(out)
        return out

    def swap_stock(r: Record) -> None:
        stock = r["games"][0]["stock"]
        stock[2], stock[5] = stock[5], stock[2]

    def hand_to_stock(r: Record) -> None:
        game = r["games"][1]
        game["hands"][2][1], game["stock"][0] = game["stock"][0], game["hands"][2][1]

    def other_secret(r: Record) -> None:
        r["fairness"]["secret"] = seeded_secret("someone else's")

    def other_commitment(r: Record) -> None:
        r["fairness"]["commitment"] = "0" * 64

    def other_contribution(r: Record) -> None:
        r["fairness"]["contributions"][0]["value"] = "ab" * 32

    def next_seed(r: Record) -> None:
        r["seed"] += 1

    def unrevealed(r: Record) -> None:
        r["fairness"]["secret"] = None

    def upper_case(r: Record) -> None:
        r["fairness"]["secret"] = r["fairness"]["secret"].upper()

    def differs(place: str, number: int | None = None, seat: int | None = None
                ) -> dict[str, Any]:
        return {"verified": False, "exit": 1, "place": place, "round": number, "seat": seat}

    def cannot(place: str) -> dict[str, Any]:
        return {"verified": False, "exit": 2, "place": place, "round": None, "seat": None}

    ok = {"verified": True, "exit": 0, "place": None, "round": None, "seat": None}
    no_fairness = copy.deepcopy(b)
    del no_fairness["fairness"]
    return {
        "bluff_valid.json": (b, ok),
        "bluff_b13_valid.json": (b13, ok),
        "liar_valid.json": (lone, ok),
        "liar_match_valid.json": (match, ok),
        "liar_bots_only_valid.json": (bots, ok),
        "bluff_hand_swapped.json": (swap_between_seats(b, 1, 0, 2), differs("hand", 1, 0)),
        "bluff_b13_hand_swapped.json": (swap_between_seats(b13, 0, 2, 3),
                                        differs("hand", 0, 2)),
        "liar_hand_swapped.json": (swap_between_seats(match, 1, 1, 2), differs("hand", 1, 1)),
        "liar_stock_altered.json": (tamper(lone, swap_stock), differs("stock", 0)),
        "liar_hand_and_stock_swapped.json": (tamper(match, hand_to_stock),
                                             differs("hand", 1, 2)),
        "liar_seed_altered.json": (tamper(lone, next_seed), differs("seed")),
        "bluff_secret_altered.json": (tamper(b, other_secret), differs("commitment")),
        "liar_commitment_altered.json": (tamper(match, other_commitment),
                                         differs("commitment")),
        "bluff_contribution_altered.json": (tamper(b, other_contribution),
                                            differs("hand", 0, 0)),
        "bluff_unrevealed.json": (tamper(b, unrevealed), cannot("fairness")),
        "bluff_no_fairness.json": (no_fairness, cannot("fairness")),
        "liar_malformed_fairness.json": (tamper(lone, upper_case), cannot("fairness")),
    }


def text(record: Record) -> str:
    return json.dumps(record, indent=1, ensure_ascii=False) + "\n"


def write() -> None:
    RECORDS.mkdir(exist_ok=True)
    fixtures = build()
    for name, (record, _) in fixtures.items():
        (RECORDS / name).write_text(text(record), encoding="utf-8")
    expected = {name: answer for name, (_, answer) in fixtures.items()}
    EXPECTED.write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write()
