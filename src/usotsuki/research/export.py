"""Solved strategies as data: what :mod:`usotsuki.bots.bluff.solved` loads.

One ``.npz`` archive holds every solved round. For round ``NAME`` (``r4-1v2`` ...):

- ``NAME/calls``: the tree's calls in canonical notation, weakest first (``str``);
- ``NAME/hands0``, ``NAME/hands1``: each seat's hands by rank, as rank letters (``"JQ"``);
- ``NAME/nodes{s}``: (k,) uint32, ascending: the nodes (bitmasks over ``calls``) where
  seat ``s`` acts and its own play reaches with some hand;
- ``NAME/start{s}``: (k * H_s + 1,) uint32: the strategy at node ``nodes[i]`` with hand
  ``h`` is entries ``start[r]:start[r + 1]`` of the two arrays below, ``r = i * H_s + h``
  (none: that hand's own play does not reach the node);
- ``NAME/action{s}``: uint8, 0 challenges, ``1 + j`` makes call ``j``;
- ``NAME/prob{s}``: uint16, the action's probability times 65535, rounded (a reader
  divides by the entries' sum).

Actions of probability below ``min_prob`` are dropped (the rest scaled up), and only
what the seat's own play then reaches is stored: the archive stays small where the tree is
large, and a player who follows the stored strategy never leaves it. The exported strategy
is the stored one: its exploitability is measured on :func:`strategy_from_arrays`
(uniform play where nothing is stored: places the seat's own play never reaches, which
change no payoff).

    python -m usotsuki.research.export --raw DIR --rounds r4-2v2,... --data ARCHIVE
        [--min-prob 1e-3] [--results docs/solver/results.json]

puts those rounds into the archive (keeping its other rounds) from the float32 strategies
``solve --raw DIR`` saved, measures each stored strategy's exploitability and records it
(and the round's compressed size) in the results.
"""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from usotsuki.research.cfr import Strategy, Tree, _reach, exploitability, normalise
from usotsuki.research.round import RoundGame

FloatArray = npt.NDArray[np.float64]
QUANTUM = 65535
MIN_PROB = 1e-3  # actions less likely than this are not stored
_CHUNK = 1 << 15  # nodes per block of the dense (nodes, hands, actions) table


def to_arrays(game: RoundGame, s: Strategy, tree: Tree | None = None,
              min_prob: float = MIN_PROB) -> dict[str, npt.NDArray[Any]]:
    """The archive entries of one solved round (see the module docstring)."""
    tree = tree or Tree.build(game.m)
    name = game.spec.name
    out: dict[str, npt.NDArray[Any]] = {
        f"{name}/calls": np.array([str(c) for c in game.calls]),
        **{f"{name}/hands{seat}": np.array([game.hand_text(seat, i)
                                           for i in range(len(game.hands[seat]))])
           for seat in (0, 1)},
    }
    kept = purified(tree, s, min_prob)
    for seat in (0, 1):
        reach = _reach(tree, kept.call[seat])
        nodes = np.flatnonzero((tree.actor == seat) & (reach.max(axis=1) > 0.0))
        counts, actions, probs = [], [], []
        for first in range(0, len(nodes), _CHUNK):
            part = nodes[first:first + _CHUNK]
            table = _dense(game, tree, kept, seat, part)
            table[reach[part] <= 0.0] = 0.0  # a hand whose own play never gets here
            q = np.rint(table * QUANTUM).astype(np.uint16)
            stored = q > 0
            counts.append(stored.sum(axis=2).ravel())
            actions.append(np.nonzero(stored)[2].astype(np.uint8))
            probs.append(q[stored])
        start = np.zeros(len(nodes) * len(game.hands[seat]) + 1, dtype=np.uint32)
        if counts:
            np.cumsum(np.concatenate(counts), out=start[1:])
        out[f"{name}/nodes{seat}"] = nodes.astype(np.uint32)
        out[f"{name}/start{seat}"] = start
        out[f"{name}/action{seat}"] = np.concatenate(actions) if actions else \
            np.zeros(0, np.uint8)
        out[f"{name}/prob{seat}"] = np.concatenate(probs) if probs else np.zeros(0, np.uint16)
    return out


