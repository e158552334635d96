"""``spidertour bots`` against a real server: bots play, watchers watch, every acknowledgement is in PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.server.helpers import spidertour


def test_bots_play_watch_and_their_acks_check_out(
    server: Any, admin_token: str, database_url: str, tmp_path: Path
) -> None:
    figures, acks = tmp_path / "figures.json", tmp_path / "acks.jsonl"
    done = spidertour(
        "bots",
        "--server",
        server.url,
        "--admin-token",
        admin_token,
        "--players",
        "4",
        "--watchers",
        "3",
        "--watch-sample",
        "2",
        "--pace",
        "8",
        "--duration",
        "3",
        "--policy",
        "greedy",
        "--end-early",
        "0.25",
        "--no-live",
        "--json",
        str(figures),
        "--ack-log",
        str(acks),
        "--seed",
        "7",
    )
    assert done.returncode == 0, done.stderr
    got = json.loads(figures.read_text())
    assert got["acknowledged_moves"] > 10 and got["error_count"] == 0, got
    assert got["outcomes"].get("ended", 0) >= 1  # one bot in four ends its game early
    assert got["watch_updates"] > 0 and got["feed_lag_ms"]["p50"] is not None
    logged = acks.read_text().splitlines()
    assert len(logged) == got["acknowledged_moves"]
    checked = spidertour("bots", "--check-acks", str(acks), DATABASE_URL=database_url)
    assert checked.returncode == 0 and f"all {len(logged)} acknowledged moves" in checked.stdout, checked


def test_bots_refuse_bad_options_clearly(server: Any) -> None:
    for args, words in (
        (["--players", "-1"], "players"),
        (["--server", "ftp://x"], "http"),
        (["--check-acks", "/nonexistent/acks.jsonl"], ""),
    ):
        done = spidertour("bots", *args, "--no-live", "--duration", "1")
        assert done.returncode != 0
        assert words in (done.stderr + done.stdout).lower()
        assert "Traceback" not in done.stderr


async def test_bots_play_on_the_servers_play_port(server: Any) -> None:
    """As the web client: the play socket where ``GET /api/play/socket`` says, else the server's own."""
    import httpx

    from spidertour.server.cli.bots.crew import play_base
    from tests.serverproc import free_port

    async with httpx.AsyncClient(timeout=5) as http:
        assert await play_base(http, server.url) == f"ws://127.0.0.1:{server.play_port}"
        nobody = f"http://127.0.0.1:{free_port()}"  # nothing listens there: its own port
        assert await play_base(http, nobody) == nobody.replace("http://", "ws://")
        assert await play_base(http, "https://play.example") == "wss://play.example"  # no TLS on the play port
