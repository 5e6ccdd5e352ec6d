# The usotsuki game server: one worker (`usotsuki serve`). deploy/compose.yaml runs three
# of them with PostgreSQL, Redis and nginx (docs/deploy.md).
# Every package and version comes from uv.lock (`uv sync --locked`: the build fails if
# the lock is behind pyproject.toml): serve.py builds on uvicorn's internals. The image is the
# core and the `server` extra (its web and database libraries), without the research ones.
FROM python:3.11-slim AS build

ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 UV_PYTHON_DOWNLOADS=never \
    UV_COMPILE_BYTECODE=1 UV_LINK_MODE=copy
RUN pip install uv==0.13.9

WORKDIR /app
# The dependencies first: this layer is rebuilt only when the lock changes.
COPY pyproject.toml uv.lock ./
RUN uv sync --locked --no-dev --extra server --no-install-project
COPY README.md LICENSE setup.py ./
COPY src ./src
RUN uv sync --locked --no-dev --extra server --no-editable

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PATH=/app/.venv/bin:$PATH
WORKDIR /app
COPY --from=build /app/.venv /app/.venv
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin usotsuki

USER usotsuki
EXPOSE 8000
# Liveness: the event loop answers. Readiness (/readyz) also checks PostgreSQL and Redis.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
# SIGTERM (docker stop): the worker drains (docs/deploy.md, "Rolling restart").
STOPSIGNAL SIGTERM
ENTRYPOINT ["usotsuki", "serve"]
CMD ["--host", "0.0.0.0", "--port", "8000"]
