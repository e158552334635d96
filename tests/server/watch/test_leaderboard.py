"""Live leaderboards: exact order in Redis, watchers, rebuilds, and several server processes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import asyncpg
import httpx
import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st
from redis.asyncio import Redis

from spidertour.engine import Game, Settings, move_from_json
from spidertour.server.watch.leaderboard import Leaderboard, rank_key
from spidertour.server.watch.messages import Row
from tests.client import Api, Player, bearer
from tests.conftest import server_env
from tests.server.helpers import new_player, next_update, refused_watch, watcher
from tests.serverproc import ServerProcess
from tests.services import unique_name, valkey_server

SEED = "board-tests"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1}


# ----------------------------------------------------------------------------- the order itself

entries = st.lists(
    st.tuples(
        st.integers(0, 90_000),  # score
        st.integers(0, 86_400),  # time left at the end
        st.booleans(),  # still running
    ),
    min_size=1,
    max_size=40,
)


@given(entries)
@settings(max_examples=200, deadline=None)
def test_rank_key_orders_exactly_as_rules(rows: list[tuple[int, int, bool]]) -> None:
    keyed = []
    for ordinal, (score, time_left, running) in enumerate(rows, start=1):
        key = rank_key(score, 0 if running else time_left, ordinal)
        assert key < 2**53 and float(key) == key  # a double holds it exactly
        keyed.append((key, ordinal, score, 0 if running else time_left))
    by_key = [o for _, o, _, _ in sorted(keyed, reverse=True)]
    by_rules = [o for _, o, _, _ in sorted(keyed, key=lambda k: (-k[2], -k[3], k[1]))]
    assert by_key == by_rules


def test_rank_key_refuses_what_does_not_fit() -> None:
    with pytest.raises(ValueError):
        rank_key(1 << 17, 0, 1)
    with pytest.raises(ValueError):
        rank_key(0, 1 << 17, 1)
    with pytest.raises(ValueError):
        rank_key(0, 0, 1 << 19)


async def test_redis_returns_the_true_order_with_ties(redis_url: str) -> None:
    redis = Redis.from_url(redis_url)
    board = Leaderboard(redis, unique_name("st"))
    rows = [  # (ordinal, score, status, time_left)
        (1, 500, "ended", 100),
        (2, 500, "ended", 300),  # same score, more time: above 1
        (3, 500, "playing", None),  # running: counts 0 s, so below both
        (4, 700, "playing", None),  # best score, running
        (5, 500, "won", 300),  # ties 2 on score and time: the earlier entry (2) first
        (6, 0, "joined", None),
    ]
    try:
        for ordinal, score, status, left in rows:
            await board.record(
                9,
                ordinal,
                Row(entry_id=100 + ordinal, player=f"p{ordinal}", score=score, status=status, time_left=left),
            )
        page = await board.page(9, 0, 10)
        assert [r.entry_id - 100 for r in page] == [4, 2, 5, 1, 3, 6]
        assert [r.rank for r in page] == [1, 2, 3, 4, 5, 6]
        near = await board.around(9, 101, 1)
        assert near is not None and [r.entry_id - 100 for r in near] == [5, 1, 3]
        assert [r.entry_id - 100 for r in await board.page(9, 2, 2)] == [5, 1]
        assert await board.around(9, 999, 1) is None
        assert await board.ranks(9, [104, 999, 101, 106]) == [1, None, 4, 6]
        assert await board.ranks(9, []) == []
        # many rows of two tournaments in one write: each row lands in its own tournament's set
        built = await board.record_many(
            [
                (9, 7, Row(entry_id=107, player="p7", score=900, status="playing")),
                (8, 1, Row(entry_id=201, player="q1", score=5, status="playing")),
            ]
        )
        assert built == [False, False]  # neither set was marked built by a rebuild
        assert [r.entry_id for r in await board.page(9, 0, 2)] == [107, 104]
        assert [r.entry_id for r in await board.page(8, 0, 5)] == [201]
    finally:
        await redis.delete(*(board.key(t, part) for t in (8, 9) for part in ("rank", "rows", "built")))
        await redis.aclose()


# ----------------------------------------------------------------------------- helpers


async def play_some(player: Player, game: Game, count: int) -> None:
    """Play ``count`` card moves, preferring ones that turn a card (score changes)."""
    for _ in range(count):
        legal = [m for m in game.legal_moves() if m.type == "move"] or list(game.legal_moves())
        if not legal or game.over:
            return
        move = legal[0]
        for m in legal:
            trial = game.copy()
            if trial.play(m).revealed:
                move = m
                break
        answer = await player.play(move.to_json())
        assert answer["type"] == "result", answer
        game.play(move)


# ----------------------------------------------------------------------------- watching


@pytest.fixture(params=["port", "play_port"])
def watch_ws(request: pytest.FixtureRequest, server: ServerProcess) -> str:
    """Where the watchers connect: the server's own port, or its play port (the same watch socket)."""
    return str(server.ws_url) if request.param == "port" else f"ws://127.0.0.1:{server.play_port}"


