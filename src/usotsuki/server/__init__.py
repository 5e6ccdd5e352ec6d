"""The game server: FastAPI app, WebSocket protocol, tables, durable store.

See PROTOCOL.md in this folder for the HTTP routes and WebSocket messages.
"""
