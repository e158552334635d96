"""Bots that ask for matches (``spidertour bots --matches FORMAT``): each bot a guest that asks for a
seat in a match of the format and plays it, so that a server fills with waiting and finished matches
for a demo or a load test."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from .config import BotError


async def format_settings(http: Any, base: str, name: str) -> dict[str, Any]:
    """The game settings of the server's format ``name`` (BotError naming the formats offered when
    the server has none of that name)."""
    import httpx

    try:
        r = await http.get(f"{base}/api/matches/formats")
    except httpx.HTTPError as err:
        raise BotError(f"cannot reach {base}: {err}") from err
    if r.status_code != 200:
        raise BotError(f"GET /api/matches/formats: {r.status_code} {r.text[:200]}")
    formats = {f["name"]: f for f in r.json()}
    if name not in formats:
        raise BotError(f"no format {name!r} on {base}: it offers {', '.join(sorted(formats)) or 'none'}")
    return formats[name]["settings"]  # type: ignore[no-any-return]


async def ask(post: Callable[..., Awaitable[Any]], server: str, token: str, name: str) -> tuple[int, int]:
    """A seat for the bot whose token is ``token``: (its match's id, its entry's id)."""
    r = await post(f"{server}/api/matches", json={"format": name}, headers={"authorization": f"Bearer {token}"})
    if r.status_code != 201:
        raise BotError(f"ask for a match: {r.status_code} {r.text[:200]}")
    answer = r.json()
    return int(answer["match"]["id"]), int(answer["entry"]["id"])
