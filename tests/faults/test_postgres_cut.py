"""PostgreSQL out of reach for a few seconds (a TCP proxy between the server and it is cut): moves
are refused with try_again and never acknowledged, and the server recovers by itself."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import websockets

from spidertour.engine import Game, Settings, move_from_json
from tests.client import Api, Player, play_url
from tests.faults.helpers import fetch, start_server, stored_moves
from tests.faults.proxy import TcpProxy

SEED = "fault-pg-cut"
CUT_SECONDS = 3.0


async def test_postgres_cut_and_restored(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    db = fresh_database_url
    with TcpProxy.for_database(db) as proxy:
        proc = start_server(proxy.url, redis_url, admin_token, redis_prefix + "_pgcut")
        try:
            api = Api(proc.url, admin_token)
            tour = api.create_tournament(name="pg cut", seed=SEED, variant="spider78", suits=1)
            _, token = api.register("cut")
            entry_id = api.join(tour["id"], token)["id"]
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

            # The cut: every move in the window is refused with try_again, none is acknowledged.
            proxy.cut()
            refused: list[int] = []
            seq = 100
            closed = 0
            cut_ends = time.monotonic() + CUT_SECONDS
            while time.monotonic() < cut_ends:
                move = next_move()
                try:
                    answer = await player.play(move, seq=seq)
                except websockets.ConnectionClosed as err:
                    assert err.rcvd is not None and err.rcvd.code == 1011, err
                    closed += 1
                    await asyncio.sleep(0.1)
                    player = await reconnect_while_cut(proc.ws_url, entry_id, token)
                    continue
                assert answer["type"] == "error", f"acknowledged while PostgreSQL was cut: {answer}"
                assert answer["code"] == "try_again" and answer["seq"] in (seq, None), answer
                refused.append(seq)
                seq += 1
                await asyncio.sleep(0.1)
            assert len(refused) >= 2 and closed >= 1, (refused, closed)
            assert api.http.get("/health").status_code == 503

            # Restored: moves are acknowledged again within a few seconds, on this connection or a new one.
            proxy.restore()
            seq = 200
            recovered_at = None
            give_up = time.monotonic() + 10
            while recovered_at is None:
                assert time.monotonic() < give_up, "the server did not recover from the cut"
                move = next_move()
                try:
                    answer = await player.play(move, seq=seq)
                except (websockets.ConnectionClosed, TimeoutError):
                    await asyncio.sleep(0.2)
                    try:
                        player, state = await Player.connect(proc.ws_url, entry_id, token)
                    except (OSError, websockets.ConnectionClosed):
                        continue
                    if state.get("type") != "state":
                        await player.close()
                        continue
                    assert state["moves"] == len(acked) and state["view"] == game.view()
                    continue
                if answer["type"] == "result":
                    recovered_at = time.monotonic()
                    assert answer["n"] == len(acked) + 1 and answer["seq"] == seq
                    game.play(move_from_json(move))
                    assert answer["view"] == game.view()
                    acked[seq] = move
                else:
                    assert answer["code"] == "try_again", answer
                    await asyncio.sleep(0.2)
                seq += 1
            assert recovered_at - cut_ends < 8
            for _ in range(5):
                move = next_move()
                answer = await player.play(move, seq=seq)
                assert answer["type"] == "result", answer
                game.play(move_from_json(move))
                assert answer["view"] == game.view()
                acked[seq] = move
                seq += 1
            await player.close()
            assert api.http.get("/health").status_code == 200

            # PostgreSQL has every acknowledged move, in order, and none of the refused ones.
            stored = await stored_moves(db, entry_id)
            assert [(m["seq"], m["move"]) for m in stored] == list(acked.items())
            assert not {m["seq"] for m in stored} & set(refused)
            rows = await fetch(db, "SELECT moves, last_seq FROM entries WHERE id = $1", entry_id)
            assert (rows[0]["moves"], rows[0]["last_seq"]) == (len(acked), max(acked))
            # The outage is said in lines of their own, with no traceback (asyncpg's pool's included),
            # by each clock once when it began and once when it ended, not at every sweep.
            loops = ("clock sweep", "matches sweep", "brackets sweep")
            give_up = time.monotonic() + 5  # each sweeps every half second
            while time.monotonic() < give_up and not all(
                f"{loop} works again" in proc.log_path.read_text() for loop in loops
            ):
                await asyncio.sleep(0.1)
            log = proc.log_path.read_text()
            assert "database unavailable" in log and "Traceback" not in log, log[-3000:]
            for loop in loops:
                assert log.count(f"{loop} failed (") == 1 and log.count(f"{loop} works again") == 1, log[-3000:]
        finally:
            proc.stop()


async def reconnect_while_cut(ws_url: str, entry_id: int, token: str) -> Player:
    """While PostgreSQL is cut a new connection cannot authenticate: it gets try_again and close 1011."""
    ws = await websockets.connect(play_url(ws_url, entry_id))
    player = Player(ws)
    answer = await player.request({"type": "auth", "token": token})
    assert answer["type"] == "error" and answer["code"] == "try_again", answer
    return player
