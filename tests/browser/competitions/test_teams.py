"""A team battle in the browser, on a phone and on a desktop: the organiser's form makes it, players
pick their team among their clubs in the lobby and on the join page, the leaderboard shows the
team table live with each player's team, and the results page the final team table."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.communities.test_accounts import VIEWPORTS, no_sideways_scroll
from tests.browser.conftest import js_errors, new_context
from tests.browser.organise.kit import create_reviewed, new_tournament, use_token
from tests.client import Api, Player, bearer
from tests.server.helpers import reveal_move
from tests.serverproc import ServerProcess

SEED = "browser-teams"


def made(r: Any) -> dict[str, Any]:
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def account(api: Api, stem: str) -> dict[str, Any]:
    """A player with an account: {id, name, handle, token} as the page stores it."""
    handle = f"{stem}-{secrets.token_hex(3)}"
    body = made(api.http.post("/api/players", json={"name": stem.title(), "handle": handle, "password": "pass word 1"}))
    return {"id": body["id"], "name": body["name"], "handle": handle, "token": body["token"]}


def into_club(api: Api, organiser: str, club: dict[str, Any], who: dict[str, Any]) -> None:
    invite = api.http.get(f"/api/clubs/{club['id']}/invite", headers=bearer(organiser)).json()["invite"]
    made(api.http.post(f"/api/clubs/{club['id']}/members", json={"invite": invite}, headers=bearer(who["token"])))


async def as_player(browser: Browser, server: ServerProcess, viewport: dict[str, int], who: dict[str, Any]) -> Page:
    ctx = await new_context(browser, server, viewport=viewport)
    stored = json.dumps(json.dumps(who))
    await ctx.add_init_script(f"localStorage.setItem('spidertour.player', {stored});")
    return await ctx.new_page()


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_a_team_battle_from_the_form_to_the_final_table(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    organiser = made(api.http.post("/api/organisers", json={"name": "Coach"}, headers=api.admin()))["token"]
    red = made(api.http.post("/api/clubs", json={"name": f"Red {secrets.token_hex(2)}"}, headers=bearer(organiser)))
    blue = made(api.http.post("/api/clubs", json={"name": f"Blue {secrets.token_hex(2)}"}, headers=bearer(organiser)))
    ann, bo, cy = account(api, "ann"), account(api, "bo"), account(api, "cy")
    for who, clubs in ((ann, (red, blue)), (bo, (red,)), (cy, (red,))):
        for club in clubs:
            into_club(api, organiser, club, who)

    desk = await new_context(browser, server, viewport=viewport)
    pages: list[Page] = []
    try:
        page = await desk.new_page()
        errors = js_errors(page)
        await use_token(page, organiser)
        await new_tournament(page, more=True)
        await page.locator("#f-name").fill(f"Class battle {secrets.token_hex(2)}")
        await page.locator("#f-teams_top").fill("2")
        await page.locator("#f-seed").fill(SEED)
        await page.locator("#f-variant").select_option("spider78")
        await page.locator("#f-suits").select_option("2")
        await no_sideways_scroll(page)
        await page.locator("[data-action=review]").click()
        await expect(page.locator("[data-field=summary]")).to_contain_text("team battle, best 2 of each club")
        await create_reviewed(page)
        await expect(page.locator(".created [data-field=teams]")).to_contain_text("best 2")
        tid = int(await page.locator(".created [data-tournament]").get_attribute("data-tournament") or 0)
        assert api.tournament(tid)["teams"] == {"top": 2}

        # Ann joins from the lobby for Blue, the second of her clubs.
        lobby = await as_player(browser, server, viewport, ann)
        pages.append(lobby)
        lobby_errors = js_errors(lobby)
        await lobby.goto("/#/lobby")
        card = lobby.locator(f"[data-tournament='{tid}']")
        await expect(card.locator("[data-field=teams-note]")).to_contain_text("best 2 scores")
        select = card.locator("select[data-field=team]")
        await expect(select.locator("option")).to_have_count(2)
        await select.select_option(str(blue["id"]))
        await no_sideways_scroll(lobby)
        await card.locator("[data-action=join]").click()
        await lobby.wait_for_url("**/#/play/*")
        ann_entry = int(lobby.url.rsplit("/", 1)[1])

        # Bo joins by the shared link for Red, his only club.
        link = await as_player(browser, server, viewport, bo)
        pages.append(link)
        link_errors = js_errors(link)
        await link.goto(f"/#/join/{tid}")
        await expect(link.locator("[data-form=join] select[data-field=team] option")).to_have_text([red["name"]])
        await no_sideways_scroll(link)
        await link.locator("[data-action=join]").click()
        await link.wait_for_url("**/#/play/*")
        bo_entry = int(link.url.rsplit("/", 1)[1])

        rows = {r["entry_id"]: r["team"] for r in api.http.get(f"/api/tournaments/{tid}/leaderboard").json()["rows"]}
        assert rows == {
            ann_entry: {"id": blue["id"], "name": blue["name"]},
            bo_entry: {"id": red["id"], "name": red["name"]},
        }

        # The leaderboard: the team table above the players, live as Cy (Red) scores.
        await page.goto(f"/#/board/{tid}")
        teams = page.locator("[data-panel=teams]")
        await expect(teams.locator("tbody tr")).to_have_count(2)
        cy_entry = made(
            api.http.post(f"/api/tournaments/{tid}/entries", json={"team": red["id"]}, headers=bearer(cy["token"]))
        )
        player, _ = await Player.connect(server.ws_url, cy_entry["id"], cy["token"])
        await player.start()
        assert (await player.play(reveal_move(SEED)))["type"] == "result"
        first = teams.locator("tbody tr").first
        await expect(first).to_have_attribute("data-team", str(red["id"]))
        await expect(first.locator("[data-field=score]")).to_have_text("25")
        await expect(first.locator("[data-field=counted]")).to_have_text("2")
        await expect(page.locator(f".live-board tr[data-entry='{cy_entry['id']}'] [data-field=team]")).to_have_text(
            red["name"]
        )
        box = await teams.bounding_box()
        standings = await page.locator(".live-board").bounding_box()
        assert box and standings and box["y"] < standings["y"]  # above the individual standings
        await no_sideways_scroll(page)

        # Closed and every game ended: the results page shows the final team table.
        await player.play({"type": "end"})
        await player.close()
        made_close = api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(organiser))
        assert made_close.status_code == 200, made_close.text
        deadline = time.monotonic() + 20
        while api.tournament(tid)["status"] != "finished":
            assert time.monotonic() < deadline, "never finished"
            await asyncio.sleep(0.2)
        final = api.http.get(f"/api/tournaments/{tid}/teams").json()["teams"]
        await page.goto(f"/#/finished/{tid}")
        table = page.locator("[data-panel=teams] tbody tr")
        await expect(table).to_have_count(len(final))
        await expect(table.locator("[data-field=name]")).to_have_text([r["name"] for r in final])
        await expect(table.locator("[data-field=score]")).to_have_text([str(r["score"]) for r in final])
        await expect(page.locator(f".final tr[data-entry='{ann_entry}'] [data-field=team]")).to_have_text(blue["name"])
        await no_sideways_scroll(page)
        assert errors == [] and lobby_errors == [] and link_errors == []
    finally:
        for other in pages:
            await other.context.close()
        await desk.close()
