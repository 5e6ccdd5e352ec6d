"""HTTP routes of the game server (see PROTOCOL.md)."""
