"""Series over HTTP and the command line: points by the field and by place, best-of, disqualified
and cancelled results, club series, who may add what, schedules whose occurrences join, the table
as CSV, and bad bodies that change nothing; and the points rule alone, on hand-made results.
Tournaments are finished for real: players join in the order they are to be ranked and never
start (all absent, so ranked by entry order), then the organiser closes the tournament and the
clock finishes it."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from spidertour.server.competitions.series.points import Line, Result, result_points
from spidertour.server.competitions.series.points import table as points_table
from spidertour.server.storage.migrations import SCHEMA, migrate
from tests.client import Api, bearer
from tests.server.communities.kit import account, count, new_club, new_organiser, tournament_as
from tests.server.helpers import assert_error, spidertour, unique, wait_status
from tests.server.players.test_migrated_guests import migrate_up_to

COLUMNS = ["player_id", "player", "handle", "points", "counted", "played", "best_rank"]


def new_series(api: Api, token: str, **fields: Any) -> dict[str, Any]:
    r = api.http.post("/api/series", json={"name": unique("season"), **fields}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def players(api: Api, n: int) -> list[tuple[int, str]]:
    return [api.register(unique(f"p{k}")) for k in range(n)]


def played(api: Api, token: str, order: list[tuple[int, str]], **fields: Any) -> tuple[int, list[int]]:
    """A tournament finished with ``order`` ranked 1, 2, 3 ...: (its id, the entry ids in that order)."""
    tid = tournament_as(api, token, **fields)["id"]
    entries = [api.join(tid, player_token)["id"] for _, player_token in order]
    r = api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(token))
    assert r.status_code == 200, r.text
    wait_status(api, tid, "finished", 15)
    return tid, entries


def table(api: Api, series_id: int) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/series/{series_id}/standings")
    assert r.status_code == 200, r.text
    return r.json()  # type: ignore[no-any-return]


def lines(rows: list[dict[str, Any]]) -> list[tuple[int, int, int, int, int | None]]:
    return [(r["player_id"], r["points"], r["counted"], r["played"], r["best_rank"]) for r in rows]


def test_field_points_best_of_and_the_csv(api: Api) -> None:
    _, organiser = new_organiser(api)
    series = new_series(api, organiser, points="field", best_of=2)
    assert series["points"] == "field" and series["best_of"] == 2 and series["tournaments"] == []
    p1, p2, p3, p4 = players(api, 4)
    t1, _ = played(api, organiser, [p1, p2, p3], series=series["id"])  # 3, 2, 1
    t2, _ = played(api, organiser, [p2, p1], series=series["id"])  # 2, 1
    t3, _ = played(api, organiser, [p3, p4, p1, p2])  # 4, 3, 2, 1: joins afterwards
    r = api.http.post(f"/api/series/{series['id']}/tournaments", json={"tournament": t3}, headers=bearer(organiser))
    assert r.status_code == 200, r.text
    assert r.json()["tournaments"] == [t1, t2, t3]
    assert api.tournament(t1)["series"] == series["id"]
    # One still open adds nothing yet; a cancelled one nothing ever.
    running = tournament_as(api, organiser, series=series["id"])["id"]
    api.join(running, p4[1])
    cancelled = tournament_as(api, organiser, series=series["id"])["id"]
    api.join(cancelled, p4[1])
    assert api.http.post(f"/api/tournaments/{cancelled}/cancel", headers=bearer(organiser)).status_code == 200

    rows = table(api, series["id"])
    # p1: 3, 1, 2 -> best two 5, first once; p3: 1, 4 -> 5, first once but fewer played; p2: 2, 2, 1 -> 4.
    assert lines(rows) == [
        (p1[0], 5, 2, 3, 1),
        (p3[0], 5, 2, 2, 1),
        (p2[0], 4, 2, 3, 1),
        (p4[0], 3, 1, 1, 2),
    ]
    assert list(rows[0]) == [*COLUMNS, "profile"]  # the CSV's columns, and whether the profile opens to all
    assert table(api, series["id"]) == rows  # worked out again from PostgreSQL: the same

    r = api.http.get(f"/api/series/{series['id']}/standings.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    reader = csv.DictReader(io.StringIO(r.text))
    parsed = list(reader)
    assert reader.fieldnames == COLUMNS
    as_text = [{k: "" if v is None else str(v) for k, v in row.items() if k != "profile"} for row in rows]
    assert parsed == as_text


async def test_list_points_past_their_end_and_a_disqualified_entry(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api)
    series = new_series(api, organiser, points=[10, 5])
    p1, p2, p3 = players(api, 3)
    tid, entries = played(api, organiser, [p1, p2, p3], series=series["id"])
    assert lines(table(api, series["id"])) == [(p1[0], 10, 1, 1, 1), (p2[0], 5, 1, 1, 2), (p3[0], 0, 1, 1, 3)]
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{entries[0]}/disqualify",
        json={"reason": "two accounts"},
        headers=bearer(organiser),
    )
    assert r.status_code == 200, r.text
    # Disqualified after the finish: the others move up, the disqualified entry scores 0 but was played.
    assert lines(table(api, series["id"])) == [(p2[0], 10, 1, 1, 1), (p3[0], 5, 1, 1, 2), (p1[0], 0, 1, 1, None)]
    assert await count(database_url, "SELECT count(*) FROM standings WHERE tournament_id = $1", tid) == 2


def test_a_club_series_takes_only_its_clubs_tournaments(api: Api) -> None:
    _, organiser = new_organiser(api)
    club = new_club(api, organiser)
    other = new_club(api, organiser)
    series = new_series(api, organiser, club=club["id"])
    assert series["club"] == {"id": club["id"], "name": club["name"]}
    path = f"/api/series/{series['id']}/tournaments"
    open_one = tournament_as(api, organiser)["id"]
    assert_error(
        api.http.post(path, json={"tournament": open_one}, headers=bearer(organiser)), 409, f"club {club['id']}"
    )
    others = tournament_as(api, organiser, club=other["id"])["id"]
    assert_error(api.http.post(path, json={"tournament": others}, headers=bearer(organiser)), 409, "club")
    name = unique("refused")
    r = api.http.post(
        "/api/tournaments", json={"name": name, "series": series["id"], "club": other["id"]}, headers=bearer(organiser)
    )
    assert_error(r, 400, "club")
    assert api.tournament(others)["series"] is None
    mine = tournament_as(api, organiser, club=club["id"])["id"]
    r = api.http.post(path, json={"tournament": mine}, headers=bearer(organiser))
    assert r.status_code == 200 and r.json()["tournaments"] == [mine]
    made = tournament_as(api, organiser, club=club["id"], series=series["id"])
    assert made["series"] == series["id"]
    # In a series already: this one, or another.
    assert_error(api.http.post(path, json={"tournament": mine}, headers=bearer(organiser)), 409, "this series")
    second = new_series(api, organiser, club=club["id"])
    r = api.http.post(f"/api/series/{second['id']}/tournaments", json={"tournament": mine}, headers=bearer(organiser))
    assert_error(r, 409, "another series")


async def test_another_organiser_is_refused(api: Api, database_url: str) -> None:
    _, a = new_organiser(api, "a")
    _, b = new_organiser(api, "b")
    series = new_series(api, a)
    theirs = tournament_as(api, b)["id"]
    path = f"/api/series/{series['id']}/tournaments"
    assert_error(api.http.post(path, json={"tournament": theirs}, headers=bearer(b)), 403, "not your series")
    assert_error(api.http.post(path, json={"tournament": theirs}, headers=bearer(a)), 403, "not your tournament")
    name = unique("not-b")
    r = api.http.post("/api/tournaments", json={"name": name, "series": series["id"]}, headers=bearer(b))
    assert_error(r, 403, "not your series")
    assert await count(database_url, "SELECT count(*) FROM tournaments WHERE name = $1", name) == 0
    assert api.http.get(f"/api/series/{series['id']}").json()["tournaments"] == []
    _, player = api.register("nobody")
    assert_error(api.http.post(path, json={"tournament": theirs}, headers=bearer(player)), 403)
    assert_error(api.http.post(path, json={"tournament": theirs}), 401)
    assert api.tournament(theirs)["series"] is None


def test_schedule_occurrences_join_the_series(api: Api) -> None:
    _, organiser = new_organiser(api)
    series = new_series(api, organiser, points=[3, 2, 1])
    first = datetime.now(UTC) + timedelta(minutes=2)
    body = {
        "name": unique("weekly"),
        "first_opens_at": first.isoformat(),
        "every_minutes": 10,
        "open_minutes": 5,
        "ahead_minutes": 35,
        "series": series["id"],
    }
    r = api.http.post("/api/schedules", json=body, headers=bearer(organiser))
    assert r.status_code == 201, r.text
    schedule = r.json()
    assert schedule["series"] == series["id"] and len(schedule["tournaments"]) >= 3
    got = api.http.get(f"/api/series/{series['id']}").json()
    assert sorted(got["tournaments"]) == sorted(schedule["tournaments"])
    assert all(api.tournament(t)["series"] == series["id"] for t in schedule["tournaments"])
    # Another organiser's schedule may not name it.
    _, other = new_organiser(api)
    r = api.http.post("/api/schedules", json={**body, "name": unique("theirs")}, headers=bearer(other))
    assert_error(r, 403, "not your series")
    r = api.http.post("/api/schedules", json={**body, "series": 2**62}, headers=bearer(organiser))
    assert_error(r, 400, "no series")


async def test_bad_bodies_change_nothing(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api)
    _, other = new_organiser(api)
    theirs = new_club(api, other)
    before = await count(database_url, "SELECT count(*) FROM series")
    for body, status in [
        ({"name": "x", "points": "fields"}, 400),
        ({"name": "x", "points": []}, 400),
        ({"name": "x", "points": [3, -1]}, 400),
        ({"name": "x", "points": [1] * 101}, 400),
        ({"name": "x", "points": ["3"]}, 400),
        ({"name": "x", "points": [1.5]}, 400),
        ({"name": "x", "best_of": 0}, 400),
        ({"name": "x", "best_of": "2"}, 400),
        ({"name": ""}, 400),
        ({"name": "   "}, 400),
        ({"points": "field"}, 400),
        ({"name": "x", "colour": "red"}, 400),
        ({"name": "x", "club": 2**62}, 400),
        ({"name": "x", "club": 2**64 - 1}, 400),
        ({"name": "x", "points": [2**70]}, 400),
        ({"name": "x", "points": [1_000_001]}, 400),
        ({"name": "x", "best_of": 2**70}, 400),
        ({"name": "x\u0000y"}, 400),
        ({"name": "x" * 101}, 400),
        ({"name": "x", "club": theirs["id"]}, 403),
    ]:
        assert_error(api.http.post("/api/series", json=body, headers=bearer(organiser)), status)
    assert_error(
        api.http.post("/api/series", content=b"{", headers={**bearer(organiser), "content-type": "application/json"}),
        400,
    )
    assert_error(api.http.post("/api/series", json={"name": "x"}), 401)
    _, player = api.register("p")
    assert_error(api.http.post("/api/series", json={"name": "x"}, headers=bearer(player)), 403)
    assert await count(database_url, "SELECT count(*) FROM series") == before

    series = new_series(api, organiser)
    tid = tournament_as(api, organiser)["id"]
    path = f"/api/series/{series['id']}/tournaments"
    for body in [{}, {"tournament": str(tid)}, {"tournament": 0}, {"tournament": tid, "also": 1}]:
        assert_error(api.http.post(path, json=body, headers=bearer(organiser)), 400)
    assert_error(api.http.post(path, json={"tournament": 2**62}, headers=bearer(organiser)), 404, "no tournament")
    assert_error(api.http.post(path, json={"tournament": 2**64 - 1}, headers=bearer(organiser)), 404, "no tournament")
    assert_error(
        api.http.post("/api/series/999999999/tournaments", json={"tournament": tid}, headers=bearer(organiser)), 404
    )
    r = api.http.post("/api/tournaments", json={"name": "y", "series": "1"}, headers=bearer(organiser))
    assert_error(r, 400)
    assert_error(
        api.http.post("/api/tournaments", json={"name": "y", "series": 2**62}, headers=bearer(organiser)),
        400,
        "no series",
    )
    r = api.http.post("/api/tournaments", json={"name": "y", "series": 2**64 - 1}, headers=bearer(organiser))
    assert_error(r, 400, "no series")
    r = api.http.post("/api/tournaments", json={"name": "y", "club": 2**64 - 1}, headers=bearer(organiser))
    assert_error(r, 400, "no club")
    assert api.tournament(tid)["series"] is None
    assert api.http.get(path.removesuffix("/tournaments")).json()["tournaments"] == []
    assert_error(api.http.get("/api/series/999999999"), 404)
    assert_error(api.http.get("/api/series/999999999/standings"), 404)
    assert_error(api.http.get("/api/series/999999999/standings.csv"), 404)
    assert_error(api.http.get("/api/series", params={"limit": 0}), 400)


async def test_reading_and_listing(api: Api, database_url: str) -> None:
    _, organiser = new_organiser(api)
    club = new_club(api, organiser)
    public = new_series(api, organiser, points=[5, 3])
    members = new_series(api, organiser, club=club["id"])
    got = api.http.get(f"/api/series/{members['id']}")
    assert got.status_code == 200 and got.json() == members  # anyone reads one by its id
    anyone = {s["id"] for s in api.http.get("/api/series").json()}
    assert public["id"] in anyone and members["id"] not in anyone
    theirs = {s["id"] for s in api.http.get("/api/series", headers=bearer(organiser)).json()}
    assert {public["id"], members["id"]} <= theirs
    # A member of the club sees its series in the list too.
    _, member = await account(api, database_url)
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(organiser)).json()["invite"]
    joined = api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(member))
    assert joined.status_code == 201, joined.text
    seen = {s["id"] for s in api.http.get("/api/series", headers=bearer(member)).json()}
    assert {public["id"], members["id"]} <= seen
    assert api.http.get("/api/series", params={"mine": "true"}, headers=bearer(member)).json() == []
    _, other = new_organiser(api)
    mine = api.http.get("/api/series", params={"mine": "true"}, headers=bearer(other)).json()
    assert mine == []
    everything = {s["id"] for s in api.http.get("/api/series", params={"mine": "true"}, headers=api.admin()).json()}
    assert {public["id"], members["id"]} <= everything


def test_the_command_line(api: Api, server: Any) -> None:
    _, organiser = new_organiser(api)
    env = {"SPIDERTOUR_URL": server.url, "ADMIN_TOKEN": organiser}
    made = spidertour("series", "create", "Spring league", "--points", "10,8,6", "--best-of", "3", **env)
    assert made.returncode == 0, made.stderr
    series_id = int(made.stdout.split('"id": ')[1].split(",")[0])
    got = api.http.get(f"/api/series/{series_id}").json()
    assert got["points"] == [10, 8, 6] and got["best_of"] == 3 and got["name"] == "Spring league"
    p1, p2 = players(api, 2)
    tid, _ = played(api, organiser, [p2, p1])
    added = spidertour("series", "add", str(series_id), str(tid), **env)
    assert added.returncode == 0, added.stderr
    again = spidertour("series", "add", str(series_id), str(tid), **env)
    assert again.returncode == 1 and "409" in again.stderr
    out = spidertour("series", "standings", str(series_id), "--csv", "--server", server.url)
    assert out.returncode == 0, out.stderr
    assert list(csv.reader(io.StringIO(out.stdout)))[1:] == [
        [str(p2[0]), *_name_and_handle(api, p2), "10", "1", "1", "1"],
        [str(p1[0]), *_name_and_handle(api, p1), "8", "1", "1", "2"],
    ]
    text = spidertour("series", "standings", str(series_id), "--server", server.url)
    assert text.returncode == 0 and text.stdout.splitlines()[0].split() == COLUMNS
    bad = spidertour("series", "create", "x", "--points", "10,-8", **env)
    assert bad.returncode == 2 and "whole numbers" in bad.stderr


def _name_and_handle(api: Api, who: tuple[int, str]) -> list[str]:
    me = api.http.get("/api/me", headers=bearer(who[1])).json()
    return [me["name"], me["handle"] or ""]


async def test_tournaments_from_before_series_belong_to_none(fresh_database_url: str, tmp_path: Path) -> None:
    await migrate_up_to(fresh_database_url, 8, tmp_path / "schema")
    conn = await asyncpg.connect(fresh_database_url)
    try:
        tid = await conn.fetchval(
            """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at)
               VALUES ('Old cup', '{}', 's', 'c', now(), now() + interval '1 hour') RETURNING id"""
        )
        assert 9 in await migrate(conn, SCHEMA)  # the rest, as a server applies them at its start
        assert await conn.fetchval("SELECT series_id FROM tournaments WHERE id = $1", tid) is None
        assert await conn.fetchval("SELECT count(*) FROM series") == 0
    finally:
        await conn.close()


# ------------------------------------------------------------------ the points rule alone, on hand-made results


def results(*tournaments: list[int | None]) -> list[Result]:
    """Results from each tournament's finishing order of player ids (None: a disqualified player id
    follows as a negative number)."""
    out = []
    for tid, order in enumerate(tournaments, start=1):
        ranked = [p for p in order if p is not None and p > 0]
        for rank, pid in enumerate(ranked, start=1):
            out.append(Result(pid, tid, rank, len(ranked)))
        out.extend(Result(-p, tid, None, len(ranked)) for p in order if p is not None and p < 0)
    return out


def test_field_points_are_ranked_entrants_minus_rank_plus_one() -> None:
    assert [result_points("field", rank, 5) for rank in range(1, 6)] == [5, 4, 3, 2, 1]
    assert result_points("field", None, 5) == 0


def test_list_points_give_zero_past_the_lists_end() -> None:
    rule = [10, 8, 6]
    assert [result_points(rule, rank, 7) for rank in range(1, 8)] == [10, 8, 6, 0, 0, 0, 0]
    assert result_points(rule, None, 7) == 0
    assert result_points([0], 1, 1) == 0


def test_best_of_counts_only_the_best_results() -> None:
    # Player 1: 3rd of 3 (1), 1st of 2 (2), 1st of 4 (4): the best two are 4 + 2.
    found = points_table("field", 2, results([2, 3, 1], [1, 2], [1, 2, 3, 4]))
    one = next(line for line in found if line.player_id == 1)
    assert one == Line(1, points=6, counted=2, played=3, best_rank=1)
    every = next(
        line for line in points_table("field", None, results([2, 3, 1], [1, 2], [1, 2, 3, 4])) if line.player_id == 1
    )
    assert every == Line(1, points=7, counted=3, played=3, best_rank=1)
    # Fewer results than best_of: all of them count.
    assert next(line for line in found if line.player_id == 4) == Line(4, points=1, counted=1, played=1, best_rank=4)


def test_a_disqualified_result_scores_zero_and_counts_as_played() -> None:
    found = points_table([10, 5], None, results([1, 2, -3], [3, 1]))
    assert found == [
        Line(1, points=15, counted=2, played=2, best_rank=1),
        Line(3, points=10, counted=2, played=2, best_rank=1),
        Line(2, points=5, counted=1, played=1, best_rank=2),
    ]
    alone = points_table("field", 1, results([1, -2]))
    assert alone[-1] == Line(2, points=0, counted=1, played=1, best_rank=None)


def test_ties_go_to_the_better_best_rank_then_more_played_then_the_smaller_id() -> None:
    rule = [4, 2, 2]
    # 4 points each: player 2 (3rd and 2nd: 2 + 2) has a worse best rank than player 1 (1st: 4).
    found = points_table(rule, None, [Result(2, 10, 3, 5), Result(2, 11, 2, 5), Result(1, 12, 1, 5)])
    assert [(line.player_id, line.points, line.best_rank) for line in found] == [(1, 4, 1), (2, 4, 2)]
    # 6 points each and both once first: player 4 played three times (4 + 2 + 0), player 3 twice (4 + 2).
    found = points_table(
        rule, None, [Result(3, 1, 1, 9), Result(3, 2, 2, 9), Result(4, 1, 3, 9), Result(4, 2, 1, 9), Result(4, 3, 7, 9)]
    )
    assert [(line.player_id, line.points, line.played) for line in found] == [(4, 6, 3), (3, 6, 2)]
    # Everything equal: the smaller player id first, whatever order the results came in.
    found = points_table(
        "field", None, [Result(6, 1, 1, 2), Result(5, 1, 2, 2), Result(6, 2, 2, 2), Result(5, 2, 1, 2)]
    )
    assert [(line.player_id, line.points) for line in found] == [(5, 3), (6, 3)]
    # More points always first, whatever the best rank.
    found = points_table(rule, None, [Result(8, 1, 1, 3), Result(9, 1, 2, 3), Result(9, 2, 2, 3), Result(9, 3, 2, 3)])
    assert [line.player_id for line in found] == [9, 8]


def test_the_same_results_in_any_order_give_the_same_points_table() -> None:
    made = results([1, 2, 3, -4], [3, 1], [2, 4, 1, 3])
    assert points_table("field", 2, made) == points_table("field", 2, list(reversed(made)))
