"""The web entry points: the pages, the lobby, the JSON API and the WebSocket endpoint.

The top of the demo: these blueprints read the tables, storage, the edge and the text below them,
and nothing below imports them.
"""
