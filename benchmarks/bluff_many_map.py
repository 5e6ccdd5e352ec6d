"""Issue 11: fit the expert's map for the call in front of it with three or more seats in play.

Reads ``bluff_expert_diag.py --json`` records (self-play: ``--lineup
expert,expert,expert,expert``), keeps the searched decisions of ``expert`` that faced a call
its own cards left uncertain with three or more seats in play, and fits by maximum
likelihood ``P(the call is true) = sigmoid(slope * logit(p) + intercept)``, ``p`` the
search belief's probability of the call (``fit_logistic``). The first file(s) fit, the
``--check`` files are held out: their log loss and Brier score, and a reliability table,
for the belief as it is, the map, and the plain share of true calls::

    python benchmarks/bluff_many_map.py .bench/diag_self7.json --check .bench/diag_self8.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from usotsuki.bots.bluff_calibration import fit_logistic

EPS = 1e-3


def load(paths: list[Path], bot: str) -> tuple[np.ndarray, np.ndarray]:
    p, y = [], []
    for path in paths:
        for r in json.loads(path.read_text(encoding="utf-8"))["rows"]:
            if (r["bot"] == bot and "p_current" in r and 0.0 < r["exact"] < 1.0
                    and r["players"] >= 3):
                p.append(r["p_current"])
                y.append(float(r["current_true"]))
    return np.clip(np.array(p), EPS, 1.0 - EPS), np.array(y)


def scores(q: np.ndarray, y: np.ndarray) -> str:
    q = np.clip(q, EPS, 1.0 - EPS)
    loss = -float(np.mean(y * np.log(q) + (1.0 - y) * np.log(1.0 - q)))
    return f"log loss {loss:.3f}, Brier {float(np.mean((q - y) ** 2)):.3f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("fit", type=Path, nargs="+")
    parser.add_argument("--check", type=Path, nargs="*", default=[])
    parser.add_argument("--bot", default="expert")
    args = parser.parse_args(argv)
    p, y = load(args.fit, args.bot)
    slope, intercept, _ = fit_logistic(np.log(p / (1.0 - p)), y)
    print(f"fitted on {y.size} decisions ({y.mean():.3f} true): slope {slope:.3f}, "
          f"intercept {intercept:.3f}")
    for name, (q, t) in (("fit", (p, y)), ("held out", load(args.check, args.bot))):
        if not t.size:
            continue
        mapped = 1.0 / (1.0 + np.exp(-(slope * np.log(q / (1.0 - q)) + intercept)))
        print(f"{name} ({t.size}): belief {scores(q, t)}; map {scores(mapped, t)}; "
              f"share of true calls {scores(np.full_like(q, y.mean()), t)}")
        for lo in np.arange(0.0, 1.0, 0.1):
            m = (q >= lo) & (q < lo + 0.1)
            if m.any():
                print(f"  belief {lo:.1f}-{lo + 0.1:.1f}: n {int(m.sum()):4d}, true "
                      f"{t[m].mean():.2f}, map {mapped[m].mean():.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
