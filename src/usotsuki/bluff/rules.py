"""Bluff's options (RULES.md B1, B2, B4, B13), validated when built."""

from __future__ import annotations

from dataclasses import dataclass

from usotsuki.core.errors import InvalidRules, must_be
from usotsuki.core.game import MAX_PLAYERS, MIN_PLAYERS  # B1: 3 to 8, and 2 as a variant

DECK_SIZE = 52
MIN_RANKS, MAX_RANKS = 2, 13  # B13


@dataclass(frozen=True, slots=True)
class BluffRules:
    """The options of one Bluff game. Bad values fail here, not mid-game."""

    players: int = 5
    max_cards: int = 5  # B2: a loser who held this many cards is eliminated
    dealer: int = 0  # B4: round 1's dealer
    ranks: int = 13  # B13: the deck holds the four suits of the ``ranks`` highest ranks

    def __post_init__(self) -> None:
        for name in ("players", "max_cards", "dealer", "ranks"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRules(f"{name} must be an integer, not {value!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRules(must_be("players", f"{MIN_PLAYERS} to {MAX_PLAYERS}",
                                       self.players, "B1"))
        if self.max_cards < 1:
            raise InvalidRules(must_be("max_cards", "at least 1", self.max_cards, "B2"))
        if not MIN_RANKS <= self.ranks <= MAX_RANKS:
            raise InvalidRules(must_be("ranks", f"{MIN_RANKS} to {MAX_RANKS}", self.ranks,
                                       "B13"))
        if self.players * self.max_cards > self.deck_size:  # B2, with B13's deck
            raise InvalidRules(
                f"{self.players} players x max_cards {self.max_cards} = "
                f"{self.players * self.max_cards} cards, more than the {self.deck_size} "
                f"in the deck ({'B2' if self.ranks == MAX_RANKS else 'B2, B13'})")
        if not 0 <= self.dealer < self.players:
            raise InvalidRules(must_be("dealer", f"a seat from 0 to {self.players - 1}",
                                       self.dealer, "B4"))

    @property
    def deck_size(self) -> int:
        """B13: four cards of each rank in the deck (52 with the default)."""
        return 4 * self.ranks

    @property
    def lowest_rank(self) -> int:
        """B13: the rank index (0 = ``2``) of the deck's lowest rank."""
        return MAX_RANKS - self.ranks

    def to_json(self) -> dict[str, int]:
        """The record's ``rules`` object (Part 4). ``ranks`` is written only for a short
        deck (missing keys take their defaults), so full-deck records stay as they were."""
        rules = {"max_cards": self.max_cards, "dealer": self.dealer}
        if self.ranks != MAX_RANKS:
            rules["ranks"] = self.ranks
        return rules


def parse_rules_text(text: str, players: int, **base: int) -> BluffRules:
    """Rules from a CLI string: ``"max_cards=N, dealer=S, ranks=R"`` (B2, B4, B13);
    ``base`` gives other options.

    :raises InvalidRules: for an unknown name or a value that is not an integer.
    """
    options: dict[str, int] = dict(base)
    for part in text.split(","):
        item = part.strip().lower().replace("-", "_")
        if not item or item == "none":
            continue
        name, sep, value = (s.strip() for s in item.partition("="))
        if name not in ("max_cards", "dealer", "ranks") or not sep:
            raise InvalidRules(f"unknown Bluff rule {item!r} "
                               "(known: max_cards=N, dealer=S, ranks=R)")
        try:
            options[name] = int(value)
        except ValueError:
            raise InvalidRules(f"{name} must be an integer, not {value!r}") from None
    return BluffRules(players=players, **options)