async def test_watcher_gets_snapshot_then_updates(api: Api, server, watch_ws: str) -> None:
    tour = api.create_tournament(name="watched", seed=SEED, **SETTINGS)
    ws, snap = await watcher(watch_ws, tour["id"])
    assert snap["type"] == "snapshot" and snap["status"] == "open" and snap["entrants"] == 0 and snap["top"] == []
    player, entry = await new_player(api, server.ws_url, tour["id"], "watched-1")
    game = Game(Settings(**SETTINGS), SEED)
    seen_score = 0
    deadline = time.time() + 10
    await play_some(player, game, 6)
    assert game.score > 0
    while seen_score != game.score and time.time() < deadline:
        update = await next_update(ws)
        mine = [r for r in update["changed"] if r["entry_id"] == entry["id"]]
        if mine:
            seen_score = mine[-1]["score"]
            assert mine[-1]["rank"] == 1 and mine[-1]["player"] == "watched-1"
            if mine[-1]["status"] == "joined":  # the join's row, in a tick of its own when the moves come later
                assert mine[-1]["deadline"] is None and seen_score == 0
            else:  # a running game carries its deadline, for watchers to count its time down
                assert mine[-1]["status"] == "playing"
                assert time.time() < mine[-1]["deadline"] <= time.time() + Settings(**SETTINGS).time_limit
        assert update["entrants"] == 1
    assert seen_score == game.score
    await player.play({"type": "end"})
    over = await player.recv()
    while True:
        update = await next_update(ws)
        mine = [r for r in update["changed"] if r["entry_id"] == entry["id"]]
        if mine and mine[-1]["status"] == "ended":
            assert mine[-1]["score"] == over["final_score"] and mine[-1]["deadline"] is None
            break
    await ws.close()
    await player.close()


async def test_a_watcher_following_entries_is_sent_only_their_changes(api: Api, server, watch_ws: str) -> None:
    tour = api.create_tournament(name="follow", seed=SEED, **SETTINGS)
    (p1, e1), (p2, e2) = [await new_player(api, server.ws_url, tour["id"], f"follow-{i}") for i in range(2)]
    every, _ = await watcher(watch_ws, tour["id"])
    one, _ = await watcher(watch_ws, f"{tour['id']}?follow={e1['id']}")
    none, _ = await watcher(watch_ws, f"{tour['id']}?follow=")
    await play_some(p1, Game(Settings(**SETTINGS), SEED), 3)
    await play_some(p2, Game(Settings(**SETTINGS), SEED), 3)
    best = max(r["score"] for r in api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()["rows"])
    assert best > 0

    async def collect(ws: websockets.ClientConnection) -> tuple[set[int], list[dict[str, Any]]]:
        ids: set[int] = set()
        while True:  # until the top page shows both players' scores as they are now
            update = await next_update(ws)
            ids |= {r["entry_id"] for r in update["changed"]}
            if sum(r["score"] for r in update["top"]) == 2 * best:
                top = update["top"]
                break
        # The top page is read from the board at a tick, while the rows changed reach the feed as the
        # moves are told to every process (every 100 ms): the last moves' rows may come a tick after
        # the top page that shows them. Take what follows until the updates stop.
        with contextlib.suppress(TimeoutError):
            while True:
                ids |= {r["entry_id"] for r in (await next_update(ws, timeout=1.5))["changed"]}
        return ids, top

    (seen_every, top_every), (seen_one, top_one), (seen_none, top_none) = await asyncio.gather(
        collect(every), collect(one), collect(none)
    )
    assert seen_every == {e1["id"], e2["id"]}
    assert seen_one == {e1["id"]}  # the other player's changes are not sent to it...
    assert seen_none == set()
    assert top_one == top_none == top_every  # ...but every watcher sees the same top page
    for ws in (every, one, none):
        await ws.close()
    for player in (p1, p2):
        await player.close()


