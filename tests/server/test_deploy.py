"""The deployable stack's files (issue 16): Docker itself is not available here, so the
compose file is parsed and checked against the repository and ``usotsuki serve``'s
options, and the nginx configuration is checked by Debian's nginx (``nginx -t``)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from typer.main import get_command

from usotsuki.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _serve_options() -> set[str]:
    command = get_command(app)
    serve = command.commands["serve"]  # type: ignore[attr-defined]
    return {opt for param in serve.params for opt in param.opts}


def test_compose_runs_three_workers_behind_nginx_on_postgres_and_redis() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "migrate", "worker1", "worker2", "worker3",
            "nginx"} <= set(services)
    assert services["migrate"]["entrypoint"] == ["usotsuki", "db", "upgrade"]
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
        assert set(worker["depends_on"]) == {"postgres", "redis", "migrate"}
        assert worker["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert services["migrate"]["command"] == [db]  # the workers' database
        assert "/readyz" in " ".join(worker["healthcheck"]["test"])
    proxy = next(o for o in services["worker1"]["command"]
                 if o.startswith("--forwarded-allow-ips="))
    assert proxy.split("=", 1)[1] == services["nginx"]["networks"]["backend"]["ipv4_address"]
    for volume in services["nginx"]["volumes"]:
        assert (DEPLOY / volume.split(":")[0]).is_file()


def test_the_dockerfile_copies_what_exists_and_serves() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    for line in re.findall(r"^COPY (.+) \S+$", dockerfile, re.M):
        for source in line.split():
            assert (ROOT / source).exists(), source
    assert 'ENTRYPOINT ["usotsuki", "serve"]' in dockerfile


def test_the_nginx_configuration_is_valid(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.fail("nginx is not installed: `make test` installs Debian's nginx-light")
    # compose's service names resolve only inside its network: loopback stands in.
    conf = re.sub(r"worker\d:8000", "127.0.0.1:8000", (DEPLOY / "nginx.conf").read_text())
    (tmp_path / "nginx.conf").write_text(conf)
    result = subprocess.run([nginx, "-t", "-p", str(tmp_path), "-c",
                             str(tmp_path / "nginx.conf"), "-g", f"pid {tmp_path}/pid;"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "Upgrade $http_upgrade" in conf and "X-Forwarded-For $remote_addr" in conf


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
    assert limit >= 3 * (store_pool + 2 * POOL + WRITES) + 3  # (+ PostgreSQL's reserved)
