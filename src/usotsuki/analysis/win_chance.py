"""The review's one value scale: a seat's chance to win the game, in both games.

- Bluff: from the lives left (``max_cards`` minus losses; 0 once out, B2), as if every
  later round's loser were any seat still in, equally likely (B11, B12). A move's value
  is this chance after the round it plays into: the round's loser is what the expert's
  playouts decide, the rounds after are the baseline. It prices a lost round by what it
  costs the game: the last life is worth more than the first.
- Liar Game: the shipped expert's own objective (``bots/liar/search.score``): 1 or 0 once
  the game is over (a share on a no-winner end), else a soft-min of the hand sizes at the
  search's horizon.
"""

from __future__ import annotations

from functools import lru_cache

from usotsuki.bluff.view import BluffView


def bluff_lives(v: BluffView) -> tuple[int, ...]:
    """Each seat's lives left in ``v`` (0: out of the game, B2)."""
    return tuple(v.max_cards - v.losses[s] if v.hand_sizes[s] else 0 for s in range(v.players))


def lives_win(lives: tuple[int, ...]) -> tuple[float, ...]:
    """Each seat's chance to win the game from the lives left (0: out), if every round's
    loser were any seat still in, equally likely (B2, B11, B12)."""
    order = sorted(range(len(lives)), key=lambda i: lives[i])
    ranked = _sorted_win(tuple(lives[i] for i in order))
    out = [0.0] * len(lives)
    for position, seat in enumerate(order):
        out[seat] = ranked[position]
    return tuple(out)


@lru_cache(maxsize=8192)
def _sorted_win(lives: tuple[int, ...]) -> tuple[float, ...]:
    """:func:`lives_win` for lives in ascending order (seats with equal lives have equal
    chances, so a few thousand such tuples cover every table)."""
    alive = [s for s, n in enumerate(lives) if n]
    if len(alive) == 1:
        return tuple(1.0 if n else 0.0 for n in lives)
    total = [0.0] * len(lives)
    for s in alive:
        after = tuple(n - 1 if i == s else n for i, n in enumerate(lives))
        for i, w in enumerate(lives_win(after)):
            total[i] += w / len(alive)
    return tuple(total)


def after_round(lives: tuple[int, ...], seat: int) -> tuple[float, ...]:
    """Per possible loser of this round (index), ``seat``'s chance to win the game
    afterwards (:func:`lives_win` with that loser's life taken; 0 for a seat out)."""
    out = []
    for loser, n in enumerate(lives):
        after = tuple(k - 1 if i == loser else k for i, k in enumerate(lives)) if n else lives
        out.append(lives_win(after)[seat])
    return tuple(out)
