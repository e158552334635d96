"""Several processes on one database open each round once, never twice; a restart of every process
while a round is played resumes the bracket; a bracket in a series scores its shared places; the rated
pairings' ratings come back the same from `spidertour ratings rebuild`."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from tests.client import Api
from tests.server.helpers import fetch, spidertour
from tests.serverproc import ServerProcess

from .kit import create, join, open_soon, play_game, players, start_server, wait_for


@pytest.fixture(scope="module")
def second_process(
    bracket_db: str, redis_url: str, admin_token: str, redis_prefix: str, bracket_server: ServerProcess
) -> Iterator[ServerProcess]:
    yield from start_server(bracket_db, redis_url, admin_token, redis_prefix + "b")


async def test_two_processes_open_each_round_once(
    bapi: Api, bracket_server: ServerProcess, second_process: ServerProcess, bracket_db: str
) -> None:
    field = players(bapi, 8)
    cup = create(bapi)
    other = Api(second_process.url, bapi.admin_token)
    for i, (_, token) in enumerate(field):  # joined through either process
        join(other if i % 2 else bapi, cup["id"], token)
    open_soon(bapi, cup["id"])
    done = wait_for(other, cup["id"], "finished")
    assert [len(r["pairings"]) for r in done["rounds"]] == [4, 2, 1]
    games = await fetch(
        bracket_db,
        "SELECT parent_id, count(*) AS n, count(DISTINCT seed) AS deals FROM tournaments "
        "WHERE parent_id = $1 GROUP BY parent_id",
        cup["id"],
    )
    assert [(g["n"], g["deals"]) for g in games] == [(7, 3)]  # 4 + 2 + 1 games, one deal a round
    entries = await fetch(
        bracket_db,
        "SELECT count(*) AS n FROM entries e JOIN tournaments t ON t.id = e.tournament_id WHERE t.parent_id = $1",
        cup["id"],
    )
    assert entries[0]["n"] == 14


async def test_a_restart_of_every_process_between_rounds_resumes(
    bapi: Api, bracket_server: ServerProcess, second_process: ServerProcess
) -> None:
    field = players(bapi, 4)
    cup = create(bapi, break_seconds=3)
    for _, token in field:
        join(bapi, cup["id"], token)
    open_soon(bapi, cup["id"])
    wait_for(bapi, cup["id"], "running", rounds=1)
    bracket_server.kill()
    second_process.kill()  # every process gone while round 1 is played: it all lives in PostgreSQL
    time.sleep(3)
    bracket_server.start()
    second_process.start()
    done = wait_for(bapi, cup["id"], "finished")
    first, final = done["rounds"]
    assert [p["winner"] for p in first["pairings"]] == [field[0][0], field[1][0]]
    assert done["champion"]["player_id"] == field[0][0]
    # Round 2 began the break after round 1's last game was over, not before.
    assert final["starts_at"] > first["starts_at"]


async def test_series_points_and_rated_pairings_rebuilt_the_same(
    bapi: Api, bracket_server: ServerProcess, bracket_db: str
) -> None:
    made = bapi.http.post("/api/series", json={"name": "league"}, headers=bapi.admin())
    assert made.status_code == 201, made.text
    series = made.json()["id"]
    field = players(bapi, 4)
    cup = create(bapi, series=series, settings={"variant": "spider78", "suits": 2, "time_limit": 5})
    for _, token in field:
        join(bapi, cup["id"], token)
    open_soon(bapi, cup["id"])
    running = wait_for(bapi, cup["id"], "running", rounds=1)
    tokens = dict(field)
    for pairing in running["rounds"][0]["pairings"]:  # both sides play round 1: a rated head-to-head each
        for side in pairing["players"]:
            await play_game(bracket_server.ws_url, side["entry_id"], tokens[side["player_id"]], reveal=side["seed"] < 3)
    done = wait_for(bapi, cup["id"], "finished")
    table = bapi.http.get(f"/api/series/{series}/standings").json()
    points = {line["player_id"]: line["points"] for line in table}
    champion = done["champion"]["player_id"]
    finalist = next(p["player_id"] for p in done["rounds"][1]["pairings"][0]["players"] if p["player_id"] != champion)
    # "field": ranked - rank + 1 of 4 ranked: the champion 4, the finalist 3, both of round 1's losers 2 (3rd=).
    assert points.pop(champion) == 4 and points.pop(finalist) == 3 and list(points.values()) == [2, 2]
    history = "SELECT tournament_id, player_id, mu, sigma, games FROM rating_history ORDER BY 1, 2"
    rated = await fetch(bracket_db, history)
    assert len([r for r in rated if r["player_id"] in tokens]) == 4  # round 1's two games, two players each
    before = await fetch(bracket_db, "SELECT player_id, game, mu, sigma, games FROM ratings ORDER BY 1, 2")
    done_rebuild = spidertour("ratings", "rebuild", DATABASE_URL=bracket_db)
    assert done_rebuild.returncode == 0, done_rebuild.stderr
    assert await fetch(bracket_db, "SELECT player_id, game, mu, sigma, games FROM ratings ORDER BY 1, 2") == before
    assert await fetch(bracket_db, history) == rated
