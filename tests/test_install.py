"""The light install: ``pip install usotsuki`` is the rules, bots, CLI, environments' code and
client, without the game server's web and database libraries (the ``server`` extra); the
``research`` extra adds the environments' frameworks. Checked on the lock (what every
install resolves to) and by a real install into a fresh virtual environment."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
UV = ROOT / ".uv" / "bin" / "uv"

# Web frameworks and servers, databases and their drivers, and the server's own process,
# metrics and password libraries: none of these belongs to the core. (pydantic does: typer
# needs it.)
SERVER_ONLY = {
    "fastapi", "starlette", "uvicorn", "uvloop", "httptools", "watchfiles",
    "sqlalchemy", "alembic", "psycopg", "psycopg-binary", "psycopg-pool",
    "redis", "argon2-cffi", "pebble", "prometheus-client", "orjson", "swagger-ui-bundle-v2",
    "flask", "django", "aiohttp", "gunicorn", "greenlet",
}


def _lock() -> dict[str, Any]:
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    return {package["name"]: package for package in lock["package"]}


def _closure(packages: dict[str, Any], roots: list[dict[str, Any]]) -> set[str]:
    """Every package the lock may install for ``roots`` (its dependency entries), with the
    extras each names, on any platform (markers are not evaluated)."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        dependency = todo.pop()
        name = str(dependency["name"])
        package = packages[name]
        wanted = [f"{name}[{extra}]" for extra in dependency.get("extra", [])]
        if name in seen and seen.issuperset(wanted):
            continue
        seen.add(name)
        seen.update(wanted)
        todo.extend(package.get("dependencies", []))
        for extra in dependency.get("extra", []):
            todo.extend(package.get("optional-dependencies", {}).get(extra, []))
    return {name for name in seen if "[" not in name}


def test_the_core_pulls_no_web_or_database_library() -> None:
    packages = _lock()
    project = packages["usotsuki"]
    core = _closure(packages, project["dependencies"])
    assert core & SERVER_ONLY == set()
    assert {"numpy", "typer", "httpx", "websockets"} <= core  # CLI, client
    assert {"pettingzoo", "gymnasium", "open-spiel", "numba"}.isdisjoint(core)
    extras = project["optional-dependencies"]
    server = _closure(packages, extras["server"])
    assert {"fastapi", "uvicorn", "sqlalchemy", "alembic", "psycopg", "redis",
            "argon2-cffi"} <= server
    research = _closure(packages, extras["research"])
    assert {"pettingzoo", "gymnasium", "open-spiel", "numba"} <= research  # numba: batched
    assert research & SERVER_ONLY == set()


def test_the_lock_follows_pyproject_and_the_suite_installs_every_extra() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    project = _lock()["usotsuki"]

    def names(requirements: list[str]) -> set[str]:
        return {r.split(";")[0].split("[")[0].split(">")[0].split("=")[0].strip().lower()
                for r in requirements if not r.startswith("usotsuki")}

    assert names(pyproject["dependencies"]) == {d["name"] for d in project["dependencies"]}
    extras = pyproject["optional-dependencies"]
    for extra in ("server", "research"):
        assert names(extras[extra]) == {
            d["name"] for d in project["optional-dependencies"][extra]}
    assert "usotsuki[server,research]" in extras["dev"]  # the test suite's own needs
    makefile = (ROOT / "Makefile").read_text()
    assert "EXTRAS := --extra server --extra research --extra dev" in makefile
    assert "PIP_EXTRAS := server,research,dev" in makefile


def test_the_citation_file_is_valid_and_current() -> None:
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert citation["cff-version"] == "1.2.0"
    assert {"message", "title", "authors", "type"} <= set(citation)
    assert all("name" in a or "family-names" in a for a in citation["authors"])
    assert str(citation["version"]) == pyproject["version"]
    assert citation["license"] == pyproject["license"]


# --- a real install of the core and the research extra into a fresh environment ---------

LIGHT_CHECK = """
import importlib.util, json, sys
import numpy as np
import pettingzoo, gymnasium, pyspiel
import usotsuki.envs
from usotsuki.envs import bluff_v0, liar_v0
import usotsuki.envs.openspiel
import usotsuki.client, usotsuki.client.adapters  # an outside bot's client and adapters

played = {}
for name, module in (("bluff", bluff_v0), ("liar", liar_v0)):
    env = module.env(players=2)
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    steps = 0
    for agent in env.agent_iter(max_iter=2000):
        observation, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else int(
            rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        steps += 1
    played[name] = steps
game = pyspiel.load_game("python_usotsuki_bluff", {"round": True, "ranks": 4})
state = game.new_initial_state()
while not state.is_terminal():
    if state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    else:
        state.apply_action(state.legal_actions()[-1])
gym_env = gymnasium.make("usotsuki/Liar-v0")
gym_env.reset(seed=1)
print(json.dumps({"played": played, "returns": state.returns(),
                  "server": [m for m in ("fastapi", "sqlalchemy", "uvicorn", "psycopg", "redis")
                             if importlib.util.find_spec(m) is not None],
                  "loaded": sorted(m for m in sys.modules
                                   if m.split(".")[0] in ("fastapi", "sqlalchemy", "starlette",
                                                          "uvicorn", "redis", "psycopg"))}))
"""


