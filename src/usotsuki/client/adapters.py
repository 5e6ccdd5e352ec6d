"""Policies written for something else, played at a server's seat (``play``'s ``Policy``).

- :func:`env_policy`: a policy of the research environments' spaces (Gymnasium's
  ``usotsuki/Bluff-v0``/``Liar-v0``, PettingZoo's ``bluff_v0``/``liar_v0``): an
  observation vector and an action mask in, an action id out. The seat's view is read
  back into the core's view (:mod:`usotsuki.envs.views`) and encoded by the
  environments' own codecs, so the policy sees at the server exactly what it saw in
  training; a Liar Game play or give is made id by id (selects, then the completing
  id) as in the environments, and sent as one action.
- :func:`bot_policy`: a bot of the package's protocol (:class:`usotsuki.bots.base.Bot`,
  ``act(view, legal, rng)``) on the core's view and legal actions.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from usotsuki import bluff, liar
from usotsuki.cards import Card
from usotsuki.client.errors import PolicyError
from usotsuki.client.play import Policy, Turn
from usotsuki.envs import liar_codec
from usotsuki.envs.bluff_codec import BluffCodec
from usotsuki.envs.liar_codec import LiarCodec
from usotsuki.envs.views import AnyView, legal_summary, view_from_json

Observation = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]


class EnvPolicy(Protocol):
    """A policy of the environments' spaces: ``observation`` (float32, the codec's
    vector) and ``action_mask`` (int8, 1 for each legal id) in, an action id out."""

    def __call__(self, observation: Observation, action_mask: Mask) -> int: ...


class EnvSeat:
    """The environments' codec of the game a view belongs to, made once per game's
    options: ``observation`` and ``legal_ids`` of a view (``selected``: the Liar Game's
    cards put aside for a play or give in progress)."""

    def __init__(self) -> None:
        self._bluff: dict[tuple[int, int, int], BluffCodec] = {}
        self._liar: dict[tuple[int, int | None], LiarCodec] = {}

    def observation(self, view: AnyView, selected: tuple[Card, ...] = ()) -> Observation:
        if isinstance(view, bluff.BluffView):
            return self.bluff_codec(view).observation(view)
        return self.liar_codec(view).observation(view, selected)

    def bluff_codec(self, view: bluff.BluffView) -> BluffCodec:
        key = (view.players, view.max_cards, view.ranks)
        codec = self._bluff.get(key)
        if codec is None:
            rules = bluff.BluffRules(players=view.players, max_cards=view.max_cards,
                                     ranks=view.ranks)
            codec = self._bluff[key] = BluffCodec(rules)
        return codec

    def liar_codec(self, view: liar.LiarView) -> LiarCodec:
        key = (view.rules.players, view.rules.turn_limit)
        codec = self._liar.get(key)
        if codec is None:
            codec = self._liar[key] = LiarCodec(*key)
        return codec

    def mask(self, size: int, ids: list[int]) -> Mask:
        mask = np.zeros(size, np.int8)
        mask[ids] = 1
        return mask


def env_policy(policy: EnvPolicy) -> Policy:
    """``play``'s policy from an environments' policy (Bluff or the Liar Game, any
    options: the codec follows the table's)."""
    seat = EnvSeat()

    def act(turn: Turn) -> str:
        view = view_from_json(turn.view)
        if isinstance(view, bluff.BluffView):
            codec = seat.bluff_codec(view)
            legal = [codec.action_id(bluff.parse_action(t)) for t in turn.legal]
            chosen = _choose(policy, codec.observation(view),
                             seat.mask(codec.num_actions, legal), legal)
            return bluff.format_action(codec.action(chosen))
        return _liar_action(policy, seat, view)

    return act


def _liar_action(policy: EnvPolicy, seat: EnvSeat, view: liar.LiarView) -> str:
    """One Liar Game action, id by id: a ``select`` puts a card aside and the same
    seat chooses again, until an id completes the action."""
    codec = seat.liar_codec(view)
    selected: tuple[Card, ...] = ()
    while True:
        legal = liar_codec.view_legal_ids(view, selected)
        chosen = _choose(policy, codec.observation(view, selected),
                         seat.mask(liar_codec.NUM_ACTIONS, legal), legal)
        decoded = liar_codec.decode(chosen, selected)
        if isinstance(decoded, Card):
            selected = (*selected, decoded)
            continue
        return liar.format_action(decoded)


def _choose(policy: EnvPolicy, observation: Observation, mask: Mask, legal: list[int]) -> int:
    if not legal:
        raise PolicyError("the seat has no legal action to choose from")
    chosen = int(policy(observation, mask))
    if chosen not in legal:
        raise PolicyError(f"the policy chose action id {chosen}, not a legal one "
                          f"({len(legal)} were legal; the action_mask marks them)")
    return chosen


def bot_policy(bot: Any, rng: random.Random | None = None) -> Policy:
    """``play``'s policy from a bot of the package's protocol: ``bot.act(view, legal,
    rng)`` with the core's view, the legal actions (Bluff: a list; the Liar Game: its
    ``LegalSummary``) and ``rng`` (default: a fresh generator)."""
    generator = rng or random.Random()

    def act(turn: Turn) -> str:
        view = view_from_json(turn.view)
        if isinstance(view, bluff.BluffView):
            legal: Any = [bluff.parse_action(t) for t in turn.legal]
            return bluff.format_action(bot.act(view, legal, generator))
        return liar.format_action(bot.act(view, legal_summary(turn.legal), generator))

    return act
