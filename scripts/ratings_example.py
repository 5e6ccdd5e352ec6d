"""The worked example of docs/ratings.md: how five ratings move after one 5-player game.

    python scripts/ratings_example.py

prints the table the document shows (tests/server/test_ratings_doc.py checks that the
document holds exactly this output)."""

from __future__ import annotations

from usotsuki.server.ratings import (
    ELO_PER_MU,
    MODEL,
    Rating,
    SeatResult,
    ranks,
    update_ratings,
)

# (who, shown before, sigma before, rated games before, place, left)
PLAYERS = [
    ("Mika (account)", 1612, 4.0, 42, 2, False),
    ("Ren (account, first rated game)", 1500, MODEL.sigma, 0, 1, False),
    ("bot hard", 1655, 2.0, 900, 3, False),
    ("bot normal", 1480, 2.5, 900, 4, False),
    ("Sho (account)", 1540, 5.5, 25, 2, True),
]


def _shown(rating: Rating) -> str:
    """The shown number, with "?" while provisional (as the pages mark it)."""
    return f"{rating.shown:.0f}{'?' if rating.provisional else ''}"


def example_table() -> str:
    """The example as a Markdown table."""
    before = [Rating(MODEL.mu + (shown - 1500) / ELO_PER_MU, sigma, games)
              for _, shown, sigma, games, _, _ in PLAYERS]
    outcomes = [SeatResult(seat, str(seat), None, place, left)
                for seat, (_, _, _, _, place, left) in enumerate(PLAYERS)]
    after = update_ratings(before, ranks(outcomes))
    lines = ["| player | place | before | sigma | after | sigma | change |",
             "|---|---|---|---|---|---|---|"]
    for (name, _, _, _, place, left), old, new in zip(PLAYERS, before, after, strict=True):
        where = f"{len(PLAYERS)} (left)" if left else str(place)
        lines.append(f"| {name} | {where} | {_shown(old)} | {old.sigma:.2f} | "
                     f"{_shown(new)} | {new.sigma:.2f} | {new.shown - old.shown:+.0f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(example_table(), end="")
