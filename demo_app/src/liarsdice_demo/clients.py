"""Who a client is, for every per-client limit: its IPv4 address, or its IPv6 /64 network.

Contract: :func:`client_key` reads ``request.remote_addr`` (the real client's address when
``PROXY_FIX`` is set behind a proxy). One IPv6 subscriber is usually given a whole /64, so keying
IPv6 clients by their full address would let one person spread over 2^64 "clients"; the /64 is
what one subscriber holds. An address that does not parse is its own key.
"""

from __future__ import annotations

import ipaddress

from flask import request

IPV6_PREFIX = 64


def key_for(address: str | None) -> str:
    """The client key of ``address``."""
    if not address:
        return "?"
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def client_key() -> str:
    """The client key of the current request."""
    return key_for(request.remote_addr)
