"""Quick match's rules, pure: who sits with whom, and which bot fills a seat.

The waiting seekers go in (oldest first), the tables to make come out; nothing here reads
a clock or a database (``server/matchmaking.py`` does, under one lock across workers).

- Seekers meet when they want the same game, rules preset and kind (rated or casual),
  the same number of players (or "any"), and their shown ratings are within both their
  windows. A window starts at ``window_start`` points and widens by ``window_widen`` a
  second of waiting, up to ``window_max``.
- The oldest seeker anchors a table: one of the number it asked for, or for "any" the
  largest table of ``any_max`` to ``any_preferred`` people waiting, or after
  ``gather_seconds`` any number from 2.
- After ``offer_seconds`` a seeker who chose "ask" is offered bots for the empty seats; one
  who accepted ("now"), or who chose "yes" and has waited that long, is seated at once
  with the people who are waiting and agree to bots, bots of a level near their rating in
  the other seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from usotsuki.core.game import MAX_PLAYERS, MIN_PLAYERS

PRESETS: dict[str, dict[str, dict[str, object]]] = {
    "bluff": {
        "standard": {},
        "short": {"ranks": 8},  # B13: a short deck, 7 to A (32 cards)
    },
    "liar": {
        "standard": {},
        "house": {"multi": True, "revolution": True, "eight_cut": True, "jack_back": True},
    },
}
"""The rules presets of quick match, per game: a table's rules as created (Part 4)."""

ACCEPTED = "now"  # a seeker's ``bots`` once they accepted the offer (else ask, yes, no)

BOT_LADDER: dict[str, float] = {
    "random": 1100.0, "cautious": 1250.0, "sensible": 1250.0, "easy": 1350.0,
    "normal": 1500.0, "hard": 1650.0, "expert": 1800.0,
}
"""The shown rating assumed for a bot level that has no rated games yet."""


@dataclass(frozen=True)
class Policy:
    window_start: float = 100.0
    window_widen: float = 25.0  # points a second of waiting
    window_max: float = 1000.0
    any_preferred: int = 4  # "any": a table of this many people or more forms at once
    any_max: int = 6
    gather_seconds: float = 8.0  # "any": then from 2 people
    offer_seconds: float = 15.0  # then bots are offered (or, chosen in advance, seated)

    def window(self, waited: float) -> float:
        return min(self.window_max, self.window_start + self.window_widen * max(0.0, waited))


@dataclass(frozen=True)
class Seeker:
    player_id: str
    name: str
    game: str
    players: int | None  # None: any number
    preset: str
    rated: bool
    rating: float
    bots: str  # ask | yes | no | now
    since: float

    @property
    def kind(self) -> tuple[str, str, bool]:
        return (self.game, self.preset, self.rated)

    def wants_bots(self, now: float, policy: Policy) -> bool:
        """Whether the seeker is to be seated with bots now, if people are too few."""
        return self.bots == ACCEPTED or (
            self.bots == "yes" and now - self.since >= policy.offer_seconds)

    def offered(self, now: float, policy: Policy) -> bool:
        """Whether the seeker is offered bots now (asked, and waited long enough)."""
        return self.bots == "ask" and now - self.since >= policy.offer_seconds


@dataclass(frozen=True)
class Match:
    """A table to make: each seat a person (a seeker) or a bot level."""

    game: str
    preset: str
    rated: bool
    seats: list[Seeker | str] = field(default_factory=list)

    @property
    def people(self) -> list[Seeker]:
        return [s for s in self.seats if isinstance(s, Seeker)]


def near(a: Seeker, b: Seeker, now: float, policy: Policy) -> bool:
    gap = abs(a.rating - b.rating)
    return gap <= min(policy.window(now - a.since), policy.window(now - b.since))


def bot_near(rating: float, levels: Mapping[str, float]) -> str:
    """The bot level whose shown rating is nearest ``rating`` (the weaker on a tie)."""
    return min(levels, key=lambda level: (abs(levels[level] - rating), levels[level]))


def plan(seekers: Sequence[Seeker], now: float, policy: Policy,
         bot_levels: Mapping[str, Mapping[str, float]]) -> list[Match]:
    """The tables to make now from the waiting ``seekers``; each seeker in one at most.
    ``bot_levels``: per game, the bot levels that may fill a seat, with their ratings."""
    waiting = sorted(seekers, key=lambda s: (s.since, s.player_id))
    taken: set[str] = set()
    matches: list[Match] = []
    for anchor in waiting:
        if anchor.player_id in taken:
            continue
        pool = sorted((s for s in waiting if s.player_id not in taken
                       and s is not anchor and s.kind == anchor.kind
                       and near(anchor, s, now, policy)),
                      key=lambda s: (abs(s.rating - anchor.rating), s.since))
        people = _people(anchor, pool, now, policy)
        size = 0 if people is None else len(people)
        if people is None and anchor.wants_bots(now, policy):
            size = anchor.players or policy.any_preferred
            willing = [s for s in pool if s.players in (None, size) and s.bots != "no"]
            people = [anchor, *willing[:size - 1]]
        if people is None:
            continue
        levels = bot_levels.get(anchor.game) or BOT_LADDER
        mean = sum(p.rating for p in people) / len(people)
        level = bot_near(mean, levels)
        seats: list[Seeker | str] = [*people, *[level] * (size - len(people))]
        matches.append(Match(anchor.game, anchor.preset, anchor.rated, seats))
        taken.update(p.player_id for p in people)
    return matches


def _people(anchor: Seeker, pool: list[Seeker], now: float,
            policy: Policy) -> list[Seeker] | None:
    """The people of a full table around ``anchor``, if there are enough."""
    if anchor.players is not None:
        sizes = [anchor.players]
    else:
        patient = now - anchor.since >= policy.gather_seconds
        low = MIN_PLAYERS if patient else policy.any_preferred
        sizes = list(range(min(policy.any_max, MAX_PLAYERS), low - 1, -1))
    for size in sizes:
        fits = [s for s in pool if s.players in (None, size)]
        if len(fits) + 1 >= size:
            return [anchor, *fits[:size - 1]]
    return None
