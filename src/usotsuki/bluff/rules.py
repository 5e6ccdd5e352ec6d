"""Bluff's options (RULES.md B1, B2, B4), validated when built."""

from __future__ import annotations

from dataclasses import dataclass

from usotsuki.core.errors import InvalidRules

MIN_PLAYERS, MAX_PLAYERS = 2, 8  # B1: 3 to 8, and 2 as a variant
DECK_SIZE = 52


@dataclass(frozen=True, slots=True)
class BluffRules:
    """The options of one Bluff game. Bad values fail here, not mid-game."""

    players: int = 5
    max_cards: int = 5  # B2: a loser who held this many cards is eliminated
    dealer: int = 0  # B4: round 1's dealer

    def __post_init__(self) -> None:
        for name in ("players", "max_cards", "dealer"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidRules(f"{name} must be an integer, not {value!r}")
        if not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise InvalidRules(
                f"Bluff takes {MIN_PLAYERS} to {MAX_PLAYERS} players, not {self.players} (B1)")
        if self.max_cards < 1:
            raise InvalidRules(f"max_cards must be at least 1, not {self.max_cards} (B2)")
        if self.players * self.max_cards > DECK_SIZE:
            raise InvalidRules(
                f"{self.players} players x max_cards {self.max_cards} = "
                f"{self.players * self.max_cards} cards, more than the 52 in the deck (B2)")
        if not 0 <= self.dealer < self.players:
            raise InvalidRules(
                f"dealer must be a seat from 0 to {self.players - 1}, not {self.dealer} (B4)")

    def to_json(self) -> dict[str, int]:
        """The record's ``rules`` object (Part 4)."""
        return {"max_cards": self.max_cards, "dealer": self.dealer}
