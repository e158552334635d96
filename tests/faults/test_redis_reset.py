"""Redis connections reset under the server's feet (a TCP proxy between them sends RST on every open
connection, then lets new ones through): each pooled connection is dead the next time it is used.
On uvloop the first command on such a connection raises RuntimeError ("the handler is closed"),
not a RedisError. Registering, joining, playing and watching all go on, and the watchers are
updated again after each reset."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
from redis.asyncio import Redis

from spidertour.server.storage.redis_client import connect
from tests.client import Api, Player, bearer
from tests.faults.helpers import start_server, swarm_of, wait_for
from tests.faults.proxy import TcpProxy
from tests.server.helpers import reveal_move, watcher
from tests.services import unique_name

SEED = "fault-redis-reset"
ROUNDS = 4


async def _update_showing(ws: Any, entry_id: int, score: int, timeout: float) -> bool:
    """An update whose top page shows this entry with this score arrives within ``timeout``."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + timeout
    while loop.time() < ends:
        try:
            raw = await asyncio.wait_for(ws.recv(), ends - loop.time())
        except TimeoutError:
            return False
        msg = json.loads(raw)
        if msg["type"] == "update" and any(r["entry_id"] == entry_id and r["score"] == score for r in msg["top"]):
            return True
    return False


async def _drop_keys(redis_url: str, prefix: str) -> None:
    redis = Redis.from_url(redis_url)
    try:
        keys = [key async for key in redis.scan_iter(match=f"{prefix}:*")]
        if keys:
            await redis.delete(*keys)
    finally:
        await redis.aclose()


async def test_redis_connections_reset_mid_run(fresh_database_url: str, redis_url: str, admin_token: str) -> None:
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        proc = start_server(fresh_database_url, proxy.url, admin_token, prefix)
        try:
            api = Api(proc.url, admin_token)
            tid = api.create_tournament(name="redis reset", seed=SEED, variant="spider78", suits=2)["id"]
            ws, _ = await watcher(proc.ws_url, tid)
            problems: list[str] = []
            for round_ in range(ROUNDS):
                proxy.reset()
                r = api.http.post("/api/players", json={"name": f"reset-{round_}"})
                if r.status_code != 201:
                    problems.append(f"round {round_}: register answered {r.status_code}")
                    r = api.http.post("/api/players", json={"name": f"reset-{round_}"})
                token = r.json()["token"]
                proxy.reset()
                r = api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(token))
                if r.status_code != 201:
                    problems.append(f"round {round_}: join answered {r.status_code}")
                    r = api.http.post(f"/api/tournaments/{tid}/entries", headers=bearer(token))
                entry_id = r.json()["id"]
                player, _ = await Player.connect(proc.ws_url, entry_id, token)
                await player.start()
                proxy.reset()
                try:
                    answer = await player.play(reveal_move(SEED))
                    pong = await player.request({"type": "ping"})
                except Exception as err:  # the session died
                    problems.append(f"round {round_}: the play session died after a reset: {err!r}")
                    continue
                if answer["type"] != "result" or pong["type"] != "pong":
                    problems.append(f"round {round_}: play answered {answer} then {pong}")
                if not await _update_showing(ws, entry_id, 25, timeout=5):
                    problems.append(f"round {round_}: the watcher never saw the new score")
                await player.close()
            await ws.close()
            health = httpx.get(f"{proc.url}/health").json()
            assert health["redis"], health
            assert not problems, problems
        finally:
            proc.stop()
            await _drop_keys(redis_url, prefix)


async def test_a_storm_of_resets_while_bots_play(fresh_database_url: str, redis_url: str, admin_token: str) -> None:
    """Every Redis connection reset every 50 ms for 3 s while bots play and watch: commands fail even
    on their tries again, in whatever way the loop reports it. No play session, request or background
    loop dies of it: afterwards the bots play on, the watchers are updated, register and join answer."""
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        proc = start_server(fresh_database_url, proxy.url, admin_token, prefix)
        try:
            api = Api(proc.url, admin_token)
            tid = api.create_tournament(name="redis storm", seed=SEED)["id"]
            swarm = await swarm_of(proc.url, tid, players=6, seed=3, watchers=2)
            task = asyncio.ensure_future(swarm.play(30))
            try:
                await wait_for(lambda: swarm.stats.acks >= 30, 10, "bots playing")
                statuses = []
                for i in range(60):
                    proxy.reset()
                    if i % 10 == 0:
                        statuses.append(api.http.post("/api/players", json={"name": f"storm-{i}"}).status_code)
                    await asyncio.sleep(0.05)
                acks, updates = swarm.stats.acks, swarm.stats.updates
                await wait_for(lambda: swarm.stats.acks >= acks + 60, 10, "moves acknowledged after the storm")
                await wait_for(lambda: swarm.stats.updates >= updates + 8, 10, "watchers updated after the storm")
                _, token = api.register("after-storm")
                assert api.join(tid, token)["id"]
            finally:
                swarm.stop()
                await task
            stats = swarm.stats
            assert not stats.errors and not stats.watch_errors, (stats.errors, stats.watch_errors)
            assert swarm.stats.reconnects == 0 and not swarm.stats.refused
            assert set(statuses) <= {201}, statuses
            await swarm.close()
            log = proc.log_path.read_text()
            assert "-> 500" not in log and "never retrieved" not in log, log[-3000:]
        finally:
            proc.stop()
            await _drop_keys(redis_url, prefix)


