"""What a bot or a watcher reads of the run it belongs to (a ``swarm.Swarm`` is one)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import msgspec

from spidertour.engine import MOVE_REFUSALS

from .config import BotConfig, BotError
from .stats import AckLog, Stats
from .view import ViewRules

ENGINE_CODES = MOVE_REFUSALS
GAME_DONE_CODES = {"time_up", "game_over", "not_saved"}
ANSWER_SECONDS = 15.0  # no answer to a move for this long: reconnect and resend it

decode = msgspec.json.Decoder().decode
encode = msgspec.json.Encoder().encode


class Crew(Protocol):
    cfg: BotConfig
    stats: Stats
    ack_log: AckLog
    rules: ViewRules
    choose: Callable[..., dict[str, Any]]
    play_started: float
    track_acks: bool
    tournament_id: int | None
    play_bases: dict[str, str]  # server -> where its play socket is (its PLAY_PORT, else its own port)
    on_ack: Callable[[Any, int, dict[str, Any]], None]

    def note(self, text: str) -> None: ...


def ws_url(http_url: str) -> str:
    if http_url.startswith("https://"):
        return "wss://" + http_url[len("https://") :]
    if http_url.startswith("http://"):
        return "ws://" + http_url[len("http://") :]
    raise BotError(f"the server must be an http:// or https:// URL, not {http_url!r}")


async def play_base(http: Any, server: str) -> str:
    """Where the server's play socket is, as the web client asks (``GET /api/play/socket``): its own
    port (``PLAY_PORT``, plain ws on the same host) or, when it has none or cannot say, the server's."""
    from urllib.parse import urlsplit

    own = ws_url(server)
    if not server.startswith("http://"):  # the play port speaks no TLS: behind https, the server's own
        return own
    try:
        r = await http.get(f"{server}/api/play/socket")
        port = r.json().get("port") if r.status_code == 200 else None
    except Exception:  # an older server, or none: its own port
        return own
    if not isinstance(port, int):
        return own
    host = urlsplit(server).hostname or "127.0.0.1"
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"
