"""Who a client is, and which network it belongs to, for the limits each of them shares.

A client is its IPv4 address or its IPv6 /64 network; its network is its IPv4 /24 or its IPv6 /48.
Where a household or a classroom shares one address, :func:`player_key` tells its players apart
by their player cookie.

Contract: :func:`client_key` and :func:`network_key` read ``request.remote_addr`` (the real
client's address when ``PROXY_FIX`` is set behind a proxy). One IPv6 subscriber is usually given a
whole /64, so keying IPv6 clients by their full address would let one person spread over 2^64
"clients"; the /64 is what one subscriber holds. A site (or a small hosting customer) usually
holds an IPv4 /24 or an IPv6 /48: the network key bounds what one attacker with many addresses of
one such network can do together. An IPv4-mapped IPv6 address is its IPv4 address. An address
that does not parse is its own key, and its own network.
"""

from __future__ import annotations

import ipaddress

from flask import g, request

IPV6_PREFIX = 64
IPV4_NETWORK = 24
IPV6_NETWORK = 48


def _parsed(address: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``address`` parsed (an IPv4-mapped IPv6 address as its IPv4 address), or ``None``."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return None
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return parsed.ipv4_mapped
    return parsed


def key_for(address: str | None) -> str:
    """The client key of ``address``."""
    if not address:
        return "?"
    parsed = _parsed(address)
    if parsed is None:
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def network_for(address: str | None) -> str:
    """The network key of ``address``: its IPv4 /24 or IPv6 /48, written as a network."""
    if not address:
        return "?"
    parsed = _parsed(address)
    if parsed is None:
        return address
    prefix = IPV6_NETWORK if isinstance(parsed, ipaddress.IPv6Address) else IPV4_NETWORK
    return str(ipaddress.ip_network((parsed, prefix), strict=False))


def client_key() -> str:
    """The client key of the current request."""
    return key_for(request.remote_addr)


def network_key() -> str:
    """The network key of the current request."""
    return network_for(request.remote_addr)


def player_key() -> str | None:
    """The player of the current request (``g.player``, loaded from their cookie) as a limit's
    key, or ``None`` for a newcomer."""
    player = g.get("player")
    return None if player is None else f"player:{player['id']}"
