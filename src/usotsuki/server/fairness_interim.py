"""Interim derivation used until usotsuki.fairness (fair-core's, docs/fairness.md) is
merged: the same functions, to be replaced by that module's."""

from __future__ import annotations

import hashlib
import hmac
import random
import secrets
from collections.abc import Sequence
from typing import Any


def new_secret() -> str:
    return secrets.token_hex(32)


def commitment(secret: str, table: str, game: int) -> str:
    return hashlib.sha256(f"usotsuki-fair-v1\n{table}\n{game}\n{secret}".encode()).hexdigest()


def key(secret: str, contributions: Sequence[tuple[int, str]]) -> bytes:
    text = "\n".join(f"{s}:{v}" for s, v in contributions)
    return hmac.new(bytes.fromhex(secret), text.encode(), hashlib.sha256).digest()


def liar_seed(key: bytes) -> int:
    return int.from_bytes(hmac.new(key, b"liar-seed", hashlib.sha256).digest()[:8], "big")


def deal_rng(key: bytes, index: int) -> random.Random:
    return random.Random(hmac.new(key, f"deal:{index}".encode(), hashlib.sha256).digest())


def record_object(secret: str, commitment: str, table: str, game: int,
                  contributions: Sequence[tuple[int, str]], missing: Sequence[int],
                  deals: int) -> dict[str, Any]:
    return {"version": 1, "table": table, "game": game, "commitment": commitment,
            "secret": secret,
            "contributions": [{"seat": s, "value": v} for s, v in contributions],
            "missing": list(missing)}
