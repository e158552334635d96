"""A request's client address: the peer, or the address a trusted proxy forwarded for.

The client's address is the connection's peer, except when the peer is one of the operator's
trusted proxies (``TRUSTED_PROXIES``): then it is the right-most ``X-Forwarded-For`` address that
is not itself a trusted proxy. Without that setting the header is ignored, so nobody can pick an
address to dodge a limit by sending the header.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from litestar.connection import ASGIConnection

from ..config import Network


def _trusted(address: str, proxies: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def client_address(connection: ASGIConnection[Any, Any, Any, Any], proxies: tuple[Network, ...]) -> str:
    """The client's address: the peer, or what a trusted proxy says it forwarded for."""
    peer = connection.client.host if connection.client else "unknown"
    if not proxies or not _trusted(peer, proxies):
        return peer
    forwarded = [a.strip() for h in connection.headers.getall("x-forwarded-for", []) for a in h.split(",")]
    for address in reversed([a for a in forwarded if a]):
        if not _trusted(address, proxies):
            return address
    return forwarded[0] if forwarded and forwarded[0] else peer
