"""Players' names: the key two names are compared by, the names nobody may take, and a
table's shown names kept apart (a person's clash gets a suffix, a bot another name).

Two names are the same when their keys are: NFKC (full-width and half-width forms, ligatures
and compatibility characters folded), then case-folded, blanks squeezed. "Ｍｉｋａ", "MIKA"
and "mika" are one name.
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
"""Characters in a shown name, a suffix included."""

BOT_NAMES = ("Hana", "Kenji", "Yuki", "Taro", "Mei", "Sora", "Riku", "Aoi")
"""Given names of the bots, one per seat, so that two bots of one level differ."""

BOT_NAMES_JA = {"Hana": "ハナ", "Kenji": "ケンジ", "Yuki": "ユキ", "Taro": "タロウ",
                "Mei": "メイ", "Sora": "ソラ", "Riku": "リク", "Aoi": "アオイ"}
"""The given names as the Japanese pages spell them (``botname.*`` in messages/ja.js)."""

BOT_LEVELS_JA = {"random": "ランダム", "cautious": "慎重", "sensible": "堅実",
                 "easy": "やさしい", "normal": "ふつう", "hard": "むずかしい", "expert": "達人"}
"""Bot levels as the Japanese pages show them (``bot.*`` in messages/ja.js)."""

VIEWER_WORDS = ("You", "あなた")
"""What the pages call the viewer's own seat: another person may not be named so."""

_BOT_SHAPE = re.compile(r"(.*?)\s*\(\s*([^()]*?)\s*\)")  # "given (level)", keyed


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, case-folded, blanks squeezed."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join(folded.split())


@cache
def _level_keys() -> frozenset[str]:
    levels = {n for game in ENTRIES for n in bot_names(game, hidden=True)}
    return frozenset(name_key(n) for n in (*levels, *BOT_LEVELS_JA.values()))


def reserved(name: str) -> bool:
    """Whether nobody may take ``name``: a bot's shown name or anything shaped like one
    ("Hana (hard)", "Mika（むずかしい）": a given name and a bot level in brackets), a
    bot player's id ("bot:..."), or the word the pages use for the viewer ("You")."""
    key = name_key(name)
    if key in {name_key(w) for w in VIEWER_WORDS} or key.startswith("bot:"):
        return True
    shape = _BOT_SHAPE.fullmatch(key)
    return shape is not None and shape.group(2) in _level_keys()


def with_suffix(name: str, taken: Iterable[str]) -> str:
    """``name``, or when its key is among ``taken``'s, the first free "name 2", "name 3"
    ... (the name shortened so that it stays within NAME_MAX)."""
    keys = {name_key(t) for t in taken}
    if name_key(name) not in keys:
        return name
    for n in count(2):
        suffix = f" {n}"
        candidate = name[:NAME_MAX - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in keys:
            return candidate
    raise AssertionError("unreachable")  # (count() never ends)


def _clashes(given: str, people: set[str]) -> bool:
    return name_key(given) in people or name_key(BOT_NAMES_JA[given]) in people


def seat_names(seats: Sequence[tuple[str | None, str | None]]) -> list[str | None]:
    """Each seat's shown name, from its ``(name, bot level)``: a person's name (a
    stand-in's too: the name of whoever left) as it is; a bot's "Given (level)", its
    given name the seat's own unless a person bears it (in either spelling), then the
    first given name nobody bears; None for an empty seat."""
    people = {name_key(name) for name, _ in seats if name}
    bots = [seat for seat, (name, level) in enumerate(seats) if not name and level]
    given: dict[int, str] = {}
    for seat in bots:
        own = BOT_NAMES[seat % len(BOT_NAMES)]
        if not _clashes(own, people) and own not in given.values():
            given[seat] = own
    spare = [g for g in BOT_NAMES if g not in given.values() and not _clashes(g, people)]
    for seat in bots:
        if seat not in given:  # a person bears at most one given name, and a table
            given[seat] = spare.pop(0)  # has at most 8 seats: there is always a spare
    return [name if name else f"{given[seat]} ({level})" if level else None
            for seat, (name, level) in enumerate(seats)]
