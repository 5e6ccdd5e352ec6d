"""Players' names: the key that makes two names the same, the names nobody may take, the
rules of an account's name, and a table's shown names kept apart (a person's clash gets a
suffix, a bot another given name).

Two names are the same when their keys are: NFKC (full-width and half-width forms, ligatures
and compatibility characters fold together) and then case folding ("Straße" is
"STRASSE"), NFKC once more (case folding can leave a form NFKC would change). Account
names are unique by this key (``players.name_key``); the bots' names and a few words the
pages use are reserved, whatever their case or width.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import count

from usotsuki.bots import bot_names
from usotsuki.games import ENTRIES

NAME_MAX = 32
"""Characters in a name shown at a table, a suffix included."""

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


# Table names: a person may be called "Hana" at a table (the bot yields), never "Hana
# (hard)" nor a word the pages use.

BOT_LEVELS_JA = {"random": "ランダム", "cautious": "慎重", "sensible": "堅実",
                 "easy": "やさしい", "normal": "ふつう", "hard": "むずかしい", "expert": "達人"}
"""Bot levels as the Japanese pages show them (``bot.*`` in messages/ja.js)."""

GUEST_WORDS = ("guest", "ゲスト")
"""A guest's default name and its Japanese: free at a table (two sit as "Guest", "Guest 2")."""

_BOT_SHAPE = re.compile(r"(.*?)\s*\(\s*([^()]*?)\s*\)")  # "given (level)", keyed
_PAGE_KEYS = frozenset(name_key(w) for w in PAGE_WORDS) - {name_key(w) for w in GUEST_WORDS}


@cache
def _level_keys() -> frozenset[str]:
    levels = {n for game in ENTRIES for n in bot_names(game, hidden=True)}
    return frozenset(name_key(n) for n in (*levels, *BOT_LEVELS_JA.values()))


def reserved_at_table(name: str) -> bool:
    """Whether nobody may sit at a table as ``name``: a word the pages use ("You"; a
    guest's default name excepted) or anything shaped like a bot's shown name ("Hana
    (hard)", "Mika（むずかしい）": a name and a bot level in brackets), in any case or
    width."""
    key = " ".join(name_key(name).split())
    shape = _BOT_SHAPE.fullmatch(key)
    return key in _PAGE_KEYS or (shape is not None and shape.group(2) in _level_keys())


def with_suffix(name: str, taken: Iterable[str]) -> str:
    """``name``, or when its key is among ``taken``'s, the first free "name 2", "name 3"
    ... (the name shortened so that it stays within NAME_MAX)."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    for n in count(2):
        suffix = f" {n}"
        candidate = _cut(name, NAME_MAX - len(suffix)) + suffix
        if name_key(candidate) not in keys:
            return candidate
    raise AssertionError("unreachable")  # (count() never ends)


def _cut(name: str, length: int) -> str:
    """``name`` cut to ``length`` characters, never ending in a blank, a combining mark
    or a joiner left without what it joined."""
    cut = name[:length]
    while cut and (cut[-1].isspace() or unicodedata.category(cut[-1]) in ("Mn", "Me", "Cf")):
        cut = cut[:-1]
    return cut


def _clashes(seat: int, people: set[str]) -> bool:
    return bool({name_key(BOT_NAMES[seat]), name_key(BOT_NAMES_JA[seat])} & people)


def seat_names(seats: Sequence[tuple[str | None, str | None]]) -> list[str | None]:
    """Each seat's shown name, from its ``(name, bot level)``: a person's name (a
    stand-in's too: the name of whoever left) as it is, or with a suffix if an earlier
    seat bears it (names written before they were kept apart at joins, or anonymised
    alike); a bot's "Given (level)", its given name the seat's own unless a person bears
    it (in either spelling), then the first given name nobody bears; None for an empty
    seat."""
    shown: list[str] = []
    for name, _ in seats:
        if name:
            shown.append(with_suffix(name, shown))
    people = {name_key(name) for name in shown}
    named = iter(shown)
    bots = [seat for seat, (name, level) in enumerate(seats) if not name and level]
    given: dict[int, int] = {}  # seat -> index in BOT_NAMES
    for seat in bots:
        own = seat % len(BOT_NAMES)
        if not _clashes(own, people) and own not in given.values():
            given[seat] = own
    spare = [g for g in range(len(BOT_NAMES))
             if g not in given.values() and not _clashes(g, people)]
    for seat in bots:
        if seat not in given:  # a person bears at most one given name, and a table
            given[seat] = spare.pop(0)  # has at most 8 seats: there is always a spare
    return [next(named) if name else f"{BOT_NAMES[given[seat]]} ({level})" if level else None
            for seat, (name, level) in enumerate(seats)]
