"""Solved strategies as data: what :mod:`usotsuki.bots.bluff.solved` loads.

One ``.npz`` archive holds every solved round. For round ``NAME`` (``r4-1v2`` ...):

- ``NAME/calls``: the tree's calls in canonical notation, weakest first (``str``);
- ``NAME/hands0``, ``NAME/hands1``: each seat's hands by rank, as rank letters (``"JQ"``);
- ``NAME/nodes{s}``: (k,) uint32, the nodes (bitmasks over ``calls``) where seat ``s``
  acts and its own play reaches with some hand;
- ``NAME/probs{s}``: (k, H_s, m + 1) float16, the average strategy there: column 0
  challenges, column ``1 + j`` makes call ``j`` (0 where illegal).

The exported strategy is the stored one: its exploitability is measured after the
float16 rounding (:func:`strategy_from_arrays`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from usotsuki.research.cfr import Strategy, Tree, _reach, normalise
from usotsuki.research.round import RoundGame

FloatArray = npt.NDArray[np.float64]


def to_arrays(game: RoundGame, s: Strategy, tree: Tree | None = None
              ) -> dict[str, npt.NDArray[Any]]:
    """The archive entries of one solved round (see the module docstring)."""
    tree = tree or Tree.build(game.m)
    name = game.spec.name
    out: dict[str, npt.NDArray[Any]] = {
        f"{name}/calls": np.array([str(c) for c in game.calls]),
        **{f"{name}/hands{seat}": np.array([game.hand_text(seat, i)
                                           for i in range(len(game.hands[seat]))])
           for seat in (0, 1)},
    }
    for seat in (0, 1):
        reach = _reach(tree, s.call[seat])
        nodes = np.flatnonzero((tree.actor == seat) & (reach.max(axis=1) > 1e-12))
        probs = np.zeros((len(nodes), len(game.hands[seat]), game.m + 1))
        probs[:, :, 0] = s.challenge[seat][nodes]
        for j in range(game.m):
            child = nodes + (1 << j)
            legal = (nodes < (1 << j))  # call j is above the node's last call
            probs[legal, :, 1 + j] = s.call[seat][child[legal]]
        out[f"{name}/nodes{seat}"] = nodes.astype(np.uint32)
        out[f"{name}/probs{seat}"] = probs.astype(np.float16)
    return out


def strategy_from_arrays(game: RoundGame, arrays: Mapping[str, npt.NDArray[Any]],
                         tree: Tree | None = None) -> Strategy:
    """The strategy the archive stores, as :class:`Strategy` (uniform where it stores
    nothing: those information states are never reached by the seat's own play)."""
    tree = tree or Tree.build(game.m)
    name = game.spec.name
    calls, chall = [], []
    for seat in (0, 1):
        h = len(game.hands[seat])
        cw = np.zeros((tree.size, h))
        xw = np.zeros((tree.size, h))
        nodes = arrays[f"{name}/nodes{seat}"].astype(np.int64)
        probs = arrays[f"{name}/probs{seat}"].astype(np.float64)
        xw[nodes] = probs[:, :, 0]
        for j in range(game.m):
            legal = nodes < (1 << j)
            cw[nodes[legal] + (1 << j)] = probs[legal, :, 1 + j]
        c, x = normalise(tree, seat, cw, xw)
        calls.append(c)
        chall.append(x)
    return Strategy(calls, chall)