async def test_a_bad_follow_list_is_refused(api: Api, server, watch_ws: str) -> None:
    tour = api.create_tournament(name="bad follow", seed=SEED, **SETTINGS)
    for follow in ("abc", "1,-2", ",".join(["7"] * 101), str(2**63)):
        msg = await refused_watch(f"{watch_ws}/ws/watch/{tour['id']}?follow={follow}", 4000)
        assert msg["code"] == "bad_message" and "follow" in msg["reason"], msg


async def test_watcher_updates_are_coalesced_under_a_burst(api: Api, server, watch_ws: str) -> None:
    tour = api.create_tournament(name="burst", seed=SEED, **SETTINGS)
    players = [await new_player(api, server.ws_url, tour["id"], f"burst-{i}") for i in range(4)]
    ws, _ = await watcher(watch_ws, tour["id"])
    stalled = await websockets.connect(f"{watch_ws}/ws/watch/{tour['id']}", max_queue=1)  # never read
    received: list[float] = []

    async def listen() -> None:
        with pytest.raises((TimeoutError, asyncio.CancelledError)):
            while True:
                await asyncio.wait_for(ws.recv(), 30)
                received.append(time.monotonic())

    listener = asyncio.create_task(listen())
    start = time.monotonic()
    latencies: list[float] = []
    games = [Game(Settings(**SETTINGS), SEED) for _ in players]
    for _ in range(15):
        for (player, _), game in zip(players, games, strict=True):
            t0 = time.monotonic()
            await play_some(player, game, 1)
            latencies.append(time.monotonic() - t0)
    elapsed = time.monotonic() - start
    await asyncio.sleep(0.6)
    listener.cancel()
    await asyncio.gather(listener, return_exceptions=True)
    moves = len(latencies)
    assert moves == 60
    updates = [t for t in received if t >= start]
    assert updates, "the watcher saw no update"
    # at most four updates a second (one per 0.25 s tick), however many moves were made
    assert len(updates) <= (elapsed + 0.6) / 0.25 + 2
    assert len(updates) < moves
    assert sorted(latencies)[int(0.95 * moves)] < 0.5  # the stalled watcher slowed no move
    await stalled.close()
    await ws.close()
    for player, _ in players:
        await player.close()


async def test_watching_an_unknown_tournament_is_refused(watch_ws: str) -> None:
    msg = await refused_watch(f"{watch_ws}/ws/watch/99999999", 4004)
    assert msg["code"] == "not_found"


# ----------------------------------------------------------------------------- HTTP reads


async def test_the_board_follows_scores_down_as_well_as_up(api: Api, server) -> None:
    """Only moves that change a score are written to the board: a reveal, and its undo, both are."""
    tour = api.create_tournament(name="undo on board", seed=SEED, **SETTINGS)
    player, entry = await new_player(api, server.ws_url, tour["id"], "undoer")
    game = Game(Settings(**SETTINGS), SEED)
    quiet = next((m for m in game.legal_moves() if m.type == "move" and not game.copy().play(m).revealed), None)
    if quiet is not None:  # a move that turns no card changes nothing on the board
        assert (await player.play(quiet.to_json()))["type"] == "result"
        game.play(quiet)
    await play_some(player, game, 1)
    assert game.score == 25

    async def board_score() -> int:
        url = f"/api/tournaments/{tour['id']}/leaderboard/around/{entry['id']}"
        return int(next(r["score"] for r in api.http.get(url, params={"k": 0}).json()["rows"]))

    assert await board_score() == 25
    assert (await player.play({"type": "undo"}))["type"] == "result"
    assert await board_score() == 0
    await player.close()


