"""The play websocket against a real server process, real PostgreSQL and real Redis."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import pytest
import websockets

from spidertour.engine import Game, Settings, move_from_json
from tests.client import Api, Player, play_url
from tests.conftest import UNLIMITED, server_env
from tests.serverproc import ServerProcess

SEED = "play-tests"


@pytest.fixture
def tournament(api: Api) -> dict[str, Any]:
    return api.create_tournament(name="play", seed=SEED, variant="spider78", suits=2, time_limit=600)


def first_legal(game: Game, skip_deals: bool = True) -> dict[str, Any]:
    for move in game.legal_moves():
        if not (skip_deals and move.type == "deal"):
            return move.to_json()
    raise AssertionError("no legal move")


async def joined(
    api: Api, server, tournament: dict[str, Any], name: str = "p"
) -> tuple[Player, dict[str, Any], dict[str, Any], str]:
    _, token = api.register(name)
    entry = api.join(tournament["id"], token)
    player, state = await Player.connect(server.ws_url, entry["id"], token)
    return player, state, entry, token


async def test_unknown_or_huge_entry_is_unauthorised(api: Api, server) -> None:
    _, token = api.register("nobody")
    for entry_id in (0, 987654321, 99999999999999999999):
        async with websockets.connect(play_url(server.ws_url, entry_id)) as ws:
            await ws.send(json.dumps({"type": "auth", "token": token}))
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == "unauthorised"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003


async def test_auth_is_required_and_checked(api: Api, server, tournament: dict[str, Any]) -> None:
    _, token = api.register("owner")
    entry = api.join(tournament["id"], token)
    _, other = api.register("intruder")
    for bad in ({"type": "auth", "token": other}, {"type": "start"}, "nonsense"):
        async with websockets.connect(play_url(server.ws_url, entry["id"])) as ws:
            await ws.send(bad if isinstance(bad, str) else json.dumps(bad))
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["code"] == "unauthorised"
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003


async def test_start_move_and_commit(api: Api, server, tournament: dict[str, Any], database_url: str) -> None:
    player, state, entry, _ = await joined(api, server, tournament)
    assert state["type"] == "state" and state["status"] == "joined" and state["view"] is None
    before = await player.play({"type": "move", "from": 0, "count": 1, "to": 1})
    assert before["type"] == "error" and before["code"] == "not_started"
    started = await player.start()
    assert started["type"] == "state" and started["status"] == "playing"
    assert 599 < started["time_left"] <= 600
    game = Game(Settings(variant="spider78", suits=2), SEED)
    assert started["view"] == game.view()
    move = first_legal(game)
    answer = await player.play(move)
    game.play_json(move)
    assert answer["type"] == "result" and answer["seq"] == player.seq and answer["n"] == 1
    assert answer["view"] == game.view()
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch("SELECT n, seq, move::text FROM moves WHERE entry_id = $1", entry["id"])
    finally:
        await conn.close()
    assert [(r["n"], r["seq"], json.loads(r["move"])) for r in rows] == [(1, player.seq, move)]
    await player.close()


async def test_illegal_move_is_refused_and_changes_nothing(api: Api, server, tournament: dict[str, Any]) -> None:
    player, _, _, _ = await joined(api, server, tournament)
    started = await player.start()
    answer = await player.play({"type": "move", "from": 0, "count": 3, "to": 1})
    assert answer["type"] == "error" and answer["code"] in ("face_down", "not_a_group", "cannot_place")
    sync = await player.request({"type": "sync"})
    assert sync["view"] == started["view"] and sync["moves"] == 0
    await player.close()


async def test_resent_move_gets_same_answer_and_is_applied_once(api: Api, server, tournament: dict[str, Any]) -> None:
    player, _, _, _ = await joined(api, server, tournament)
    await player.start()
    game = Game(Settings(variant="spider78", suits=2), SEED)
    move = first_legal(game)
    first = await player.play(move, seq=7)
    again = await player.play(move, seq=7)
    assert first["type"] == again["type"] == "result"
    assert again["repeated"] is True and again["n"] == first["n"] == 1
    assert again["view"] == first["view"]
    other = next(m.to_json() for m in game.legal_moves() if m.to_json() != move)
    reused = await player.play(other, seq=7)
    assert reused["type"] == "error" and reused["code"] == "seq_reused"
    older = await player.play(move, seq=3)
    assert older["type"] == "error" and older["code"] == "stale_seq"
    sync = await player.request({"type": "sync"})
    assert sync["moves"] == 1 and sync["last_seq"] == 7
    await player.close()


async def test_second_connection_takes_over(api: Api, server, tournament: dict[str, Any]) -> None:
    first, _, entry, token = await joined(api, server, tournament)
    await first.start()
    second, state = await Player.connect(server.ws_url, entry["id"], token)
    assert state["type"] == "state" and state["status"] == "playing"
    notice = await first.recv()
    assert notice["type"] == "error" and notice["code"] == "taken_over"
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await first.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001
    game = Game(Settings(variant="spider78", suits=2), SEED)
    answer = await second.play(first_legal(game))
    assert answer["type"] == "result"
    await second.close()


async def test_end_early_gives_final_score(api: Api, server, tournament: dict[str, Any]) -> None:
    player, _, _, _ = await joined(api, server, tournament)
    await player.start()
    result = await player.play({"type": "end"})
    over = await player.recv()
    assert result["type"] == "result" and result["view"]["over"] is True
    assert over["type"] == "over" and over["outcome"] == "ended"
    assert over["final_score"] == over["score"] + over["time_bonus"] + over["free_column_bonus"]
    assert 590 <= over["time_left"] <= 600
    late = await player.play({"type": "move", "from": 0, "count": 1, "to": 1})
    assert late["type"] == "error" and late["code"] == "game_over"
    await player.close()


async def test_reconnect_gets_position_and_time(api: Api, server, tournament: dict[str, Any]) -> None:
    player, _, entry, token = await joined(api, server, tournament)
    await player.start()
    game = Game(Settings(variant="spider78", suits=2), SEED)
    for _ in range(3):
        move = first_legal(game)
        assert (await player.play(move))["type"] == "result"
        game.play(move_from_json(move))
    await player.close()
    again, state = await Player.connect(server.ws_url, entry["id"], token)
    assert state["status"] == "playing" and state["moves"] == 3 and state["last_seq"] == 3
    assert state["view"] == game.view()
    assert 590 < state["time_left"] < 600
    await again.close()


@pytest.mark.parametrize(
    ("frame", "needle"),
    [
        ("{not json", "malformed JSON"),
        ('{"type": "teleport", "seq": 1}', "type"),
        ('{"type": "move", "seq": 1, "from": "0", "count": 1, "to": 2}', "$.from"),
        ('{"type": "move", "seq": 1, "from": true, "count": 1, "to": 2}', "$.from"),
        ('{"type": "move", "seq": 1, "from": 0, "to": 2}', "count"),
        ('{"type": "deal", "seq": 1, "pile": 99999999999999999999}', "pile"),
        ("[1, 2, 3]", "object"),
        ('{"type": "move", "seq": 1, "from": 0, "count": 1, "to": 2, "pad": "' + "x" * 5000 + '"}', "too large"),
    ],
)
async def test_bad_messages_get_errors_and_change_nothing(
    api: Api, server, tournament: dict[str, Any], frame: str, needle: str
) -> None:
    player, _, _, _ = await joined(api, server, tournament)
    started = await player.start()
    answer = await player.request(frame)
    assert answer["type"] == "error" and answer["code"] == "bad_message"
    assert needle in answer["reason"]
    sync = await player.request({"type": "sync"})  # the connection is still open
    assert sync["view"] == started["view"] and sync["moves"] == 0
    await player.close()


async def test_binary_frame_is_an_error_not_a_crash(api: Api, server, tournament: dict[str, Any]) -> None:
    player, _, _, _ = await joined(api, server, tournament)
    await player.start()
    answer = await player.request(b"\x00\xff\x10")
    assert answer["type"] == "error"
    pong = await player.request({"type": "ping"})
    assert pong["type"] == "pong"
    await player.close()


async def test_flooding_client_is_slowed_then_cut_off(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    # A server of its own at the default rate (30 a second, bursts of 60): the shared test server
    # answers so fast that a flood may never pile up there.
    env = {**server_env(redis_prefix), "RATE_PER_SECOND": "30", "RATE_BURST": "60"}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        await _flood(Api(proc.url, admin_token), proc)
    finally:
        proc.stop()


async def _flood(api: Api, server: ServerProcess) -> None:
    tournament = api.create_tournament(name="flood", seed=SEED, variant="spider78", suits=2, time_limit=600)
    player, _, _, _ = await joined(api, server, tournament)
    await player.start()
    codes = []
    for _ in range(400):
        try:
            await player.send({"type": "ping"})
        except websockets.ConnectionClosed:
            break
    try:
        while True:
            msg = await player.recv(timeout=5)
            codes.append(msg.get("code"))
    except websockets.ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4008
    except TimeoutError:
        pytest.fail("the flooding connection was never closed")
    assert "slow_down" in codes and "flood" in codes


async def test_deadline_ends_a_connected_game_unasked(api: Api, server) -> None:
    tour = api.create_tournament(name="short", seed=SEED, variant="spider78", suits=1, time_limit=2)
    _, token = api.register("slowpoke")
    entry = api.join(tour["id"], token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    over = await player.recv(timeout=6)
    assert over["type"] == "over" and over["outcome"] == "timed_out"
    assert over["time_left"] == 0 and over["time_bonus"] == 0 and over["final_score"] == over["score"]
    late = await player.play({"type": "end"})
    assert late["type"] == "error" and late["code"] in ("game_over", "time_up")
    await player.close()


async def test_a_fast_client_is_slowed_to_the_rate(database_url: str, redis_url: str, admin_token: str) -> None:
    """At the default rate (30 a second after a burst of 60) answers to a fast client are paced."""
    import time

    from tests.serverproc import ServerProcess
    from tests.services import unique_name

    env = {"REDIS_PREFIX": unique_name("st"), **UNLIMITED}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        api = Api(proc.url, admin_token)
        tour = api.create_tournament(name="paced", seed=SEED, variant="spider78", suits=2)
        _, token = api.register("fast")
        entry = api.join(tour["id"], token)
        player, _ = await Player.connect(proc.ws_url, entry["id"], token)
        start = time.monotonic()
        for _ in range(90):
            assert (await player.request({"type": "ping"}))["type"] == "pong"
        elapsed = time.monotonic() - start
        assert elapsed >= 0.8  # 30 messages past the burst at 30 a second
        await player.close()
    finally:
        proc.stop()
