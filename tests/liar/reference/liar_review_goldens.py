"""Hand-worked golden records for the Liar Game's finest points (``tests/golden/liar_review_*``).

Each case is a record and the Part 5 object RULES.md gives for it, worked out by hand
from the text (the comments show the working), not by running the core. Run this file
to (re)write the golden files; ``test_liar_reference_goldens.py`` checks the reference reading
against every expected object and that the files on disk are these, and
``tests/test_golden.py`` runs each through ``usotsuki replay --json``.

    .venv/bin/python tests/liar/reference/liar_review_goldens.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RATES = "3456789TJQKA2"
ORDER = [r + s for r in RATES for s in "SHDC"]  # 3S 3H 3D 3C 4S ... 2C
CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}


# -- building records ------------------------------------------------------------------------


def deal(hands: list[list[str]], sizes: list[int] | None = None,
         top: tuple[str, ...] = ()) -> dict[str, Any]:
    """Hands (filled up to ``sizes`` from the unused cards, highest rates first so that no
    filler card is a 3 or 4 unless all else is used) and the stock: ``top`` first, then
    every other card in the order 3S 3H ... 2C."""
    used = {c for h in hands for c in h} | set(top)
    spare = [c for c in reversed(ORDER) if c not in used]
    full = [list(h) for h in hands]
    for seat, size in enumerate(sizes or [len(h) for h in hands]):
        while len(full[seat]) < size:
            full[seat].append(spare.pop(0))
    used |= {c for h in full for c in h}
    return {"hands": full, "stock": list(top) + [c for c in ORDER if c not in used],
            "actions": []}


def record(players: int, games: list[dict[str, Any]], rules: dict[str, Any] | None = None,
           seed: Any = 7) -> dict[str, Any]:
    out: dict[str, Any] = {"game": "liar", "players": players}
    if rules is not None:
        out["rules"] = rules
    if seed is not None:
        out["seed"] = seed
    out["games"] = games
    return out


def with_actions(game: dict[str, Any], *actions: Any) -> dict[str, Any]:
    return {**game, "actions": list(actions)}


# -- building expected objects ----------------------------------------------------------------


def lead(counts: tuple[int, ...] = (1,)) -> dict[str, Any]:
    return {"pass": False, "doubt": False, "accept": False, "give": False,
            "play": {"counts": list(counts), "rates": list(RATES)}}


def on_field(count: int | None, rates: str = "") -> dict[str, Any]:
    """Pass and doubt, and plays of ``count`` cards at ``rates`` (None: no play)."""
    play = None if count is None or not rates else {"counts": [count], "rates": list(rates)}
    return {"pass": True, "doubt": True, "accept": False, "give": False, "play": play}


FINAL = {"pass": False, "doubt": True, "accept": True, "give": False, "play": None}
GIVE = {"pass": False, "doubt": False, "accept": False, "give": True, "play": None}


def game(sizes: list[int], stock: int, field: int = 0, order: str = "normal",
         standings: list[list[int]] | None = None,
         doubts: tuple[dict[str, Any], ...] = ()) -> dict[str, Any]:
    return {"doubts": list(doubts), "hand_sizes": sizes, "stock_size": stock,
            "field_size": field, "order": order, "standings": standings}


def doubt(doubter: int, doubted: int, truthful: bool, drawer: int, drawn: int
          ) -> dict[str, Any]:
    return {"doubter": doubter, "doubted": doubted, "truthful": truthful, "drawer": drawer,
            "drawn": drawn}


def going(games: list[dict[str, Any]], to_move: int, legal: dict[str, Any]) -> dict[str, Any]:
    return {"game": "liar", "ok": True, "error": None, "finished": False, "standings": None,
            "to_move": to_move, "legal": legal, "games": games}


def over(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"game": "liar", "ok": True, "error": None, "finished": True,
            "standings": games[-1]["standings"], "to_move": None, "legal": None,
            "games": games}


def fault(round: int | None, index: int | None, action: Any,
          before: dict[str, Any] | None = None, game_known: bool = True) -> dict[str, Any]:
    """A fault; ``before`` is the object of the game as the fault leaves it (else: none
    played yet)."""
    rest = before or {"finished": False, "standings": None, "to_move": None, "legal": None,
                      "games": []}
    out = {**rest, "game": "liar" if game_known else None, "ok": False,
           "error": {"round": round, "index": index, "action": action,
                     "message": "(any clear message)"}}
    if not game_known:
        del out["games"]
    return out


def case(name: str, rec: dict[str, Any], expected: dict[str, Any]) -> None:
    assert name not in CASES, name
    CASES[name] = (rec, expected)


# -- L4 ----------------------------------------------------------------------------------------
# "If 3S is in the stock, the holder of the first card found in this order: 3S 3H 3D 3C 4S"

case("l4_3s_3h_in_stock_3d_starts",
     record(3, [deal([["5S", "9C"], ["3D", "KC"], ["4S", "7H"]], top=("3S", "3H"))],
            {"hand_size": 2}),
     going([game([2, 2, 2], 46)], 1, lead()))

case("l4_all_threes_in_stock_4s_starts",
     record(3, [deal([["4H", "9C"], ["5D", "KC"], ["4S", "7H"]],
                     top=("3S", "3H", "3D", "3C"))], {"hand_size": 2}),
     going([game([2, 2, 2], 46)], 2, lead()))

# -- L6 ----------------------------------------------------------------------------------------
# "A player who leads must play: pass and doubt need a current play."
_L6 = deal([["3S", "9C"], ["4H", "TD"], ["5D", "JS"]])
case("l6_leader_cannot_pass",
     record(3, [with_actions(_L6, "pass")], {"hand_size": 2}),
     fault(0, 0, "pass", going([game([2, 2, 2], 46)], 0, lead())))

# seat 0 lies (9C as 3); seat 1 doubts: a lie, so seat 0 draws N = 1 and seat 1 leads: the
# new leader may not pass either.
case("l6_new_leader_after_doubt_cannot_pass",
     record(3, [with_actions(_L6, "play 9C as 3", "doubt", "pass")], {"hand_size": 2}),
     fault(0, 2, "pass",
           going([game([2, 2, 2], 46, doubts=(doubt(1, 0, False, 0, 1),))], 1, lead())))

# "Any player to move may doubt the current play, also after others passed on it."
# 4 players: seat 0 plays 9C as 3 (a lie); seats 1, 2 pass and draw 2S, 2H; seat 3 doubts.
# N = 1: the field goes under the stock (44 - 2 + 1 = 43), seat 0 draws 1 (42); seat 3 leads.
case("l6_doubt_after_others_passed",
     record(4, [with_actions(deal([["3S", "9C"], ["4H", "TD"], ["5D", "JS"], ["6C", "QH"]],
                                  top=("2S", "2H", "2D")),
                             "play 9C as 3", "pass", "pass", "doubt")], {"hand_size": 2}),
     going([game([2, 3, 3, 2], 42, doubts=(doubt(3, 0, False, 0, 1),))], 3, lead()))

# -- L6/L7: a pass draws before the flush it brings about ------------------------------------
# 3 players x 17 = 51 cards: the stock holds one card. Seat 0 (3S) plays; seat 1 passes and
# draws the only stock card; seat 2 passes on an empty stock (draws nothing), the turn comes
# back to seat 0: the field (1 card) goes under the stock, seat 0 leads. Had seat 2 drawn
# after the flush, it would hold 18 and the stock 0.
case("l7_last_pass_draws_before_flush_empty_stock",
     record(3, [with_actions(deal([["3S"], ["4S"], ["5S"]], [17, 17, 17]),
                             "play 3S as 3", "pass", "pass")], {"hand_size": 17}),
     going([game([16, 18, 17], 1)], 0, lead()))

# 2 players x 26: no stock. Seat 0 plays, seat 1 passes (nothing to draw): flush, stock 1.
# Seat 0 plays again; seat 1 passes and draws that flushed card first (stock 0), then the
# new field is flushed under it (stock 1).
case("l7_two_players_pass_draws_then_flush",
     record(2, [with_actions(deal([["3S", "4S"], ["5S"]], [26, 26]),
                             "play 3S as 3", "pass", "play 4S as 4", "pass")],
            {"hand_size": 26}),
     going([game([24, 27], 1)], 0, lead()))

# -- L9 ----------------------------------------------------------------------------------------
# 2 players x 25: the stock holds 2. Three plays (N = 3), then seat 1 doubts seat 0's
# truthful 9C. Flush first (stock 2 + 3 = 5), then the doubter draws 3 (stock 2): the two
# stock cards and one of the field's. Truthful: the doubted player (seat 0) leads.
_L9 = deal([["3S", "9C", "4D"], ["5H", "QS"]], [25, 25])
case("l9_truthful_doubter_draws_whole_field_short_stock",
     record(2, [with_actions(_L9, "play 3S as 3", "play 5H as 5", "play 9C as 9", "doubt")],
            {"hand_size": 25}),
     going([game([23, 27], 2, doubts=(doubt(1, 0, True, 1, 3),))], 0, lead()))

# The same with a lie (4D as 9): seat 0 draws the 3 cards and the doubter (seat 1) leads.
case("l9_lie_doubted_draws_whole_field_short_stock",
     record(2, [with_actions(_L9, "play 3S as 3", "play 5H as 5", "play 4D as 9", "doubt")],
            {"hand_size": 25}),
     going([game([26, 24], 2, doubts=(doubt(1, 0, False, 0, 3),))], 1, lead()))

# -- L10 -------------------------------------------------------------------------------------
_L10 = deal([["3S"], ["7H"], ["9C"]])
# Truthful last card, doubted: the doubter still draws N = 1, seat 0 wins. Seat 1 then holds
# 2 cards, seat 2 one: places [0], [2], [1]. Stock 49 + 1 - 1.
case("l10_final_doubt_truthful_winner_stands",
     record(3, [with_actions(_L10, "play 3S as 3", "doubt")], {"hand_size": 1}),
     over([game([0, 2, 1], 49, standings=[[0], [2], [1]],
                doubts=(doubt(1, 0, True, 1, 1),))]))

# A lie as the last card: seat 0 draws N = 1, the doubter (seat 1) leads.
case("l10_final_doubt_lie_doubter_leads",
     record(3, [with_actions(_L10, "play 3S as 4", "doubt")], {"hand_size": 1}),
     going([game([1, 1, 1], 49, doubts=(doubt(1, 0, False, 0, 1),))], 1, lead()))

# With O3, a last card declared 8: "after a play that emptied a hand, L10 applies instead:
# doubt or accept" (no pass, no play).
case("l10_o3_last_card_eight_doubt_or_accept",
     record(3, [with_actions(_L10, "play 3S as 8")], {"hand_size": 1, "eight_cut": True}),
     going([game([0, 1, 1], 49, field=1)], 1, FINAL))

case("l10_o3_last_card_eight_no_pass",
     record(3, [with_actions(_L10, "play 3S as 8", "pass")],
            {"hand_size": 1, "eight_cut": True}),
     fault(0, 1, "pass", going([game([0, 1, 1], 49, field=1)], 1, FINAL)))

case("l10_o3_last_card_eight_accepted",
     record(3, [with_actions(_L10, "play 3S as 8", "accept")],
            {"hand_size": 1, "eight_cut": True}),
     over([game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])]))

# final_doubt false: "the game ends the moment a hand is empty", a lie included; the field
# stays; nothing may follow.
case("l10_no_final_doubt_ends_at_once",
     record(3, [with_actions(_L10, "play 3S as 9")], {"hand_size": 1, "final_doubt": False}),
     over([game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])]))

case("l10_no_final_doubt_nothing_after",
     record(3, [with_actions(_L10, "play 3S as 9", "doubt")],
            {"hand_size": 1, "final_doubt": False}),
     fault(0, 1, "doubt", over([game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])])))

# -- L11 -----------------------------------------------------------------------------------------
# Shared places: seat 0 goes out (accepted); seats 1 and 3 hold 1 card, seat 2 (who passed
# and drew) 3: [0], [1, 3], [2].
case("l11_shared_places",
     record(4, [with_actions(deal([["3S", "5D"], ["4H", "TD"], ["6D", "JS"], ["7C", "QH"]]),
                             "play 3S as 3", "play TD as 4", "pass", "play 7C as 6",
                             "play 5D as 7", "accept")], {"hand_size": 2}),
     over([game([0, 1, 3, 1], 43, field=4, standings=[[0], [1, 3], [2]])]))

# turn_limit 3: the third action is the pass that flushes (L7); the game ends right after
# the flush: field 0, stock 46 - 2 + 1 = 45. No winner: [0] (1 card), [1, 2] (3 cards).
case("l11_turn_limit_ends_after_the_flush",
     record(3, [with_actions(_L6, "play 3S as 3", "pass", "pass")],
            {"hand_size": 2, "turn_limit": 3}),
     over([game([1, 3, 3], 45, standings=[[0], [1, 2]])]))

# turn_limit 1 reached by a last card awaiting its final doubt: no winner, the 0-card
# player first; nothing is flushed.
case("l11_turn_limit_zero_cards_awaiting_final_doubt_first",
     record(3, [with_actions(_L10, "play 3S as 3")], {"hand_size": 1, "turn_limit": 1}),
     over([game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])]))

case("l11_turn_limit_no_action_after",
     record(3, [with_actions(_L10, "play 3S as 3", "accept")],
            {"hand_size": 1, "turn_limit": 1}),
     fault(0, 1, "accept", over([game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])])))

# -- O1 --------------------------------------------------------------------------------------------
# Seat 0 leads 2 cards; every later play on the field has 2; seat 2 passes (4 cards); seat 0,
# down to 1 card, cannot play 2: pass or doubt only.
_O1 = deal([["3S", "4D", "5H"], ["6S", "7D", "8H"], ["9S", "TD", "JH"]])
case("l6_o1_lead_counts_whole_hand",
     record(3, [_O1], {"hand_size": 3, "multi": True}),
     going([game([3, 3, 3], 43)], 0, lead((1, 2, 3))))

case("o1_same_count_then_too_few_cards",
     record(3, [with_actions(_O1, "play 3S 4D as 5", "play 6S 7D as 7", "pass")],
            {"hand_size": 3, "multi": True}),
     going([game([1, 1, 4], 42, field=4)], 0, on_field(None)))

case("o1_follower_count_and_rates",
     record(3, [with_actions(_O1, "play 3S 4D as 5")], {"hand_size": 3, "multi": True}),
     going([game([1, 3, 3], 43, field=2)], 1, on_field(2, "6789TJQKA2")))

case("o1_wrong_count_refused",
     record(3, [with_actions(_O1, "play 3S 4D as 5", "play 6S as 7")],
            {"hand_size": 3, "multi": True}),
     fault(0, 1, "play 6S as 7",
           going([game([1, 3, 3], 43, field=2)], 1, on_field(2, "6789TJQKA2"))))

# -- O2 --------------------------------------------------------------------------------------------
_O2_RULES = {"hand_size": 9, "multi": True, "revolution": True}
_O2 = deal([["3S", "3H", "3D", "3C", "5S", "6H", "7D", "8C", "9S"], [], []], [9, 9, 9])
# Four 3s: reversed. In the reversed order nothing is above 3: seat 1 may not play.
case("o2_revolution_nothing_above_three",
     record(3, [with_actions(_O2, "play 3S 3H 3D 3C as 3")], _O2_RULES),
     going([game([5, 9, 9], 25, field=4, order="reversed")], 1, on_field(None)))

# All pass (seats 1, 2 draw): flush, yet the revolution stays.
case("o2_revolution_lasts_past_flush",
     record(3, [with_actions(_O2, "play 3S 3H 3D 3C as 3", "pass", "pass")], _O2_RULES),
     going([game([5, 10, 10], 27, order="reversed")], 0, lead((1, 2, 3, 4, 5))))

# A lie of 4 cards reverses again ("whether or not the play was truthful"): normal; seat 1
# must play 4 cards above 9.
case("o2_second_revolution_by_a_lie",
     record(3, [with_actions(_O2, "play 3S 3H 3D 3C as 3", "pass", "pass",
                             "play 5S 6H 7D 8C as 9")], _O2_RULES),
     going([game([1, 10, 10], 27, field=4)], 1, on_field(4, "TJQKA2")))

# "Each game of a match starts in the normal order." Game 0 ends reversed (an accepted
# four-card last play); game 1 starts normal. Classes (3 players, winner 0, ties clockwise
# from 0): first 0, second 1, last 2. Seat 2 gives its highest card, KC... (see hands),
# to seat 0, who owes one card back.
case("o2_match_game_starts_normal",
     record(3, [with_actions(deal([["3S", "3H", "3D", "3C"], ["5S", "6S", "7S", "8S"],
                                   ["5H", "6H", "7H", "8H"]]),
                             "play 3S 3H 3D 3C as 3", "accept"),
                deal([["3S", "4S", "5S", "6S"], ["3H", "4H", "5H", "6H"],
                      ["3D", "4D", "5D", "KC"]])],
            {"hand_size": 4, "multi": True, "revolution": True, "classes": True}),
     going([game([0, 4, 4], 40, field=4, order="reversed", standings=[[0], [1, 2]]),
            game([5, 4, 3], 40)], 0, GIVE))

# -- O3 --------------------------------------------------------------------------------------------
# An 8 played on the field (not led): the others may only pass or doubt; all pass, and the
# 8's player leads again.
_O3 = deal([["3S", "9C"], ["8H", "TD"], ["5D", "JS"]])
case("o3_eight_on_field_pass_or_doubt",
     record(3, [with_actions(_O3, "play 3S as 3", "play 8H as 8")],
            {"hand_size": 2, "eight_cut": True}),
     going([game([1, 1, 2], 46, field=2)], 2, on_field(None)))

case("o3_eight_all_pass_player_leads_again",
     record(3, [with_actions(_O3, "play 3S as 3", "play 8H as 8", "pass", "pass")],
            {"hand_size": 2, "eight_cut": True}),
     going([game([2, 1, 3], 46)], 1, lead()))

# -- O4 --------------------------------------------------------------------------------------------
_O4 = deal([["3S", "9C", "4D"], ["JH", "5C", "6D"], ["TS", "7H", "8D"]])
# 9, then J: reversed; above J now lie 3..T.
case("o4_jack_back_reverses",
     record(3, [with_actions(_O4, "play 9C as 9", "play JH as J")],
            {"hand_size": 3, "jack_back": True}),
     going([game([2, 2, 3], 43, field=2, order="reversed")], 2, on_field(1, "3456789T")))

# T on the J (higher in the reversed order), all pass: the flush ends the J-back.
case("o4_jack_back_ends_with_flush",
     record(3, [with_actions(_O4, "play 9C as 9", "play JH as J", "play TS as T",
                             "pass", "pass")], {"hand_size": 3, "jack_back": True}),
     going([game([3, 3, 2], 44)], 2, lead()))

# With a revolution (O2): 4-card plays each reverse; a 4-card J reverses twice.
# seat 0: 5 (rev: reversed); seat 1: 4 (rev again: normal); seat 2: J (rev + J-back: normal)
_O4R_RULES = {"hand_size": 9, "multi": True, "revolution": True, "jack_back": True}
_O4R = deal([["3S", "5S", "5H", "5D", "5C", "JS", "JH", "JD", "JC"],
             ["4S", "4H", "4D", "4C", "QS", "QH", "QD", "QC", "KS"],
             ["3H", "3D", "3C", "9S", "9H", "TS", "TH", "TD", "TC"],
             ["6S", "6H", "6D", "6C", "7S", "7H", "7D", "7C", "KH"]])
case("o4_with_revolution_two_reversals_restore_normal",
     record(4, [with_actions(_O4R, "play 5S 5H 5D 5C as 5", "play 4S 4H 4D 4C as 4",
                             "play 9S 9H TS TH as J")], _O4R_RULES),
     going([game([5, 5, 5, 9], 16, field=12)], 3, on_field(4, "QKA2")))

# ...seat 3: Q (rev; J-back holds: reversed); seat 0: J on the Q, higher in the reversed
# order: rev again, and the second J cancels the first: reversed by the revolution alone.
# Above J in the reversed order: T 9 8 7 6 5 4 3.
case("o4_second_jack_cancels_the_first",
     record(4, [with_actions(_O4R, "play 5S 5H 5D 5C as 5", "play 4S 4H 4D 4C as 4",
                             "play 9S 9H TS TH as J", "play 6S 6H 6D 6C as Q",
                             "play JS JH JD JC as J")], _O4R_RULES),
     going([game([1, 5, 5, 5], 16, field=20, order="reversed")], 1,
           on_field(4, "3456789T")))

# ...all pass (seats 1-3 draw): the flush ends no J-back (none holds); the revolution stays.
case("o4_after_cancel_flush_revolution_stays",
     record(4, [with_actions(_O4R, "play 5S 5H 5D 5C as 5", "play 4S 4H 4D 4C as 4",
                             "play 9S 9H TS TH as J", "play 6S 6H 6D 6C as Q",
                             "play JS JH JD JC as J", "pass", "pass", "pass")], _O4R_RULES),
     going([game([1, 6, 6, 6], 33, order="reversed")], 0, lead()))

# -- O5 --------------------------------------------------------------------------------------------
_O5_RULES = {"hand_size": 3, "jack_back": True, "six_up": True}
# 9, J (J-back), 6 (higher in the reversed order): six up ends the J-back: above 6 now 7..2.
case("o5_six_up_ends_jack_back",
     record(3, [with_actions(_O4, "play 9C as 9", "play JH as J", "play 7H as 6")],
            _O5_RULES),
     going([game([2, 2, 2], 43, field=3)], 0, on_field(1, "789TJQKA2")))

# A 6 with no J-back but a revolution (from an earlier field): nothing ends, the order
# stays reversed. Seat 0 leads four 9s (reversed), all pass (seats 1, 2 draw), the flush
# keeps the revolution; seat 0 leads 4D as 9, seat 1 plays a 6 (higher, reversed); seat 2
# may declare only 5 4 3. Stock 34 - 2 + 4 = 36.
case("o5_six_without_jack_back_changes_nothing",
     record(3, [with_actions(deal([["3S", "9S", "9H", "9D", "9C", "4D"],
                                   ["6S", "6H", "6D", "6C", "KS"],
                                   ["QS", "QH", "QD", "QC", "KH"]], [6, 6, 6]),
                             "play 9S 9H 9D 9C as 9", "pass", "pass", "play 4D as 9",
                             "play 6S as 6")],
            {"hand_size": 6, "multi": True, "revolution": True, "jack_back": True,
             "six_up": True}),
     going([game([1, 6, 7], 36, field=2, order="reversed")], 2, on_field(1, "345")))

# -- O6 --------------------------------------------------------------------------------------------
_O6 = deal([["3S", "5C", "8D", "KD"], ["6S", "AS", "JH", "TC"], ["7H", "2C", "9D", "QD"]])
# 5 then 6 (the next rate above 5): bound; seat 2 may only declare 7.
case("o6_bound_next_rate_only",
     record(3, [with_actions(_O6, "play 5C as 5", "play 6S as 6")],
            {"hand_size": 4, "binding": True}),
     going([game([3, 3, 4], 40, field=2)], 2, on_field(1, "7")))

case("o6_bound_skip_refused",
     record(3, [with_actions(_O6, "play 5C as 5", "play 6S as 6", "play 9D as 9")],
            {"hand_size": 4, "binding": True}),
     fault(0, 2, "play 9D as 9", going([game([3, 3, 4], 40, field=2)], 2, on_field(1, "7"))))

# "in the order in force just before this play": T then J binds (J is next above T in the
# normal order in force before the J); the J reverses; the next play must be the rate next
# above J in the order in force just before it (reversed): T.
case("o6_binding_judged_before_jack_back",
     record(3, [with_actions(_O6, "play 5C as T", "play JH as J")],
            {"hand_size": 4, "binding": True, "jack_back": True}),
     going([game([3, 3, 4], 40, field=2, order="reversed")], 2, on_field(1, "T")))

# Bound before the J: 9, T (bound), J (the next above T; reverses): seat 0 must declare T.
case("o6_bound_then_jack_back_next_is_ten",
     record(3, [with_actions(_O6, "play KD as 9", "play TC as T", "play 9D as J")],
            {"hand_size": 4, "binding": True, "jack_back": True}),
     going([game([3, 3, 3], 40, field=3, order="reversed")], 0, on_field(1, "T")))

# "When no next rate exists, nobody can play on that field": K, A (bound), 2: no rate is
# next above 2; seat 0 may pass or doubt.
case("o6_no_next_rate_nobody_plays",
     record(3, [with_actions(_O6, "play KD as K", "play AS as A", "play 2C as 2")],
            {"hand_size": 4, "binding": True}),
     going([game([3, 3, 3], 40, field=3)], 0, on_field(None)))

# A flush ends the binding: after all pass, the leader may declare anything.
case("o6_binding_ends_with_flush",
     record(3, [with_actions(_O6, "play 5C as 5", "play 6S as 6", "pass", "pass")],
            {"hand_size": 4, "binding": True}),
     going([game([4, 3, 5], 40)], 1, lead()))

# -- O7 --------------------------------------------------------------------------------------------
# 2 players: last and first exchange 1 card. Game 0: seat 0 out, accepted. Game 1: seat 1
# gives 3C (its highest and only card) to seat 0, who gives 2D back: 3S, 3H, 3D are in the
# stock, so L4 after the exchange finds 3C, now seat 0's.
case("o7_two_players_one_card_l4_after_exchange",
     record(2, [with_actions(deal([["3S"], ["4S"]]), "play 3S as 3", "accept"),
                with_actions(deal([["2D"], ["3C"]]), "give 2D")],
            {"hand_size": 1, "classes": True}),
     going([game([0, 1], 50, field=1, standings=[[0], [1]]), game([1, 1], 50)], 0, lead()))

# 4 players, no winner (turn_limit 3): seat 2 leads, seats 3 and 0 pass and draw.
# Standings [2] (2 cards), [1] (3), [0, 3] (4): tied seats by seat number, so 0 is
# second-last and 3 last (clockwise from the top player would put 3 first).
# Game 1: seat 3 (last) gives seat 2 (first) its 2 highest: 2H 2D (S H D C among equal
# rates, so not 2C); seat 0 gives seat 1 its highest: AS before AD. Then seat 2 gives
# "3S 2H" back to seat 3, seat 1 gives AS (just received) back to seat 0; 3S is now
# seat 3's, who starts (L4 after the exchange).
_O7_RULES = {"hand_size": 3, "classes": True, "turn_limit": 3}
_O7_GAME0 = with_actions(deal([["4S", "9C", "KC"], ["4H", "TD", "QS"], ["3S", "5D", "7H"],
                               ["6C", "8H", "JS"]], top=("2S",)),
                         "play 3S as 3", "pass", "pass")
_O7_GAME1 = deal([["AD", "AS", "4D"], ["5C", "9H", "QD"], ["6S", "7H", "3S"],
                  ["2C", "2H", "2D"]])
case("o7_four_players_no_winner_ties_by_seat_gifts_by_suit",
     record(4, [_O7_GAME0, with_actions(_O7_GAME1, "give 3S 2H", "give AS")], _O7_RULES),
     going([game([4, 3, 2, 4], 38, field=1, standings=[[2], [1], [0, 3]]),
            game([3, 3, 3, 3], 40)], 3, lead()))

# Before the gives: seat 2 (first) owes 2 cards; the automatic gifts are made already.
case("o7_four_players_gifts_before_first_give",
     record(4, [_O7_GAME0, _O7_GAME1], _O7_RULES),
     going([game([4, 3, 2, 4], 38, field=1, standings=[[2], [1], [0, 3]]),
            game([2, 4, 5, 1], 40)], 2, GIVE))

# Higher players give first place first: after seat 2's give, seat 1 owes 1 card.
case("o7_four_players_second_gives_after_first",
     record(4, [_O7_GAME0, with_actions(_O7_GAME1, "give 3S 2H")], _O7_RULES),
     going([game([4, 3, 2, 4], 38, field=1, standings=[[2], [1], [0, 3]]),
            game([2, 4, 3, 3], 40)], 1, GIVE))

case("o7_give_card_not_held",
     record(4, [_O7_GAME0, with_actions(_O7_GAME1, "give 2C 2H")], _O7_RULES),
     fault(1, 0, "give 2C 2H",
           going([game([4, 3, 2, 4], 38, field=1, standings=[[2], [1], [0, 3]]),
                  game([2, 4, 5, 1], 40)], 2, GIVE)))

case("o7_play_before_gives_refused",
     record(4, [_O7_GAME0, with_actions(_O7_GAME1, "play 6S as 6")], _O7_RULES),
     fault(1, 0, "play 6S as 6",
           going([game([4, 3, 2, 4], 38, field=1, standings=[[2], [1], [0, 3]]),
                  game([2, 4, 5, 1], 40)], 2, GIVE)))

# Hands too small (4 players, 1 card each): each exchange moves min(2, 1, 1) = 1 card.
# Game 0: seat 0 out, accepted at action 2 (turn_limit 3 not reached): classes 0, 1, 2, 3
# (ties clockwise from the winner 0). Game 1: seat 3 gives 7S to seat 0, seat 2 gives 6S to
# seat 1; seat 0 gives 4S, seat 1 gives 5S. Gives are not counted: seat 3 (4S) lies and goes
# out (1), seat 0 doubts: a lie, seat 3 draws 1 (2); seat 0 plays its last card (3): the
# limit, no winner, seat 0 with 0 cards awaiting a final doubt first.
case("o7_hands_too_small_gives_not_counted",
     record(4, [with_actions(deal([["3S"], ["4S"], ["5S"], ["6S"]]), "play 3S as 3", "accept"),
                with_actions(deal([["4S"], ["5S"], ["6S"], ["7S"]]),
                             "give 4S", "give 5S", "play 4S as 9", "doubt", "play 7S as 7")],
            {"hand_size": 1, "classes": True, "turn_limit": 3}),
     over([game([0, 1, 1, 1], 48, field=1, standings=[[0], [1, 2, 3]]),
           game([0, 1, 1, 1], 48, field=1, standings=[[0], [1, 2, 3]],
                doubts=(doubt(0, 3, False, 3, 1),))]))

case("o7_too_small_give_two_refused",
     record(4, [with_actions(deal([["3S"], ["4S"], ["5S"], ["6S"]]), "play 3S as 3", "accept"),
                with_actions(deal([["4S"], ["5S"], ["6S"], ["7S"]]), "give 4S 7S")],
            {"hand_size": 1, "classes": True}),
     fault(1, 0, "give 4S 7S",
           going([game([0, 1, 1, 1], 48, field=1, standings=[[0], [1, 2, 3]]),
                  game([2, 2, 0, 0], 48)], 0, GIVE)))

# 3 players, winner seat 1: ties [0, 2] clockwise from 1: 2 then 0, so 0 is last and
# gives seat 1 its highest card (KD); seat 1 gives 1 card back.
case("o7_three_players_ties_clockwise_from_winner",
     record(3, [with_actions(deal([["4S", "9C"], ["3S", "TD"], ["5D", "JS"]]),
                             "play 3S as 3", "play 5D as 4", "play 9C as 5",
                             "play TD as 6", "accept"),
                deal([["KD", "4D"], ["3S", "5C"], ["6S", "7H"]])],
            {"hand_size": 2, "classes": True}),
     going([game([1, 0, 1], 46, field=4, standings=[[1], [0, 2]]),
            game([1, 3, 2], 46)], 1, GIVE))

# "their 2 highest-rated cards (normal order)": 2 is the highest rate, 3 the lowest (not
# Bluff's rank order). Game 0: seat 0 plays out three cards, accepted: classes 0, 1, 2, 3.
# Game 1: seat 3 (last) holds 2C AS KH and gives 2C AS; seat 2 (second-last) holds
# 3S 2D 4C and gives 2D. Seat 0 gives 2C AS back (just received), seat 1 gives 2D back;
# 3S is seat 2's, who starts.
case("o7_gifts_two_is_the_highest_rate",
     record(4, [with_actions(deal([["3S", "3H", "3D"], [], [], []], [3, 3, 3, 3]),
                             "play 3S 3H 3D as 3", "accept"),
                with_actions(deal([["5S", "6S", "7S"], ["5H", "6H", "7H"], ["3S", "2D", "4C"],
                                   ["2C", "AS", "KH"]]), "give 2C AS", "give 2D")],
            {"hand_size": 3, "multi": True, "classes": True}),
     going([game([0, 3, 3, 3], 40, field=3, standings=[[0], [1, 2, 3]]),
            game([3, 3, 3, 3], 40)], 2, lead((1, 2, 3))))

# -- Part 4: seed -------------------------------------------------------------------------------
# 2 players x 26, no stock. Seat 0 plays 3S, 4S, 5S; seat 1 plays 6S, 7S; seat 1 passes:
# flush, the stock is the field (in play order 3S 6S 4S 7S 5S) shuffled by
# random.Random(seed). Seat 0 leads 8S, seat 1 passes and draws the first shuffled card,
# flush again; seat 0 leads 9S; seat 1 plays the card it drew as its own rate: legal only
# if the shuffle is exactly Part 4's.


def _seed_case(name: str, seed: Any) -> None:
    field = ["3S", "6S", "4S", "7S", "5S"]
    random.Random(seed if seed is not None else 0).shuffle(field)
    drawn = field[0]
    rate = "T" if drawn[0] == "1" else drawn[0]
    hands = deal([["3S", "4S", "5S", "8S", "9S"], ["6S", "7S", "2C"]], [26, 26])
    rec = record(2, [with_actions(hands, "play 3S as 3", "play 6S as 6", "play 4S as 7",
                                  "play 7S as 8", "play 5S as 9", "pass", "play 8S as 8",
                                  "pass", "play 9S as 3", f"play {drawn} as {rate}"
                                  if RATES.index(rate) > 0 else "play 2C as 2")],
                 {"hand_size": 26}, seed=seed)
    # hands 26 - 5 = 21 (seat 0: 3S 4S 5S 8S 9S played); seat 1: 26 - 2 + 1 - 1 = 24.
    # Stock: 5 flushed, 1 drawn, +1 (8S) = 5. Field: 9S and seat 1's card.
    case(name, rec, going([game([21, 24], 5, field=2)], 0,
                          on_field(1, RATES[RATES.index(rate if RATES.index(rate) > 0
                                                        else "2") + 1:])))


_seed_case("part4_seed_int_exact_shuffle", 2026)
_seed_case("part4_seed_string_exact_shuffle", "usotsuki")
_seed_case("part4_seed_absent_is_zero", None)

for _name, _seed in (("null", None), ("float", 7.0), ("bool", True), ("list", [7])):
    _rec = record(3, [deal([["3S", "9C"], ["4H", "TD"], ["5D", "JS"]])], {"hand_size": 2})
    _rec["seed"] = _seed
    case(f"part4_seed_{_name}_is_an_error", _rec, fault(None, None, None))

# -- Part 4 faults ------------------------------------------------------------------------------
_P4 = deal([["3S", "9C"], ["4H", "TD"], ["5D", "JS"]])
case("part4_unknown_rule_key",
     record(3, [_P4], {"hand_size": 2, "eight_cuts": True}), fault(None, None, None))
case("part4_revolution_without_multi",
     record(3, [_P4], {"hand_size": 2, "revolution": True}), fault(None, None, None))
case("part4_six_up_without_jack_back",
     record(3, [_P4], {"hand_size": 2, "six_up": True}), fault(None, None, None))
case("part4_turn_limit_zero",
     record(3, [_P4], {"hand_size": 2, "turn_limit": 0}), fault(None, None, None))
case("part4_no_games", record(3, [], {"hand_size": 2}), fault(None, None, None))
case("part4_stock_missing_a_card",
     record(3, [{**_P4, "stock": _P4["stock"][1:]}], {"hand_size": 2}), fault(0, None, None))
case("part4_card_in_hand_and_stock",
     record(3, [{**_P4, "stock": ["9C", *_P4["stock"][1:]]}], {"hand_size": 2}),
     fault(0, None, None))
case("part4_hand_wrong_size",
     record(3, [deal([["3S", "9C", "QC"], ["4H", "TD"], ["5D", "JS"]])], {"hand_size": 2}),
     fault(0, None, None))
# 6 players at the default hand_size 9 get all 52 cards (L3): 9 9 9 9 8 8, no stock.
case("part4_six_players_nine_each_is_wrong",
     record(6, [deal([["3S"], [], [], [], [], []], [9, 9, 9, 9, 8, 7])]),
     fault(0, None, None))
case("part4_stock_missing",
     record(3, [{"hands": _P4["hands"], "actions": []}], {"hand_size": 2}),
     fault(0, None, None))

_FINISHED = with_actions(_L10, "play 3S as 3", "accept")
_FINISHED_GAME = game([0, 1, 1], 49, field=1, standings=[[0], [1, 2]])
case("part4_second_game_without_o7",
     record(3, [_FINISHED, _L10], {"hand_size": 1}),
     fault(1, None, None, over([_FINISHED_GAME])))
case("part4_game_not_over_then_another",
     record(3, [with_actions(_L10, "play 3S as 3"), _L10], {"hand_size": 1, "classes": True}),
     fault(0, None, None))
case("part4_action_is_a_number",
     record(3, [with_actions(_L6, "play 3S as 3", 5)], {"hand_size": 2}),
     fault(0, 1, "5", going([game([1, 2, 2], 46, field=1)], 1, on_field(1, "456789TJQKA2"))))
case("part4_action_is_null",
     record(3, [with_actions(_L6, None)], {"hand_size": 2}),
     fault(0, 0, None, going([game([2, 2, 2], 46)], 0, lead())))
case("part4_play_card_not_in_hand",
     record(3, [with_actions(_L6, "play 3S as 3", "play 9C as 4")], {"hand_size": 2}),
     fault(0, 1, "play 9C as 4",
           going([game([1, 2, 2], 46, field=1)], 1, on_field(1, "456789TJQKA2"))))
case("part4_give_when_not_owed",
     record(3, [with_actions(_L6, "give 3S")], {"hand_size": 2, "classes": True}),
     fault(0, 0, "give 3S", going([game([2, 2, 2], 46)], 0, lead())))
case("part4_give_in_second_game_not_owed_any_more",
     record(2, [with_actions(deal([["3S"], ["4S"]]), "play 3S as 3", "accept"),
                with_actions(deal([["2D"], ["3C"]]), "give 2D", "give 3C")],
            {"hand_size": 1, "classes": True}),
     fault(1, 1, "give 3C",
           going([game([0, 1], 50, field=1, standings=[[0], [1]]), game([1, 1], 50)], 0,
                 lead())))
case("part3_tolerant_notation",
     record(3, [with_actions(_L6, "PLAY\u30003s  AS 3", " Pass ", "play 5d as 10")],
            {"hand_size": 2}),
     going([game([1, 3, 1], 45, field=2)], 0, on_field(1, "JQKA2")))


def write() -> None:
    for name, (rec, expected) in CASES.items():
        for suffix, value in ((".json", rec), (".expected.json", expected)):
            path = GOLDEN / f"liar_review_{name}{suffix}"
            path.write_text(json.dumps(value, indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {len(CASES)} records to {GOLDEN}")
