"""Bots: one interface for every player that is not a person (STYLE: Bot protocol).

A bot gets a seat's view (so it cannot see hidden cards), the legal actions, and an
explicit random generator (so games replay exactly).
"""

from usotsuki.bots.base import Bot, bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot"]