async def test_standings_answer_from_postgres_while_redis_is_cut(
    fresh_database_url: str, redis_url: str, admin_token: str
) -> None:
    """Redis out of reach: the live leaderboard, around-me and the watch snapshot are PostgreSQL's,
    ranked as the board ranks; registering and joining go on; the rebuild on demand says 503."""
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        proc = start_server(fresh_database_url, proxy.url, admin_token, prefix)
        try:
            api = Api(proc.url, admin_token)
            tid = api.create_tournament(name="redis cut", seed=SEED, variant="spider78", suits=2)["id"]
            players = []
            for i in range(3):
                _, token = api.register(f"cut-{i}")
                entry = api.join(tid, token)
                player, _ = await Player.connect(proc.ws_url, entry["id"], token)
                if i:  # the first never starts; the others do, the last one scores
                    await player.start()
                if i == 2:
                    assert (await player.play(reveal_move(SEED)))["type"] == "result"
                players.append(player)
            path = f"/api/tournaments/{tid}/leaderboard"
            last = players[-1]
            around = f"{path}/around/{json.loads(last.received[0])['entry_id']}"
            before = api.http.get(path).json()
            near = api.http.get(around, params={"k": 1}).json()
            assert [r["rank"] for r in before["rows"]] == [1, 2, 3] and before["rows"][0]["score"] == 25

            proxy.cut()
            during = api.http.get(path)
            assert during.status_code == 200, during.text
            assert during.json() == before
            assert api.http.get(around, params={"k": 1}).json() == near
            _, snapshot = await watcher(proc.ws_url, tid)
            assert snapshot["top"] == before["rows"] and snapshot["entrants"] == 3
            assert api.http.post(f"{path}/rebuild", headers=api.admin()).status_code == 503
            _, token = api.register("cut-late")
            assert api.join(tid, token)["id"]
            assert (await last.request({"type": "ping"}))["type"] == "pong"
            proxy.restore()
            for player in players:
                await player.close()
            loops = ("leaderboard events' reader", "sign-out subscription")
            give_up = time.monotonic() + 10  # each subscribes again within its pause (2 s at most)
            while time.monotonic() < give_up and not all(
                f"{loop} works again" in proc.log_path.read_text() for loop in loops
            ):
                await asyncio.sleep(0.2)
            log = proc.log_path.read_text()
            assert "-> 500" not in log
            # The outage is said once a loop when it begins, and once when it ends, with no traceback.
            for loop in loops:
                assert log.count(f"{loop} failed (") == 1 and log.count(f"{loop} works again") == 1, log[-3000:]
            assert "Traceback" not in log, log[-3000:]
        finally:
            proc.stop()
            await _drop_keys(redis_url, prefix)


async def test_a_write_missed_while_redis_was_cut_is_made_good(
    fresh_database_url: str, redis_url: str, admin_token: str
) -> None:
    """A game ends while Redis is out of reach: its last row never reaches the board, which still
    exists. Once Redis is back the clock writes that entry again from PostgreSQL (a rebuild alone
    only adds missing entries, and would leave the old row for good)."""
    prefix = unique_name("st")
    with TcpProxy.for_redis(redis_url) as proxy:
        proc = start_server(fresh_database_url, proxy.url, admin_token, prefix)
        try:
            api = Api(proc.url, admin_token)
            tid = api.create_tournament(name="redis missed", seed=SEED, variant="spider78", suits=2)["id"]
            _, token = api.register("missed")
            entry_id = api.join(tid, token)["id"]
            player, _ = await Player.connect(proc.ws_url, entry_id, token)
            await player.start()
            assert (await player.play(reveal_move(SEED)))["type"] == "result"
            path = f"/api/tournaments/{tid}/leaderboard"
            assert [(r["score"], r["status"]) for r in api.http.get(path).json()["rows"]] == [(25, "playing")]
            proxy.cut()
            ended = await player.play({"type": "end"})
            assert ended["type"] == "result"
            over = await player.recv()
            assert over["type"] == "over"
            proxy.restore()

            def shown() -> list[tuple[int, str]]:
                return [(r["score"], r["status"]) for r in api.http.get(path).json()["rows"]]

            await wait_for(
                lambda: shown() == [(over["final_score"], "ended")], 10, f"the final row on the board: {shown()}"
            )
            await player.close()
        finally:
            proc.stop()
            await _drop_keys(redis_url, prefix)


async def test_the_client_survives_a_reset_under_uvloop(redis_url: str) -> None:
    """What the server's client does on uvloop (which the server runs on): a command on a
    connection that was reset is tried again on a new one, so the caller sees no error."""
    import uvloop

    async def run() -> list[Any]:
        with TcpProxy.for_redis(redis_url) as proxy:
            redis = connect(proxy.url)
            try:
                out: list[Any] = [await redis.ping()]
                proxy.reset()
                await asyncio.sleep(0.1)
                out.append(await redis.publish(unique_name("st"), "x"))
                proxy.reset()
                await asyncio.sleep(0.1)
                pipe = redis.pipeline(transaction=False)
                pipe.ping()
                out.append(await pipe.execute())
                return out
            finally:
                await redis.aclose()

    assert await asyncio.to_thread(uvloop.run, run()) == [True, 0, [True]]
