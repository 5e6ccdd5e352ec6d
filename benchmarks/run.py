"""``make bench``: random legal play of Bluff and the Liar Game against OpenSpiel's
``liars_dice`` (C++) and ``python_liars_poker`` (pure Python), on one core, fixed seeds,
medians of several timed runs. Prints a table and writes ``.bench/results.json``.

    python benchmarks/run.py [--seconds 1.0] [--runs 3] [--only bluff,liar] [--out PATH]

See benchmarks/README.md for what each figure means.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import platform
import subprocess
import sys
import time
from importlib import metadata
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import batched_bench  # noqa: E402
import bluff_bench  # noqa: E402
import bluff_levels_bench  # noqa: E402
import liar_bench  # noqa: E402
import liar_levels_bench  # noqa: E402
import load_server  # noqa: E402
import openspiel_bench  # noqa: E402
import profiles  # noqa: E402
import ratings as ratings_bench  # noqa: E402
import replay_bench  # noqa: E402
import review_bench  # noqa: E402
import server_expert  # noqa: E402
from cases import Case  # noqa: E402
from harness import Figure, PlayResult, Settings, measure_listings, measure_play  # noqa: E402

RATIO_TARGETS = [
    # (row key prefix, minimum decisions/s over OpenSpiel's liars_dice, the target in words)
    ("bluff/push/5", 1.0, "Bluff fast path, 5 players: at least 1.0x liars_dice"),
    ("bluff/apply/5", 0.5, "Bluff checked path, 5 players: at least 0.5x liars_dice"),
    ("liar/push/plain/4", 0.6, "Liar Game plain fast path, 4 players: at least 0.6x liars_dice"),
    ("liar/push/all/", 0.3, "Liar Game O1-O7 (fast path): at least 0.3x liars_dice"),
]
RATIO_BASELINE = "liars_dice"
PURE_PREFIXES = ("bluff/", "liar/")  # the rows run again on the pure-Python cores

TARGETS = [
    # (row key, minimum decisions per second, on the pure-Python cores?, what the issue asks)
    ("bluff/push/5", 150_000, False, "Bluff, 5 players: at least 150,000 decisions/s"),
    ("liar/push/plain/4", 100_000, True,
     "Liar Game, plain rules, 4 players: at least 100,000 decisions/s in pure Python"),
]
RELATIVE_TARGETS = [
    # (row key, baseline, minimum ratio, what the issue asks)
    ("bluff/batched/2/b4096", "liars_dice", 10.0,
     "batched Bluff (heads-up, batch 4096): at least 10x OpenSpiel's C++ liars_dice"),
    ("bluff/batched-obs/2/b4096", "liars_dice", 10.0,
     "batched Bluff with observations and masks (heads-up, batch 4096): at least 10x "
     "OpenSpiel's C++ liars_dice"),
    ("liar/batched-obs/plain/4/b4096", "liars_dice", 5.0,
     "batched Liar Game with observations and masks (plain, 4 players, batch 4096): at "
     "least 5x OpenSpiel's C++ liars_dice"),
]


def pin_to_one_core() -> list[int] | None:
    """Run on one CPU (the lowest this process may use); None where that is unsupported."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return sorted(os.sched_getaffinity(0))


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def version_of(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def git(*args: str) -> str | None:
    try:
        out = subprocess.run(["git", "-C", str(ROOT), *args],
                             capture_output=True, text=True, timeout=5, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip()


def environment(pinned: list[int] | None) -> dict[str, Any]:
    return {
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "machine": platform.machine(),
            "cpu": cpu_model(),
            "cpu_count": os.cpu_count(),
            "pinned_to_cpus": pinned,
        },
        "python": {
            "version": platform.python_version(),
            "implementation": platform.python_implementation(),
            "build": " ".join(platform.python_build()),
            "compiler": platform.python_compiler(),
            "executable": sys.executable,
        },
        "packages": {name: version_of(name) for name in ("usotsuki", "open_spiel", "rich")},
        "git_commit": git("rev-parse", "HEAD") or None,
        "git_dirty": None if (status := git("status", "--porcelain")) is None else bool(status),
    }


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=1.0,
                        help="length of one timed run of play (default 1.0)")
    parser.add_argument("--runs", type=int, default=3,
                        help="timed runs per figure, the median is reported (default 3)")
    parser.add_argument("--warmup", type=float, default=0.2,
                        help="seconds of untimed play before the runs (default 0.2)")
    parser.add_argument("--listing-seconds", type=float, default=0.4,
                        help="length of one timed run of legal-action listings (default 0.4)")
    parser.add_argument("--seed", type=int, default=Settings.seed,
                        help=f"run i uses random.Random(seed + i) (default {Settings.seed})")
    parser.add_argument("--only", default="",
                        help="comma-separated row-key prefixes, e.g. bluff,openspiel,liar")
    parser.add_argument("--out", type=Path, default=ROOT / ".bench" / "results.json",
                        help="where to write the results (default .bench/results.json)")
    parser.add_argument("--no-pure", action="store_true",
                        help="skip the second run of the core rows on the pure-Python cores "
                             "(USOTSUKI_PURE=1, in a child process)")
    parser.add_argument("--quick", action="store_true",
                        help="a smoke run: 0.2 s runs, 0.05 s warm-up and listings (still 3 runs)")
    liar_levels_bench.add_options(parser)
    bluff_levels_bench.add_options(parser)
    load_server.add_options(parser)
    server_expert.add_options(parser)
    profiles.add_options(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.seconds, args.warmup, args.listing_seconds = 0.2, 0.05, 0.05
        args.liar_bots, args.liar_decisions = "timing", 40
        args.bluff_bots, args.bluff_decisions = "timing", 30
        args.profile_games, args.profile_repeats = 10_000, 20
    if args.runs < 1 or args.seconds <= 0:
        parser.error("--runs must be at least 1 and --seconds positive")
    return args


def collect_cases(seed: int, only: list[str]) -> tuple[list[Case], list[str]]:
    """Every row to measure, and notes on the parts skipped."""
    skipped: list[str] = []
    rows: list[Case] = []
    why = openspiel_bench.available()
    if why is None:
        rows += openspiel_bench.cases(seed)
    else:
        skipped.append(f"OpenSpiel rows skipped: {why}")
    rows += bluff_bench.cases(seed)
    rows += batched_bench.cases(seed)
    why = liar_bench.available()
    if why is None:
        rows += liar_bench.cases(seed)
    else:
        skipped.append(f"Liar Game rows skipped: {why}")
    if only:
        rows = [c for c in rows if any(c.key.startswith(p) for p in only)]
    return rows, skipped


def fmt_rate(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    return f"{x:,.0f}"


def fmt_ratio(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}x"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    settings = Settings(seconds=args.seconds, runs=args.runs, warmup=args.warmup,
                        seed=args.seed, listing_seconds=args.listing_seconds)
    pinned = pin_to_one_core()
    env = environment(pinned)
    from usotsuki import _native

    env["cores"] = _native.describe()
    print(f"rules cores: {env['cores']}", flush=True)
    only = [p.strip() for p in args.only.split(",") if p.strip()]
    rows, skipped = collect_cases(settings.seed, only)
    for note in skipped:
        print(f"note: {note}", flush=True)
    if pinned is None:
        print("note: cannot pin to one core on this platform; figures may be noisier")

    began = time.perf_counter()
    played: dict[str, PlayResult] = {}
    listed: dict[str, Figure] = {}
    failed: list[Case] = []
    for case in rows:
        print(f"  {case.key} ...", end="", flush=True)
        t0 = time.perf_counter()
        try:
            played[case.key] = measure_play(case.make_driver(), settings)
            lkey = case.listing_key or case.key
            if case.make_lister is not None and lkey not in listed:
                listed[lkey] = measure_listings(case.make_lister(), settings)
        except Exception as exc:  # one broken row must not lose the others' figures
            played.pop(case.key, None)
            failed.append(case)
            skipped.append(f"{case.key} failed: {type(exc).__name__}: {exc}")
            print(f" FAILED: {type(exc).__name__}: {exc}", flush=True)
            continue
        print(f" {fmt_rate(played[case.key].decisions.median)} decisions/s"
              f" ({time.perf_counter() - t0:.1f} s)", flush=True)
    rows = [c for c in rows if c not in failed]
    pure = run_pure(args, [c.key for c in rows if c.key.startswith(PURE_PREFIXES)])

    baselines = {c.baseline: played[c.key].decisions.median for c in rows if c.baseline}
    results = []
    for case in rows:
        res = played[case.key]
        listing = listed.get(case.listing_key or case.key)
        ratios = {name: res.decisions.median / base for name, base in baselines.items()}
        results.append({
            "key": case.key, "game": case.game, "path": case.path, "players": case.players,
            "players_text": case.players_text, "params": case.params, "note": case.note,
            "detail": case.detail, "baseline": case.baseline,
            "decisions_per_s": res.decisions.to_json(),
            "games_per_s": res.games.to_json(),
            "legal_listings_per_s": listing.to_json() if listing else None,
            "decisions_per_game": round(res.decisions_per_game, 2),
            "decisions_ratio_to": {k: round(v, 3) for k, v in ratios.items()},
            "raw_runs": res.raw,
        })
        if case.key in pure:
            results[-1]["pure_decisions_per_s"] = pure[case.key]
            results[-1]["pure_decisions_ratio_to"] = {
                k: round(pure[case.key]["median"] / base, 3) for k, base in baselines.items()}

    targets = []
    by_key = {r["key"]: r for r in results}
    for key, minimum, on_pure, text in TARGETS:
        row = by_key.get(key)
        figure = row and (row.get("pure_decisions_per_s") if on_pure else row["decisions_per_s"])
        measured = figure["median"] if figure else None
        targets.append({"key": key, "target": text, "minimum_decisions_per_s": minimum,
                        "measured": measured,
                        "met": None if measured is None else measured >= minimum})

    for key, base, ratio, text in RELATIVE_TARGETS:
        row = by_key.get(key)
        measured = row["decisions_ratio_to"].get(base) if row else None
        targets.append({"key": key, "target": text, "minimum_ratio": ratio,
                        "measured_ratio": measured,
                        "measured": row["decisions_per_s"]["median"] if row else None,
                        "met": None if measured is None else measured >= ratio})
    for prefix, minimum, text in RATIO_TARGETS:
        matched = [r for r in results if r["key"].startswith(prefix)]
        ratios = [r["decisions_ratio_to"].get(RATIO_BASELINE) for r in matched]
        measured = None if not matched or None in ratios else min(ratios)
        targets.append({"key": prefix, "target": text, "minimum_ratio": minimum,
                        "measured_ratio": measured,
                        "met": None if measured is None else measured >= minimum})

    print_table(results, sorted(baselines), targets, skipped)
    liar_bots: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("liar-bots") for p in only):
        liar_bots = liar_levels_bench.run(args, settings.seed)
    bluff_bots: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("bluff-bots") for p in only):
        bluff_bots = bluff_levels_bench.run(args, settings.seed)
    server_load: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p == "server" or p.startswith("server/load") for p in only):
        server_load = load_server.run_group(args)
    server_beside_expert: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p == "server" or p.startswith("server/expert") for p in only):
        server_beside_expert = server_expert.run_group(args)
    review: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("review") for p in only):
        review = review_bench.run_group(settings.seed)
    replay_limits: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("replay") for p in only):
        replay_limits = replay_bench.run_group()
    players: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("profiles") for p in only):
        players = profiles.run_group(args)
    rating_updates: dict[str, Any] = {"skipped": "--only"}
    if not only or any(p.startswith("ratings") for p in only):
        rating_updates = ratings_bench.run_group()
    report = {**env, "settings": vars(settings) | {"pinned": pinned is not None},
              "total_seconds": round(time.perf_counter() - began, 1),
              "results": results, "targets": targets, "skipped": skipped,
              "liar_bots": liar_bots, "bluff_bots": bluff_bots,
              "server_load": server_load, "server_beside_expert": server_beside_expert,
              "review": review, "replay_limits": replay_limits, "profiles": players,
              "rating_updates": rating_updates}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    shown = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
    print(f"wrote {shown} ({report['total_seconds']} s of measuring)")
    return 0


