"""The CFR+ solver on heads-up Bluff rounds (issue 14.6): the pruning theorem of
``usotsuki.research.round``, convergence, and OpenSpiel's exploitability of the same
strategies on the same game (driven by the core)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from usotsuki.bluff import calls_for
from usotsuki.research import spiel
from usotsuki.research.cfr import (
    CFRPlus,
    Strategy,
    Tree,
    _reach,
    exploitability,
    game_value,
    normalise,
    uniform,
)
from usotsuki.research.export import strategy_from_arrays, to_arrays, write_archive
from usotsuki.research.round import RoundGame, RoundSpec


def solved(spec: RoundSpec, target: float = 1e-5) -> tuple[RoundGame, Strategy]:
    game = RoundGame(spec)
    solver = CFRPlus(game)
    solver.solve(target=target, max_iterations=4000)
    return game, solver.average()


def extend(pruned: RoundGame, s: Strategy, full: RoundGame) -> Strategy:
    """The pruned strategy in the full tree: never make a call the pruned tree lacks
    (it cannot be true), always challenge one."""
    t_full = Tree.build(full.m)
    out = uniform(full, t_full)
    position = [pruned.call_position(c) for c in full.calls]
    for node in range(t_full.size):
        bits = [j for j in range(full.m) if node >> j & 1]
        if any(position[j] is None for j in bits):
            seat = int(t_full.actor[node])
            out.challenge[seat][node] = 1.0  # facing an impossible call: challenge (B9)
            for j in range(full.m):
                if node < 1 << j:
                    out.call[seat][node | 1 << j] = 0.0
            continue
        small = sum(1 << position[j] for j in bits)  # type: ignore[misc]
        for seat in (0, 1):
            out.challenge[seat][node] = s.challenge[seat][small]
            for j in range(full.m):
                if node < 1 << j and t_full.actor[node] == seat:
                    p = position[j]
                    out.call[seat][node | 1 << j] = 0.0 if p is None else \
                        s.call[seat][small | 1 << p]
    return out


@pytest.mark.parametrize("sizes", [(1, 1), (1, 2)])
def test_pruning_impossible_calls_changes_neither_value_nor_exploitability(
        sizes: tuple[int, int]) -> None:
    """ranks 2 (K, A): 11 calls, of which 4 (1 v 1) or 6 (1 v 2) can be true."""
    pruned, s = solved(RoundSpec(2, sizes), target=2e-5)
    full, s_full = solved(RoundSpec(2, sizes, prune=False), target=2e-5)
    assert full.m == len(calls_for(2)) == 11 and pruned.m == (4 if sizes == (1, 1) else 6)
    # The same value, solved both ways (each to exploitability below 2e-5).
    assert game_value(pruned, s) == pytest.approx(game_value(full, s_full), abs=1e-4)
    # The same exploitability of the same strategy in both games.
    e_pruned = exploitability(pruned, s)[0]
    assert exploitability(full, extend(pruned, s, full))[0] == pytest.approx(e_pruned, abs=1e-12)
    # And for a strategy far from optimal (uniform play), too.
    u = uniform(pruned, Tree.build(pruned.m))
    e_u = exploitability(pruned, u)[0]
    assert e_u > 0.3
    assert exploitability(full, extend(pruned, u, full))[0] == pytest.approx(e_u, abs=1e-12)


def test_tree_sizes() -> None:
    assert RoundGame(RoundSpec(4, (1, 1))).m == 8  # card, pair of J Q K A
    assert RoundGame(RoundSpec(4, (1, 2))).m == 12  # and three
    assert RoundGame(RoundSpec(6, (1, 2))).m == 18
    assert len(calls_for(4)) == 34  # unpruned: 2^34 call sequences


def test_chance_is_a_distribution_and_truth_comes_from_the_core() -> None:
    g = RoundGame(RoundSpec(4, (1, 2)))
    assert g.chance.sum() == pytest.approx(1.0)
    # Two of one rank and one more: three of that rank is true only then (B8).
    three_a = next(k for k, c in enumerate(g.calls) if str(c) == "three A")
    i = g.hands[0].index((12,))
    j = g.hands[1].index((12, 12))
    assert g.truth[three_a, i, j]
    assert not g.truth[three_a, g.hands[0].index((11,)), j]


def test_cfr_plus_converges_below_a_thousandth() -> None:
    game = RoundGame(RoundSpec(4, (1, 1)))
    history = CFRPlus(game).solve(target=1e-3, max_iterations=2000)
    assert history[-1].exploitability < 1e-3
    assert history[0].exploitability > 10 * history[-1].exploitability


def test_export_round_trip_keeps_the_strategy() -> None:
    game, s = solved(RoundSpec(3, (1, 1)), target=1e-4)
    stored = strategy_from_arrays(game, to_arrays(game, s))
    assert exploitability(game, stored)[0] == pytest.approx(exploitability(game, s)[0],
                                                            abs=2e-4)


def test_float32_work_arrays_converge_like_float64() -> None:
    # Rounding moves regret matching's path (a regret at 0 or just above it changes the
    # strategy), not where it goes: the same target in about as many iterations, the
    # same value.
    game = RoundGame(RoundSpec(4, (1, 2)))
    runs = [CFRPlus(game, dtype=dtype) for dtype in (np.float64, np.float32)]
    ends = [run.solve(target=1e-3, max_iterations=1000)[-1] for run in runs]
    assert all(end.exploitability < 1e-3 for end in ends)
    assert ends[1].iterations <= 1.5 * ends[0].iterations
    narrow = runs[1].average()
    assert narrow.call[0].dtype == np.float64  # averages and measures are float64
    assert game_value(game, narrow) == pytest.approx(game_value(game, runs[0].average()),
                                                     abs=2e-3)


def test_weights_below_the_smallest_float32_play_uniformly_not_nan() -> None:
    # Deep in a large tree float32 regrets reach subnormal numbers, whose reciprocal
    # overflows: such a node plays uniformly.
    tree = Tree.build(3)
    call_w = np.zeros((tree.size, 2), dtype=np.float32)
    chall_w = np.zeros_like(call_w)
    call_w[0b011, 0] = 1e-41  # seat 1 acts at 0b001; its call 1 into 0b011
    chall_w[0b001, 0] = 1e-42
    call, ch = normalise(tree, 1, call_w, chall_w)
    assert np.isfinite(call).all() and np.isfinite(ch).all()
    assert ch[0b001, 0] == pytest.approx(1 / 3) and call[0b011, 0] == pytest.approx(1 / 3)


def test_the_stored_strategy_is_sparse_and_never_leaves_what_it_stores() -> None:
    game, s = solved(RoundSpec(4, (2, 1)), target=2e-4)
    tree = Tree.build(game.m)
    arrays = to_arrays(game, s, tree, min_prob=1e-3)
    stored = strategy_from_arrays(game, arrays, tree)
    for seat in (0, 1):
        h = len(game.hands[seat])
        start = arrays[f"r4-2v1/start{seat}"].astype(np.int64)
        probs = arrays[f"r4-2v1/prob{seat}"]
        assert probs.dtype == np.uint16 and probs.min() >= 1e-3 * 65535 - 1
        rows = np.diff(start).reshape(-1, h) > 0  # (stored node, hand): something stored
        # Where the stored strategy's own play goes, and only there, something is stored.
        reach = _reach(tree, stored.call[seat])
        nodes = arrays[f"r4-2v1/nodes{seat}"].astype(np.int64)
        assert np.array_equal(rows, reach[nodes] > 0)
        acting = np.flatnonzero(tree.actor == seat)
        assert not (reach[np.setdiff1d(acting, nodes)] > 0).any()
        # Fewer entries than the legal actions of every stored state.
        assert len(probs) < 0.5 * rows.sum() * (game.m + 1)
    # Dropping actions below 1e-3 and quantising keep it close to an equilibrium.
    assert exploitability(game, stored, tree)[0] < 1e-3


def test_an_archive_keeps_the_rounds_it_is_not_given(tmp_path: Path) -> None:
    path = tmp_path / "solved.npz"
    for spec in (RoundSpec(2, (1, 1)), RoundSpec(3, (1, 1)), RoundSpec(2, (1, 1))):
        game = RoundGame(spec)
        write_archive(path, to_arrays(game, uniform(game, Tree.build(game.m))))
    with np.load(path) as archive:
        assert {k.split("/")[0] for k in archive.files} == {"r2-1v1", "r3-1v1"}


def test_openspiel_agrees_on_exploitability() -> None:
    """OpenSpiel's best responses, on the round as an OpenSpiel game run by the core."""
    spec = RoundSpec(2, (1, 1))
    game = RoundGame(spec)
    solver = CFRPlus(game)
    solver.iterate(20)  # not yet converged: a strategy with something to exploit
    s = solver.average()
    mine = exploitability(game, s)[0]
    assert mine > 1e-3
    assert spiel.exploitability(spec, game, s) == pytest.approx(mine, abs=1e-9)


def test_the_envs_openspiel_game_agrees_too() -> None:
    """The same check on the project's ``python_usotsuki_bluff`` (``round``,
    ``drop_impossible``). (Unpruned, OpenSpiel's Python best response walks 2^11 call
    sequences per deal: docs/solver.md gives that check's figure.)"""
    prune = True
    spec = RoundSpec(2, (1, 1))
    game = RoundGame(spec)
    solver = CFRPlus(game)
    solver.iterate(10)
    s = solver.average()
    theirs = spiel.exploitability(RoundSpec(2, (1, 1), prune=prune), game, s, envs=True)
    assert theirs == pytest.approx(exploitability(game, s)[0], abs=1e-9)
