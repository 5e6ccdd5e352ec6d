"""The Bot protocol and the registry of bots by game and name."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from usotsuki import bluff, liar

V_contra = TypeVar("V_contra", contravariant=True)
L_contra = TypeVar("L_contra", contravariant=True)
A_co = TypeVar("A_co", covariant=True)


class Bot(Protocol[V_contra, L_contra, A_co]):
    """Anything that picks an action from a seat's view: bots, and people behind a UI.

    Generic over the view, the ``legal`` type and the action, as a session's ``view`` and
    ``legal`` give them (:mod:`usotsuki.session`): see :data:`BluffBot` and
    :data:`LiarBot`.
    """

    name: str

    def act(self, view: V_contra, legal: L_contra, rng: random.Random) -> A_co:
        """Choose a legal action (never anything else) from what ``view`` shows.

        ``legal`` is, for Bluff, the sequence of legal actions; for the Liar Game, whose
        multi-card plays are too many to list, its ``LegalSummary`` (counts and rates).
        """
        ...


BluffBot = Bot[bluff.BluffView, Sequence[bluff.Action], bluff.Action]
LiarBot = Bot[liar.LiarView, liar.LegalSummary, liar.Action]
AnyBot = Bot[Any, Any, Any]
"""A bot of either game, as the registry hands them out by name."""


class RandomBot:
    """Uniformly random among the legal actions: a baseline, and a fuzzer of the rules."""

    name = "random"

    def act(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        return legal[rng.randrange(len(legal))]


@cache
def _registry() -> Mapping[str, Mapping[str, Callable[[], AnyBot]]]:
    """Every bot by game and name, built once on first use (the imports are deferred: the
    bots import the game modules, which may import this one)."""
    from usotsuki.bots.bluff.expert_v1 import ExpertV1BluffBot
    from usotsuki.bots.bluff.levels import (
        CautiousBluffBot,
        EasyBluffBot,
        ExpertBluffBot,
        HardBluffBot,
        NormalBluffBot,
    )
    from usotsuki.bots.exploit import exploiters
    from usotsuki.bots.liar.levels import LEVELS as LIAR_LEVELS
    from usotsuki.bots.liar.levels import OLD_LEVELS as LIAR_OLD_LEVELS
    from usotsuki.bots.liar.random_play import RandomLiarBot
    from usotsuki.bots.liar.sensible import SensibleLiarBot

    bluff_bots: dict[str, Callable[[], AnyBot]] = {
        "random": RandomBot, "cautious": CautiousBluffBot, "easy": EasyBluffBot,
        "normal": NormalBluffBot, "hard": HardBluffBot, "expert": ExpertBluffBot,
        "expert-v1": ExpertV1BluffBot}
    liar_bots: dict[str, Callable[[], AnyBot]] = {
        "random": RandomLiarBot, "sensible": SensibleLiarBot, **LIAR_LEVELS,
        **LIAR_OLD_LEVELS}
    for game, bots in (("bluff", bluff_bots), ("liar", liar_bots)):
        for x in exploiters(game):  # hidden from players: see usotsuki.bots.exploit
            bots[x.name] = x.make
    return MappingProxyType({"bluff": MappingProxyType(bluff_bots),
                             "liar": MappingProxyType(liar_bots)})


def bot_names(game: str, *, hidden: bool = False) -> list[str]:
    """The bot names offered to players for ``game`` ("bluff" or "liar"); with
    ``hidden``, also the exploiters and comparison bots (:mod:`usotsuki.bots.exploit`)
    that tournaments run by name."""
    from usotsuki.bots.exploit import is_hidden

    return [n for n in _registry().get(game, {}) if hidden or not is_hidden(n)]


def make_bot(game: str, name: str) -> AnyBot:
    """A new bot of this name for this game.

    :raises ValueError: for an unknown name, listing the known ones.
    """
    bots = _registry().get(game, {})
    if name not in bots:
        raise ValueError(unknown_bot(game, name))
    return bots[name]()


def unknown_bot(game: str, name: str) -> str:
    """The message for a bot name that is none: the levels offered to players (never the
    hidden ones, which are for tournaments) and the closest name, if one is close."""
    import difflib

    public = bot_names(game)
    close = difflib.get_close_matches(name.lower(), bot_names(game, hidden=True), n=1,
                                      cutoff=0.6)
    mean = f"; did you mean {close[0]!r}?" if close else ""
    return f"unknown {game} bot {name!r}{mean} (known: {', '.join(public) or 'none'})"
