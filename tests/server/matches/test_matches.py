"""Matches (docs/matches.md): formats, asking and seating, playing, the end, reading, leaving, limits."""

from __future__ import annotations

import asyncio
from typing import Any

from spidertour.engine import Game, Settings
from spidertour.server.cli.competitions.match_verify import verify_match_data
from spidertour.server.cli.verify import verify, verify_match
from spidertour.server.config import MATCH_FORMATS, Config, ConfigError
from spidertour.server.fairplay.commitment import commitment
from tests.client import Api, Player, bearer
from tests.server.competitions.rating_kit import Plan, create, finish
from tests.server.competitions.rating_kit import play as tournament_play
from tests.server.competitions.test_ratings import snapshot
from tests.server.helpers import FREE, spidertour, unique
from tests.serverproc import ServerProcess

from .kit import FORMATS, ask, execute, match, play, players, set_rating, wait_for


def test_the_default_formats(api: Api) -> None:
    r = api.http.get("/api/matches/formats")
    assert r.status_code == 200, r.text
    listed = {f["name"]: f for f in r.json()}
    assert set(listed) == {f.name for f in MATCH_FORMATS}
    shapes = {
        (f["settings"]["variant"], f["settings"]["suits"], f["settings"]["time_limit"], f["seats"])
        for f in listed.values()
    }
    assert {("spider78", 1, 300, 2), ("spider78", 2, 300, 2), ("spider78", 2, 300, 4)} <= shapes
    assert {("spider", 1, 600, 2), ("spider", 2, 600, 2), ("spider", 4, 600, 2)} <= shapes
    assert all(f["waiting"] >= 0 and f["playing"] >= 0 and f["rated"] for f in listed.values())


def test_match_formats_set_by_the_owner(mapi: Api) -> None:
    listed = mapi.http.get("/api/matches/formats").json()
    assert [f["name"] for f in listed] == [f["name"] for f in FORMATS]
    blitz = next(f for f in listed if f["name"] == "blitz")
    assert blitz["settings"]["time_limit"] == 2 and blitz["settings"]["undo"] is True  # filled in
    for bad, needle in [
        ("[]", "at least one"),
        ("{", "MATCH_FORMATS"),
        ('[{"name": "a", "settings": {"deals": 2}}]', "unknown settings"),
        ('[{"name": "a", "settings": {}, "seats": 9}]', "MATCH_FORMATS"),
        ('[{"name": "a", "settings": {"suits": 3}}]', "format 'a'"),
        ('[{"name": "a", "settings": {}}, {"name": "a", "settings": {}}]', "differ"),
    ]:
        try:
            Config.from_env({"MATCH_FORMATS": bad})
        except ConfigError as err:
            assert needle in str(err), (bad, err)
        else:
            raise AssertionError(f"{bad} accepted")


def test_the_host_then_the_oldest_waiting_match(mapi: Api) -> None:
    (a, ta), (b, tb), (c, tc) = players(mapi, 3)
    first = ask(mapi, ta, "duo0")
    m = first["match"]
    assert m["status"] == "waiting" and m["seats"] == 2 and m["format"] == "duo0"
    assert m["seed"] is None and m["salt"] is None and len(m["commitment"]) == 64
    assert [(p["seat"], p["player_id"], p["status"]) for p in m["players"]] == [(1, a, "waiting")]
    assert first["entry"]["status"] == "joined" and first["entry"]["player_id"] == a
    # A new match's answer is built without reading it back: it is what its host reads then.
    assert m == match(mapi, m["id"], ta)
    mine = mapi.http.get("/api/me/entries", headers=bearer(ta)).json()
    assert first["entry"] == next(e for e in mine if e["id"] == first["entry"]["id"])
    second = ask(mapi, tb, "duo0")
    # So is a seat in a waiting match.
    assert second["match"] == match(mapi, m["id"], tb)
    assert second["match"]["id"] == m["id"] and second["match"]["status"] == "playing"
    assert [(p["seat"], p["player_id"]) for p in second["match"]["players"]] == [(1, a), (2, b)]
    # Only one's own seat carries its entry id.
    assert [p["entry_id"] for p in second["match"]["players"]] == [None, second["entry"]["id"]]
    third = ask(mapi, tc, "duo0")
    assert third["match"]["id"] != m["id"] and third["match"]["players"][0]["player_id"] == c
    counts = next(f for f in mapi.http.get("/api/matches/formats").json() if f["name"] == "duo0")
    assert (counts["waiting"], counts["playing"]) == (1, 1)


