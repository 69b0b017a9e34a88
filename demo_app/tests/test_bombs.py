"""Compression bombs: a compressed message inflates to at most the message cap, then the socket is
closed with 1009; what it inflated to is charged to its client's budget.

The unit tests drive wsproto's server connection with :class:`BoundedDeflate` directly (and
measure what inflating allocates); the served tests send a bomb to the real server
(``liarsdice-demo`` and the README's gunicorn command line, from test_served.py's fixture).
"""

from __future__ import annotations

import base64
import os
import socket
import tracemalloc
import zlib
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.events import AcceptConnection, CloseConnection, Request, TextMessage
from wsproto.extensions import PerMessageDeflate

from liarsdice_demo.edge.gate import SocketGate
from liarsdice_demo.edge.inflation import BoundedDeflate

from .test_served import Serve, new_table_socket_url, serve  # noqa: F401 - the fixture

CAP = 16 * 1024
BOMB = 16 * 1024 * 1024


def deflated(data: bytes, deflate: Any = None) -> bytes:
    """``data`` as one permessage-deflate message payload (from ``deflate``'s context)."""
    deflate = deflate or zlib.compressobj(9, zlib.DEFLATED, -15)
    return bytes(deflate.compress(data) + deflate.flush(zlib.Z_SYNC_FLUSH))[:-4]


def frame(payload: bytes, *, opcode: int = 1, fin: bool = True, compressed: bool = True) -> bytes:
    """A client frame (masked with a zero key) carrying ``payload``."""
    first = (0x80 if fin else 0) | (0x40 if compressed else 0) | opcode
    if len(payload) < 126:
        length = bytes([0x80 | len(payload)])
    elif len(payload) < 65536:
        length = bytes([0x80 | 126]) + len(payload).to_bytes(2, "big")
    else:
        length = bytes([0x80 | 127]) + len(payload).to_bytes(8, "big")
    return bytes([first]) + length + b"\0\0\0\0" + payload


def server_with(extension: PerMessageDeflate) -> WSConnection:
    """A wsproto server connection that accepted a client's compression offer with ``extension``."""
    server = WSConnection(ConnectionType.SERVER)
    server.receive_data(
        b"GET /ws/X HTTP/1.1\r\nHost: h\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        b"Sec-WebSocket-Key: " + base64.b64encode(os.urandom(16)) + b"\r\n"
        b"Sec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
    )
    request = next(server.events())
    assert isinstance(request, Request)
    server.send(AcceptConnection(extensions=[extension]))
    return server


def receive(server: WSConnection, data: bytes, chunk: int = 4096) -> list[Any]:
    """Feed ``data`` as the socket reader does (``chunk`` bytes a read); the events."""
    events: list[Any] = []
    for at in range(0, len(data), chunk):
        server.receive_data(data[at : at + chunk])
        events += server.events()
        if any(isinstance(event, CloseConnection) for event in events):
            break
    return events


def texts(events: list[Any]) -> list[str]:
    """The whole text messages among ``events`` (a message may come in parts)."""
    done, part = [], ""
    for event in events:
        if isinstance(event, TextMessage):
            part += event.data
            if event.message_finished:
                done, part = [*done, part], ""
    return done


def peak_bytes(work: Any) -> int:
    """The most memory Python allocated (traced) at once while ``work()`` ran."""
    tracemalloc.start()
    try:
        work()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


BOMB_FRAME = frame(deflated(bytes(BOMB)))


def test_a_bomb_stops_inflating_at_the_cap_and_closes_with_1009() -> None:
    assert len(BOMB_FRAME) < 17_000  # 16 KB on the wire
    spent: list[int] = []
    server = server_with(BoundedDeflate(CAP, spent.append))
    events: list[Any] = []
    peak = peak_bytes(lambda: events.extend(receive(server, BOMB_FRAME)))
    closes = [event for event in events if isinstance(event, CloseConnection)]
    assert [(close.code, close.reason) for close in closes] == [
        (1009, f"message too big: over {CAP} bytes inflated")
    ]
    assert not any(isinstance(event, TextMessage) for event in events)
    assert sum(spent) <= CAP  # what was charged to the client: never past the cap
    assert peak < CAP + 128 * 1024  # the cap, the frame, zlib's window: not 16 MiB


