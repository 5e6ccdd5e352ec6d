"""The learning baselines (usotsuki.research.baselines): exact best responses, PSRO's
meta-game and mixtures, magnetic mirror descent, the numpy network's gradients and the
self-play PPO trainer: each runs, learns, and replays with its seed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from usotsuki.research.baselines import bluff_ppo, curve, mmd, psro
from usotsuki.research.baselines.bluff_ppo import LearnedBluffBot, Settings, Trainer
from usotsuki.research.baselines.mlp import MLP
from usotsuki.research.cfr import (
    Tree,
    best_response,
    exploitability,
    game_value,
    uniform,
)
from usotsuki.research.evaluate import level_result, round_result
from usotsuki.research.round import RoundGame
from usotsuki.research.solve import parse_game


def _round(name: str) -> tuple[RoundGame, Tree]:
    game = RoundGame(parse_game(name))
    return game, Tree.build(game.m)


def _figures(c: curve.Curve) -> list[tuple[int, float]]:
    return [(p.iteration, p.exploitability) for p in c.points]  # the times vary


def _uniform_exploitability(name: str) -> float:
    game, tree = _round(name)
    return exploitability(game, uniform(game, tree), tree)[0]


@pytest.mark.parametrize("name", ["r4-1v1", "r4-2v1"])
def test_best_response_earns_the_best_response_value(name: str) -> None:
    game, tree = _round(name)
    s = uniform(game, tree)
    _, br0, br1 = exploitability(game, s, tree)
    for seat, target in ((0, br0), (1, br1)):
        call, chall = best_response(game, tree, s, seat)
        played = s.copy()
        played.call[seat], played.challenge[seat] = call, chall
        value = game_value(game, played, tree)
        assert (value if seat == 0 else -value) == pytest.approx(target, abs=1e-12)
        assert set(np.unique(np.r_[call.ravel(), chall.ravel()])) <= {0.0, 1.0}  # pure


def test_meta_nash_solves_rock_paper_scissors_and_a_dominated_game() -> None:
    rps = np.array([[0.0, -1.0, 1.0], [1.0, 0.0, -1.0], [-1.0, 1.0, 0.0]])
    x, y = psro.meta_nash(rps)
    assert x == pytest.approx([1 / 3] * 3, abs=1e-9)
    assert y == pytest.approx([1 / 3] * 3, abs=1e-9)
    x, y = psro.meta_nash(np.array([[1.0, 2.0], [0.0, 3.0]]))  # row 0 is safe; column 0 best
    assert x == pytest.approx([1.0, 0.0]) and y == pytest.approx([1.0, 0.0])


def test_a_mixture_pays_the_mixed_payoff() -> None:
    """Kuhn's theorem: the behaviour mixture pays what the mixed strategy pays."""
    game, tree = _round("r4-1v2")
    u = uniform(game, tree)
    members = [best_response(game, tree, u, 0), (u.call[0], u.challenge[0])]
    weights = np.array([0.3, 0.7])
    mixed = psro.mixture(tree, 0, [psro.Member.of(tree, m) for m in members], weights)
    opponent = (u.call[1], u.challenge[1])
    parts = [game_value(game, psro.profile(m, opponent), tree) for m in members]
    assert game_value(game, psro.profile(mixed, opponent), tree) == pytest.approx(
        float(weights @ parts), abs=1e-12)


@pytest.mark.parametrize("name", ["r4-1v2", "r4-2v1"])
def test_the_meta_game_holds_the_exact_payoffs(name: str) -> None:
    game, tree = _round(name)
    u = uniform(game, tree)
    firsts = [(u.call[0], u.challenge[0]), best_response(game, tree, u, 0)]
    seconds = [(u.call[1], u.challenge[1]), best_response(game, tree, u, 1)]
    meta = psro.MetaGame(game, tree)
    for a, b in zip(firsts, seconds, strict=True):
        meta.add(a, b)
    for i, a in enumerate(firsts):
        for k, b in enumerate(seconds):
            assert meta.payoff[i, k] == pytest.approx(
                game_value(game, psro.profile(a, b), tree), abs=1e-12)


def test_psro_learns_and_replays() -> None:
    first, policy = psro.train("r4-1v1", iterations=8)
    again, _ = psro.train("r4-1v1", iterations=8)
    assert _figures(first) == _figures(again)  # no randomness: the same curve
    assert first.final.exploitability < 0.5 * _uniform_exploitability("r4-1v1")
    # the project's evaluation protocol measures the same figure on the learned policy
    measured = round_result("r4-1v1", {"r4-1v1": policy})
    assert measured.exploitability == pytest.approx(first.final.exploitability, abs=1e-12)


def test_psro_reaches_an_equilibrium_of_r4_1v1() -> None:
    result, _ = psro.train("r4-1v1", iterations=200)
    assert result.final.exploitability < 1e-9
    assert result.final.iteration < 200  # it stops once no best response gains


def test_mmd_learns_and_replays() -> None:
    first, policy = mmd.train("r4-1v2", iterations=40)
    again, _ = mmd.train("r4-1v2", iterations=40)
    assert _figures(first) == _figures(again)
    assert first.final.exploitability < 0.2 * _uniform_exploitability("r4-1v2")
    measured = round_result("r4-1v2", {"r4-1v2": policy})
    assert measured.exploitability == pytest.approx(first.final.exploitability, abs=1e-12)


