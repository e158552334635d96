"""kill -9 the server while bots play; restart it: nothing acknowledged is lost, every game goes on
from exactly its committed position, and the clock kept running while the server was down."""

from __future__ import annotations

import asyncio
import random
import time

from spidertour.server.cli.bots.acks import check_acks
from tests.client import Api, Player
from tests.faults.helpers import fetch, replayed, start_server, stored_moves, swarm_of, wait_for

SEED_LONG = "fault-kill-long"
SEED_SHORT = "fault-kill-short"
SHORT_LIMIT = 4  # seconds: these games' deadlines pass while the server is down


async def test_kill_nine_while_bots_play(
    fresh_database_url: str, redis_url: str, admin_token: str, redis_prefix: str, tmp_path
) -> None:
    db = fresh_database_url
    proc = start_server(db, redis_url, admin_token, redis_prefix)
    log_long, log_short = str(tmp_path / "acks-long.jsonl"), str(tmp_path / "acks-short.jsonl")
    try:
        api = Api(proc.url, admin_token)
        long_t = api.create_tournament(name="kill long", seed=SEED_LONG, time_limit=600)
        short_t = api.create_tournament(name="kill short", seed=SEED_SHORT, time_limit=SHORT_LIMIT)
        playing = await swarm_of(proc.url, long_t["id"], players=5, ack_log=log_long, seed=3)
        ending = await swarm_of(proc.url, short_t["id"], players=3, ack_log=log_short, seed=4)
        tasks = [asyncio.create_task(playing.play(30)), asyncio.create_task(ending.play(30))]

        await wait_for(lambda: playing.stats.acks >= 100 and ending.stats.acks >= 20, 10, "bots playing")
        await asyncio.sleep(random.random() * 0.1)
        proc.kill()
        killed_at = time.time()
        acks_at_kill = playing.stats.acks
        assert all(not t.done() for t in tasks), "the bots stop only when told to"

        # Stay down until every short game's deadline has passed.
        deadlines = await fetch(db, "SELECT id, deadline FROM entries WHERE tournament_id = $1", short_t["id"])
        assert len(deadlines) == 3
        last_deadline = max(r["deadline"].timestamp() for r in deadlines)
        assert last_deadline > killed_at, "the short games must still be running at the kill"
        await asyncio.sleep(last_deadline - time.time() + 0.3)

        proc.start()  # same port, same database: the bots reconnect by themselves and resend what was unanswered
        await wait_for(lambda: playing.stats.acks >= acks_at_kill + 60, 15, "moves acknowledged after the restart")
        await wait_for(lambda: all(b.done for b in ending.bots), 10, "the short games over for their bots")
        playing.stop()
        ending.stop()
        await asyncio.gather(*tasks)
        await playing.close()
        await ending.close()
        for swarm in (playing, ending):
            assert not swarm.stats.refused, f"a bot's view disagreed with the server: {swarm.stats.refused}"
            assert set(swarm.stats.errors) <= {"disconnected", "no_answer", "reconnect_failed"}, swarm.stats.errors
        assert playing.stats.reconnects >= 5

        # Every move any bot saw acknowledged is in PostgreSQL.
        for path in (log_long, log_short):
            count, problems = await check_acks(path, db)
            assert problems == [] and count > 0

        # Every long game goes on from exactly its committed position.
        tour = api.tournament(long_t["id"])
        for bot in playing.bots:
            moves = await stored_moves(db, bot.entry_id)
            assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
            game = replayed(tour["settings"], SEED_LONG, moves)
            player, state = await Player.connect(proc.ws_url, bot.entry_id, bot.token)
            assert state["status"] == "playing"
            assert state["moves"] == len(moves) and state["last_seq"] == moves[-1]["seq"]
            assert state["view"] == game.view()
            move = next(iter(game.legal_moves())).to_json()
            answer = await player.play(move, seq=moves[-1]["seq"] + 1)
            assert answer["type"] == "result" and answer["n"] == len(moves) + 1, answer
            await player.close()

        # The short games were timed out at their deadlines, though the server was down then.
        short = api.tournament(short_t["id"])
        rows = await fetch(
            db,
            """SELECT id, status, score, final_score, time_left, ended_at, deadline
                                    FROM entries WHERE tournament_id = $1""",
            short_t["id"],
        )
        for row in rows:
            assert row["status"] == "timed_out", dict(row)
            assert row["final_score"] == row["score"] and row["time_left"] == 0
            assert row["ended_at"] == row["deadline"]
            moves = await stored_moves(db, row["id"])
            assert all(m["t"] < SHORT_LIMIT for m in moves)
            game = replayed(short["settings"], SEED_SHORT, moves)
            game.tick(SHORT_LIMIT)
            assert game.outcome == "timed_out" and game.final_score == row["final_score"]
            bot = next(b for b in ending.bots if b.entry_id == row["id"])
            player, state = await Player.connect(proc.ws_url, bot.entry_id, bot.token)
            assert state["status"] == "timed_out"
            assert state["view"]["over"] and state["view"]["final_score"] == row["score"]
            refused = await player.play({"type": "end"}, seq=state["last_seq"] + 1)
            assert refused["type"] == "error" and refused["code"] in ("game_over", "time_up"), refused
            await player.close()
    finally:
        proc.stop()