def test_never_with_itself(mapi: Api) -> None:
    [(a, ta)] = players(mapi, 1)
    one, two = ask(mapi, ta, "duo1"), ask(mapi, ta, "duo1")
    assert one["match"]["id"] != two["match"]["id"]
    assert two["match"]["players"][0]["player_id"] == a and len(two["match"]["players"]) == 1


async def test_seated_within_the_band_oldest_first(mapi: Api, match_db: str) -> None:
    (a, ta), (_b, tb), (_c, tc), (d, td) = players(mapi, 4)
    await set_rating(match_db, a, 20.0)
    await set_rating(match_db, d, 16.0)
    high = ask(mapi, ta, "duo2")["match"]  # rated 20
    low = ask(mapi, tb, "duo2")["match"]  # unrated (0): out of the band (5) of the first
    assert low["id"] != high["id"] and low["players"][0]["rating"] == 0
    assert ask(mapi, tc, "duo2")["match"]["id"] == low["id"]  # 0 and 0
    seated = ask(mapi, td, "duo2")["match"]  # 16: within 5 of 20
    assert seated["id"] == high["id"] and [p["rating"] for p in seated["players"]] == [20.0, 16.0]


async def test_the_band_widens_as_a_match_waits(mapi: Api, match_db: str) -> None:
    (a, ta), (_b, tb) = players(mapi, 2)
    await set_rating(match_db, a, 12.0)
    waiting = ask(mapi, ta, "duo3")["match"]
    # Seven whole minutes waited: 5 + 7 * 1 = 12 points either way.
    conn_sql = "UPDATE matches SET created_at = created_at - interval '7 minutes 1 second' WHERE id = $1"

    other = ask(mapi, tb, "duo3")["match"]  # not yet: 12 is out of 5
    assert other["id"] != waiting["id"]
    r = mapi.http.delete(f"/api/matches/{other['id']}/seat", headers=bearer(tb))
    assert r.status_code == 204, r.text
    await execute(match_db, conn_sql, waiting["id"])
    assert ask(mapi, tb, "duo3")["match"]["id"] == waiting["id"]


async def test_not_twice_in_a_row_against_the_same_opponent(mapi: Api, match_db: str) -> None:
    (_a, ta), (b, tb), (c, tc) = players(mapi, 3)
    await set_rating(match_db, b, 4.0)
    await set_rating(match_db, c, 8.0)
    first = ask(mapi, ta, "duo4")["match"]
    assert ask(mapi, tb, "duo4")["match"]["id"] == first["id"]  # a (0) and b (4) played
    older = ask(mapi, ta, "duo4")["match"]  # a waits again
    newer = ask(mapi, tc, "duo4")["match"]  # c (8) is out of a's band: a match of its own
    assert newer["id"] != older["id"]
    # b is within the band of both; a was its last opponent: the newer match seats it.
    assert ask(mapi, tb, "duo4")["match"]["id"] == newer["id"]
    # With no other match in the band, the same opponent again.
    assert ask(mapi, tc, "duo4")["match"]["id"] not in (older["id"], newer["id"])  # c never with itself
    again = ask(mapi, tb, "duo5")["match"]
    assert ask(mapi, ta, "duo5")["match"]["id"] == again["id"]  # another format, b and a again: alone there


