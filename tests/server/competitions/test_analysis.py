"""Analysis: where a finished game's win was lost, worked out once by the solver and stored."""

from __future__ import annotations

import time
import tracemalloc
from typing import Any

from spidertour.engine import Game, Settings
from spidertour.engine.solver import solve_game
from spidertour.server.competitions.analysis.job import analyse
from tests.client import Api, Player, bearer
from tests.conftest import server_env
from tests.server.helpers import assert_error, fetch, unique
from tests.serverproc import ServerProcess

from .practice_kit import ONE_SUIT, long_game, losing_line, play, positions_after, wait_finished_with_par, wait_until

SEED = "analysis-seed"


def analysis(api: Api, tid: int, eid: int, token: str) -> tuple[int, dict[str, Any]]:
    r = api.http.get(f"/api/tournaments/{tid}/entries/{eid}/analysis", headers=bearer(token))
    assert r.status_code in (200, 202), r.text
    return r.status_code, r.json()


async def test_the_turning_point_is_the_move_that_gave_the_win_away(api: Api, server: Any) -> None:
    line = losing_line(SEED, ONE_SUIT)
    k = len(line)
    games = positions_after(SEED, ONE_SUIT, line)
    # The setup's own check: a win from every position before move k, none (proven) after it.
    for game in games[:-1]:
        assert solve_game(game, seconds=1, clock=time.process_time).won
    assert solve_game(games[-1], seconds=1, clock=time.process_time).exhausted

    tid = api.create_tournament(name=unique("analysis"), seed=SEED, closes_in=3, **ONE_SUIT)["id"]
    _, token = api.register("Analysed")
    eid = api.join(tid, token)["id"]
    await play(api, server.ws_url, eid, token, line)
    _, idle = api.register("Idle")
    absent = api.join(tid, idle)["id"]
    assert_error(api.http.get(f"/api/tournaments/{tid}/entries/{eid}/analysis", headers=bearer(token)), 403, "finishes")

    tour = wait_finished_with_par(api, tid)
    first = analysis(api, tid, eid, token)
    second = analysis(api, tid, eid, token)
    assert first == (202, {"status": "computing"})
    assert second[0] == 200 or second == first
    _, ready = wait_until("ready", lambda: (a := analysis(api, tid, eid, token))[0] == 200 and a)
    assert ready["status"] == "ready" and ready["par"] == tour["par"]
    assert [p["winnable"] for p in ready["positions"]] == [True] * k + [False]  # `end` is no position
    assert ready["turning_point"] == k
    assert ready["stopped_winnable"] is None  # ended with the win already lost

    # Worked out once, then served as stored.
    rows = await fetch(server.database_url, "SELECT starts FROM analysis_claims WHERE entry_id = $1", eid)
    assert [r["starts"] for r in rows] == [1]
    stored = await fetch(server.database_url, "SELECT computed_at FROM analyses WHERE entry_id = $1", eid)
    assert analysis(api, tid, eid, token) == (200, ready)
    assert await fetch(server.database_url, "SELECT computed_at FROM analyses WHERE entry_id = $1", eid) == stored

    # An entry that never played: the opening position only, winnable (the par won the deal), no turning point.
    wait_until("absent analysed", lambda: analysis(api, tid, absent, token)[0] == 200)
    _, quiet = analysis(api, tid, absent, token)
    assert quiet["positions"] == [{"winnable": True}] and quiet["turning_point"] is None
    assert quiet["stopped_winnable"] is None  # absent: it never stopped, it never started

    assert_error(api.http.get(f"/api/tournaments/{tid}/entries/999999999/analysis", headers=bearer(token)), 404)
    assert_error(api.http.get(f"/api/tournaments/999999999/entries/{eid}/analysis", headers=bearer(token)), 404)


async def test_a_won_game_has_no_turning_point(api: Api, server: Any) -> None:
    won = solve_game(Game(Settings(**ONE_SUIT), SEED), seconds=5, clock=time.process_time)
    assert won.won
    line = [m.to_json() for m in won.moves]
    tid = api.create_tournament(name=unique("won"), seed=SEED, closes_in=3, **ONE_SUIT)["id"]
    _, token = api.register("Winner")
    eid = api.join(tid, token)["id"]
    player, _ = await Player.connect(server.ws_url, eid, token)
    await player.start()
    for move in line:
        assert (await player.play(move))["type"] == "result"
    assert (await player.recv())["outcome"] == "won"
    await player.close()
    wait_until("finished", lambda: api.tournament(tid)["status"] == "finished")
    _, ready = wait_until("ready", lambda: (a := analysis(api, tid, eid, token))[0] == 200 and a)
    assert len(ready["positions"]) == len(line) + 1
    assert all(p["winnable"] is True for p in ready["positions"]) and ready["turning_point"] is None
    assert ready["stopped_winnable"] is None  # won, not stopped


