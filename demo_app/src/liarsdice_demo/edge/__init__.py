"""Where clients meet the server: the gate, admission, the guard, limits and the wire.

The socket gate and the handshake door, requests in flight, the request guard, per-client rate
limits, who a client is, a client's connection, the WebSocket protocol and server, and inflation.
"""
