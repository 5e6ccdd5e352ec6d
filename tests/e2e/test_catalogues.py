"""The two message catalogues hold the same keys, and every key the pages use."""

from __future__ import annotations

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
