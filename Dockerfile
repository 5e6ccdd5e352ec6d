# The usotsuki game server: one worker (`usotsuki serve`). deploy/compose.yaml runs three
# of them with PostgreSQL, Redis and nginx (docs/deploy.md).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md LICENSE ./
COPY src ./src
RUN pip install . \
    && useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin usotsuki

USER usotsuki
EXPOSE 8000
# Liveness: the event loop answers. Readiness (/readyz) also checks PostgreSQL and Redis.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
    CMD ["python", "-c", "import urllib.request as u; u.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
ENTRYPOINT ["usotsuki", "serve"]
CMD ["--host", "0.0.0.0", "--port", "8000"]
