"""Ids as PostgreSQL keeps them: bigints, so anything past 2**63 - 1 names nothing. A module of its
own, with no import, so that messages and the command line check ids without the web framework."""

from __future__ import annotations

MAX_ID = 2**63 - 1  # ids are PostgreSQL bigints: anything larger names nothing


def valid_id(value: int) -> bool:
    """Could this be an id at all (PostgreSQL would refuse anything else as a bigint)?"""
    return 0 < value <= MAX_ID