def test_the_stock_extension_inflates_a_whole_read() -> None:
    """What the bound is for: wsproto's own extension inflates each 4 KB read whole."""
    server = server_with(PerMessageDeflate())
    peak = peak_bytes(lambda: receive(server, BOMB_FRAME[:4096]))  # one read
    assert peak > 4 * 1024 * 1024


def test_messages_within_the_cap_inflate_whole_and_share_a_context() -> None:
    spent: list[int] = []
    server = server_with(BoundedDeflate(CAP, spent.append))
    context = zlib.compressobj(9, zlib.DEFLATED, -15)  # the client keeps its context
    sent = ['{"v": 1, "type": "ping"}', "x" * CAP, "é" * 100]
    wire = b"".join(frame(deflated(text.encode(), context)) for text in sent)
    assert texts(receive(server, wire, chunk=7)) == sent
    assert sum(spent) == sum(len(text.encode()) for text in sent)


def test_the_cap_counts_a_whole_fragmented_message() -> None:
    server = server_with(BoundedDeflate(CAP))
    context = zlib.compressobj(9, zlib.DEFLATED, -15)
    half = b"y" * (CAP // 2 + 1)
    first, second = (context.compress(half) + context.flush(zlib.Z_SYNC_FLUSH) for _ in "12")
    wire = frame(first, fin=False) + frame(second, opcode=0, fin=False, compressed=False)
    events = receive(server, wire)
    assert [e.code for e in events if isinstance(e, CloseConnection)] == [1009]


def test_an_uncompressed_message_passes_untouched() -> None:
    server = server_with(BoundedDeflate(CAP))
    assert texts(receive(server, frame(b'{"v": 1}', compressed=False))) == ['{"v": 1}']


def test_inflated_bytes_past_the_budget_make_the_next_read_wait() -> None:
    gate = SocketGate(
        max_sockets=10,
        max_per_client=5,
        opens_rate=1.0,
        opens_burst=5,
        message_rate=1.0,
        message_burst=5,
        flood_penalty=1.0,
        inflated_rate=1000.0,
        inflated_burst=4000,
    )
    gate.admit("a")
    gate.admit("b")
    gate.inflated("a", 3000)
    assert gate.read_delay("a", 10) == 0  # within the burst
    gate.inflated("a", 3000)
    assert 1.5 < gate.read_delay("a", 10) <= 2.0  # 2000 bytes over at 1000 a second
    assert gate.read_delay("b", 10) == 0  # another client has its own budget


def bomb(host: str, url: str) -> tuple[int, str]:
    """Open a socket to ``url`` offering compression, send the bomb; the close code and reason."""
    name, port = host.split(":")
    path = url.split(host, 1)[1]
    key = base64.b64encode(os.urandom(16)).decode()
    with socket.create_connection((name, int(port)), timeout=10) as sock:
        sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13"
                "\r\nSec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
            ).encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += sock.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101 "), answer
        assert b"permessage-deflate" in answer
        sock.sendall(BOMB_FRAME)
        data = answer.split(b"\r\n\r\n", 1)[1]
        while len(data) < 2 or len(data) < 2 + data[1]:
            more = sock.recv(4096)
            assert more, "closed without a close frame"
            data += more
    assert data[0] == 0x88, data  # a close frame
    body = data[2 : 2 + data[1]]
    return int.from_bytes(body[:2], "big"), body[2:].decode()


def test_a_served_bomb_is_closed_with_1009_and_the_table_still_serves(serve: Serve) -> None:  # noqa: F811
    from simple_websocket import Client

    host = serve()
    url = new_table_socket_url(host)
    assert bomb(host, url) == (1009, f"message too big: over {CAP} bytes inflated")
    ws = Client.connect(url)  # the same table, the same client: still served
    try:
        ws.send('{"v": 1, "type": "hello"}')
        assert '"welcome"' in ws.receive(timeout=10)
    finally:
        ws.close()
