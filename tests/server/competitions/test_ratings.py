"""Ratings: rated tournaments update each game's OpenSkill ratings at their finish, players' public
profiles show them, rating limits keep players out, and a rebuild from PostgreSQL arrives at
exactly the stored numbers."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg
from openskill.models import PlackettLuce

from spidertour.server.competitions.ratings import rate, shared_ranks
from spidertour.server.storage.migrations import migrate
from tests.client import Api
from tests.server.helpers import assert_error, fetch, spidertour, unique
from tests.server.players.test_migrated_guests import migrate_up_to

from .rating_kit import ONE_SUIT, Plan, create, finish, finished, play, players, profile

MODEL = PlackettLuce()
GAME = "spider78/2"


def said(estimate: float) -> str:
    """A stored rating as a refusal says it (1,000 + 40 x the estimate)."""
    return f"{round(1000 + 40 * estimate):,}"


async def test_a_winner_gains_and_the_last_loses(api: Api, server: Any, database_url: str) -> None:
    (a, ta), (b, tb), (c, tc) = players(api, 3)
    tour = await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb), Plan(tc, start=False)])
    assert tour["rated"] is True and tour["rating_min"] is None and tour["rating_max"] is None
    winner, last, absent = profile(api, a), profile(api, b), profile(api, c)
    assert set(winner["ratings"]) == {GAME}
    won, lost = winner["ratings"][GAME], last["ratings"][GAME]
    assert won["ordinal"] > 0 > lost["ordinal"] and won["games"] == lost["games"] == 1
    # What openskill itself makes of one game won against one lost, from the defaults.
    expected = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[1.0, 2.0])
    assert (won["mu"], won["sigma"]) == (expected[0][0].mu, expected[0][0].sigma)
    assert (lost["mu"], lost["sigma"]) == (expected[1][0].mu, expected[1][0].sigma)
    assert won["ordinal"] == expected[0][0].ordinal()
    # The entrant who never started is not rated; its result is listed, unrated.
    assert absent["ratings"] == {}
    assert absent["recent"][0]["rating"] is None and absent["recent"][0]["rank"] == 3
    history = await fetch(
        database_url,
        "SELECT player_id, mu_before, sigma_before, mu, rank FROM rating_history WHERE tournament_id = $1",
        tour["id"],
    )
    assert {(r["player_id"], r["rank"]) for r in history} == {(a, 1), (b, 2)}
    assert all((r["mu_before"], r["sigma_before"]) == (MODEL.mu, MODEL.sigma) for r in history)

    # The profile: public, its recent results linked to the tournament, nothing secret.
    recent = winner["recent"][0]
    assert winner["id"] == a and winner["name"].startswith("rated-") and winner["handle"] is None
    assert recent["tournament_id"] == tour["id"] and recent["tournament"] == tour["name"]
    assert (recent["rank"], recent["entrants"], recent["game"]) == (1, 3, GAME)
    assert recent["final_score"] >= 25 and recent["rating"] == won["ordinal"]
    assert recent["finished_at"] == tour["finished_at"]
    text = json.dumps(winner).lower()
    assert ta.lower() not in text and "token" not in text and "password" not in text and "code" not in text

    # A second win: the winner climbs further, the games count.
    ((d, td),) = players(api, 1)
    await finished(api, server.ws_url, [Plan(td), Plan(ta, reveal=True)])
    again = profile(api, a)
    assert again["ratings"][GAME]["games"] == 2 and again["ratings"][GAME]["ordinal"] > won["ordinal"]
    assert profile(api, d)["ratings"][GAME]["ordinal"] < 0
    assert [r["rank"] for r in again["recent"][:2]] == [1, 1]


async def test_unrated_tournaments_and_lone_entrants_change_nothing(api: Api, server: Any, database_url: str) -> None:
    (a, ta), (b, tb) = players(api, 2)
    await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)])
    before = profile(api, a)["ratings"], profile(api, b)["ratings"]
    tour = await finished(api, server.ws_url, [Plan(tb, reveal=True), Plan(ta)], rated=False)
    assert tour["rated"] is False
    assert (profile(api, a)["ratings"], profile(api, b)["ratings"]) == before
    assert profile(api, b)["recent"][0]["rating"] is None  # listed among the results, unrated
    # One entrant who started (the other never did): nothing to rate.
    lone = await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb, start=False)])
    assert (profile(api, a)["ratings"], profile(api, b)["ratings"]) == before
    rows = await fetch(
        database_url, "SELECT 1 FROM rating_history WHERE tournament_id = ANY($1)", [tour["id"], lone["id"]]
    )
    assert rows == []
    # A tournament of another game leaves this game's ratings alone.
    await finished(api, server.ws_url, [Plan(ta), Plan(tb)], ONE_SUIT)
    assert profile(api, a)["ratings"][GAME] == before[0][GAME]
    assert profile(api, a)["ratings"]["spider78/1"]["games"] == 1


async def test_rating_limits_refuse_a_join_with_the_reason(api: Api, server: Any) -> None:
    (a, ta), (b, tb), (_, fresh) = players(api, 3)
    await finished(api, server.ws_url, [Plan(ta, reveal=True), Plan(tb)])
    strong, weak = profile(api, a)["ratings"][GAME]["ordinal"], profile(api, b)["ratings"][GAME]["ordinal"]
    assert strong > 0 > weak

    seed = unique("seed")
    floor = create(api, seed, rating_min=0.5)
    assert floor["rating_min"] == 0.5 and floor["rating_max"] is None
    path = f"/api/tournaments/{floor['id']}/entries"
    # Said as players see ratings (1,000 + 40 x the stored estimate): 0.5 is 1,020.
    assert_error(api.http.post(path, headers={"authorization": f"Bearer {tb}"}), 403, said(weak), "minimum 1,020")
    assert_error(
        api.http.post(path, headers={"authorization": f"Bearer {fresh}"}),
        403,
        "unrated",
        "a new player counts as 1,000",
        "minimum 1,020",
    )
    await play(api, server.ws_url, floor["id"], seed, Plan(ta, start=False))  # within: joins

    ceiling = create(api, unique("seed"), rating_max=0.5)
    path = f"/api/tournaments/{ceiling['id']}/entries"
    assert_error(api.http.post(path, headers={"authorization": f"Bearer {ta}"}), 403, said(strong), "maximum 1,020")
    for token in (tb, fresh):
        assert api.http.post(path, headers={"authorization": f"Bearer {token}"}).status_code == 201
    # Another game's limit reads that game's rating: unrated there.
    other = create(api, unique("seed"), ONE_SUIT, rating_min=0.5)
    r = api.http.post(f"/api/tournaments/{other['id']}/entries", headers={"authorization": f"Bearer {ta}"})
    assert_error(r, 403, "unrated in spider78/1, where a new player counts as")
    assert "model" not in r.json()["detail"]  # said to a player: no statistics' words
    # With an entry code too: both reasons at once.
    coded = create(api, unique("seed"), rating_min=0.5, entry_code="letmein")
    r = api.http.post(
        f"/api/tournaments/{coded['id']}/entries",
        json={"entry_code": "wrong!"},
        headers={"authorization": f"Bearer {tb}"},
    )
    assert_error(r, 403, "wrong entry code", "minimum 1,020")
    # Limits in the wrong order, or out of range, are refused and create nothing.
    now = datetime.now(UTC)
    times = {"opens_at": now.isoformat(), "closes_at": (now + timedelta(hours=1)).isoformat()}
    for bad in ({"rating_min": 5, "rating_max": 1}, {"rating_min": 1e9}, {"rated": "yes"}):
        r = api.http.post("/api/tournaments", json={"name": "bad", **times, **bad}, headers=api.admin())
        assert r.status_code == 400, (bad, r.text)


async def test_schedules_carry_rated_and_limits(api: Api) -> None:
    first = (datetime.now(UTC) + timedelta(minutes=30)).replace(microsecond=0)
    body = {
        "name": unique("weekly"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 1440,
        "ahead_minutes": 60,
        "rated": False,
        "rating_max": 12.5,
    }
    r = api.http.post("/api/schedules", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    schedule = r.json()
    assert (schedule["rated"], schedule["rating_min"], schedule["rating_max"]) == (False, None, 12.5)
    made = api.tournament(schedule["tournaments"][0])
    assert (made["rated"], made["rating_min"], made["rating_max"]) == (False, None, 12.5)
    r = api.http.delete(f"/api/schedules/{schedule['id']}", headers=api.admin())
    assert r.status_code == 200, r.text


def test_unknown_players_are_404(api: Api) -> None:
    for path in ("/api/players/999999999", "/api/players/99999999999999999999", "/api/players/0"):
        assert_error(api.http.get(path), 404, "no player")


SNAPSHOT = {
    "ratings": "SELECT player_id, game, mu, sigma, games FROM ratings ORDER BY player_id, game",
    "history": """SELECT tournament_id, player_id, game, rank, mu_before, sigma_before, mu, sigma, games
                    FROM rating_history ORDER BY tournament_id, player_id""",
}


async def snapshot(database_url: str) -> dict[str, list[tuple[Any, ...]]]:
    return {name: [tuple(r) for r in await fetch(database_url, sql)] for name, sql in SNAPSHOT.items()}


async def execute(database_url: str, sql: str) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


def rebuild(database_url: str, *args: str) -> str:
    done = spidertour("ratings", "rebuild", *args, DATABASE_URL=database_url)
    assert done.returncode == 0, done.stderr
    assert "ratings rebuilt" in done.stdout
    return done.stdout


async def test_a_rebuild_arrives_at_exactly_the_stored_numbers(api: Api, server: Any, database_url: str) -> None:
    group = players(api, 4)
    tokens = [t for _, t in group]
    # Several tournaments of two games, the same players meeting in different orders and numbers.
    await finished(api, server.ws_url, [Plan(tokens[0], reveal=True), Plan(tokens[1]), Plan(tokens[2])])
    await finished(api, server.ws_url, [Plan(tokens[3], reveal=True), Plan(tokens[0])], ONE_SUIT)
    await finished(api, server.ws_url, [Plan(tokens[2], reveal=True), Plan(tokens[3]), Plan(tokens[1], reveal=True)])
    await finished(api, server.ws_url, [Plan(tokens[1], reveal=True), Plan(tokens[2]), Plan(tokens[0])], ONE_SUIT)
    last = await finished(api, server.ws_url, [Plan(tokens[0]), Plan(tokens[3], reveal=True)])
    stored = await snapshot(database_url)
    mine = [r for r in stored["ratings"] if r[0] in {pid for pid, _ in group}]
    assert {(r[0], r[1]) for r in mine} >= {(group[0][0], GAME), (group[0][0], "spider78/1")}
    assert sum(r[4] for r in mine if r[0] == group[0][0]) == 4  # player 0: four rated games, two of each

    # Wiped ratings, altered history: the rebuild recomputes them all, bit for bit.
    await execute(database_url, "DELETE FROM ratings; UPDATE rating_history SET mu = mu + 1, sigma = 0.5")
    await execute(database_url, f"DELETE FROM rating_history WHERE tournament_id = {last['id']}")
    assert await snapshot(database_url) != stored
    rebuild(database_url)
    assert await snapshot(database_url) == stored  # exact equality of every double

    # One game alone: the other game's rows stay as they are.
    await execute(database_url, "UPDATE ratings SET mu = 1 WHERE game = 'spider78/1'")
    rebuild(database_url, "--game", GAME)
    after = await snapshot(database_url)
    assert after != stored and [r for r in after["ratings"] if r[1] == GAME] == [
        r for r in stored["ratings"] if r[1] == GAME
    ]
    rebuild(database_url)
    assert await snapshot(database_url) == stored

    # The command shows a player's stored ratings.
    shown = spidertour("ratings", "show", str(group[0][0]), DATABASE_URL=database_url)
    assert shown.returncode == 0, shown.stderr
    rows = {r["game"]: r for r in json.loads(shown.stdout)}
    assert rows[GAME] == {**profile(api, group[0][0])["ratings"][GAME], "game": GAME}


async def test_a_disqualification_after_the_finish_rerates_the_game(api: Api, server: Any, database_url: str) -> None:
    (a, ta), (b, tb), (_, tc) = players(api, 3)
    seed = unique("seed")
    tour = create(api, seed)
    cheat = await play(api, server.ws_url, tour["id"], seed, Plan(ta, reveal=True))
    await play(api, server.ws_url, tour["id"], seed, Plan(tb))
    await play(api, server.ws_url, tour["id"], seed, Plan(tc))
    finish(api, tour["id"])
    assert profile(api, a)["ratings"][GAME]["ordinal"] > 0
    r = api.http.post(
        f"/api/tournaments/{tour['id']}/entries/{cheat}/disqualify", json={"reason": "two devices"}, headers=api.admin()
    )
    assert r.status_code == 200, r.text
    assert GAME not in profile(api, a)["ratings"]  # its only rated game no longer counts
    assert profile(api, b)["ratings"][GAME]["games"] == 1
    stored = await snapshot(database_url)
    rebuild(database_url)
    assert await snapshot(database_url) == stored


def test_entrants_equal_in_score_and_time_share_a_rank() -> None:
    rows: list[dict[str, Any]] = [
        {"player_id": 1, "final_score": 125, "time_left": 30, "rank": 1},
        {"player_id": 2, "final_score": 25, "time_left": 10, "rank": 2},
        {
            "player_id": 3,
            "final_score": 25,
            "time_left": 10,
            "rank": 3,
        },  # tied: the entry order breaks it in the standings
        {"player_id": 4, "final_score": 25, "time_left": 9, "rank": 4},
    ]
    assert shared_ranks(rows) == [1, 2, 2, 4]
    changes = rate(rows, {})
    assert [c.rank for c in changes] == [1, 2, 2, 4]
    assert changes[1].after == changes[2].after and changes[0].after.mu > changes[1].after.mu > changes[3].after.mu
    assert rate(rows[:1], {}) == []  # one rated entrant: nothing changes


async def test_tournaments_finished_before_ratings_stay_unrated(fresh_database_url: str, tmp_path: Path) -> None:
    await migrate_up_to(fresh_database_url, 8, tmp_path / "schema")
    conn = await asyncpg.connect(fresh_database_url)
    try:
        made = """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at, finished_at)
                  VALUES ($1, '{"variant": "spider78", "suits": 2}', 's', 'c', now() - interval '2 hours',
                          now() - interval '1 hour', $2) RETURNING id"""
        old = await conn.fetchval(made, "finished before", datetime.now(UTC))
        running = await conn.fetchval(made, "still to finish", None)
        await migrate(conn)  # the rest, as a server does at its start
        rated = {r["id"]: r["rated"] for r in await conn.fetch("SELECT id, rated FROM tournaments")}
        assert rated == {old: False, running: True}
        assert await conn.fetchval("SELECT count(*) FROM ratings") == 0
    finally:
        await conn.close()