async def test_a_match_played_to_its_end(mapi: Api, match_server: ServerProcess) -> None:
    (a, ta), (_b, tb) = players(mapi, 2)
    host = ask(mapi, ta, "duo6")
    mid = host["match"]["id"]
    over = await play(match_server.ws_url, host["entry"]["id"], ta, reveal=True)  # the host starts at once
    assert match(mapi, mid)["players"][0]["status"] == "done"
    guest = ask(mapi, tb, "duo6")
    assert guest["match"]["id"] == mid
    await play(match_server.ws_url, guest["entry"]["id"], tb)
    done = wait_for(mapi, mid, "over")
    first, second = done["players"]
    assert (first["player_id"], first["rank"], second["rank"]) == (a, 1, 2)
    assert first["final_score"] == over["final_score"] and first["final_score"] > second["final_score"]
    assert first["rating_after"] > first["rating"] == 0 and second["rating_after"] < 0
    assert done["seed"] and done["commitment"] == commitment(done["seed"], done["settings"], done["salt"])
    assert done["over_at"] is not None and all(p["entry_id"] for p in done["players"])
    # The replays, the profile, practice and the backing tournament once over.
    r = mapi.http.get(f"/api/matches/{mid}/replays")
    assert r.status_code == 200 and len(r.text.strip().splitlines()) == 2
    recent = mapi.http.get(f"/api/players/{a}").json()["recent"]
    assert recent[0]["match_id"] == mid and recent[0]["rank"] == 1
    r = mapi.http.post(f"/api/tournaments/{done['tournament_id']}/practice", headers=bearer(tb))
    assert r.status_code == 201, r.text
    tour = mapi.tournament(done["tournament_id"])
    assert tour["seed"] == done["seed"] and tour["status"] == "finished"
    report = verify(match_server.url, done["tournament_id"])  # spidertour verify, on the backing tournament
    assert report.ok and len(report.games) == 2, report.problems
    mine = mapi.http.get("/api/me/matches", headers=bearer(ta)).json()
    assert mine[0]["id"] == mid and mine[0]["status"] == "over"


async def test_equal_scores_and_time_are_a_draw(mapi: Api, match_server: ServerProcess) -> None:
    (_a, ta), (_b, tb) = players(mapi, 2)
    one, two = ask(mapi, ta, "blitz"), ask(mapi, tb, "blitz")
    # Both start and never move: the clock ends both games with the same score and no time left.
    await asyncio.gather(
        play(match_server.ws_url, one["entry"]["id"], ta, end=False),
        play(match_server.ws_url, two["entry"]["id"], tb, end=False),
    )
    done = wait_for(mapi, one["match"]["id"], "over")
    assert [p["status"] for p in done["players"]] == ["timed_out", "timed_out"]
    assert [p["rank"] for p in done["players"]] == [1, 1]


def test_leaving_a_seat(mapi: Api) -> None:
    (a, ta), (_b, tb), (_c, tc) = players(mapi, 3)
    host = ask(mapi, ta, "duo7")["match"]
    assert ask(mapi, tb, "duo7")["match"]["status"] == "playing"
    r = mapi.http.delete(f"/api/matches/{host['id']}/seat", headers=bearer(tc))
    assert r.status_code == 404 and "no seat" in r.json()["detail"]  # not c's seat
    r = mapi.http.delete(f"/api/matches/{host['id']}/seat", headers=bearer(tb))
    assert r.status_code == 204, r.text
    left = match(mapi, host["id"])
    assert left["status"] == "waiting" and [p["player_id"] for p in left["players"]] == [a]
    r = mapi.http.delete(f"/api/matches/{host['id']}/seat", headers=bearer(ta))
    assert r.status_code == 204, r.text
    assert mapi.http.get(f"/api/matches/{host['id']}").status_code == 404  # no seat left: removed
    assert ask(mapi, tc, "duo7")["match"]["players"][0]["seat"] == 1


async def test_a_started_seat_is_kept(mapi: Api, match_server: ServerProcess) -> None:
    [(_a, ta)] = players(mapi, 1)
    host = ask(mapi, ta, "duo8")
    await play(match_server.ws_url, host["entry"]["id"], ta, end=False)
    r = mapi.http.delete(f"/api/matches/{host['match']['id']}/seat", headers=bearer(ta))
    assert r.status_code == 409 and "started" in r.json()["detail"]


def test_open_matches_per_player(mapi: Api) -> None:
    [(_a, ta)] = players(mapi, 1)
    for _ in range(3):
        ask(mapi, ta, "duo9")
    r = mapi.http.post("/api/matches", json={"format": "duo10"}, headers=bearer(ta))
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert "MATCH_OPEN_PER_PLAYER" in r.json()["detail"]
    assert len(mapi.http.get("/api/me/matches", headers=bearer(ta)).json()) == 3


