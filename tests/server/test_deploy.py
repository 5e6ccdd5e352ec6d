"""The deployable stack's files (issue 16): Docker itself is not available here, so the
compose file is parsed and checked against the repository and ``usotsuki serve``'s
options, and the nginx configuration is checked by Debian's nginx (``nginx -t``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from cluster_helpers import Nginx
from live_helpers import Server
from nginx_render import Site, certificate, client_tls, render
from typer.main import get_command

from usotsuki.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(ROOT / "scripts"))


def _serve_options() -> set[str]:
    command = get_command(app)
    serve = command.commands["serve"]  # type: ignore[attr-defined]
    return {opt for param in serve.params for opt in param.opts}


def test_compose_runs_three_workers_behind_nginx_on_postgres_and_redis() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "worker1", "worker2", "worker3",
            "nginx"} <= set(services)
    # (the password from the secret into PGPASSWORD, then `usotsuki db upgrade`)
    assert "exec usotsuki db upgrade" in " ".join(services["migrate"]["entrypoint"])
    known = _serve_options()
    for name in ("worker1", "worker2", "worker3"):
        worker = services[name]
        build = worker["build"]
        assert (DEPLOY / build["context"] / build["dockerfile"]).is_file()
        options = [o.split("=", 1)[0] for o in worker["command"]]
        assert set(options) <= known, set(options) - known
        assert "--redis" in options and "--forwarded-allow-ips" in options
        db = next(o for o in worker["command"] if o.startswith("--db="))
        assert db.startswith("--db=postgresql://") and "@postgres:5432/" in db
        assert ":" not in db.removeprefix("--db=postgresql://").split("@")[0]  # no password
        assert "--db-password-file=/run/secrets/db_password" in worker["command"]
        assert worker["secrets"] == ["db_password"]
        assert set(worker["depends_on"]) == {"postgres", "redis", "migrate"}
        assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert services["migrate"]["command"] == [db]  # the workers' database
        assert services["migrate"]["secrets"] == ["db_password"]  # PGPASSWORD from it
        assert "/readyz" in " ".join(worker["healthcheck"]["test"])
    proxy = next(o for o in services["worker1"]["command"]
                 if o.startswith("--forwarded-allow-ips="))
    assert proxy.split("=", 1)[1] == services["nginx"]["networks"]["backend"]["ipv4_address"]
    assert (DEPLOY / services["nginx"]["volumes"][0].split(":")[0]).is_file()  # nginx.conf
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD_FILE"] == \
        "/run/secrets/db_password"
    assert "db_password" in compose["secrets"]


def test_the_dockerfile_copies_what_exists_and_serves() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    for line in re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, re.M):
        for source in line.split():
            assert (ROOT / source).exists(), source
    assert 'ENTRYPOINT ["usotsuki", "serve"]' in dockerfile


def test_the_dockerfile_installs_what_uv_lock_pins() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    runs = re.findall(r"^RUN (.+)$", dockerfile, re.M)
    installs = [r for r in runs if re.search(r"\b(pip|uv) (install|sync)\b", r)]
    syncs = [r for r in installs if "uv sync" in r]
    assert len(syncs) == 2 and all("--locked" in r and "--no-dev" in r for r in syncs)
    assert all("--extra server" in r for r in syncs)  # the core alone cannot serve
    # pip installs uv alone, at a pinned version; nothing else comes from outside the lock
    assert [r for r in installs if r not in syncs] == [
        next(r for r in runs if re.fullmatch(r"pip install uv==[\d.]+", r))]
    copies = re.findall(r"^COPY (?!--from)(.+) \S+$", dockerfile, re.M)
    assert "uv.lock" in copies[0].split()  # the lock is there for the first sync
    assert "COPY --from=build /app/.venv /app/.venv" in dockerfile
    # the operator's secrets and certificates (deploy/secrets, deploy/tls) never reach an
    # image: the build context leaves deploy/ out
    assert "deploy" in (ROOT / ".dockerignore").read_text().split()


def test_make_installs_the_locked_versions_with_or_without_uv() -> None:
    import tomllib

    makefile = (ROOT / "Makefile").read_text()
    # with uv: --locked, but right after `uv lock` re-made a lock behind pyproject.toml
    syncs = re.findall(r"(\$\(UV\) lock -q[^&]*&& )?\$\(UV_SYNC\)([^;|]*)", makefile)
    assert syncs and all("--locked" in options for relocked, options in syncs
                         if not relocked), syncs
    # the pip fallback (no uv): every install with dependencies is held to uv.lock
    pips = [line for line in makefile.replace("\\\n", " ").splitlines()
            if "pip install" in line and "-e " in line and "--no-deps" not in line
            and "$(PY)" in line]
    assert pips and all("-c $(VENV)/constraints.txt" in line for line in pips), pips
    from lock_constraints import constraints

    pinned = constraints(ROOT / "uv.lock")
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    fastapi = next(p for p in lock["package"] if p["name"] == "fastapi")
    assert f"fastapi=={fastapi['version']}" in pinned
    assert len(pinned) == len(lock["package"]) - 1  # all but the project itself


def test_the_nginx_configuration_is_valid(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: `make test` installs Debian's nginx-light")
    cert, key = certificate()
    conf = render(Site(["127.0.0.1:8000"], 8080, 8443, cert, key, tmp_path,
                       as_root=os.geteuid() == 0))
    (tmp_path / "nginx.conf").write_text(conf)
    result = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c",
                             str(tmp_path / "nginx.conf")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Upgrade $http_upgrade" in conf and "X-Forwarded-For $remote_addr" in conf


def test_the_test_nginx_differs_from_the_shipped_one_only_in_addresses_and_paths(
        tmp_path: Path) -> None:
    shipped = (DEPLOY / "nginx.conf").read_text()
    cert, key = certificate()
    ours = render(Site(["127.0.0.1:1", "127.0.0.1:2"], 8080, 8443, cert, key, tmp_path))
    # What may change: upstream servers, listeners, certificate, pid/log/temp/ACME paths,
    # and the process settings (one foreground process, its connections).
    changeable = re.compile(r"^\s*(server \S+:\d+ |listen |ssl_certificate|pid |error_log |"
                            r"root |worker_processes |worker_connections |daemon |"
                            r"worker_rlimit_nofile |user |client_body_temp_path )")
    kept = [line for line in shipped.splitlines() if not changeable.match(line)]
    assert kept == [line for line in ours.splitlines() if not changeable.match(line)]
    assert "listen 127.0.0.1:8443 ssl http2;" in ours and "listen 127.0.0.1:8080;" in ours
    assert ours.count("server 127.0.0.1:1 max_fails=1") == 2  # both upstreams


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Nginx]:
    """One worker (SQLite) behind the shipped nginx configuration."""
    tmp = tmp_path_factory.mktemp("proxied")
    server = Server(str(tmp / "games.sqlite3"), "--bot-delay", "0",
                    "--forwarded-allow-ips", "127.0.0.1", start_seconds=180)
    nginx = Nginx(tmp, [server.port], affinity=True)
    try:
        yield nginx
    finally:
        nginx.stop()
        server.stop()


def test_nginx_serves_tls_and_redirects_plain_http(proxied: Nginx) -> None:
    r = httpx.get(f"{proxied.url}/healthz", verify=client_tls(), timeout=10)
    assert r.status_code == 200 and r.url.scheme == "https"
    assert r.headers["strict-transport-security"].startswith("max-age=")
    with pytest.raises(httpx.ConnectError):  # a client that does not trust it refuses it
        httpx.get(f"{proxied.url}/healthz", timeout=10)
    plain = httpx.get(f"{proxied.http_url}/tables/x?y=1", timeout=10)
    assert plain.status_code == 301
    assert plain.headers["location"] == "https://127.0.0.1/tables/x?y=1"
    # an ACME challenge stays on plain HTTP (the webroot certbot writes to)
    (proxied.prefix / "acme" / ".well-known" / "acme-challenge").mkdir(parents=True)
    (proxied.prefix / "acme" / ".well-known" / "acme-challenge" / "t0ken").write_text("ok")
    acme = httpx.get(f"{proxied.http_url}/.well-known/acme-challenge/t0ken", timeout=10)
    assert acme.status_code == 200 and acme.text == "ok"


def test_a_websocket_plays_through_tls(proxied: Nginx) -> None:
    from tls_client import connect

    api = httpx.Client(base_url=proxied.url, verify=client_tls(), timeout=10)
    table = api.post("/api/tables", json={"game": "bluff", "seats": [{}, {"bot": "easy"}],
                                          "rules": {}}).json()
    token = api.post(f"/api/invites/{table['invite']}/join",
                     json={"name": "Ann", "seat": 0}).json()["token"]
    with connect(f"{proxied.ws_url}/ws/tables/{table['table_id']}?token={token}",
                 ssl=client_tls(), open_timeout=10) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"


def test_expensive_posts_are_limited_per_address_with_a_json_429(proxied: Nginx) -> None:
    """/api/replay: 1 a second, a burst of 10; a GET is never counted."""
    with httpx.Client(base_url=proxied.url, verify=client_tls(), timeout=10) as api:
        answers = [api.post("/api/replay", content=b"{}",
                            headers={"content-type": "application/json"})
                   for _ in range(16)]
        statuses = [a.status_code for a in answers]
        assert 429 not in statuses[:10], statuses  # the burst reaches the server
        refused = [a for a in answers if a.status_code == 429]
        assert refused, statuses
        assert refused[0].json()["error"] == "too_many_requests"
        assert refused[0].headers["retry-after"] == "1"
        assert all(api.get("/healthz").status_code == 200 for _ in range(20))


def test_the_servers_own_refusals_pass_through_unchanged(proxied: Nginx) -> None:
    # within nginx's burst for table creation, the worker's quota (10 a minute) answers
    with httpx.Client(base_url=proxied.url, verify=client_tls(), timeout=10) as api:
        answers = [api.post("/api/tables", json={"game": "bluff", "seats": [{}, {}]})
                   for _ in range(12)]
    statuses = [a.status_code for a in answers]  # (this module made a table before)
    assert 9 <= statuses.count(201) <= 10 and statuses[-1] == 429, statuses
    assert answers[-1].json()["error"] == "too_many_tables"  # not nginx's body


def test_a_cluster_needs_postgresql_and_a_redis_url() -> None:
    from usotsuki.server.serve import Deployment

    assert Deployment().problem(None) is None  # one process on SQLite: as before
    assert "postgresql" in str(Deployment(redis="redis://r").problem("games.sqlite3"))
    assert "redis://" in str(Deployment(redis="http://r").problem("postgresql://db/u"))
    assert Deployment(redis="redis://r:6379/0").problem("postgresql://u@db/u") is None
    assert "lease" in str(Deployment(lease_seconds=0.1).problem(None))
    assert "json" in str(Deployment(log_format="xml").problem(None))


def test_the_database_takes_every_connection_three_workers_may_open() -> None:
    from usotsuki.server.lease import POOL, WRITES

    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    command = compose["services"]["postgres"]["command"]
    limit = int(next(c.split("=", 1)[1] for c in command if c.startswith("max_connections=")))
    store_pool = 8 + 8  # Store's engine: pool_size + max_overflow
    per_worker = store_pool + 2 * POOL + WRITES
    # four workers (one more during a rolling restart), PostgreSQL's reserved 3
    assert limit >= 4 * per_worker + 3
    # docs/deploy.md quotes the same arithmetic
    docs = (ROOT / "docs" / "deploy.md").read_text()
    assert f"may open {per_worker} connections" in docs
    assert f"Three workers: {3 * per_worker}" in docs and f"restart: {4 * per_worker}" in docs


def test_behind_a_trusted_proxy_one_address_may_be_a_crowd() -> None:
    from usotsuki.server.serve import Limits

    direct, proxied = Limits().for_deployment(False), Limits().for_deployment(True)
    assert (direct.address_sockets, direct.network_sockets) == (32, 128)
    assert (proxied.address_sockets, proxied.network_sockets) == (256, 1024)
    chosen = Limits(sockets_per_address=10).for_deployment(True)
    assert (chosen.address_sockets, chosen.network_sockets) == (10, 40)  # as given
    assert "--sockets-per-address" in str(Limits(sockets_per_address=0).problem())
    # nginx's own cap per address leaves room for the workers' (a page or two besides
    # each WebSocket)
    shipped = (DEPLOY / "nginx.conf").read_text()
    nginx_cap = int(re.search(r"limit_conn per_address (\d+);", shipped)[1])  # type: ignore[index]
    assert nginx_cap >= 2 * proxied.address_sockets


def test_with_no_worker_to_answer_nginx_says_unavailable_with_a_retry_hint(
        tmp_path: Path) -> None:
    """Every worker down (or all marked failed after answering 503 in a database outage):
    the API's retryable refusal, as a worker gives it, never a bare 502 page."""
    from live_helpers import free_port

    nginx = Nginx(tmp_path, [free_port(), free_port()], wait=False)  # nothing listens
    try:
        with httpx.Client(base_url=nginx.url, verify=client_tls(), timeout=10) as api:
            for path in ("/api/bots/bluff", "/", "/ws/tables/t1?token=x"):
                r = api.get(path)
                assert r.status_code == 503, (path, r.status_code, r.text)
                assert r.headers["retry-after"] == "1"
                assert r.json()["error"] == "unavailable" and r.json()["retry_after"] == 1
    finally:
        nginx.stop()
