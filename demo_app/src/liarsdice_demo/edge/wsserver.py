"""The server side of a WebSocket: simple-websocket's, with a bounded inflater.

Contract: :class:`BoundedServer` accepts the handshake in ``environ`` (as
:class:`simple_websocket.Server` does, offering the same subprotocols) but negotiates compression
with the :class:`~liarsdice_demo.edge.inflation.BoundedDeflate` it is given, so every compressed
message it reads inflates to at most that extension's cap. :func:`upgraded` is the Flask response
for a view that served a socket to its end, under gunicorn or Werkzeug: the socket was the
response, so nothing more is written (gunicorn is told so; Werkzeug's development server gets an
empty body). This replaces flask-sock, whose route builds simple-websocket's server itself, with
no way to bound inflation.
"""

from __future__ import annotations

from typing import Any

from flask import Response
from simple_websocket import Server
from wsproto.events import AcceptConnection, Request

from liarsdice_demo.edge.inflation import BoundedDeflate


class BoundedServer(Server):
    """A simple-websocket server whose permessage-deflate is ``deflate``."""

    def __init__(self, environ: dict[str, Any], deflate: BoundedDeflate, **options: Any) -> None:
        self._deflate = deflate  # before Server.__init__, which does the handshake
        super().__init__(environ, **options)

    def handshake(self) -> None:
        """Accept the request's handshake (its headers are in the WSGI ``environ``)."""
        lines = [b"GET / HTTP/1.1"]
        for key, value in self.environ.items():
            if key.startswith("HTTP_"):
                name = "-".join(part.capitalize() for part in key[5:].split("_"))
                lines.append(f"{name}: {value}".encode())
        self.ws.receive_data(b"\r\n".join([*lines, b"", b""]))
        for event in self.ws.events():
            if isinstance(event, Request):
                self.subprotocol = self.choose_subprotocol(event)
                accept = AcceptConnection(subprotocol=self.subprotocol, extensions=[self._deflate])
                assert self.sock is not None  # Server.__init__ sets it before the handshake
                self.sock.send(self.ws.send(accept))
                self.connected = True


def upgraded(ws: Server) -> Response:
    """The response of a view whose socket ``ws`` was served (and closed) already."""

    class Upgraded(Response):
        def __call__(self, environ: Any, start_response: Any) -> Any:
            if ws.mode == "gunicorn":  # gunicorn's sign that the app wrote the answer itself
                raise StopIteration
            if ws.mode == "werkzeug":
                return super().__call__(environ, start_response)
            return []

    return Upgraded()
