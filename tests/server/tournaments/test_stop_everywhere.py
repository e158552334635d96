"""The organiser's stop (cancel, disqualify) reaches a player connected to another server process:
``stopped`` then ``state``, as docs/protocol.md says, never ``taken_over``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.client import Api, Player
from tests.conftest import server_env
from tests.faults.proxy import TcpProxy
from tests.server.helpers import reveal_move, unique
from tests.serverproc import ServerProcess
from tests.services import unique_name

SEED = "stop-everywhere"


@pytest.fixture
def two_processes(database_url: str, redis_url: str, admin_token: str) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    env = server_env(unique_name("st"))
    a = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        b = ServerProcess(database_url, redis_url, admin_token, env=env).start()
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


async def player_on(api: Api, ws_url: str, tid: int, name: str, start: bool = True) -> tuple[Player, int]:
    _, token = api.register(name)
    entry_id = api.join(tid, token)["id"]
    player, _ = await Player.connect(ws_url, entry_id, token)
    if start:
        assert (await player.start())["status"] == "playing"
    return player, entry_id


async def told_stopped(player: Player, *needles: str) -> dict[str, Any]:
    """The player is sent ``stopped`` (its reason naming why), then the game's ``state``."""
    stopped = await player.recv(timeout=5)
    assert stopped["type"] == "error" and stopped["code"] == "stopped", stopped
    for needle in needles:
        assert needle in stopped["reason"], stopped
    state = await player.recv(timeout=5)
    assert state["type"] == "state", state
    return state


async def test_a_player_on_another_process_is_told_stopped(two_processes: tuple[ServerProcess, ServerProcess]) -> None:
    a, b = two_processes
    api_a, api_b = Api(a.url, a.admin_token), Api(b.url, b.admin_token)
    tid = api_a.create_tournament(name=unique("stop-b"), seed=SEED, variant="spider78", suits=2)["id"]
    cheat, _ = await player_on(api_b, b.ws_url, tid, "cheat")
    assert (await cheat.play(reveal_move(SEED)))["type"] == "result"
    playing, _ = await player_on(api_b, b.ws_url, tid, "playing")
    waiting, _ = await player_on(api_b, b.ws_url, tid, "waiting", start=False)

    cheat_id = api_b.http.get(f"/api/tournaments/{tid}/leaderboard").json()["rows"][0]["entry_id"]
    asked = time.monotonic()
    r = api_a.http.post(
        f"/api/tournaments/{tid}/entries/{cheat_id}/disqualify", headers=api_a.admin(), json={"reason": "two accounts"}
    )
    assert r.status_code == 200, r.text
    state = await told_stopped(cheat, "disqualified", "two accounts")
    print(f"disqualified on A, stopped on B after {time.monotonic() - asked:.3f} s")
    assert state["status"] == "ended" and state["view"]["over"]
    after = await cheat.play({"type": "move", "from": 1, "count": 1, "to": 8})
    assert after["type"] == "error" and after["code"] == "game_over", after

    r = api_a.http.post(f"/api/tournaments/{tid}/cancel", headers=api_a.admin())
    assert r.status_code == 200, r.text
    assert (await told_stopped(playing, "cancelled"))["status"] == "ended"
    assert (await told_stopped(waiting, "cancelled"))["status"] == "absent"
    for player in (cheat, playing, waiting):
        assert (await player.request({"type": "ping"}))["type"] == "pong"  # still open: not taken over
        await player.close()


async def test_with_redis_unavailable_the_next_move_is_told_stopped(
    database_url: str, redis_url: str, admin_token: str
) -> None:
    """Process B cannot reach Redis, so the word does not come: its player's next move, which the
    commit refuses, is answered ``stopped`` (with the move's seq) and the state, not ``taken_over``."""
    env = server_env(unique_name("st"))
    a = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        with TcpProxy.for_redis(redis_url) as proxy:
            b_redis = proxy.url
            b = ServerProcess(database_url, b_redis, admin_token, env=env).start()
            try:
                api_a, api_b = Api(a.url, admin_token), Api(b.url, admin_token)
                tid = api_a.create_tournament(name=unique("stop-cut"), seed=SEED, variant="spider78", suits=2)["id"]
                player, entry_id = await player_on(api_b, b.ws_url, tid, "unheard")
                proxy.cut()
                r = api_a.http.post(
                    f"/api/tournaments/{tid}/entries/{entry_id}/disqualify",
                    headers=api_a.admin(),
                    json={"reason": "found out"},
                )
                assert r.status_code == 200, r.text
                refused = await player.play(reveal_move(SEED))
                assert refused["type"] == "error" and refused["code"] == "stopped", refused
                assert refused["seq"] == player.seq and "found out" in refused["reason"]
                state = await player.recv()
                assert state["type"] == "state" and state["status"] == "ended"
                assert (await player.request({"type": "ping"}))["type"] == "pong"
                proxy.restore()
                await player.close()
            finally:
                b.stop()
    finally:
        a.stop()
