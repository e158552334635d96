"""The play socket on its own port (PLAY_PORT): the same protocol as on the server's port, found by
clients through ``GET /api/play/socket``; closed with 1012 when the server stops. Every other play
test runs on it too (``tests.client.Player`` connects where the server says)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
import websockets

from spidertour.server.play.sockets.fast import FastPlay
from tests.client import Api, Player, play_url
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name


def joined(api: Api, name: str) -> tuple[int, str]:
    _, token = api.register(name)
    tournament = api.create_tournament(name=name, variant="spider78", suits=1, time_limit=600)
    return int(api.join(tournament["id"], token)["id"]), token


@pytest.fixture
def own_server(database_url: str, redis_url: str, admin_token: str, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A server of the test's own (``request.param``: extra environment), stopped after it."""
    env = {**server_env(unique_name("st_pp")), **getattr(request, "param", {})}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


async def test_the_play_port_is_said_and_plays_as_the_servers_own(api: Api, server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/api/play/socket").json() == {"port": server.play_port}
    url = play_url(server.ws_url, 1)
    assert url == f"ws://127.0.0.1:{server.play_port}/ws/play/1"
    entry_id, token = joined(api, "port-a")
    player, state = await Player.connect(server.ws_url, entry_id, token)  # on the play port
    assert state["type"] == "state" and state["status"] == "joined"
    started = await player.start()
    assert started["type"] == "state" and started["status"] == "playing"
    pong = await player.request({"type": "ping"})
    assert pong["type"] == "pong"
    bad = await player.request("{not json")
    assert bad["type"] == "error" and bad["code"] == "bad_message"
    # The same entry on the server's own port takes it over: one protocol, two doors, one session each.
    async with websockets.connect(f"{server.ws_url}/ws/play/{entry_id}") as other:
        await other.send(json.dumps({"type": "auth", "token": token}))
        assert json.loads(await other.recv())["status"] == "playing"
        taken = await player.recv()
        assert taken["type"] == "error" and taken["code"] == "taken_over"
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await player.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001


async def test_a_message_in_several_frames_is_one_message(api: Api, server: ServerProcess) -> None:
    entry_id, token = joined(api, "port-frames")
    async with websockets.connect(play_url(server.ws_url, entry_id)) as ws:
        auth = json.dumps({"type": "auth", "token": token})
        await ws.send([auth[:10], auth[10:20], auth[20:]])  # fragments of one text message
        assert json.loads(await ws.recv())["type"] == "state"


async def test_another_path_on_the_play_port_is_not_found(server: ServerProcess) -> None:
    base = f"ws://127.0.0.1:{server.play_port}"
    for path in ("/ws/watch/x", "/ws/play/x", "/ws/play/", "/ws/other/1", "/"):
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(base + path)
        assert refused.value.response.status_code == 404, path
    # Not a websocket at all: refused (an error status, or the connection closed), nothing served.
    try:
        status: int | None = httpx.get(f"http://127.0.0.1:{server.play_port}/ws/play/1", timeout=5).status_code
    except httpx.HTTPError:
        status = None
    assert status is None or status >= 400


@pytest.mark.parametrize("own_server", [{"PLAY_PORT": ""}], indirect=True)
async def test_without_a_play_port_clients_play_on_the_servers_port(api: Api, own_server: ServerProcess) -> None:
    assert httpx.get(f"{own_server.url}/api/play/socket").json() == {"port": None}
    assert play_url(own_server.ws_url, 7) == f"{own_server.ws_url}/ws/play/7"
    entry_id, token = joined(Api(own_server.url, api.admin_token), "port-none")
    player, state = await Player.connect(own_server.ws_url, entry_id, token)
    assert state["type"] == "state"
    assert (await player.start())["status"] == "playing"
    await player.close()


async def test_a_stopping_server_closes_the_play_port_with_1012(api: Api, own_server: ServerProcess) -> None:
    entry_id, token = joined(Api(own_server.url, api.admin_token), "port-stop")
    player, _ = await Player.connect(own_server.ws_url, entry_id, token)
    own_server.stop()  # SIGTERM: the server shuts down as it does for a restart
    assert "Traceback" not in own_server.log_path.read_text()
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await player.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012


async def test_the_play_port_serves_the_watch_socket_as_the_servers_own(api: Api, server: ServerProcess) -> None:
    _, token = api.register("port-watched")
    tournament_id = int(api.create_tournament(name="port-watched", variant="spider78", suits=1, time_limit=600)["id"])
    entry_id = int(api.join(tournament_id, token)["id"])
    async with websockets.connect(f"ws://127.0.0.1:{server.play_port}/ws/watch/{tournament_id}") as watch:
        snapshot = json.loads(await watch.recv())
        assert snapshot["type"] == "snapshot" and snapshot["entrants"] == 1
        await watch.send(json.dumps({"type": "ping"}))
        assert json.loads(await watch.recv())["type"] == "pong"
        await watch.send("{not json")
        refused = json.loads(await watch.recv())
        assert refused["type"] == "error" and refused["code"] == "bad_message"
        player, _ = await Player.connect(server.ws_url, entry_id, token)
        await player.start()  # the entry starts playing: the watcher is told
        for _ in range(20):
            update = json.loads(await asyncio.wait_for(watch.recv(), 10))
            if update["type"] == "update" and any(r["status"] == "playing" for r in update["changed"]):
                break
        else:
            pytest.fail("the watcher on the play port was not told the game started")
        await player.close()


class Queued:
    """A connection's side as ``FastPlay.later`` sees it: its loop, and what its flush did."""

    def __init__(self, name: str, fails: bool = False) -> None:
        self.loop = asyncio.get_running_loop()
        self.kind, self.id, self.fails = "play", name, fails
        self.flushed = 0

    def flush_queued(self) -> None:
        self.flushed += 1
        if self.fails:
            raise OSError("the socket broke")


async def test_a_turns_answers_go_once_at_its_end_and_one_broken_socket_holds_back_none() -> None:
    play = FastPlay(*([cast(Any, None)] * 5))
    first, broken, last = Queued("a"), Queued("b", fails=True), Queued("c")
    for connection in (first, broken, last):
        play.later(cast(Any, connection))
    assert (first.flushed, last.flushed) == (0, 0)  # not during the turn
    await asyncio.sleep(0)  # the turn ends
    assert (first.flushed, broken.flushed, last.flushed) == (1, 1, 1)
    assert play.outgoing == []


async def test_at_info_the_play_port_logs_no_line_per_connection(
    database_url: str, redis_url: str, admin_token: str
) -> None:
    """A crowd of players connecting is not a line each in the log (picows says one at INFO)."""
    env = server_env(unique_name("st_pl"))
    proc = ServerProcess(database_url, redis_url, admin_token, env=env, log_level="info").start()
    try:
        entry_id, token = joined(Api(proc.url, admin_token), "port-quiet")
        for _ in range(3):
            player, state = await Player.connect(proc.ws_url, entry_id, token)
            assert state["type"] == "state"
            await player.close()
        await asyncio.sleep(0.2)
    finally:
        proc.stop()
    log = proc.log_path.read_text()
    assert "INFO" in log  # INFO lines are written...
    assert "picows" not in log and "connection accepted" not in log.lower()  # ...but none per connection