def run_pure(args: argparse.Namespace, keys: list[str]) -> dict[str, dict[str, Any]]:
    """The core rows again on the pure-Python cores, in a child process with
    ``USOTSUKI_PURE=1`` and the same settings: their decisions/s by row key."""
    from usotsuki import _native

    if args.no_pure or not keys or not _native.compiled():
        return {}
    print("  the same rows on the pure-Python cores (USOTSUKI_PURE=1) ...", flush=True)
    out = args.out.with_name(args.out.stem + ".pure.json")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--no-pure", "--only", ",".join(keys),
           "--seconds", str(args.seconds), "--runs", str(args.runs), "--warmup", str(args.warmup),
           "--listing-seconds", str(args.listing_seconds), "--seed", str(args.seed),
           "--out", str(out)]
    done = subprocess.run(cmd, env={**os.environ, "USOTSUKI_PURE": "1"},
                          capture_output=True, text=True)
    if done.returncode != 0:
        print(f"  the pure-Python run failed: {done.stderr.strip()[-500:]}", flush=True)
        return {}
    report = json.loads(out.read_text())
    return {r["key"]: r["decisions_per_s"] for r in report["results"]}


def print_table(results: list[dict[str, Any]], baselines: list[str],
                targets: list[dict[str, Any]], skipped: list[str]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Random legal play, one core, median of runs "
                        "(ratios: our decisions/s over theirs)")
    for name, justify in [("game", "left"), ("path", "left"), ("players", "right"),
                          ("decisions/s", "right"), ("games/s", "right"),
                          ("legal listings/s", "right"), ("dec/game", "right")]:
        table.add_column(name, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    for name in baselines:
        table.add_column(f"vs {name}", justify="right", no_wrap=True)
    with_pure = any("pure_decisions_per_s" in r for r in results)
    if with_pure:  # the same rows on the pure-Python cores (USOTSUKI_PURE=1), same baselines
        table.add_column("pure dec/s", justify="right", no_wrap=True)
        for name in baselines:
            table.add_column(f"pure vs {name}", justify="right", no_wrap=True)
    table.add_column("note", min_width=24)
    for r in results:
        listing = r["legal_listings_per_s"]
        ours = not r["key"].startswith("openspiel/")
        table.add_row(
            r["game"], r["path"], r["players_text"] or str(r["players"]),
            fmt_rate(r["decisions_per_s"]["median"]), fmt_rate(r["games_per_s"]["median"]),
            fmt_rate(listing["median"] if listing else None),
            f"{r['decisions_per_game']:.1f}",
            *(fmt_ratio(r["decisions_ratio_to"].get(b) if ours else None) for b in baselines),
            *((fmt_rate(r.get("pure_decisions_per_s", {}).get("median")),
               *(fmt_ratio(r.get("pure_decisions_ratio_to", {}).get(b)) for b in baselines))
              if with_pure else ()),
            r["note"],
        )
    console = Console(width=max(180, Console().width))
    console.print(table)
    details = dict.fromkeys(r["detail"] for r in results if r["detail"])
    for detail in details:
        console.print(f"- {detail}", soft_wrap=True)
    for t in targets:
        if "minimum_ratio" in t:
            status = "not measured" if t["measured_ratio"] is None else (
                ("met" if t["met"] else "NOT met") + f" ({t['measured_ratio']:.2f}x)")
        elif t["measured"] is None:
            status = "not measured"
        else:
            status = ("met" if t["met"] else "NOT met") + f" ({t['measured']:,.0f}/s" + (
                f", {t['measured_ratio']:.1f}x)" if "measured_ratio" in t else ")")
        console.print(f"target: {t['target']}: {status}")
    for note in skipped:
        console.print(f"note: {note}")


if __name__ == "__main__":
    sys.exit(main())
