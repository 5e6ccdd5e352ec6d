"""Players' names: the key that makes two names the same, the names nobody may take, and
the rules of an account's name.

Two names are the same when their keys are: NFKC (full-width and half-width forms, ligatures
and compatibility characters fold together) and then case folding ("Straße" is
"STRASSE"), NFKC once more (case folding can leave a form NFKC would change). Account
names are unique by this key (``players.name_key``); the bots' names and a few words the
pages use are reserved, whatever their case or width.
"""

from __future__ import annotations

import re
import unicodedata

BOT_NAMES = ("Hana", "Kenji", "Yuki", "Taro", "Mei", "Sora", "Riku", "Aoi")
"""Given names of the bots, one per seat, so that two bots of one level differ."""

# The bots' names as the Japanese pages show them (static/js/messages/ja.js "botname.*").
BOT_NAMES_JA = ("ハナ", "ケンジ", "ユキ", "タロウ", "メイ", "ソラ", "リク", "アオイ")

# Words the pages show in place of a name: a person must never be mistaken for them.
PAGE_WORDS = ("You", "あなた", "deleted player", "bot", "ボット", "guest", "ゲスト",
              "usotsuki", "嘘つき", "admin", "administrator", "system", "moderator")

USERNAME_MIN, USERNAME_MAX = 2, 24  # characters of an account's name, after NFKC

# A trailing "(level)", as a bot's shown name has ("Hana (hard)").
_SUFFIX = re.compile(r"\s*[(（][^()（）]*[)）]\s*$")


def name_key(name: str) -> str:
    """The key under which two names are the same (NFKC, case folded)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


_RESERVED = frozenset(name_key(n) for n in (*BOT_NAMES, *BOT_NAMES_JA, *PAGE_WORDS))


def reserved(name: str) -> bool:
    """Whether ``name`` is a bot's or a word the pages use, in any case or width, with or
    without a bot's "(level)" after it."""
    key = name_key(name).strip()
    return key in _RESERVED or name_key(_SUFFIX.sub("", key)).strip() in _RESERVED


def clean_name(name: str) -> str:
    """``name`` in NFKC with its runs of spaces made one and its ends trimmed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def username_problem(name: str) -> str | None:
    """Why ``name`` (already ``clean_name``d) cannot be an account's name, or None.
    Letters, marks, digits, single spaces and ``_ - . '`` only: no symbol, control or
    invisible character, nothing that draws like markup or like another name."""
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        return f"an account's name has {USERNAME_MIN} to {USERNAME_MAX} characters"
    for char in name:
        if not (unicodedata.category(char)[0] in "LMN" or char in " _-.'"):
            return f"an account's name may not contain {char!r}"
    if reserved(name):
        return "this name is reserved"
    return None