def test_mmd_softmax_is_a_legal_distribution() -> None:
    game, tree = _round("r4-1v1")
    rng = np.random.default_rng(0)
    for seat in (0, 1):
        shape = (tree.size, len(game.hands[seat]))
        call, chall = mmd.softmax(tree, seat, rng.normal(size=shape) * 5,
                                  rng.normal(size=shape) * 5)
        s = uniform(game, tree)
        s.call[seat], s.challenge[seat] = call, chall
        acting = tree.actor == seat
        total = chall + tree.sum_children(np.where((tree.actor != seat)[:, None], call, 0.0))
        assert total[acting] == pytest.approx(1.0)
        if seat == 0:
            assert (chall[0] == 0).all()  # B5: no challenge before the first call


def test_round_commands_write_curves_and_a_plot(tmp_path: Path) -> None:
    out, png = tmp_path / "c.json", tmp_path / "c.png"
    assert psro.main(["--rounds", "r4-1v1", "--iterations", "4", "--out", str(out)]) == 0
    assert mmd.main(["--rounds", "r4-1v1", "--iterations", "4", "--out",
                     str(tmp_path / "m.json")]) == 0
    assert curve.main([str(out), str(tmp_path / "m.json"), "--plot", str(png)]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [c.method for c in curve.load(out)] == ["PSRO"]
    assert psro.main(["--rounds", "r9-1v1"]) == 2  # not a solved round: an error, no crash
    assert mmd.main(["--rounds", "r4-1v1", "--iterations", "0"]) == 2


def test_mlp_gradients_match_finite_differences() -> None:
    net = MLP.create(inputs=5, actions=4, hidden=6, seed=1)
    for k in net.params:
        net.params[k] = net.params[k].astype(np.float64)
    rng = np.random.default_rng(2)
    x = rng.normal(size=(3, 5))
    mask = np.array([[1, 1, 0, 1], [0, 1, 1, 1], [1, 0, 0, 1]], dtype=bool)
    action, target = np.array([0, 2, 3]), rng.normal(size=3)

    def loss() -> float:
        f = net.forward(x, mask)
        return float(-np.log(f.probs[np.arange(3), action]).sum()
                     + ((f.value - target) ** 2).sum())

    f = net.forward(x, mask)
    onehot = np.zeros_like(f.probs)
    onehot[np.arange(3), action] = 1.0
    grads = net.backward(f, f.probs - onehot, 2.0 * (f.value - target))
    for k in ("w1", "b2", "wp", "bv"):
        flat = net.params[k].reshape(-1)
        for i in range(0, flat.size, max(1, flat.size // 5)):
            keep = flat[i]
            flat[i] = keep + 1e-6
            up = loss()
            flat[i] = keep - 1e-6
            down = loss()
            flat[i] = keep
            assert grads[k].reshape(-1)[i] == pytest.approx((up - down) / 2e-6, abs=1e-6)


SMALL = Settings(envs=16, batch=512, minibatch=256, epochs=1, hidden=16)


def test_ppo_trainer_replays_with_its_seed_and_plays_legally() -> None:
    nets = []
    for _ in range(2):
        trainer = Trainer(seed=3, settings=SMALL)
        trainer.train(seconds=60.0, updates=2)
        nets.append(trainer.net.params)
    assert all(np.array_equal(nets[0][k], nets[1][k]) for k in nets[0])
    other = Trainer(seed=4, settings=SMALL)
    other.train(seconds=60.0, updates=2)
    assert not np.array_equal(nets[0]["w1"], other.net.params["w1"])
    # the bot plays full games through the core (an illegal action would raise)
    result = level_result(LearnedBluffBot(trainer.net), "normal", games=4, seed=0)
    assert result.games == 4 and result.draws == 0


def test_ppo_command_trains_saves_and_evaluates(tmp_path: Path) -> None:
    saved, report = tmp_path / "net.npz", tmp_path / "report.json"
    assert bluff_ppo.main(["--updates", "1", "--levels", "easy", "--games", "2",
                           "--save", str(saved), "--out", str(report)]) == 0
    assert bluff_ppo.main(["--load", str(saved), "--levels", "easy", "--games", "2",
                           "--out", str(tmp_path / "again.json")]) == 0
    assert report.read_text() == (tmp_path / "again.json").read_text()  # the same network
    assert bluff_ppo.main(["--load", str(saved), "--levels", "nobody"]) == 2


def test_ppo_learns_to_beat_the_easy_level() -> None:
    """A dozen small updates already beat ``easy`` in a fair share of games, where the
    untrained network (near-uniform calls, most of them impossible) wins almost none."""
    trainer = Trainer(seed=0, settings=Settings(envs=64, batch=2048))
    before = level_result(LearnedBluffBot(trainer.net), "easy", games=40, seed=1)
    trainer.train(seconds=120.0, updates=12)
    after = level_result(LearnedBluffBot(trainer.net), "easy", games=40, seed=1)
    assert before.win_share < 0.1 < 0.25 < after.win_share
