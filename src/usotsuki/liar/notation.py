"""Liar Game action notation (RULES.md Part 3).

Input is tolerant: case-insensitive, any whitespace (U+3000 included) between tokens,
``10`` for ``T``, suit symbols. Output is canonical. The last two tokens of a play are
always ``as R``, so ``as`` before them is a card, the ace of spades:

>>> format_action(parse_action("PLAY 10h　as 10"))
'play TH as T'
>>> format_action(parse_action("play as as a"))
'play AS as A'
>>> parse_action("play 7H as Z")
Traceback (most recent call last):
...
usotsuki.core.errors.InvalidNotation: 'Z' is not a rank (2-9, T or 10, J, Q, K, A)
"""

from __future__ import annotations

from usotsuki.cards import Card, format_cards, normalize_token, parse_card
from usotsuki.core.errors import InvalidNotation
from usotsuki.liar.actions import (
    ACCEPT,
    DOUBT,
    PASS,
    RATE_NAMES,
    Accept,
    Action,
    Doubt,
    Give,
    Pass,
    Play,
    parse_rate,
)

MAX_GIVE = 2  # O7: the most cards one exchange moves
_SIMPLE: dict[str, Action] = {"PASS": PASS, "DOUBT": DOUBT, "ACCEPT": ACCEPT}


def parse_action(text: str) -> Action:
    """Parse one Liar Game action: ``play C1 [C2 ...] as R``, ``pass``, ``doubt``,
    ``accept`` or ``give C1 [C2]``.

    Legality in a state (cards in hand, rate high enough) is ``apply``'s job, not this.

    :raises InvalidNotation: naming the bad token.
    """
    if not isinstance(text, str):
        raise InvalidNotation(f"an action is text, not {text!r}")
    tokens = text.split()
    if not tokens:
        raise InvalidNotation("empty action (expected play, pass, doubt, accept or give)")
    word = normalize_token(tokens[0])
    if word in _SIMPLE:
        if len(tokens) > 1:
            raise InvalidNotation(f"{tokens[0]!r} takes nothing after it, got {tokens[1]!r}")
        return _SIMPLE[word]
    if word == "PLAY":
        return _parse_play(tokens)
    if word == "GIVE":
        return Give(_parse_cards(tokens[1:], "give", 1, MAX_GIVE))
    raise InvalidNotation(f"{tokens[0]!r} is not an action (play, pass, doubt, accept, give)")


def _parse_play(tokens: list[str]) -> Play:
    if len(tokens) < 4 or normalize_token(tokens[-2]) != "AS":
        raise InvalidNotation("a play is written 'play C1 [C2 ...] as R', "
                              f"got {' '.join(tokens)!r}")
    return Play(_parse_cards(tokens[1:-2], "play", 1, None), parse_rate(tokens[-1]))


def _parse_cards(tokens: list[str], word: str, least: int, most: int | None) -> tuple[Card, ...]:
    if len(tokens) < least or (most is not None and len(tokens) > most):
        bounds = f"{least} to {most}" if most is not None else f"at least {least}"
        raise InvalidNotation(f"{word} names {bounds} cards, got {len(tokens)}")
    cards = tuple(parse_card(t) for t in tokens)
    if len(set(cards)) != len(cards):
        twice = next(t for t, c in zip(tokens, cards, strict=True) if cards.count(c) > 1)
        raise InvalidNotation(f"{word} names the card {twice!r} twice")
    return cards


def format_action(action: Action) -> str:
    """The canonical text of an action (Part 3): lower-case words, canonical cards."""
    if isinstance(action, Play):
        return f"play {format_cards(action.cards)} as {RATE_NAMES[action.rate]}"
    if isinstance(action, Give):
        return f"give {format_cards(action.cards)}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Doubt):
        return "doubt"
    if isinstance(action, Accept):
        return "accept"
    raise TypeError(f"not a Liar Game action: {action!r}")
