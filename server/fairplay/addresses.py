"""A request's client address: the peer, or the address a trusted proxy forwarded for.

The client's address is the connection's peer, except when the peer is one of the operator's
trusted proxies (``TRUSTED_PROXIES``): then it is the right-most ``X-Forwarded-For`` address that
is not itself a trusted proxy. Without that setting the header is ignored, so nobody can pick an
address to dodge a limit by sending the header. A forwarded value that is not an IP address
counts as the peer's own (junk in the header makes no address of its own).

The limits count an IPv6 client by its /64 (``bucket``): one host commonly holds a whole /64, so
counting each address apart would give it billions of allowances.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from litestar.connection import ASGIConnection

from ..config import Network

IP = ipaddress.IPv4Address | ipaddress.IPv6Address


def _ip(address: str) -> IP | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


def _trusted(ip: IP | None, proxies: tuple[Network, ...]) -> bool:
    return ip is not None and any(ip in net for net in proxies)


def client_address(connection: ASGIConnection[Any, Any, Any, Any], proxies: tuple[Network, ...]) -> str:
    """The client's address: the peer, or what a trusted proxy says it forwarded for."""
    peer = connection.client.host if connection.client else "unknown"
    if not proxies or not _trusted(_ip(peer), proxies):
        return peer
    return address_of(peer, connection.headers.getall("x-forwarded-for", []), proxies)


def address_of(peer: str, forwarded_for: list[str], proxies: tuple[Network, ...]) -> str:
    """The client's address from its peer's and the ``X-Forwarded-For`` headers' (any server's connection)."""
    if not proxies or not _trusted(_ip(peer), proxies):
        return peer
    forwarded = [a.strip() for h in forwarded_for for a in h.split(",")]
    addresses = [_ip(a) for a in forwarded if a]
    for ip in reversed(addresses):
        if not _trusted(ip, proxies):
            return str(ip) if ip is not None else peer  # junk is nobody's address: the peer's it stays
    return str(addresses[0]) if addresses and addresses[0] is not None else peer


def bucket(address: str) -> str:
    """What a limit counts: an IPv4 address as it is (an IPv4-mapped IPv6 one too), an IPv6 one by its /64."""
    ip = _ip(address)
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return address
