"""Team battles: the team ranking itself, who may join for which team, and the team standings live
from Redis (pages and the watch socket), rebuilt after a flush, and final after the finish."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import msgspec
import websockets
from redis.asyncio import Redis

from spidertour.server.watch.teams import from_db, rank_teams
from tests.client import Api, Player, bearer
from tests.server.communities.kit import account, new_club, new_organiser, tournament_as
from tests.server.helpers import assert_error, reveal_move, spidertour, watcher

SEED = "team-seed"
SETTINGS = {"variant": "spider78", "suits": 2}


# ----------------------------------------------------------------------------- the ranking itself


def test_a_team_sums_its_best_scores_and_one_short_of_players_sums_what_it_has() -> None:
    rows = rank_teams(
        2,
        [
            (7, "Seven", [(71, 300), (72, 200), (73, 900)]),  # best first as ranked: only the first two count
            (5, "Five", [(51, 450)]),  # one player: 450 alone
            (9, "Nine", []),  # nobody: not shown
        ],
    )
    assert [(r.rank, r.team, r.name, r.score, r.counted) for r in rows] == [
        (1, 7, "Seven", 500, [71, 72]),
        (2, 5, "Five", 450, [51]),
    ]


def test_ties_go_to_the_higher_nth_best_then_upwards_then_the_smaller_club() -> None:
    rows = rank_teams(
        3,
        [
            (1, "Top-heavy", [(11, 500), (12, 100), (13, 0)]),  # 600, third best 0
            (2, "Even", [(21, 200), (22, 200), (23, 200)]),  # 600, third best 200: first
            (3, "Middle", [(31, 300), (32, 200), (33, 100)]),  # 600, third 100, second 200
            (4, "Middle too", [(41, 350), (42, 150), (43, 100)]),  # 600, third 100, second 150
            (5, "Short", [(51, 600)]),  # 600 with one player: a missing place loses to any score
            (6, "Same as 3", [(61, 300), (62, 200), (63, 100)]),  # exactly as team 3: the smaller id first
        ],
    )
    assert [r.team for r in rows] == [2, 3, 6, 4, 1, 5]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6] and {r.score for r in rows} == {600}


def test_a_short_team_ties_with_its_missing_places_below_a_zero() -> None:
    rows = rank_teams(2, [(1, "Short", [(11, 100)]), (2, "Full", [(21, 100), (22, 0)])])
    assert [r.team for r in rows] == [2, 1]


# ----------------------------------------------------------------------------- creating and joining


async def member_of(api: Api, database_url: str, organiser: str, club: dict[str, Any], name: str) -> str:
    """A new account that joined ``club`` with its invite code: its token."""
    _, token = await account(api, database_url, name)
    await join_club(api, organiser, club, token)
    return token


async def join_club(api: Api, organiser: str, club: dict[str, Any], token: str) -> None:
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(organiser)).json()["invite"]
    r = api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(token))
    assert r.status_code == 201, r.text


def join(api: Api, tid: int, token: str, **body: Any) -> Any:
    return api.http.post(f"/api/tournaments/{tid}/entries", json=body, headers=bearer(token))


async def test_creating_a_team_battle_and_who_may_join_for_which_team(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api)
    red, blue = new_club(api, organiser, "Red"), new_club(api, organiser, "Blue")
    for top in (0, 51, "two"):
        r = api.http.post("/api/tournaments", json={"name": "t", "teams": {"top": top}}, headers=bearer(organiser))
        assert_error(r, 400)
    assert_error(
        api.http.post("/api/tournaments", json={"name": "t", "teams": {"top": 2, "x": 1}}, headers=bearer(organiser)),
        400,
    )
    plain = tournament_as(api, organiser)
    assert plain["teams"] is None
    battle = tournament_as(api, organiser, teams={"top": 2})
    assert battle["teams"] == {"top": 2} and api.tournament(battle["id"])["teams"] == {"top": 2}

    token = await member_of(api, database_url, organiser, red, "red-one")
    assert_error(join(api, plain["id"], token, team=red["id"]), 400, "no team battle")
    assert_error(join(api, battle["id"], token), 400, "team battle", '"team"')
    assert_error(join(api, battle["id"], token, team=blue["id"]), 403, f"not a member of club {blue['id']}")
    assert_error(join(api, battle["id"], token, team=999_999_999), 403, "not a member of club 999999999")
    assert_error(join(api, battle["id"], token, team="red"), 400)
    for beyond in (2**63, 2**64 - 1):  # no club's id: refused as such, never sent to PostgreSQL
        assert_error(join(api, battle["id"], token, team=beyond), 400, "team")
    _, guest = api.register("guest")
    assert_error(api.http.post(f"/api/tournaments/{battle['id']}/entries", headers=bearer(guest)), 400, "team battle")
    assert api.http.get("/api/me/entries", headers=bearer(token)).json() == []  # nothing was made
    r = join(api, battle["id"], token, team=red["id"])
    assert r.status_code == 201, r.text
    row = api.http.get(f"/api/tournaments/{battle['id']}/leaderboard").json()["rows"][0]
    assert row["team"] == {"id": red["id"], "name": red["name"]}
    assert api.http.get(f"/api/tournaments/{plain['id']}/leaderboard").json()["rows"] == []
    assert_error(api.http.get(f"/api/tournaments/{plain['id']}/teams"), 404, "no team battle")
    assert_error(api.http.get("/api/tournaments/999999999/teams"), 404)

    # A club's team battle: the club's membership and the entry code are checked as before.
    club_battle = tournament_as(api, organiser, club=blue["id"], entry_code="sesame", teams={"top": 1})
    assert_error(join(api, club_battle["id"], token, team=red["id"], entry_code="sesame"), 403, "club members only")
    await join_club(api, organiser, blue, token)
    assert_error(join(api, club_battle["id"], token, team=blue["id"]), 403, "entry code needed")
    r = join(api, club_battle["id"], token, team=red["id"], entry_code="sesame")  # its other club
    assert r.status_code == 201, r.text


def test_a_schedule_carries_the_team_battle(api: Api) -> None:
    _, organiser = new_organiser(api)
    first = (datetime.now(UTC) + timedelta(minutes=30)).isoformat()
    body = {"name": "Weekly teams", "first_opens_at": first, "every_minutes": 1440, "teams": {"top": 3}}
    r = api.http.post("/api/schedules", json=body, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    assert r.json()["teams"] == {"top": 3}
    made = r.json()["tournaments"]
    assert made and api.tournament(made[0])["teams"] == {"top": 3}


def test_the_command_line_makes_a_team_battle(api: Api, server: Any, admin_token: str) -> None:
    owner = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": admin_token}
    done = spidertour("tournament", "create", "--name", "Teams by command", "--teams-top", "4", **owner)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["teams"] == {"top": 4}
    refused = spidertour("tournament", "create", "--name", "Too many", "--teams-top", "51", **owner)
    assert refused.returncode == 2 and "top" in refused.stderr


# ----------------------------------------------------------------------------- live, rebuilt, final


async def next_teams(ws: websockets.ClientConnection, want: Any, timeout: float = 8) -> list[dict[str, Any]]:
    """Read the watch socket until a ``teams`` message for which ``want(rows)`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "no such teams message"
        msg = json.loads(await asyncio.wait_for(ws.recv(), left))
        if msg["type"] == "teams" and want(msg["teams"]):
            return msg["teams"]  # type: ignore[no-any-return]


def by_hand(rows: list[dict[str, Any]], top: int) -> dict[int, tuple[int, list[int]]]:
    """Each team's score and counted entries worked out from the individual standings."""
    teams: dict[int, list[dict[str, Any]]] = {}
    for row in sorted(rows, key=lambda r: r["rank"]):
        teams.setdefault(row["team"]["id"], []).append(row)
    return {
        team: (sum(r["score"] for r in best[:top]), [r["entry_id"] for r in best[:top]]) for team, best in teams.items()
    }


async def test_team_standings_live_rebuilt_and_final(
    api: Api, server: Any, database_url: str, redis_url: str, redis_prefix: str
) -> None:
    _, organiser = new_organiser(api)
    red, blue = new_club(api, organiser, "Red"), new_club(api, organiser, "Blue")
    tour = tournament_as(
        api,
        organiser,
        seed=SEED,
        settings=SETTINGS,
        teams={"top": 2},
        closes_at=(datetime.now(UTC) + timedelta(seconds=10)).isoformat(),
    )
    tid = tour["id"]
    ws, snap = await watcher(server.ws_url, tid)
    assert snap["type"] == "snapshot"
    assert json.loads(await asyncio.wait_for(ws.recv(), 5)) == {"type": "teams", "teams": []}

    tokens = [
        await member_of(api, database_url, organiser, club, f"{club['name']}-{i}")
        for club, i in ((red, 1), (red, 2), (red, 3), (blue, 1))
    ]
    entries = [
        join(api, tid, token, team=club["id"]).json() for token, club in zip(tokens, (red, red, red, blue), strict=True)
    ]
    first = await next_teams(ws, lambda rows: len(rows) == 2 and len(rows[0]["counted"]) == 2)
    assert {r["team"]: r["score"] for r in first} == {red["id"]: 0, blue["id"]: 0}

    # Blue's one player reveals a card: 25 points put Blue ahead of Red's three at 0.
    players = []
    for entry, token in zip(entries, tokens, strict=True):
        player, _ = await Player.connect(server.ws_url, entry["id"], token)
        await player.start()
        players.append(player)
    result = await players[3].play(reveal_move(SEED))
    assert result["type"] == "result"
    live = await next_teams(ws, lambda rows: rows[0]["team"] == blue["id"] and rows[0]["score"] == 25)
    assert live == [
        {"rank": 1, "team": blue["id"], "name": blue["name"], "score": 25, "counted": [entries[3]["id"]]},
        {
            "rank": 2,
            "team": red["id"],
            "name": red["name"],
            "score": 0,
            "counted": [entries[0]["id"], entries[1]["id"]],
        },
    ]
    # Two of Red's reveal too: Red counts its two best (50), its third (0) left out.
    for player in players[1:3]:
        await player.play(reveal_move(SEED))
    live = await next_teams(ws, lambda rows: rows[0]["team"] == red["id"] and rows[0]["score"] == 50)
    assert sorted(live[0]["counted"]) == sorted([entries[1]["id"], entries[2]["id"]])
    page = api.http.get(f"/api/tournaments/{tid}/teams").json()
    assert page == {"tournament_id": tid, "status": "open", "top": 2, "teams": live}
    board = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()["rows"]
    assert {r["entry_id"]: r["team"]["id"] for r in board} == {
        e["id"]: c["id"] for e, c in zip(entries, (red, red, red, blue), strict=True)
    }
    expected = by_hand(board, 2)
    assert {r["team"]: (r["score"], r["counted"]) for r in live} == expected
    # What PostgreSQL computes while Redis is out of reach: the same table.
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=1)
    try:
        assert [msgspec.to_builtins(r) for r in await from_db(pool, tid, 2, final=False)] == live
    finally:
        await pool.close()

    # Redis loses the tournament's keys: the team standings come back equal from PostgreSQL.
    redis = Redis.from_url(redis_url)
    try:
        keys = [key async for key in redis.scan_iter(match=f"{redis_prefix}:{{t:{tid}}}:*")]
        assert any(key.endswith(f":team:{red['id']}".encode()) for key in keys)
        await redis.delete(*keys)
    finally:
        await redis.aclose()
    assert api.http.get(f"/api/tournaments/{tid}/teams").json() == page
    await players[0].play(reveal_move(SEED))  # and the rebuilt board takes moves on
    live = await next_teams(ws, lambda rows: rows[0]["counted"] == [entries[0]["id"], entries[1]["id"]])

    # Everyone ends; at the finish the final team standings are PostgreSQL's.
    for player in players:
        await player.play({"type": "end"})
        assert (await player.recv())["type"] == "over"
        await player.close()
    deadline = time.monotonic() + 20
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline, "never finished"
        await asyncio.sleep(0.2)
    final = api.http.get(f"/api/tournaments/{tid}/teams").json()
    redis = Redis.from_url(redis_url)
    try:  # the finished battle's keys, its teams' sets included, expire
        keys = [key async for key in redis.scan_iter(match=f"{redis_prefix}:{{t:{tid}}}:*")]
        assert any(b":team:" in key for key in keys) and any(key.endswith(b":teams") for key in keys)
        ttls = [await redis.ttl(key) for key in keys]
        assert all(0 < ttl <= 600 for ttl in ttls), ttls
    finally:
        await redis.aclose()
    assert final["status"] == "finished"
    standings = api.http.get(f"/api/tournaments/{tid}/standings").json()
    assert all(s["team"] is not None for s in standings)
    assert {r["team"]: (r["score"], r["counted"]) for r in final["teams"]} == by_hand(standings, 2)
    assert [r["rank"] for r in final["teams"]] == [1, 2]
    assert final["teams"][0]["score"] >= final["teams"][1]["score"] > 0
    ws2, _ = await watcher(server.ws_url, tid)  # a new watcher of the finished battle: the final table
    assert json.loads(await asyncio.wait_for(ws2.recv(), 5)) == {"type": "teams", "teams": final["teams"]}
    await ws2.close()
    await ws.close()

    # standings.csv names each player's team in its club column.
    text = api.http.get(f"/api/tournaments/{tid}/standings.csv").text
    clubs = {row["player"]: row["club"] for row in csv.DictReader(io.StringIO(text))}
    assert clubs == {s["player"]: s["team"]["name"] for s in standings}


async def test_a_disqualified_entry_leaves_its_team(api: Api, server: Any, database_url: str) -> None:
    _, organiser = new_organiser(api)
    green = new_club(api, organiser, "Green")
    tour = tournament_as(api, organiser, seed=SEED, settings=SETTINGS, teams={"top": 1})
    tid = tour["id"]
    tokens = [await member_of(api, database_url, organiser, green, f"green-{i}") for i in range(2)]
    best, other = [join(api, tid, token, team=green["id"]).json() for token in tokens]
    player, _ = await Player.connect(server.ws_url, best["id"], tokens[0])
    await player.start()
    await player.play(reveal_move(SEED))
    ws, _ = await watcher(server.ws_url, tid)
    assert (await next_teams(ws, lambda rows: True))[0]["counted"] == [best["id"]]
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{best['id']}/disqualify",
        json={"reason": "two accounts"},
        headers=bearer(organiser),
    )
    assert r.status_code == 200, r.text
    rows = await next_teams(ws, lambda rows: rows[0]["counted"] == [other["id"]])
    assert rows == [{"rank": 1, "team": green["id"], "name": green["name"], "score": 0, "counted": [other["id"]]}]
    assert api.http.get(f"/api/tournaments/{tid}/teams").json()["teams"] == rows
    await ws.close()
    await player.close()