def purified(tree: Tree, s: Strategy, min_prob: float) -> Strategy:
    """``s`` without its actions of probability below ``min_prob`` (the rest scaled up)."""
    calls, chall = [], []
    for seat in (0, 1):
        c, x = normalise(tree, seat, np.where(s.call[seat] < min_prob, 0.0, s.call[seat]),
                         np.where(s.challenge[seat] < min_prob, 0.0, s.challenge[seat]))
        calls.append(c)
        chall.append(x)
    return Strategy(calls, chall)


def _dense(game: RoundGame, tree: Tree, s: Strategy, seat: int, nodes: npt.NDArray[Any]
           ) -> FloatArray:
    """(len(nodes), H, m + 1): the strategy at ``nodes``, challenge first (0 if illegal)."""
    table = np.zeros((len(nodes), len(game.hands[seat]), game.m + 1))
    table[:, :, 0] = s.challenge[seat][nodes]
    for j in range(game.m):
        legal = nodes < (1 << j)  # call j is above the node's last call
        table[legal, :, 1 + j] = s.call[seat][nodes[legal] + (1 << j)]
    return table


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
        start = arrays[f"{name}/start{seat}"].astype(np.int64)
        action = arrays[f"{name}/action{seat}"].astype(np.int64)
        prob = arrays[f"{name}/prob{seat}"].astype(np.float64)
        row = np.repeat(np.arange(len(start) - 1), np.diff(start))
        node, hand = nodes[row // h], row % h
        is_call = action > 0
        xw[node[~is_call], hand[~is_call]] = prob[~is_call]
        cw[node[is_call] + (1 << (action[is_call] - 1)), hand[is_call]] = prob[is_call]
        c, x = normalise(tree, seat, cw, xw)
        calls.append(c)
        chall.append(x)
    return Strategy(calls, chall)


def load_raw(path: Path) -> Strategy:
    """A strategy ``solve --raw`` saved (float32), in float64."""
    with np.load(path) as f:
        return Strategy([f[f"call{s}"].astype(np.float64) for s in (0, 1)],
                        [f[f"challenge{s}"].astype(np.float64) for s in (0, 1)])


def archive_bytes(arrays: dict[str, Any]) -> int:
    """How many bytes ``arrays`` take in a compressed ``.npz``."""
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getbuffer().nbytes


def write_archive(path: Path, arrays: dict[str, Any]) -> None:
    """Put one round's entries into the archive at ``path``, keeping the other rounds'."""
    names = {key.split("/")[0] for key in arrays}
    kept: dict[str, Any] = {}
    if path.exists():
        with np.load(path) as old:
            kept = {k: old[k] for k in old.files if k.split("/")[0] not in names}
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial.npz")  # a reader never sees half of it
    np.savez_compressed(partial, **kept, **arrays)
    partial.replace(path)


def main(argv: list[str] | None = None) -> int:
    from usotsuki.research.solve import parse_game

    parser = argparse.ArgumentParser(description="Build the shipped archive of solved "
                                                  "strategies from solve --raw's.")
    parser.add_argument("--raw", type=Path, required=True)
    parser.add_argument("--rounds", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--min-prob", type=float, default=MIN_PROB)
    parser.add_argument("--results", type=Path, default=None,
                        help="record each stored strategy's exploitability in this "
                             "results.json (rows by round name)")
    args = parser.parse_args(argv)
    measured = {}
    for name in args.rounds.split(","):
        game = RoundGame(parse_game(name))
        tree = Tree.build(game.m)
        entries = to_arrays(game, load_raw(args.raw / f"{name}.npz"), tree, args.min_prob)
        e = exploitability(game, strategy_from_arrays(game, entries, tree), tree)[0]
        size = archive_bytes(entries)
        measured[name] = {"exploitability_stored": e, "stored_bytes": size,
                          "stored_min_prob": args.min_prob}
        write_archive(args.data, entries)
        print(f"{name}: stored exploitability {e:.2e}, {size:,} bytes compressed",
              flush=True)
    if args.results is not None:
        rows = json.loads(args.results.read_text())
        for row in rows:
            row.update(measured.get(row["game"], {}))
        args.results.write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
