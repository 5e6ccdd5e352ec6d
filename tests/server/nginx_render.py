"""The shipped ``deploy/nginx.conf`` made runnable on this machine: the workers' and the
listeners' addresses, the certificate's, pid, log and temporary paths, and the process
settings of a throwaway nginx (foreground, one process) change; every other line (TLS,
redirects, limits, proxying) is the shipped one. Each substitution must find its line:
a shipped file whose shape changed fails here, not silently in a test."""

from __future__ import annotations

import atexit
import functools
import re
import shutil
import ssl
import subprocess
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "nginx.conf"


@dataclass(frozen=True)
class Site:
    """Where a throwaway nginx listens, what it balances and where it keeps its files."""

    upstreams: Sequence[str]  # host:port of each worker
    http_port: int
    https_port: int
    certificate: Path
    key: Path
    prefix: Path  # pid, error log, temporary files, the ACME webroot
    connections: int = 4096
    affinity: bool = True  # False: /ws/tables/ round robin too (docs/deploy.md)
    as_root: bool = False  # nginx run by root needs `user root;` to reach the prefix


def _sub(pattern: str, replacement: str, text: str, flags: int = re.M) -> str:
    new, count = re.subn(pattern, lambda m: m.expand(replacement), text, flags=flags)
    if count == 0:
        raise ValueError(f"deploy/nginx.conf has no line matching {pattern!r}")
    return new


def _servers(block: str, upstreams: Sequence[str]) -> str:
    """An upstream block's ``server`` lines replaced by one per test worker (keeping the
    first line's indentation and parameters)."""
    lines = re.findall(r"^( *)server \S+?( [^;]*)?;\n", block, re.M)
    if not lines:
        raise ValueError("an upstream block of deploy/nginx.conf has no server line")
    indent, params = lines[0]
    ours = "".join(f"{indent}server {u}{params};\n" for u in upstreams)
    without = re.sub(r"^ *server \S+?( [^;]*)?;\n", "", block, flags=re.M)
    return without.replace("{\n", "{\n" + ours, 1)


def render(site: Site, template: str | None = None) -> str:
    conf = SHIPPED.read_text() if template is None else template
    conf = re.sub(r"^    upstream \w+ \{\n.*?^    \}", lambda m: _servers(m[0], site.upstreams),
                  conf, flags=re.M | re.S)
    conf = _sub(r"^( *)listen 80;$", f"\\1listen 127.0.0.1:{site.http_port};", conf)
    conf = _sub(r"^( *)listen 443 ssl( http2)?;$",
                f"\\1listen 127.0.0.1:{site.https_port} ssl\\2;", conf)
    conf = re.sub(r"^ *listen \[::\]:\d+[^;]*;\n", "", conf, flags=re.M)  # IPv4 loopback only
    conf = _sub(r"ssl_certificate \S+;", f"ssl_certificate {site.certificate};", conf)
    conf = _sub(r"ssl_certificate_key \S+;", f"ssl_certificate_key {site.key};", conf)
    conf = _sub(r"^pid \S+;", f"pid {site.prefix}/nginx.pid;", conf)
    conf = _sub(r"^error_log \S+", f"error_log {site.prefix}/nginx-error.log", conf)
    conf = _sub(r"root \S*/acme;", f"root {site.prefix}/acme;", conf)  # the ACME folder
    conf = _sub(r"^worker_processes \S+;",
                "worker_processes 1;\ndaemon off;\nworker_rlimit_nofile "
                f"{site.connections};" + ("\nuser root;" if site.as_root else ""), conf)
    conf = _sub(r"worker_connections \d+;", f"worker_connections {site.connections};", conf)
    temp = " ".join(f"{kind}_temp_path {site.prefix}/{kind};"
                    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    conf = _sub(r"^http \{\n", f"http {{\n    {temp}\n", conf)
    if not site.affinity:
        conf = _sub(r"proxy_pass http://usotsuki_tables;", "proxy_pass http://usotsuki;", conf)
    return conf


@functools.cache
def certificate() -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and localhost (openssl; made once a
    process, removed with the temporary directory at exit)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        raise RuntimeError("openssl is not installed: apt-get install -y openssl")
    where = Path(tempfile.mkdtemp(prefix="usotsuki-tls-"))
    cert, key = where / "fullchain.pem", where / "privkey.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2", "-subj",
                    "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    return cert, key


@functools.cache
def client_tls() -> ssl.SSLContext:
    """What a client of the throwaway nginx verifies its certificate with."""
    return ssl.create_default_context(cafile=str(certificate()[0]))