async def test_leaderboard_pages_and_around_me(api: Api, server) -> None:
    tour = api.create_tournament(name="pages", seed=SEED, **SETTINGS)
    players = [await new_player(api, server.ws_url, tour["id"], f"page-{i}") for i in range(5)]
    for i, (player, _) in enumerate(players):  # player i plays i revealing moves: distinct scores
        await play_some(player, Game(Settings(**SETTINGS), SEED), i)
    board = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()
    assert board["entrants"] == 5 and board["status"] == "open"
    assert all(r["status"] == "playing" and r["deadline"] > time.time() for r in board["rows"])
    scores = [r["score"] for r in board["rows"]]
    assert scores == sorted(scores, reverse=True) and [r["rank"] for r in board["rows"]] == [1, 2, 3, 4, 5]
    second = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard", params={"offset": 1, "limit": 2}).json()
    assert second["rows"] == board["rows"][1:3]
    middle = board["rows"][2]["entry_id"]
    near = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard/around/{middle}", params={"k": 1}).json()
    assert [r["entry_id"] for r in near["rows"]] == [r["entry_id"] for r in board["rows"][1:4]]
    missing = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard/around/123456789")
    assert missing.status_code == 404 and "detail" in missing.json()
    for player, _ in players:
        await player.close()


async def test_rebuild_on_demand_needs_admin_and_restores(api: Api, server) -> None:
    tour = api.create_tournament(name="rebuild", seed=SEED, **SETTINGS)
    player, _ = await new_player(api, server.ws_url, tour["id"], "rebuild-1")
    await play_some(player, Game(Settings(**SETTINGS), SEED), 3)
    before = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()
    refused = api.http.post(f"/api/tournaments/{tour['id']}/leaderboard/rebuild")
    assert refused.status_code == 401
    done = api.http.post(f"/api/tournaments/{tour['id']}/leaderboard/rebuild", headers=api.admin())
    assert done.status_code == 200 and done.json()["entries"] == 1
    assert api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()["rows"] == before["rows"]
    await player.close()


# ----------------------------------------------------------------------------- Redis lost during play


async def test_flushall_during_play_comes_back_without_restart(database_url: str, admin_token: str) -> None:
    with valkey_server() as own_redis:
        proc = ServerProcess(database_url, own_redis, admin_token, env=server_env(unique_name("st"))).start()
        try:
            api = Api(proc.url, admin_token)
            tour = api.create_tournament(name="flush", seed=SEED, **SETTINGS)
            players = [await new_player(api, proc.ws_url, tour["id"], f"flush-{i}") for i in range(3)]
            games = [Game(Settings(**SETTINGS), SEED) for _ in players]
            for (player, _), game in zip(players, games, strict=True):
                await play_some(player, game, 2)
            redis = Redis.from_url(own_redis)
            await redis.flushall()
            for (player, _), game in zip(players, games, strict=True):
                await play_some(player, game, 2)  # games go on while the board is gone
            expected = {entry["id"]: game.score for (_, entry), game in zip(players, games, strict=True)}
            deadline = time.time() + 8
            got: dict[int, int] = {}
            while time.time() < deadline and got != expected:
                rows = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()["rows"]
                got = {r["entry_id"]: r["score"] for r in rows}
                await asyncio.sleep(0.2)
            assert got == expected
            assert await redis.exists(f"{proc.extra_env['REDIS_PREFIX']}:{{t:{tour['id']}}}:built")
            await redis.aclose()
            for player, _ in players:
                await player.close()
        finally:
            proc.stop()


# ----------------------------------------------------------------------------- two processes


