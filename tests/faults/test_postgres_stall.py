"""PostgreSQL stalled (a TCP proxy between the server and it holds every byte back, connections open):
every database call gives up after DB_TIMEOUT, so a move is answered try_again within it, a reconnect is
refused, HTTP answers 503 and /health says PostgreSQL is not ok, each within seconds and not at
the end of the stall; after it the game goes on and every acknowledged move is in PostgreSQL."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import httpx
import pytest
import websockets

from spidertour.engine import Game, Settings, move_from_json
from spidertour.server.storage.pool import connection, create_pool
from tests.client import Api, Player, play_url
from tests.conftest import server_env
from tests.faults.helpers import fetch, stored_moves, wait_for
from tests.faults.proxy import TcpProxy
from tests.serverproc import ServerProcess

SEED = "fault-pg-stall"
DB_TIMEOUT = 3  # seconds; a stalled call is given up after about one of these
ANSWER_WITHIN = 15.0  # seconds: the stall lasts until the test resumes it, so a hung call fails here
# A move's answer during a stall: within DB_TIMEOUT, given half as much again for a busy machine (a
# commit that waited for asyncpg's cancel request too took twice DB_TIMEOUT).
MOVE_ANSWER_WITHIN = 1.5 * DB_TIMEOUT


async def test_postgres_stalled_and_resumed(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    db = fresh_database_url
    with TcpProxy.for_database(db) as proxy:
        env = {**server_env(redis_prefix + "_pgstall"), "DB_TIMEOUT": str(DB_TIMEOUT)}
        proc = ServerProcess(proxy.url, redis_url, admin_token, env=env).start()
        try:
            api = Api(proc.url, admin_token)
            api.http.timeout = httpx.Timeout(ANSWER_WITHIN)
            tour = api.create_tournament(name="pg stall", seed=SEED, variant="spider78", suits=1)
            tid = tour["id"]
            _, token = api.register("stall")
            entry_id = api.join(tid, token)["id"]
            game = Game(Settings.from_json(tour["settings"]), SEED)
            player, _ = await Player.connect(proc.ws_url, entry_id, token)
            assert (await player.start())["status"] == "playing"

            def next_move() -> dict[str, Any]:
                moves = [m for m in game.legal_moves() if m.type == "move"]
                return moves[len(game.columns[0]) % len(moves)].to_json()

            acked: dict[int, dict[str, Any]] = {}
            for seq in range(1, 6):
                move = next_move()
                answer = await player.play(move, seq=seq)
                assert answer["type"] == "result", answer
                game.play(move_from_json(move))
                acked[seq] = move

            proxy.stall()
            # The next move is refused with try_again, on the same connection, while the stall lasts,
            # within DB_TIMEOUT.
            stalled_move = next_move()
            answer = await player.request({**stalled_move, "seq": 100}, timeout=MOVE_ANSWER_WITHIN)
            assert answer == {
                "type": "error",
                "code": "try_again",
                "reason": "the move was not saved (database unavailable): send it again",
                "seq": 100,
            }, answer

            # HTTP: an error at once rather than a hang; /health says PostgreSQL is the trouble.
            for method, path in [
                ("GET", f"/api/tournaments/{tid}"),
                ("GET", f"/api/tournaments/{tid}/leaderboard"),
                ("POST", "/api/players"),
            ]:
                r = api.http.request(method, path, json={"name": "late"} if method == "POST" else None)
                assert r.status_code == 503, (path, r.status_code, r.text)
                assert r.json()["detail"] == "the database is unavailable: try again in a moment", r.text
                assert r.headers["retry-after"] == "1"
            health = api.http.get("/health")
            assert health.status_code == 503 and health.json() == {
                "status": "unavailable",
                "postgres": False,
                "redis": True,
            }, health.text

            # A new play connection cannot authenticate: try_again and close 1011, not a hang.
            ws = await websockets.connect(play_url(proc.ws_url, entry_id))
            late = Player(ws)
            answer = await late.request({"type": "auth", "token": token}, timeout=ANSWER_WITHIN)
            assert answer["type"] == "error" and answer["code"] == "try_again", answer
            await asyncio.wait_for(ws.wait_closed(), ANSWER_WITHIN)
            assert ws.close_code == 1011 and ws.close_reason == "database unavailable"

            # So does a watcher.
            async with websockets.connect(f"{proc.ws_url}/ws/watch/{tid}") as watch:
                frame = json.loads(await asyncio.wait_for(watch.recv(), ANSWER_WITHIN))
                assert frame["type"] == "error" and frame["code"] == "try_again", frame
                await asyncio.wait_for(watch.wait_closed(), ANSWER_WITHIN)
                assert watch.close_code == 1011

            # Resumed: the player reconnects and resends the refused move with its seq, as docs/protocol.md says.
            proxy.resume()
            await player.close()
            player = await reconnect(proc.ws_url, entry_id, token)
            answer = await player.play(stalled_move, seq=100)
            assert answer["type"] == "result" and answer["n"] == len(acked) + 1, answer
            game.play(move_from_json(stalled_move))
            assert answer["view"] == game.view()
            acked[100] = stalled_move
            for seq in range(101, 106):
                move = next_move()
                answer = await player.play(move, seq=seq)
                assert answer["type"] == "result" and not answer["repeated"], answer
                game.play(move_from_json(move))
                assert answer["view"] == game.view()
                acked[seq] = move
            await player.close()
            await wait_for(lambda: api.http.get("/health").status_code == 200, ANSWER_WITHIN, "healthy again")
            assert api.http.get(f"/api/tournaments/{tid}").status_code == 200

            # PostgreSQL has every acknowledged move once, in order, and nothing else.
            stored = await stored_moves(db, entry_id)
            assert [(m["seq"], m["move"]) for m in stored] == list(acked.items())
            rows = await fetch(db, "SELECT moves, last_seq FROM entries WHERE id = $1", entry_id)
            assert (rows[0]["moves"], rows[0]["last_seq"]) == (len(acked), max(acked))
        finally:
            proc.stop()


async def reconnect(ws_url: str, entry_id: int, token: str) -> Player:
    """A connection that authenticates once the pool has reconnected (a few tries may get try_again)."""
    for _ in range(20):
        try:
            player, state = await Player.connect(ws_url, entry_id, token)
        except (OSError, websockets.ConnectionClosed, TimeoutError):
            await asyncio.sleep(0.5)
            continue
        if state.get("type") == "state":
            return player
        assert state["code"] == "try_again", state
        await player.close()
        await asyncio.sleep(0.5)
    raise AssertionError("no connection authenticated after the stall ended")


async def test_pool_calls_give_up_on_a_stalled_database(fresh_database_url: str) -> None:
    """A statement, a wait for the pool's connection and a new connection each fail with TimeoutError
    while PostgreSQL is stalled, and the pool works again once it answers."""
    with TcpProxy.for_database(fresh_database_url) as proxy:
        pool = await create_pool(proxy.url, 1, timeout=0.5)
        try:
            assert await pool.fetchval("SELECT 1") == 1
            proxy.stall()
            # A statement of its own, longer timeout holds the pool's only connection; a wait for it
            # gives up after the pool's timeout, not when the connection comes back.
            held = asyncio.create_task(pool.fetchval("SELECT 2", timeout=3))
            await asyncio.sleep(0.1)
            with pytest.raises(TimeoutError):
                async with pool.acquire():
                    pass
            assert not held.done()
            with pytest.raises(TimeoutError):
                await held
            with pytest.raises(TimeoutError):
                async with connection(proxy.url, 0.5):
                    pass
            proxy.resume()
            await wait_for(pool_answers(pool), 10, "the pool answers again")
        finally:
            pool.terminate()


def pool_answers(pool: asyncpg.Pool) -> Callable[[], Awaitable[bool]]:
    async def check() -> bool:
        try:
            return bool(await pool.fetchval("SELECT 3") == 3)
        except TimeoutError:
            return False

    return check