def test_bad_input_is_a_4xx_with_a_reason(mapi: Api) -> None:
    [(_a, ta)] = players(mapi, 1)
    head = bearer(ta)
    cases: list[tuple[Any, int, str]] = [
        ({"format": "nope"}, 400, "no format"),
        ({"format": 3}, 400, ""),
        ({}, 400, ""),
        ({"format": "duo11", "extra": 1}, 400, ""),
        ([], 400, ""),
    ]
    for body, status, needle in cases:
        r = mapi.http.post("/api/matches", json=body, headers=head)
        assert r.status_code == status, (body, r.text)
        assert needle in r.json()["detail"]
    broken = {**head, "content-type": "application/json"}
    assert mapi.http.post("/api/matches", content=b"{", headers=broken).status_code == 400
    assert mapi.http.post("/api/matches", json={"format": "duo11"}).status_code == 401
    for path in ("/api/matches/0", f"/api/matches/{2**63}", f"/api/matches/{2**70}", "/api/matches/99999999"):
        assert mapi.http.get(path).status_code == 404, path
        assert mapi.http.get(f"{path}/replays").status_code == 404, path
        assert mapi.http.delete(f"{path}/seat", headers=head).status_code == 404, path
    assert mapi.http.get("/api/matches/x").status_code in (400, 404)
    assert mapi.http.get("/api/me/matches?limit=0", headers=head).status_code == 400
    assert mapi.http.get("/api/me/matches").status_code == 401


async def test_a_rebuild_gives_back_the_stored_ratings_with_matches(
    mapi: Api, match_server: ServerProcess, match_db: str
) -> None:
    (a, ta), (b, tb), (c, tc) = players(mapi, 3)
    for fmt, (first, second) in (("duo13", (ta, tb)), ("duo13", (tc, ta)), ("duo14", (tb, tc))):
        host, guest = ask(mapi, first, fmt), ask(mapi, second, fmt)
        await play(match_server.ws_url, host["entry"]["id"], first, reveal=True)
        await play(match_server.ws_url, guest["entry"]["id"], second)
        wait_for(mapi, host["match"]["id"], "over")
        # A tournament of the same game finished between the matches.
        seed = unique("seed")
        tour = create(mapi, seed)
        await tournament_play(mapi, match_server.ws_url, tour["id"], seed, Plan(second, reveal=True))
        await tournament_play(mapi, match_server.ws_url, tour["id"], seed, Plan(first))
        finish(mapi, tour["id"])
    ours = {a, b, c}

    async def ratings() -> dict[str, list[Any]]:  # (other tests set some ratings by hand, with no history)
        found = await snapshot(match_db)
        return {"ratings": [r for r in found["ratings"] if r[0] in ours], "history": found["history"]}

    stored = await ratings()
    assert len([r for r in stored["history"] if r[1] == a]) == 4 and len(stored["ratings"]) == 3
    await execute(match_db, "DELETE FROM ratings")
    await execute(match_db, "UPDATE rating_history SET mu = mu + 1")
    done = spidertour("ratings", "rebuild", DATABASE_URL=match_db)
    assert done.returncode == 0, done.stderr
    assert await ratings() == stored  # every double exactly


