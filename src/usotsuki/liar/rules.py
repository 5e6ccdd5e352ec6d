"""Liar Game options (RULES.md Part 2: L1, L3, L10, L11 and the house rules O1-O7).

>>> LiarRules(players=4, multi=True, revolution=True).revolution
True
>>> LiarRules(players=4, revolution=True)
Traceback (most recent call last):
...
usotsuki.core.errors.MissingOption: revolution needs multi (O2 needs O1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from usotsuki.core.errors import InvalidRules, MissingOption, must_be
from usotsuki.core.game import MAX_PLAYERS, MIN_PLAYERS  # L1 (2 is the variant)

DECK_SIZE = 52
MAX_HAND_SIZE = DECK_SIZE // MIN_PLAYERS
"""L3: the largest hand the deck can give every seat (26 each to two players). A larger
``hand_size`` is still valid (RULES.md Part 4: any integer >= 1): L3 then deals the whole
deck. The server refuses it at its tables, where it can only be a mistake."""

HOUSE_RULES = ("multi", "revolution", "eight_cut", "jack_back", "six_up", "binding", "classes")
"""The on/off house rules O1-O7, in rule-number order."""

OPTION_DEFAULTS: dict[str, object] = {
    "hand_size": 9,
    "deal_all": False,
    "final_doubt": True,
    "turn_limit": None,
    **{name: False for name in HOUSE_RULES},
}
"""Every option a record's ``rules`` object may hold (Part 4), with its default."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True, slots=True)
class LiarRules:
    """The options of one Liar Game or match, checked on construction.

    :raises InvalidRules: for a value out of range or options that do not combine.
    """

    players: int
    hand_size: int = 9  # L3
    deal_all: bool = False  # L3
    final_doubt: bool = True  # L10
    turn_limit: int | None = None  # L11
    multi: bool = False  # O1
    revolution: bool = False  # O2
    eight_cut: bool = False  # O3
    jack_back: bool = False  # O4
    six_up: bool = False  # O5
    binding: bool = False  # O6
    classes: bool = False  # O7

    def __post_init__(self) -> None:
        if not _is_int(self.players) or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRules(must_be("players", f"{MIN_PLAYERS} to {MAX_PLAYERS}",
                                       self.players, "L1"))
        if not _is_int(self.hand_size) or self.hand_size < 1:
            raise InvalidRules(must_be("hand_size", "at least 1", self.hand_size, "L3"))
        if self.turn_limit is not None and (not _is_int(self.turn_limit) or self.turn_limit < 1):
            raise InvalidRules(must_be("turn_limit", "at least 1 (or none)", self.turn_limit,
                                       "L11"))
        for name in ("deal_all", "final_doubt", *HOUSE_RULES):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRules(f"{name} must be true or false, not {getattr(self, name)!r}")
        if self.revolution and not self.multi:
            raise MissingOption("revolution", "multi", "O2", "O1")
        if self.six_up and not self.jack_back:
            raise MissingOption("six_up", "jack_back", "O5", "O4")

    @property
    def deals_all(self) -> bool:
        """L3: all 52 cards are dealt round the table (``deal_all``, or too many players)."""
        return self.deal_all or self.players * self.hand_size > DECK_SIZE

    def hand_sizes(self) -> tuple[int, ...]:
        """L3: the size of each seat's hand as dealt."""
        n = self.players
        if self.deals_all:  # one card at a time from seat 0: the first 52 % n get one more
            return tuple(DECK_SIZE // n + (seat < DECK_SIZE % n) for seat in range(n))
        return (self.hand_size,) * n

    def options(self) -> dict[str, Any]:
        """The options as a record's ``rules`` object (Part 4), every key written out."""
        return {name: getattr(self, name) for name in OPTION_DEFAULTS}


def parse_rules_text(text: str, players: int, **base: Any) -> LiarRules:
    """Rules from a CLI string: comma-separated house rules, ``all``, or ``name=value``.

    ``base`` gives other options. Values: integers, ``true``/``false``, ``none``.

    >>> r = parse_rules_text("multi, revolution, hand_size=5", players=4)
    >>> (r.multi, r.revolution, r.hand_size)
    (True, True, 5)
    >>> parse_rules_text("all", 3).six_up
    True

    :raises InvalidRules: for an unknown name or a bad value.
    """
    options: dict[str, Any] = dict(base)
    for part in text.replace("，", ",").split(","):
        item = part.strip().lower().replace("-", "_")
        if not item or item == "none":
            continue
        if item == "all":
            options.update({name: True for name in HOUSE_RULES})
            continue
        name, sep, value = (s.strip() for s in item.partition("="))
        if name not in OPTION_DEFAULTS:
            raise InvalidRules(f"unknown rule {name!r} (known: all, {', '.join(OPTION_DEFAULTS)})")
        options[name] = _option_value(name, value) if sep else True
    try:
        return LiarRules(players=players, **options)
    except TypeError as exc:  # an unknown keyword in base
        raise InvalidRules(str(exc)) from None


def _option_value(name: str, value: str) -> object:
    if value in ("true", "on", "yes"):
        return True
    if value in ("false", "off", "no"):
        return False
    if value in ("none", "null") and name == "turn_limit":
        return None
    try:
        return int(value)
    except ValueError:
        raise InvalidRules(f"bad value {value!r} for {name}") from None

