"""Scale benchmark: one tournament of many entrants, some playing, many watching, several server processes.

Run by hand (not a test), from the project folder:

    .venv/bin/python bench/scale/scale_bench.py --entrants 10000 --playing 2000 --watchers 1000
    .venv/bin/python bench/scale/scale_bench.py                   # 100,000 entrants, 20,000 playing, 10,000 watching
    .venv/bin/python bench/scale/scale_bench.py --json scale.json

What it does, and says in one JSON result (on stdout, and in ``--json FILE``):

1. creates a fresh database (``--pg``) and a unique ``REDIS_PREFIX`` on ``--redis`` (both removed at
   the end), starts ``--processes`` server processes (``spidertour serve``) and creates one rated
   tournament over HTTP;
2. makes the entrants with a bulk path for the bench only: players, the sessions of those who will
   play and their entries, inserted by SQL as ``players.store.create_player`` and
   ``tournaments.store.join`` insert them (a token's SHA-256 as ``lib.tokens.token_hash``); then the
   server's own leaderboard rebuild (``POST .../leaderboard/rebuild``) writes the Redis rows that
   every join would have written;
3. spreads ``--playing`` players and ``--watchers`` watchers over ``--workers`` load generator
   processes (bench/loadgen.py: picows; each watcher follows one playing entry as the web
   client does, and they go round robin over the servers); a player's connection starts its game.
   Players connect to each server's play port (``PLAY_PORT``, as an operator runs it; ``--play-socket
   asgi``: the server's own port), watchers to its own port;
4. offers ``--rate`` moves a second in all for ``--seconds`` while this process reads the standings
   over HTTP, one request at a time in turn: a page at a random offset, the first page (with its
   counts of who plays and who waits), one player by name (``?name=``) and one entry with its
   neighbours (``around``); each request's time is measured here, whole (HTTP included);
5. the live board's lag: from a move's acknowledgement that changed the followed entry's score to
   the first watcher update showing it (``board_lag_ms``), and each update's age on arrival
   (``feed_lag_ms``);
6. the finish: the tournament closes and every game still running reaches its deadline at once
   (SQL), then the server's clock ends the games, stores the final standings and the ratings (one
   transaction) and the solver's par follows: the seconds from the close to each; then the final
   standings are read as in 4 (from PostgreSQL now) for ``--finished-seconds``;
7. memory: each server process's RSS after the bulk path, with players and watchers connected,
   after the moves and after the finish.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import secrets
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import httpx  # noqa: E402
from benchkit import (  # noqa: E402
    LIFTED_LIMITS,
    Proc,
    add_play_socket,
    add_server_env,
    create_db,
    drop_db,
    drop_redis_keys,
    free_port,
    machine,
    server_env,
)
from wire import ms, percentile  # noqa: E402

PG_DEFAULT = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS_DEFAULT = "redis://127.0.0.1:6379/0"
NAME = "scale-{:06d}"  # a player's name: one name search finds exactly one


def _mib(values: list[int]) -> list[float]:
    return [round(v / 2**20, 1) for v in values]


def _summary(values_ms: list[float]) -> dict[str, Any]:
    seconds = [v / 1000 for v in values_ms]
    return {
        "p50": ms(percentile(seconds, 50)),
        "p99": ms(percentile(seconds, 99)),
        "max": ms(max(seconds) if seconds else None),
        "samples": len(seconds),
    }


# ---------------------------------------------------------------------------------------- the bulk path


async def bulk_entrants(db_url: str, tournament_id: int, entrants: int, playing: int) -> list[tuple[str, int]]:
    """Players, sessions for the first ``playing``, and every entry: what registration and joins
    would insert. Returns (token, entry id) of those who play."""
    import asyncpg

    tokens = [secrets.token_urlsafe(24) for _ in range(playing)]
    conn = await asyncpg.connect(db_url)
    try:
        async with conn.transaction():
            ids = sorted(
                r["id"]
                for r in await conn.fetch(
                    "INSERT INTO players (name) SELECT 'scale-' || lpad(g::text, 6, '0') "
                    "FROM generate_series(1, $1) g RETURNING id",
                    entrants,
                )
            )
            await conn.execute(
                "INSERT INTO sessions (player_id, token_hash) SELECT * FROM unnest($1::bigint[], $2::bytea[])",
                ids[:playing],
                [hashlib.sha256(t.encode()).digest() for t in tokens],
            )
            rows = await conn.fetch(
                """INSERT INTO entries (tournament_id, player_id, ordinal)
                   SELECT $1, p, o::int FROM unnest($2::bigint[]) WITH ORDINALITY AS u (p, o)
                   RETURNING id, player_id""",
                tournament_id,
                ids,
            )
            await conn.execute("UPDATE tournaments SET entry_count = $2 WHERE id = $1", tournament_id, entrants)
        # Statistics for the planner, as autovacuum gathers them after so many rows (this machine's
        # PostgreSQL runs without it): planned on none, a game's start reads whole tables.
        await conn.execute("ANALYZE players, sessions, entries, tournaments")
    finally:
        await conn.close()
    entry_of = {r["player_id"]: r["id"] for r in rows}
    return [(token, entry_of[pid]) for token, pid in zip(tokens, ids, strict=False)]


# ---------------------------------------------------------------------------------------- a worker


async def worker(config_path: str) -> None:
    """One load generator process: its players and watchers; moves when told; closes when told."""
    from loadgen import Generator

    config = json.loads(Path(config_path).read_text())
    gen = Generator(config["bases"], config["settings"], config["play_bases"], config["watch_bases"])
    failed = await connect(gen, config["creds"], config["tournament_id"], config["watchers"])
    print("ready " + json.dumps(failed), flush=True)
    reader = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = (await reader.readline()).decode().split()
    rate, seconds = float(line[1]), float(line[2])
    w, acked = await gen.paced(rate, seconds)
    result = {
        "acked_per_second": acked,
        "acks": w.acks,
        "ack_ms": [round(v * 1000, 2) for v in w.latency],
        "board_lag_ms": [round(v * 1000, 2) for v in w.ack_lag],
        "feed_lag_ms": [round(v * 1000, 2) for v in random.sample(list(w.feed_lag), min(len(w.feed_lag), 50_000))],
        "updates": w.updates,
        "update_bytes": w.update_bytes,
        "errors": dict(w.errors),
    }
    print("result " + json.dumps(result), flush=True)
    await reader.readline()  # "close": after the finish
    gen.close()


async def connect(gen: Any, creds: list[list[Any]], tid: int, watchers: int, concurrency: int = 32) -> dict[str, int]:
    """Connect the players (each connection starts its game), then the watchers, each following one
    player; as ``loadgen.Generator`` does, but a connection refused or lost on the way (the machine
    overloaded) is counted rather than ending the run."""
    from loadgen import Player, Watcher
    from picows import ws_connect

    sem = asyncio.Semaphore(concurrency)
    failed = {"players": 0, "watchers": 0}

    async def opened(kind: str, listener: Any, path: str, i: int) -> bool:
        """Connect one client round robin over the servers and wait until it is ready; a failure counted."""
        async with sem:
            try:
                bases = gen.play_bases if kind == "players" else gen.watch_bases
                url = f"{bases[i % len(bases)]}{path}"
                transport, _ = await ws_connect(lambda: listener, url, read_buffer_init_size=4096)
                gen.transports.append(transport)
                await asyncio.wait_for(listener.ready, 60)
            except Exception:
                failed[kind] += 1
                return False
        return True

    async def player(i: int, token: str, entry_id: int) -> None:
        p = Player(gen, i, token, entry_id)
        p.ready = gen.loop.create_future()
        if await opened("players", p, f"/ws/play/{entry_id}", i):
            gen.players.append(p)

    async def watcher(i: int) -> None:
        follow = gen.players[i % len(gen.players)]
        follow.watched = True
        w = Watcher(gen, follow)
        if await opened("watchers", w, f"/ws/watch/{tid}?follow={follow.entry_id}", i):
            gen.watchers.append(w)

    await asyncio.gather(*(player(i, t, e) for i, (t, e) in enumerate(creds)))
    gen.players.sort(key=lambda p: p.index)
    if gen.players:
        await asyncio.gather(*(watcher(i) for i in range(watchers)))
    return failed


class Worker:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    async def expect(self, word: str, timeout: float) -> str:
        assert self.proc.stdout is not None
        while True:
            raw = await asyncio.wait_for(self.proc.stdout.readline(), timeout)
            if not raw:
                raise RuntimeError(f"a load generator process ended before {word!r}")
            line = raw.decode().strip()
            if line.startswith(word):
                return line[len(word) :].strip()

    def tell(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode())


# ---------------------------------------------------------------------------------------- the reads


async def probe(urls: list[str], tid: int, entrants: int, entries: list[int], seconds: float) -> dict[str, Any]:
    """Standings reads, one at a time, in turn over the kinds and the servers, for ``seconds``."""
    times: dict[str, list[float]] = {"page": [], "first_page": [], "name": [], "around": []}
    bad: dict[str, int] = {}
    rng = random.Random(1)
    async with httpx.AsyncClient(timeout=10) as http:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            kind = list(times)[i % 4]
            params: dict[str, str | int]
            base = f"{urls[i % len(urls)]}/api/tournaments/{tid}/leaderboard"
            i += 1
            if kind == "page":
                url, params = base, {"offset": rng.randrange(0, max(1, entrants - 50)), "limit": 50}
            elif kind == "first_page":
                url, params = base, {}
            elif kind == "name":
                url, params = base, {"name": NAME.format(rng.randrange(1, entrants + 1))}
            else:
                url, params = f"{base}/around/{rng.choice(entries)}", {"k": 5}
            t = time.perf_counter()
            try:
                r = await http.get(url, params=params)
            except httpx.TimeoutException:  # no answer within 10 s: a failure of its kind, timed at 10 s
                bad[f"{kind}_timed_out"] = bad.get(f"{kind}_timed_out", 0) + 1
                times[kind].append((time.perf_counter() - t) * 1000)
                continue
            elapsed = time.perf_counter() - t
            if r.status_code != 200 or not r.json()["rows"] or (kind == "name" and r.json()["found"] != 1):
                bad[kind] = bad.get(kind, 0) + 1
            times[kind].append(elapsed * 1000)
            await asyncio.sleep(0.02)
    out: dict[str, Any] = {kind: _summary(v) for kind, v in times.items()}
    out["failed"] = bad
    return out


# ---------------------------------------------------------------------------------------- the finish


async def finish(db_url: str, url: str, tid: int) -> dict[str, Any]:
    """Close the tournament and end its running games at once; the seconds until the final standings
    and ratings are stored, and until the par is published."""
    import asyncpg

    conn = await asyncpg.connect(db_url)
    out: dict[str, Any] = {}
    try:
        t0 = time.monotonic()
        await conn.execute("UPDATE tournaments SET closes_at = now() WHERE id = $1", tid)
        out["games_ended_by_deadline"] = int(
            (
                await conn.execute(
                    "UPDATE entries SET deadline = now() WHERE tournament_id = $1 AND status = 'playing'", tid
                )
            ).split()[-1]
        )
        async with httpx.AsyncClient(timeout=10) as http:
            while not await conn.fetchval("SELECT finished_at IS NOT NULL FROM tournaments WHERE id = $1", tid):
                await asyncio.sleep(0.1)
                if time.monotonic() - t0 > 600:
                    raise RuntimeError("not finished after 600 s")
            out["standings_and_ratings_seconds"] = round(time.monotonic() - t0, 2)
            while (await http.get(f"{url}/api/tournaments/{tid}/par")).status_code != 200:
                await asyncio.sleep(0.2)
                if time.monotonic() - t0 > 900:
                    out["par_seconds"] = None
                    break
            else:
                out["par_seconds"] = round(time.monotonic() - t0, 2)
        out["standings_rows"] = await conn.fetchval("SELECT count(*) FROM standings WHERE tournament_id = $1", tid)
        out["rated"] = await conn.fetchval("SELECT count(*) FROM rating_history WHERE tournament_id = $1", tid)
    finally:
        await conn.close()
    return out


# ---------------------------------------------------------------------------------------- the run


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    import psutil

    name, prefix = f"scale_bench_{secrets.token_hex(4)}", f"sc_bench_{secrets.token_hex(4)}"
    admin = "bench-" + secrets.token_hex(8)
    logdir = Path(os.environ.get("TMPDIR", "/tmp"))
    out: dict[str, Any] = {
        "when": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "machine": machine(),
        "load_before": os.getloadavg(),
        "command": " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        **{k: getattr(args, k) for k in ("entrants", "playing", "watchers", "processes", "workers", "rate", "seconds")},
        "sockets": {"play": args.play_socket, "watch": args.watch_socket},
        "server_env": server_env(args.server_env),
    }
    servers: list[Proc] = []
    workers: list[Worker] = []
    db_url = await create_db(args.pg, name)
    config_dir = logdir / f"scale-bench-{secrets.token_hex(4)}"
    config_dir.mkdir()
    try:
        env = {
            "DATABASE_URL": db_url,
            "REDIS_URL": args.redis,
            "REDIS_PREFIX": prefix,
            "ADMIN_TOKEN": admin,
            "RATE_PER_SECOND": "100000",
            "RATE_BURST": "100000",
            **LIFTED_LIMITS,
            **server_env(args.server_env),
        }
        play_ports: list[int] = []
        for _ in range(args.processes):
            port = free_port()
            log = logdir / f"scale-server-{port}.log"
            play: dict[str, str] = {}
            if args.play_socket == "port":
                play_ports.append(free_port())
                play = {"PLAY_PORT": str(play_ports[-1])}
            servers.append(
                Proc(
                    [sys.executable, "-m", "spidertour.server.cli", "serve"],
                    {**env, "PORT": str(port), **play},
                    port,
                    "/health",
                    log,
                    None,
                )
            )
        for s in servers:
            s.wait_ready()
        urls = [s.url for s in servers]
        settings = {"variant": "spider78", "suits": 1, "time_limit": args.time_limit}
        now = time.time()
        async with httpx.AsyncClient(timeout=600) as http:
            r = await http.post(
                f"{urls[0]}/api/tournaments",
                headers={"Authorization": f"Bearer {admin}"},
                json={
                    "name": "scale",
                    "settings": settings,
                    "opens_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now - 5)),
                    "closes_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now + 7200)),
                },
            )
            r.raise_for_status()
            tid = r.json()["id"]
            t = time.monotonic()
            creds = await bulk_entrants(db_url, tid, args.entrants, args.playing)
            out["bulk_insert_seconds"] = round(time.monotonic() - t, 1)
            t = time.monotonic()
            r = await http.post(
                f"{urls[0]}/api/tournaments/{tid}/leaderboard/rebuild", headers={"Authorization": f"Bearer {admin}"}
            )
            r.raise_for_status()
            out["board_rebuild_seconds"] = round(time.monotonic() - t, 1)
        print(f"{args.entrants} entrants made; board rebuilt with {r.json()['entries']}", file=sys.stderr)
        rss = {"after_bulk": _mib([s.rss() for s in servers])}

        t = time.monotonic()
        bases = [u.replace("http://", "ws://") for u in urls]
        plays = [f"ws://127.0.0.1:{p}" for p in play_ports] or None  # None: the players on ``bases``
        for k in range(args.workers):
            path = config_dir / f"worker-{k}.json"
            mine = creds[k :: args.workers]
            watchers = args.watchers // args.workers + (k < args.watchers % args.workers)
            watch = plays if args.watch_socket == "port" else None  # None: the watchers on ``bases``
            config: dict[str, Any] = {"bases": bases, "play_bases": plays, "watch_bases": watch, "settings": settings}
            config |= {"tournament_id": tid, "creds": mine, "watchers": watchers}
            path.write_text(json.dumps(config))
            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                __file__,
                "--worker",
                str(path),
                limit=2**28,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=open(logdir / "scale-bench-workers.log", "ab"),  # noqa: SIM115
            )
            workers.append(Worker(proc))
        failed = [json.loads(await w.expect("ready", 1800)) for w in workers]
        out["not_connected"] = {k: sum(f[k] for f in failed) for k in ("players", "watchers")}
        out["connect_seconds"] = round(time.monotonic() - t, 1)
        rss["connected"] = _mib([s.rss() for s in servers])
        print(f"{args.playing} players and {args.watchers} watchers connected", file=sys.stderr)

        psutil.cpu_percent()
        cpu0 = [s.cpu() for s in servers]
        load0 = os.getloadavg()
        for w in workers:
            w.tell(f"go {args.rate / args.workers} {args.seconds}")
        reads = await probe(urls, tid, args.entrants, [e for _, e in creds], args.seconds)
        results = [json.loads(await w.expect("result", 120 + args.seconds)) for w in workers]
        out["machine_cpu_percent"] = round(psutil.cpu_percent() * (os.cpu_count() or 1), 1)
        out["load_during"] = [load0, os.getloadavg()]
        out["server_cpu_percent"] = [
            round(100 * (s.cpu() - c) / args.seconds, 1) for s, c in zip(servers, cpu0, strict=True)
        ]
        rss["after_moves"] = _mib([s.rss() for s in servers])
        out["moves"] = {
            "acked_per_second": round(sum(r["acked_per_second"] for r in results), 1),
            "ack_ms": _summary([v for r in results for v in r["ack_ms"]]),
            "errors": {k: sum(r["errors"].get(k, 0) for r in results) for r in results for k in r["errors"]},
        }
        out["board_lag_ms"] = _summary([v for r in results for v in r["board_lag_ms"]])
        out["feed_lag_ms"] = _summary([v for r in results for v in r["feed_lag_ms"]])
        out["watch_updates"] = sum(r["updates"] for r in results)
        out["reads_ms"] = reads
        print(f"board lag p99 {out['board_lag_ms']['p99']} ms; reads {reads}", file=sys.stderr)

        out["finish"] = await finish(db_url, urls[0], tid)
        rss["after_finish"] = _mib([s.rss() for s in servers])
        # The final standings as PostgreSQL serves them, the watchers still connected.
        out["finished_reads_ms"] = await probe(urls, tid, args.entrants, [e for _, e in creds], args.finished_seconds)
        out["server_rss_mib"] = rss
        for w in workers:
            w.tell("close")
        for w in workers:
            await asyncio.wait_for(w.proc.wait(), 60)
    finally:
        for w in workers:
            if w.proc.returncode is None:
                w.proc.kill()
                await w.proc.wait()
        for s in servers:
            s.stop()
        await drop_db(args.pg, name)
        await drop_redis_keys(args.redis, prefix)
        for path in config_dir.iterdir():
            path.unlink()
        config_dir.rmdir()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=100_000)
    parser.add_argument("--playing", type=int, default=20_000)
    parser.add_argument("--watchers", type=int, default=10_000)
    parser.add_argument("--processes", type=int, default=3, help="server processes")
    parser.add_argument("--workers", type=int, default=3, help="load generator processes")
    parser.add_argument("--rate", type=float, default=2000, help="moves a second offered in all")
    parser.add_argument("--seconds", type=float, default=30, help="how long the moves are offered")
    parser.add_argument("--finished-seconds", type=float, default=10, help="how long the final standings are read")
    parser.add_argument("--time-limit", type=int, default=1800, help="each game's time limit (s)")
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG", PG_DEFAULT))
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS", REDIS_DEFAULT))
    add_play_socket(parser)
    add_server_env(parser)
    parser.add_argument("--json", help="also write the result to this file")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import uvloop

        uvloop.run(worker(args.worker))
        return
    if not 0 < args.playing <= args.entrants:
        parser.error("--playing must be between 1 and --entrants")
    result = asyncio.run(bench(args))
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        Path(args.json).write_text(text + "\n")


if __name__ == "__main__":
    main()
