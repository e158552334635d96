"""A sitting as its teacher watches it: the entries list says who never opened the game."""

from __future__ import annotations

from typing import Any

from tests.client import Api, Player, bearer
from tests.server.communities.kit import new_club, new_organiser, tournament_as
from tests.server.communities.test_pupils import roster, signed_in


async def test_the_entries_list_says_who_never_connected(api: Api, server: Any) -> None:
    _, school = new_organiser(api, "school")
    club = new_club(api, school)
    ann, bo = roster(api, school, club["id"], "Ann Smith", "Bo Jones")
    tid = tournament_as(api, school, club=club["id"])["id"]
    ann_entry = api.join(tid, signed_in(api, ann))
    bo_entry = api.join(tid, signed_in(api, bo))  # joined, never opened the game
    player, _ = await Player.connect(server.ws_url, ann_entry["id"], signed_in(api, ann))
    await player.close()
    entries = {e["id"]: e for e in api.http.get(f"/api/tournaments/{tid}/entries", headers=bearer(school)).json()}
    assert entries[ann_entry["id"]]["connected"] is True and entries[bo_entry["id"]]["connected"] is False