async def test_two_processes_behave_as_one(database_url: str, redis_url: str, admin_token: str) -> None:
    env = server_env(unique_name("st"))
    a = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    b = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        api_a, api_b = Api(a.url, admin_token), Api(b.url, admin_token)
        tour = api_a.create_tournament(name="two", seed=SEED, **SETTINGS)
        ws, _ = await watcher(a.ws_url, tour["id"])

        # a watcher on A sees scores made on B within a second
        _, token = api_b.register("two-1")
        entry = api_b.join(tour["id"], token)
        on_b, _ = await Player.connect(b.ws_url, entry["id"], token)
        await on_b.start()
        game = Game(Settings(**SETTINGS), SEED)
        await play_some(on_b, game, 3)
        acked_at = time.monotonic()
        seen = None
        while seen != game.score:
            update = await next_update(ws, timeout=3)
            mine = [r for r in update["changed"] if r["entry_id"] == entry["id"]]
            if mine:
                seen = mine[-1]["score"]
        assert time.monotonic() - acked_at < 1.0

        # the player drops from B and goes on on A, at the same position
        await on_b.close()
        on_a, state = await Player.connect(a.ws_url, entry["id"], token)
        assert state["view"] == game.view() and state["moves"] == 3
        on_a.seq = state["last_seq"]
        await play_some(on_a, game, 1)

        # a newer connection on B takes over; the one on A is closed and can apply nothing
        newer, state = await Player.connect(b.ws_url, entry["id"], token)
        notice = await on_a.recv(timeout=5)
        assert notice["type"] == "error" and notice["code"] == "taken_over"
        with pytest.raises(websockets.ConnectionClosed):
            for _ in range(3):
                await on_a.play(next(game.legal_moves()).to_json())
        newer.seq = state["last_seq"]
        await play_some(newer, game, 1)
        conn = await asyncpg.connect(database_url)
        try:
            stored = await conn.fetch("SELECT move::text FROM moves WHERE entry_id = $1 ORDER BY n", entry["id"])
        finally:
            await conn.close()
        replayed = Game(Settings(**SETTINGS), SEED)
        for row in stored:
            replayed.play(move_from_json(json.loads(row["move"])))
        assert replayed.position() == game.position() and len(stored) == 5
        await newer.close()
        await ws.close()
        assert httpx.get(f"{b.url}/api/me/entries", headers=bearer(token)).json()[0]["id"] == entry["id"]
    finally:
        a.stop()
        b.stop()


def test_leaderboard_rebuild_command(api: Api, server, admin_token: str) -> None:
    import subprocess
    import sys

    tour = api.create_tournament(name="rebuild-cli", seed=SEED, **SETTINGS)
    _, token = api.register("cli-1")
    api.join(tour["id"], token)
    command = [
        sys.executable,
        "-m",
        "spidertour.server.cli",
        "leaderboard",
        "rebuild",
        str(tour["id"]),
        "--server",
        server.url,
    ]
    ok = subprocess.run([*command, "--admin-token", admin_token], capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and "1 entries" in ok.stdout
    refused = subprocess.run([*command, "--admin-token", "wrong"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "403" in refused.stderr and "Traceback" not in refused.stderr


async def test_leaderboard_finds_players_by_name_and_counts_who_plays(api: Api, server) -> None:
    """A name search ranks only the matching entries (by Redis), pages through them and says how many
    match; the first page of a running board counts who is playing now and who is yet to start."""
    tour = api.create_tournament(name="search", seed=SEED, **SETTINGS)
    players = [await new_player(api, server.ws_url, tour["id"], name) for name in ("Rosa-1", "rosa-2", "mo-3")]
    for i, (player, _) in enumerate(players):
        await play_some(player, Game(Settings(**SETTINGS), SEED), i + 1)
    _, token = api.register("rosalind-waits")
    waiting = api.join(tour["id"], token)
    url = f"/api/tournaments/{tour['id']}/leaderboard"
    board = api.http.get(url).json()
    assert board["entrants"] == 4 and board["playing"] == 3 and board["waiting"] == 1 and board["found"] is None
    found = api.http.get(url, params={"name": "ROSA"}).json()
    assert found["found"] == 3 and found["entrants"] == 4
    assert [r["player"] for r in found["rows"]] == ["rosa-2", "Rosa-1", "rosalind-waits"]
    assert [r["rank"] for r in found["rows"]] == [2, 3, 4]  # their ranks among everyone, not among the matches
    page = api.http.get(url, params={"name": "rosa", "offset": 1, "limit": 1}).json()
    assert [r["entry_id"] for r in page["rows"]] == [found["rows"][1]["entry_id"]] and page["found"] == 3
    assert waiting["id"] == found["rows"][2]["entry_id"]
    none = api.http.get(url, params={"name": "nobody-by-this"}).json()
    assert none["rows"] == [] and none["found"] == 0
    second = api.http.get(url, params={"offset": 1}).json()
    assert second["playing"] is None and [r["rank"] for r in second["rows"]] == [2, 3, 4]
    assert api.http.get(url, params={"name": "x" * 41}).status_code == 400
    for player, _ in players:
        await player.close()
