"""Operating the server: /metrics, logs (4xx one INFO line, JSON on request), a quiet start-up."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from prometheus_client.parser import text_string_to_metric_families

from tests.client import Api
from tests.server.helpers import new_player, reveal_move
from tests.serverproc import ServerProcess


def scrape(url: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    r = httpx.get(url + "/metrics", timeout=10)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(r.text)
        for s in family.samples
    }


async def test_metrics_count_what_the_server_does(api: Api, server: Any) -> None:
    before = scrape(server.url)
    seed = "metrics-seed"
    tid = api.create_tournament(name="metrics", seed=seed, variant="spider78", suits=2)["id"]
    player, _ = await new_player(api, server.ws_url, tid, "measured")
    assert (await player.play(reveal_move(seed)))["type"] == "result"
    refused = await player.play({"type": "move", "from": 1, "count": 13, "to": 2})
    assert refused["type"] == "error"
    async with websockets.connect(f"{server.ws_url}/ws/watch/{tid}") as watch:
        await watch.recv()
        during = scrape(server.url)
    await player.close()
    after = scrape(server.url)

    def delta(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert delta("spidertour_moves_total") >= 1
    assert delta("spidertour_refusals_total", code=refused["code"]) >= 1
    assert delta("spidertour_ack_seconds_count") >= 2
    assert delta("spidertour_commit_batch_size_count") >= 1
    assert during[("spidertour_watchers", ())] >= 1 and during[("spidertour_play_connections", ())] >= 1
    assert during[("spidertour_games", (("status", "playing"),))] >= 1
    assert during[("spidertour_tournaments", (("status", "open"),))] >= 1
    for name in (
        "spidertour_db_errors_total",
        "spidertour_redis_errors_total",
        "spidertour_leaderboard_rebuilds_total",
    ):
        assert (name, ()) in after
    for generation in "012":  # the collector's pauses, timed from the start (operations.collector)
        assert ("spidertour_gc_pause_seconds_count", (("generation", generation),)) in after


def test_a_collection_is_timed_into_its_generation() -> None:
    from spidertour.server.operations.collector import time_pause
    from spidertour.server.operations.metrics import REGISTRY

    def middle(what: str) -> float:
        return REGISTRY.get_sample_value(f"spidertour_gc_pause_seconds_{what}", {"generation": "1"}) or 0.0

    count, total = middle("count"), middle("sum")
    time_pause("start", {"generation": 1})
    time.sleep(0.02)
    time_pause("stop", {"generation": 1, "collected": 0, "uncollectable": 0})
    assert middle("count") == count + 1
    assert middle("sum") - total >= 0.02


def test_client_errors_are_one_info_line_and_logs_can_be_json(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str, server: Any
) -> None:
    # A database of its own: on the shared one this server could take over another test's par
    # and be stopped in the middle of solving it.
    proc = ServerProcess(
        fresh_database_url,
        redis_url,
        admin_token,
        log_level="info",
        env={"REDIS_PREFIX": redis_prefix + "_logs", "LOG_FORMAT": "json"},
    )
    proc.log_path.unlink(missing_ok=True)
    proc.start()
    try:
        assert httpx.get(proc.url + "/api/tournaments/999999999").status_code == 404
        assert (
            httpx.post(
                proc.url + "/api/players", content=b'{"name": 1}', headers={"content-type": "application/json"}
            ).status_code
            == 400
        )
        assert (
            httpx.post(
                proc.url + "/api/players",
                content=b"name=x",
                headers={"content-type": "application/x-www-form-urlencoded"},
            ).status_code
            == 415
        )
        time.sleep(0.5)
    finally:
        proc.stop()
    lines = Path(proc.log_path).read_text().splitlines()
    assert lines[0] == (
        f"spidertour on http://127.0.0.1:{proc.port}/"
        f" (the play and watch sockets also on ws://127.0.0.1:{proc.play_port}/ws/play/ and /ws/watch/)"
    )
    records = [json.loads(line) for line in lines[1:] if line.strip()]
    client_errors = [r for r in records if r["logger"] == "spidertour.http"]
    assert [r["message"].split(" -> ")[1][:3] for r in client_errors] == ["404", "400", "415"]
    assert all(r["level"] == "INFO" and "exc_info" not in r for r in client_errors)
    assert not [r for r in records if r["level"] in ("ERROR", "CRITICAL")]
    assert "Traceback" not in Path(proc.log_path).read_text()


def test_start_up_prints_the_address_and_token_without_initdb_output(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """With no DATABASE_URL the server starts its own PostgreSQL: its initdb output stays out of sight."""
    proc = ServerProcess(
        "",
        redis_url,
        "",
        env={"REDIS_PREFIX": redis_prefix + "_boot", "SPIDERTOUR_DATA": str(tmp_path / "data")},
        log_level="info",
    )
    proc.log_path.unlink(missing_ok=True)
    proc.start(timeout=120)
    try:
        assert httpx.get(proc.url + "/health").status_code == 200
    finally:
        proc.stop()
    text = Path(proc.log_path).read_text()
    assert f"spidertour on http://127.0.0.1:{proc.port}/" in text
    # A generated token never starts with "-": it can follow --admin-token on a command line.
    assert re.search(r"^ADMIN_TOKEN=[A-Za-z0-9_][A-Za-z0-9_-]{31}  \(generated", text, re.MULTILINE), text
    for noise in (
        "initdb",
        "The files belonging to this database system",
        "Success. You can now start",
        "XDG_RUNTIME_DIR",
    ):
        assert noise not in text, noise
    assert len(text.splitlines()) < 20, text
