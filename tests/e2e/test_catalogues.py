"""The two message catalogues hold the same keys, and every key the pages use."""

from __future__ import annotations

import json
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "src" / "usotsuki" / "server" / "static"
KEY = re.compile(r'^\s*"([\w.\- ]+)":', re.M)


def keys(lang: str) -> set[str]:
    """The catalogue's keys: ``{lang}.js`` and the feature files merged into it by
    i18n.js (``review.{lang}.js``)."""
    found: set[str] = set()
    for path in (STATIC / "js" / "messages").glob(f"*{lang}.js"):
        found |= set(KEY.findall(path.read_text("utf-8")))
    return found


def used() -> set[str]:
    found: set[str] = set()
    for path in STATIC.rglob("*.js"):
        found |= set(re.findall(r'\bt\("([\w.\-]+)"', path.read_text("utf-8")))
    for path in STATIC.glob("*.html"):
        found |= set(re.findall(r'data-i18n(?:-html|-placeholder|-title|-aria)?="([\w.\-]+)"',
                                path.read_text("utf-8")))
    return found


def test_japanese_and_english_have_the_same_keys() -> None:
    en, ja = keys("en"), keys("ja")
    assert len(en) > 150
    assert en - ja == set() and ja - en == set()


def test_every_key_used_by_the_pages_is_in_the_catalogues() -> None:
    missing = used() - keys("en")
    assert len(used()) > 100
    assert missing == set()


def test_every_option_and_bot_level_has_words() -> None:
    from usotsuki.bots import bot_names
    from usotsuki.liar.rules import LiarRules

    en = keys("en")
    for name in LiarRules(players=3).options():
        assert f"opt.{name}" in en and f"opt.{name}.desc" in en
    for name in ("max_cards", "dealer", "ranks"):
        assert f"opt.{name}.desc" in en
    for game in ("bluff", "liar"):
        for level in bot_names(game):
            assert f"bot.{level}" in en


VALUE = re.compile(r'^\s*"([\w.\- ]+)":\s*("(?:[^"\\]|\\.)*")', re.M)
GLOSSARY = json.loads((STATIC / "js" / "messages" / "glossary.json").read_text("utf-8"))


def messages(lang: str) -> dict[str, str]:
    """The catalogue's messages, merged as i18n.js merges them."""
    found: dict[str, str] = {}
    for path in sorted((STATIC / "js" / "messages").glob(f"*{lang}.js")):
        found |= {k: json.loads(v) for k, v in VALUE.findall(path.read_text("utf-8"))}
    return found


def test_both_catalogues_use_the_glossary_terms() -> None:
    """Each term's keys say the term in both languages: 宣言 at the table and in the
    review alike, 数字 for the number a Liar player declares, 大富豪 to 大貧民."""
    en, ja = messages("en"), messages("ja")
    wrong = []
    for term, entry in GLOSSARY["terms"].items():
        for key in entry["keys"]:
            if entry["en"].lower() not in en[key].lower():
                wrong.append(f"en {key}: {en[key]!r} lacks {entry['en']!r} ({term})")
            if entry["ja"] not in ja[key]:
                wrong.append(f"ja {key}: {ja[key]!r} lacks {entry['ja']!r} ({term})")
    assert wrong == []


def test_japanese_avoids_the_words_players_do_not_use() -> None:
    ja = messages("ja")
    avoid = [w for entry in GLOSSARY["terms"].values() for w in entry.get("avoid_ja", [])]
    avoid += GLOSSARY["ja_style"]["avoid"]
    found = {k: v for k, v in ja.items() for w in avoid if re.search(w, v)}
    assert found == {}
    particles = "|".join(sorted(GLOSSARY["ja_style"]["particles"], key=len, reverse=True))
    spaced = re.compile(rf"[}}\w)）>」] (?:{particles})")
    assert {k: v for k, v in ja.items() if spaced.search(v)} == {}


def test_the_glossary_check_catches_a_stray_term() -> None:
    """The checks above would fail on the faults they are for."""
    particles = "|".join(GLOSSARY["ja_style"]["particles"])
    assert re.search(rf"[}}\w)）>」] (?:{particles})", "{name} が {other} をダウト")
    [rate] = GLOSSARY["terms"]["declared number"]["avoid_ja"]
    assert re.search(rate, "宣言するレート") and not re.search(rate, "ストレートフラッシュ")
    assert "コール" in GLOSSARY["terms"]["call"]["avoid_ja"]
