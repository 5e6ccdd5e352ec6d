"""Bluff's notation (RULES.md Part 3): tolerant input, canonical output.

>>> str(parse_action("  Two-Pair a 10 "))
'two-pair A T'
>>> format_action(parse_action("straight-flush 10 ♠"))
'straight-flush T S'
"""

from __future__ import annotations

from usotsuki.bluff.actions import (
    CHALLENGE,
    LOWEST_STRAIGHT_TOP,
    Action,
    CallKind,
    make_call,
)
from usotsuki.cards import RANKS, normalize_token, parse_rank, parse_suit
from usotsuki.core.errors import InvalidNotation

_KINDS = {kind.word.upper(): kind for kind in CallKind}
_ARITY = {kind: 1 for kind in CallKind} | {CallKind.TWO_PAIR: 2, CallKind.FULL_HOUSE: 2,
                                          CallKind.STRAIGHT_FLUSH: 2}


def parse_action(text: str) -> Action:
    """Parse a call or ``challenge``; case-insensitive, any whitespace between tokens.

    :raises InvalidNotation: naming the bad token.
    """
    if not isinstance(text, str):
        raise InvalidNotation(f"an action is text, not {text!r}")
    tokens = text.split()
    if not tokens:
        raise InvalidNotation("empty action (try e.g. 'pair A' or 'challenge')")
    word = normalize_token(tokens[0])
    if word == "CHALLENGE":
        if len(tokens) > 1:
            raise InvalidNotation(f"'challenge' takes nothing after it, not {tokens[1]!r}")
        return CHALLENGE
    kind = _KINDS.get(word)
    if kind is None:
        raise InvalidNotation(
            f"{tokens[0]!r} is not a call type (card, pair, two-pair, three, full-house, "
            "four, straight-flush) or 'challenge'")
    args = tokens[1:]
    if len(args) != _ARITY[kind]:
        raise InvalidNotation(f"'{kind.word}' takes {_usage(kind)}, got {text.strip()!r}")
    if kind is CallKind.STRAIGHT_FLUSH:
        top, suit = parse_rank(args[0]), parse_suit(args[1])
        if top < LOWEST_STRAIGHT_TOP:
            raise InvalidNotation(
                f"no straight flush has top {RANKS[top]}: tops run from 5 to A (B6)")
        return make_call(kind, (top,), suit)
    ranks = tuple(parse_rank(a) for a in args)
    if kind is CallKind.TWO_PAIR:
        if ranks[0] == ranks[1]:
            raise InvalidNotation(f"two-pair needs two different ranks, not {args[0]} twice")
        ranks = (max(ranks), min(ranks))  # Part 3: input in either order
    elif kind is CallKind.FULL_HOUSE and ranks[0] == ranks[1]:
        raise InvalidNotation(f"full-house needs two different ranks, not {args[0]} twice")
    return make_call(kind, ranks)


def _usage(kind: CallKind) -> str:
    # examples of the highest ranks: they are in every deck (B13 keeps the highest)
    if kind is CallKind.STRAIGHT_FLUSH:
        return "a top rank and a suit, e.g. 'straight-flush A S'"
    if kind is CallKind.TWO_PAIR:
        return "two ranks, e.g. 'two-pair A K'"
    if kind is CallKind.FULL_HOUSE:
        return "the three's rank then the pair's, e.g. 'full-house A K'"
    return f"one rank, e.g. '{kind.word} A'"


def format_action(action: Action) -> str:
    """The canonical text of an action (Part 3)."""
    return str(action)
