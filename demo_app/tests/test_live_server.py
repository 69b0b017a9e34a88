"""The tests' own server (``live_server``): a client that drops its connection leaves no file open."""

from __future__ import annotations

import gc
import socket
import struct
import urllib.request


def test_a_static_file_asked_for_by_a_client_that_resets_is_closed(live_server: str) -> None:
    host, port = live_server.split(":")
    for _ in range(20):  # the reset must come before the server has written: try a few times
        sock = socket.create_connection((host, int(port)))
        sock.sendall(f"GET /static/favicon.svg HTTP/1.1\r\nHost: {live_server}\r\n\r\n".encode())
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()  # SO_LINGER 0: the close is a reset
    with urllib.request.urlopen(f"http://{live_server}/static/favicon.svg") as answer:
        assert answer.status == 200  # the server serves on
    gc.collect()  # a file left open warns here, and pytest's filterwarnings=error fails the test