async def test_a_game_stopped_while_still_winnable_says_how_it_stopped(api: Api, server: Any) -> None:
    """Ended by the player, or out of time, from a position a win still existed from: the analysis
    says which (``stopped_winnable``), so that the replay can say "you stopped while the game was
    still winnable" or "time ran out while the game was still winnable"."""
    won = solve_game(Game(Settings(**ONE_SUIT), SEED), seconds=5, clock=time.process_time)
    assert won.won
    start = [m.to_json() for m in won.moves[:3]]  # three moves of a win: still winnable after them
    tid = api.create_tournament(name=unique("stopped"), seed=SEED, closes_in=4, time_limit=2, **ONE_SUIT)["id"]
    _, token = api.register("Stopper")
    ended = api.join(tid, token)["id"]
    assert (await play(api, server.ws_url, ended, token, start))["outcome"] == "ended"
    _, slow = api.register("Slow")
    timed_out = api.join(tid, slow)["id"]
    player, _ = await Player.connect(server.ws_url, timed_out, slow)
    await player.start()
    for move in start:
        assert (await player.play(move))["type"] == "result"
    over = await player.recv(timeout=10)
    assert over["type"] == "over" and over["outcome"] == "timed_out", over
    await player.close()
    wait_finished_with_par(api, tid)
    for eid, how in ((ended, "ended"), (timed_out, "timed_out")):
        _, ready = wait_until(how, lambda e=eid: (a := analysis(api, tid, e, token))[0] == 200 and a, timeout=60)
        assert [p["winnable"] for p in ready["positions"]] == [True] * 4
        assert ready["turning_point"] is None and ready["stopped_winnable"] == how


def test_an_undo_back_to_a_winnable_position_is_winnable_again() -> None:
    """The job itself (as the worker runs it): the undo returns to the position before the losing
    move, which shares its verdict without a search; the turning point stays the losing move."""
    settings = {**ONE_SUIT, "undo": True}
    line = losing_line(SEED, settings)
    k = len(line)
    full = Settings(**settings).to_json()
    result = analyse(full, SEED, 1, [*line, {"type": "undo"}, {"type": "end"}], True, 1.0, 30.0)
    assert [p["winnable"] for p in result["positions"]] == [True] * k + [False, True]
    assert result["turning_point"] == k
    assert result["solved"] <= k  # the last position and the undo's need no search of their own
    # A budget spent by the first search (the last position): the deal's verdict is the par's, the
    # positions between stay unknown (no win found), so the contract's turning point is move 1.
    idle = analyse(full, SEED, 1, line, True, 1.0, 1e-9)
    assert idle["solved"] == 1
    assert [p["winnable"] for p in idle["positions"][:k]] == [True] + [None] * (k - 1)
    assert idle["turning_point"] == 1


async def test_two_processes_work_an_analysis_out_once(
    api: Api, server: Any, database_url: str, redis_url: str, admin_token: str, redis_prefix: str
) -> None:
    """Asked of two server processes at once, the analysis is claimed by one and stored once."""
    other = ServerProcess(database_url, redis_url, admin_token, env=server_env(redis_prefix)).start()
    try:
        line = losing_line(SEED, ONE_SUIT)
        tid = api.create_tournament(name=unique("two"), seed=SEED, closes_in=3, **ONE_SUIT)["id"]
        _, token = api.register("Twice")
        eid = api.join(tid, token)["id"]
        await play(api, server.ws_url, eid, token, line)
        wait_finished_with_par(api, tid)
        there = Api(other.url, admin_token)
        answers = [analysis(api, tid, eid, token), analysis(there, tid, eid, token), analysis(api, tid, eid, token)]
        assert answers[0] == (202, {"status": "computing"})
        _, here = wait_until("ready here", lambda: (a := analysis(api, tid, eid, token))[0] == 200 and a)
        _, beyond = wait_until("ready there", lambda: (a := analysis(there, tid, eid, token))[0] == 200 and a)
        assert here == beyond and here["turning_point"] == len(line)
        rows = await fetch(server.database_url, "SELECT starts FROM analysis_claims WHERE entry_id = $1", eid)
        assert [r["starts"] for r in rows] == [1]
    finally:
        other.stop()


def test_an_analysis_holds_a_long_game_in_memory_linear_in_its_length() -> None:
    """A game of 4,000 moves whose undo history is never cleared (one card to and fro): what the
    analysis keeps per position holds no history. Kept as a game copy per position it took 75 MiB
    (the square of the length); now about 2 MiB (bench/analysis_memory.py)."""
    moves = long_game(SEED, 4000, **ONE_SUIT)
    settings = Settings(**ONE_SUIT).to_json()
    tracemalloc.start()
    try:
        result = analyse(settings, SEED, 1, moves, None, 0.01, 0.01)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(result["positions"]) == 4001
    assert peak < 16 * 2**20, f"{peak / 2**20:.1f} MiB"
