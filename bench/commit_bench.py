"""What a commit of moves costs PostgreSQL: the server's own statement (``spidertour.server.play.store.record_moves``)
at several batch sizes, on a scratch database of 2,000 playing entries.

    .venv/bin/python bench/commit_bench.py                 # batches of 1, 2, 10, 50, 200
    .venv/bin/python bench/commit_bench.py --batches 10 --moves 20000

Prints, per batch size: the PostgreSQL backend's CPU per move and per commit (psutil on its pid),
the client's CPU per move (asyncpg), and the wall time of a commit (synchronous_commit as the
server has it). Not a test; run by hand.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import secrets
import time
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import psutil

from spidertour.server.play import store
from spidertour.server.storage.migrations import migrate
from spidertour.server.storage.pool import create_pool

MOVE = '{"type":"move","from":1,"count":1,"to":2}'


async def one_size(url: str, batch: int, moves: int, entries: int) -> dict[str, float]:
    pool = await create_pool(url, 1)
    try:
        pid = await pool.fetchval("SELECT pg_backend_pid()")
        backend = psutil.Process(pid)
        n = await pool.fetch("SELECT id, moves FROM entries")
        done = {r["id"]: r["moves"] for r in n}
        ids = list(done)
        rounds = max(1, moves // batch)
        t0 = backend.cpu_times()
        c0, w0 = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            records = []
            for e in random.sample(ids, min(batch, entries)):
                done[e] += 1
                records.append(store.MoveRecord(e, 0, done[e], done[e], MOVE, 1.5, 25, 1, 0, "playing", None, None))
            if not all(await store.record_moves(pool, records)):
                raise RuntimeError("a move was not written")
        t1 = backend.cpu_times()
        client, wall = time.process_time() - c0, time.perf_counter() - w0
        pg = t1.user + t1.system - t0.user - t0.system
        total = rounds * min(batch, entries)
        return {
            "batch": batch,
            "postgres_us_per_move": round(1e6 * pg / total, 1),
            "postgres_us_per_commit": round(1e6 * pg / rounds, 1),
            "client_us_per_move": round(1e6 * client / total, 1),
            "commit_ms": round(1e3 * wall / rounds, 2),
        }
    finally:
        await pool.close()


async def run(args: argparse.Namespace) -> list[dict[str, float]]:
    name = f"spidertour_commit_bench_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(args.pg)
    await admin.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(args.pg)._replace(path="/" + name))
    try:
        conn = await asyncpg.connect(url)
        try:
            await migrate(conn)
            await conn.execute(
                """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at)
                   VALUES ('bench', '{}', 'seed', 'commitment', now(), now() + interval '1 hour')"""
            )
            await conn.execute(
                """INSERT INTO players (name, token_hash)
                                  SELECT 'p' || i, sha256(i::text::bytea) FROM generate_series(1, $1) i""",
                args.entries,
            )
            await conn.execute(
                """INSERT INTO entries (tournament_id, player_id, ordinal, status, started_at)
                                  SELECT 1, i, i, 'playing', now() FROM generate_series(1, $1) i""",
                args.entries,
            )
        finally:
            await conn.close()
        out = []
        for batch in args.batches:
            row = await one_size(url, batch, args.moves, args.entries)
            print(json.dumps(row), flush=True)
            out.append(row)
        return out
    finally:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="commit_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pg",
        default="postgresql://postgres@127.0.0.1:5432/postgres",
        help="PostgreSQL admin URL (a scratch database is made and dropped)",
    )
    parser.add_argument("--batches", default="1,2,10,50,200", help="batch sizes, comma-separated")
    parser.add_argument("--moves", type=int, default=5000, help="moves written per batch size")
    parser.add_argument("--entries", type=int, default=2000)
    args = parser.parse_args(argv)
    args.batches = [int(b) for b in args.batches.split(",")]
    asyncio.run(run(args))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
