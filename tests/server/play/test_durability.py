"""Nothing acknowledged is lost: kill -9 the server while a player plays, restart, resume."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import asyncpg
import websockets

from spidertour.engine import Game, Settings, move_from_json
from tests.client import Api, Player
from tests.conftest import server_env
from tests.serverproc import ServerProcess

SEED = "kill-nine"


async def play_until_killed(
    proc: ServerProcess, entry_id: int, token: str, acked: dict[int, dict[str, Any]], rng: random.Random
) -> None:
    """Play legal moves as fast as answers come; record every acknowledged move by seq."""
    game = Game(Settings(variant="spider78", suits=1), SEED)
    player, _ = await Player.connect(proc.ws_url, entry_id, token)
    await player.start()
    seq = 0
    try:
        while True:
            moves = [m for m in game.legal_moves() if m.type == "move"] or list(game.legal_moves())
            move = rng.choice(moves).to_json()
            seq += 1
            answer = await player.play(move, seq=seq)
            assert answer["type"] == "result", answer
            acked[seq] = move
            game.play(move_from_json(move))
    except (websockets.ConnectionClosed, OSError, TimeoutError):
        return


async def test_kill_nine_loses_no_acknowledged_move(
    database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    proc = ServerProcess(database_url, redis_url, admin_token, env=server_env(redis_prefix)).start()
    try:
        api = Api(proc.url, admin_token)
        tour = api.create_tournament(name="durable", seed=SEED, variant="spider78", suits=1)
        _, token = api.register("durable")
        entry = api.join(tour["id"], token)
        acked: dict[int, dict[str, Any]] = {}
        rng = random.Random(7)
        task = asyncio.create_task(play_until_killed(proc, entry["id"], token, acked, rng))
        while len(acked) < 25:  # kill in the middle of play, not between games
            assert not task.done(), task.exception() if task.done() else None
            await asyncio.sleep(0.01)
        await asyncio.sleep(rng.random() * 0.05)
        proc.kill()
        await asyncio.wait_for(task, 10)
        assert len(acked) >= 25

        conn = await asyncpg.connect(database_url)
        try:
            rows = await conn.fetch(
                "SELECT n, seq, move::text, t FROM moves WHERE entry_id = $1 ORDER BY n", entry["id"]
            )
        finally:
            await conn.close()
        stored = {r["seq"]: json.loads(r["move"]) for r in rows}
        for seq, move in acked.items():
            assert stored.get(seq) == move, f"acknowledged move {seq} is missing after kill -9"
        assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))

        proc.start()  # the same port, the same database: a restart
        game = Game(Settings(variant="spider78", suits=1), SEED)
        for r in rows:
            game.play(move_from_json(json.loads(r["move"])), r["t"])
        player, state = await Player.connect(proc.ws_url, entry["id"], token)
        assert state["status"] == "playing"
        assert state["moves"] == len(rows) and state["last_seq"] == rows[-1]["seq"]
        assert state["view"] == game.view()
        assert 0 < state["time_left"] < 600
        move = next(m for m in game.legal_moves()).to_json()
        answer = await player.play(move, seq=rows[-1]["seq"] + 1)
        assert answer["type"] == "result" and answer["n"] == len(rows) + 1
        await player.close()
    finally:
        proc.stop()
