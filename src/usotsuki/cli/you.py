"""Whose screen it is: the seat that ``usotsuki replay``'s account and ``usotsuki analyse``
speak to as "You".

``--as`` chooses it, by seat number or by name (compared as the server compares names:
NFKC, case-folded, so ``--as mika`` finds "Mika"); without it, the seat ``usotsuki play``
gave its person (named "You" in the record), if there is one.
"""

from __future__ import annotations

from collections.abc import Sequence

from usotsuki.server.names import name_key

PERSON = "You"
"""The name ``usotsuki play`` gives the person's seat, and what the viewer's seat is called."""


def you_seat(names: Sequence[str], chosen: str | None) -> int | None:
    """The viewer's seat: the one ``chosen`` names (a seat number from 0, or a player's
    name), else the seat named "You". Raises ``ValueError`` saying what there is to choose."""
    if chosen is None:
        return names.index(PERSON) if PERSON in names else None
    listed = ", ".join(f"{seat} {name}" for seat, name in enumerate(names))
    if chosen.strip().isdigit():
        seat = int(chosen)
        if seat < len(names):
            return seat
        raise ValueError(f"--as {chosen}: no such seat; the seats are {listed}")
    matches = [seat for seat, name in enumerate(names) if name_key(name) == name_key(chosen)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ValueError(f"--as {chosen}: seats {', '.join(map(str, matches))} bear that "
                         "name: give the seat number")
    raise ValueError(f"--as {chosen}: nobody has that name; the seats are {listed}")


def as_read_by(names: Sequence[str], you: int | None) -> list[str]:
    """The names as the viewer reads them: "You" at their seat; a seat named "You" that
    is not theirs (a ``usotsuki play`` record read as another seat) is "seat N"."""
    return [PERSON if seat == you else f"seat {seat}" if name == PERSON else name
            for seat, name in enumerate(names)]
