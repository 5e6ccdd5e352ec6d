"""The rule book shipped in the package: every code cited anywhere has an entry, each
entry has its texts in both languages and a worked example the cores play as its caption
says."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from usotsuki.rulebook import cited, entry, rule_book, rules, texts, worked_example
from usotsuki.rulebook.examples import SCRIPTS

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("src", "docs", "tests", "README.md")
SUFFIXES = {".py", ".js", ".html", ".md", ".json"}
SKIP = ("vendor", "node_modules", "conformance")  # third-party and shared sample files
RANGE = re.compile(r"\b([BLO])([1-9][0-9]?)\s?(?:-|–|to)\s?\1?([1-9][0-9]?)\b")
CITED = re.compile(r"\b[BLO][1-9][0-9]?\b")
GLOSSARY = ROOT / "src/usotsuki/server/static/js/messages/glossary.json"


def cited_anywhere() -> dict[str, str]:
    """Every rule code written in the code base (ranges like ``O1-O7`` opened up), with
    one file that writes it."""
    found: dict[str, str] = {}
    for top in SOURCES:
        base = ROOT / top
        for path in [base] if base.is_file() else base.rglob("*"):
            if path.suffix not in SUFFIXES or any(part in SKIP for part in path.parts):
                continue
            text = path.read_text(encoding="utf-8", errors="replace")
            for code in CITED.findall(text):
                found.setdefault(code, str(path.relative_to(ROOT)))
            for letter, low, high in RANGE.findall(text):
                for n in range(int(low), int(high) + 1):
                    found.setdefault(f"{letter}{n}", str(path.relative_to(ROOT)))
    return found


def test_every_code_cited_in_the_code_base_has_an_entry() -> None:
    found = cited_anywhere()
    assert {"B5", "B7", "L9", "O6", "B13", "L11", "O7"} <= set(found)  # the scan works
    missing = {code: where for code, where in found.items() if code not in rules()}
    assert not missing, f"codes cited without a rule in RULES.md: {missing}"
    for code in found:
        shown = entry(code)
        assert shown["text"]["en"] and shown["text"]["ja"] and shown["example"], code


def test_the_shipped_rule_book_is_the_docs_one() -> None:
    assert rule_book() == (ROOT / "docs/RULES.md").read_text(encoding="utf-8"), \
        "copy docs/RULES.md to src/usotsuki/rulebook/RULES.md (the package ships that one)"


def test_rules_are_cut_at_their_codes() -> None:
    book = rules()
    assert list(book)[:3] == ["B1", "B2", "B3"] and len(book) == 13 + 11 + 7
    assert book["B6"].title == "Calls" and "| 7 | straight flush |" in book["B6"].text
    assert book["B12"].body.startswith("**B12 End.** When one player remains")
    assert "Counting calls" not in book["B12"].text  # a paragraph after a rule is no part of it
    assert book["O1"].game == "liar" and book["B1"].game == "bluff"


def test_every_rule_has_its_words_in_both_languages_as_the_glossary_says() -> None:
    words = texts()
    assert set(words) == set(rules()) == set(SCRIPTS)
    glossary = json.loads(GLOSSARY.read_text(encoding="utf-8"))
    avoid = [re.compile(p) for term in glossary["terms"].values() for p in term.get("avoid_ja", ())]
    avoid += [re.compile(p) for p in glossary["ja_style"]["avoid"]]
    particles = "|".join(sorted(glossary["ja_style"]["particles"], key=len, reverse=True))
    avoid.append(re.compile(rf"[}}\w)）>」] (?:{particles})"))  # no space before a particle
    for code, w in words.items():
        for part in ("title", "line", "example"):
            assert w[part]["en"].strip() and w[part]["ja"].strip(), (code, part)
        japanese = " ".join(w[part]["ja"] for part in ("title", "line", "text", "example"))
        assert not [p.pattern for p in avoid if p.search(japanese)], code


def test_cited_finds_codes_in_a_message_once_each() -> None:
    assert cited("card A is weaker than pair 7; call something stronger (B5, B7)") == ["B5", "B7"]
    assert cited("(O2 needs O1) O2") == ["O2", "O1"]
    assert cited("B0 player B " + "L" + "99") == []  # (split: the scan above reads this file)


def events(example: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The example's events of one type, in the order they happened (a deal's before
    the actions that follow it)."""
    steps = example["steps"]
    found = []
    for i in range(len(steps) + 1):
        for deal in example["deals"]:
            if deal["step"] == i:
                found += deal["events"]
        if i < len(steps):
            found += steps[i]["events"]
    return [e for e in found if e["type"] == kind]


# What each caption says, checked against what the cores made of the example.
CAPTIONS = {
    "B2": lambda x: [c["eliminated"] for c in events(x, "challenged")] == [False, True],
    "B3": lambda x: x["deals"][1]["events"][0]["hand_sizes"] == [1, 2, 1],
    "B4": lambda x: [(d["dealer"], d["first_caller"]) for d in events(x, "round_dealt")]
    == [(0, 1), (0, 1)],
    "B8": lambda x: events(x, "challenged")[0]["call_true"] is False,
    "B9": lambda x: events(x, "challenged")[0]["loser"] == 2,
    "B10": lambda x: x["legal"] == ["challenge"],
    "B12": lambda x: x["standings"] == [[0], [2], [1]],
    "L3": lambda x: [len(h) for h in x["deals"][0]["hands"]] == [9, 9, 9, 9, 8, 8],
    "L4": lambda x: x["steps"][0]["seat"] == 1,
    "L7": lambda x: events(x, "flushed")[0]["cause"] == "all passed" and x["to_move"] == 0,
    "L9": lambda x: events(x, "doubted")[0]["truthful"] is False
    and events(x, "drew")[-1] == {"type": "drew", "seat": 1, "count": 2} and x["to_move"] == 2,
    "L10": lambda x: x["legal"]["play"] is None and x["legal"]["accept"],
    "L11": lambda x: x["standings"] == [[0], [1, 2]],
    "O2": lambda x: events(x, "order_changed")[0]["reversed"]
    and x["legal"]["play"]["rates"] == list("345678"),
    "O3": lambda x: x["legal"]["play"] is None,
    "O4": lambda x: "J" not in x["legal"]["play"]["rates"] and "3" in x["legal"]["play"]["rates"],
    "O5": lambda x: events(x, "order_changed")[-1]["reversed"] is False,
    "O6": lambda x: x["legal"]["play"]["rates"] == ["7"],
    "O7": lambda x: events(x, "gave_cards")[0]["cards"] == ["2D"]
    and events(x, "gave")[0]["automatic"],
}


@pytest.mark.parametrize("code", list(SCRIPTS))
def test_each_example_replays_as_its_caption_says(code: str) -> None:
    example = worked_example(code)
    refused = example["refused"]
    if SCRIPTS[code].refuse is not None:  # refused by the cores, with their own message
        assert refused is not None and refused["action"] == SCRIPTS[code].refuse
    elif refused is not None:  # a record the cores turn down as a whole (B1, L1)
        assert not example["steps"] and "9" in refused["message"]
    if code in CAPTIONS:
        assert CAPTIONS[code](example), json.dumps(example)[:2000]


@pytest.mark.parametrize("code", ["B5", "B7", "B10", "B13", "L6", "O1", "O3", "O6"])
def test_a_refusal_cites_the_rule_it_shows(code: str) -> None:
    assert code in cited(worked_example(code)["refused"]["message"])