@pytest.fixture(scope="module")
def light_venv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``pip install '.[research]'`` (uv, held to uv.lock's versions like `make setup`'s pip
    fallback) into a fresh environment: the pure-Python cores (USOTSUKI_PURE: no
    compiling), everything else as a user gets it."""
    if not UV.exists():
        pytest.fail(".uv/bin/uv is missing: run `make setup`")
    work = tmp_path_factory.mktemp("light")
    venv = work / "venv"
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "USOTSUKI_PURE": "1"}
    subprocess.run([UV, "venv", "-q", "-p", sys.executable, venv], check=True, env=env)
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from lock_constraints import constraints
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    pins = work / "constraints.txt"
    pins.write_text("\n".join(constraints(ROOT / "uv.lock")) + "\n")
    subprocess.run([UV, "pip", "install", "-q", "-p", venv / "bin" / "python",
                    "--refresh-package", "usotsuki", "-c", pins, f"{ROOT}[research]"],
                   check=True, env=env, cwd=work)
    yield venv


def _run(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # from the environment's folder: nothing of the repository on sys.path
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "USOTSUKI_PURE")}
    return subprocess.run(args, capture_output=True, text=True, cwd=venv, env=env,
                          timeout=240)


@pytest.mark.timeout(600)
def test_a_fresh_install_has_no_server_libraries_and_the_environments_work(
        light_venv: Path) -> None:
    import json

    frozen = subprocess.run([UV, "pip", "freeze", "-p", light_venv / "bin" / "python"],
                            capture_output=True, text=True, check=True).stdout
    installed = {line.split("==")[0].split(" @ ")[0].strip().lower()
                 for line in frozen.splitlines() if line.strip()}
    assert "usotsuki" in installed and {"pettingzoo", "gymnasium", "open-spiel"} <= installed
    assert installed & SERVER_ONLY == set()

    result = _run(light_venv, str(light_venv / "bin" / "python"), "-c", LIGHT_CHECK)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["server"] == [] and report["loaded"] == []
    assert min(report["played"].values()) > 2
    assert sorted(report["returns"]) == [-1.0, 1.0]


@pytest.mark.timeout(600)
@pytest.mark.parametrize("command", [["serve"], ["db", "current"], ["db", "upgrade"]])
def test_the_server_commands_name_the_missing_extra(light_venv: Path,
                                                    command: list[str]) -> None:
    usotsuki = str(light_venv / "bin" / "usotsuki")
    result = _run(light_venv, usotsuki, *command)
    assert result.returncode == 2
    assert "pip install 'usotsuki[server]'" in result.stderr
    assert "Traceback" not in result.stderr
    assert f"`usotsuki {' '.join(command)}` needs the server's libraries" in result.stderr
    assert _run(light_venv, usotsuki, *command, "--help").returncode == 0


@pytest.mark.timeout(600)
def test_the_core_cli_plays_and_replays_without_the_server(light_venv: Path,
                                                           tmp_path: Path) -> None:
    import json

    usotsuki = str(light_venv / "bin" / "usotsuki")
    summary = tmp_path / "summary.json"
    result = _run(light_venv, usotsuki, "tournament", "--game", "bluff", "--players", "2",
                  "--bots", "easy,normal", "--games", "4", "--seed", "3", "--jobs", "1",
                  "--json", str(summary))
    assert result.returncode == 0, result.stderr
    assert json.loads(summary.read_text())["games"] == 4  # ratings too: openskill is core
    record = ROOT / "tests" / "golden" / "bluff_b11_hand_sizes_grow.json"
    replayed = _run(light_venv, usotsuki, "replay", str(record), "--json")
    assert replayed.returncode == 0, replayed.stderr
    expected = json.loads(record.with_suffix(".expected.json").read_text())
    assert json.loads(replayed.stdout) == expected
    lessons = _run(light_venv, usotsuki, "learn", "liar", "--list")  # package data
    assert lessons.returncode == 0, lessons.stderr
    assert "Rate lock (house rule)" in lessons.stdout


@pytest.mark.timeout(600)
def test_make_api_docs_renders_the_reference_from_the_docstrings(tmp_path: Path) -> None:
    out = tmp_path / "api"
    result = subprocess.run(["make", "-s", "api-docs", f"API_DOCS={out}"], cwd=ROOT,
                            capture_output=True, text=True, timeout=540)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (out / "index.html").is_file()
    for page in ("envs/openspiel", "envs/bluff_v0", "research/round", "client", "bluff",
                 "server/serve"):
        assert (out / "usotsuki" / f"{page}.html").is_file(), page
    round_page = (out / "usotsuki" / "research" / "round.html").read_text()
    assert "RoundSpec" in round_page and "the first caller holds 1 card" in round_page
