"""Pieces shared by both games: errors, events, record reading."""