async def test_deal_variation_per_seat_and_verify_by_match(mapi: Api, match_server: ServerProcess) -> None:
    (_a, ta), (_b, tb) = players(mapi, 2)
    seats = [(ask(mapi, ta, "varied"), ta), (ask(mapi, tb, "varied"), tb)]
    mid = seats[0][0]["match"]["id"]
    early = spidertour("verify", "--server", match_server.url, "--match", str(mid))
    assert (
        early.returncode == 2 and early.stderr == f"error: match {mid} is playing: it can be verified once it is over\n"
    )
    views = []
    for seat, token in seats:  # each seat turns column 0's top card over in its own deal, and ends
        player, _ = await Player.connect(match_server.ws_url, seat["entry"]["id"], token)
        try:
            views.append((await player.start())["view"])
            moved = await player.play({"type": "move", "from": 0, "count": 1, "to": FREE})
            assert moved["type"] == "result" and moved["view"]["score"] == 25, moved
            assert (await player.play({"type": "end"}))["type"] == "result"
            assert (await player.recv())["type"] == "over"
        finally:
            await player.close()
    done = wait_for(mapi, mid, "over")
    settings = Settings.from_json(done["settings"])
    assert settings.deal_variation and views[0] != views[1]  # one deal, renamed for each seat
    assert views == [Game(settings, done["seed"], entry=k).view() for k in (1, 2)]
    assert [(p["final_score"], p["rank"]) for p in done["players"]] == [(25, 1), (25, 1)]  # a draw
    ran = spidertour("verify", "--server", match_server.url, "--match", str(mid))
    assert ran.returncode == 0 and f"Match {mid}" in ran.stdout and "OK" in ran.stdout, ran.stdout + ran.stderr
    report = verify_match(match_server.url, mid)
    assert report.ok and [g.recomputed for g in report.games] == [25, 25], report.problems
    # What was published, changed, no longer agrees.
    replays = mapi.http.get(f"/api/matches/{mid}/replays").text
    for changed, needle in [
        ({**done, "commitment": "0" * 64}, "commitment"),
        ({**done, "players": [{**done["players"][0], "final_score": 50}, done["players"][1]]}, "the match gives 50"),
        ({**done, "players": [{**done["players"][0], "rank": 2}, done["players"][1]]}, "wrong rank"),
        ({**done, "players": done["players"][:1]}, "replays of no seat"),
    ]:
        assert any(needle in p for p in verify_match_data(changed, replays).problems), needle
    swapped = replays.replace('"entry":1,', '"entry":9,')
    assert not verify_match_data(done, swapped).ok
    for args, needle in [
        (("--match", "99999999"), "no match 99999999"),
        ((), "TOURNAMENT_ID, --match ID or --bracket ID"),
    ]:
        bad = spidertour("verify", "--server", match_server.url, *args)
        assert bad.returncode == 2 and needle in bad.stderr and "Traceback" not in bad.stderr, bad.stderr


async def test_a_start_after_the_seat_s_time_is_refused_with_the_reason(
    mapi: Api, match_server: ServerProcess, match_db: str
) -> None:
    """The gap between a seat's ``start_by`` and the clock making it absent: the start is refused,
    and the player told why."""
    [(_a, ta)] = players(mapi, 1)
    seat = ask(mapi, ta, "unrated")
    player, _ = await Player.connect(match_server.ws_url, seat["entry"]["id"], ta)
    try:
        await execute(
            match_db, "UPDATE entries SET start_by = now() - interval '1 second' WHERE id = $1", seat["entry"]["id"]
        )
        answer = await player.start()
        assert answer["type"] == "error" and answer["code"] == "not_open", answer
        assert "time to start" in answer["reason"] and "MATCH_START_SECONDS" in answer["reason"], answer
    finally:
        await player.close()


def test_asking_again_while_waiting(mapi: Api) -> None:
    """A player holding a waiting seat asks again in the same format: never seated with itself, it
    takes another waiting match in its band or opens a new one, within MATCH_OPEN_PER_PLAYER."""
    (a, ta), (b, tb) = players(mapi, 2)
    mine = ask(mapi, ta, "duo12")["match"]
    second = ask(mapi, ta, "duo12")["match"]  # nothing else waits: a new one, not its own
    assert second["id"] != mine["id"] and [p["player_id"] for p in second["players"]] == [a]
    r = mapi.http.delete(f"/api/matches/{second['id']}/seat", headers=bearer(ta))
    assert r.status_code == 204
    other = ask(mapi, tb, "duo12")["match"]
    assert other["id"] == mine["id"]  # b takes a's waiting match
    own = ask(mapi, tb, "duo12")["match"]  # b opens one
    again = ask(mapi, ta, "duo12")["match"]  # a: b's waiting match, in its band
    assert again["id"] == own["id"] and [p["player_id"] for p in again["players"]] == [b, a]
    third = ask(mapi, ta, "duo12")["match"]
    assert third["id"] not in (mine["id"], own["id"]) and len(third["players"]) == 1
    r = mapi.http.post("/api/matches", json={"format": "duo12"}, headers=bearer(ta))
    assert r.status_code == 429 and "MATCH_OPEN_PER_PLAYER" in r.json()["detail"]
    held = mapi.http.get("/api/me/matches", headers=bearer(ta)).json()
    assert len(held) == 3 and all([p["player_id"] for p in m["players"]].count(a) == 1 for m in held)
