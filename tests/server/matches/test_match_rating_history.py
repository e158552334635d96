"""A rated match leaves its players' rating before and after in their rating history, and the
match says the same ratings as shown (docs/competitions.md, Ratings)."""

from __future__ import annotations

from tests.client import Api
from tests.serverproc import ServerProcess

from .kit import ask, play, players, wait_for


async def test_a_match_in_the_rating_history(mapi: Api, match_server: ServerProcess) -> None:
    (a, ta), (b, tb) = players(mapi, 2)
    host = ask(mapi, ta, "duo0")
    mid = host["match"]["id"]
    assert host["match"]["players"][0]["shown"] == 1000  # a new player
    await play(match_server.ws_url, host["entry"]["id"], ta, reveal=True)
    guest = ask(mapi, tb, "duo0")
    assert guest["match"]["id"] == mid
    await play(match_server.ws_url, guest["entry"]["id"], tb)
    done = wait_for(mapi, mid, "over")
    seats = {p["player_id"]: p for p in done["players"]}
    for player_id, gained in ((a, True), (b, False)):
        r = mapi.http.get(f"/api/players/{player_id}/ratings/history")
        assert r.status_code == 200, r.text
        (point,) = r.json()["history"]["spider78/2"]
        seat = seats[player_id]
        assert point["match_id"] == mid and point["tournament_id"] == done["tournament_id"]
        assert (point["before"], point["after"]) == (seat["shown"], seat["shown_after"]) and point["before"] == 1000
        assert (point["change"] > 0) is gained and point["provisional"] is seat["provisional"] is True
