"""The result coming in while the player is on the page, on a phone held either way (touch) and a
desktop: a tournament's final place once it finishes, then a match's result, in the page's title and,
with "Notify me" on and the browser's permission, as a browser notification while the page is out
of view (another tab in front)."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from spidertour.engine import Game, Settings
from tests.browser.helpers import card_moves, expect_board, reveals, sign_in
from tests.browser.told.conftest import Told
from tests.client import Api, Player, bearer, seat_waiting
from tests.serverproc import ServerProcess

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}
FORMAT = "spider78-1suit-5min"
MATCH_PLACE = r"(won|a draw|2nd of 2)"


async def end_on_page(told: Told) -> None:
    await told.press("[data-action=end]")
    await told.press("dialog.confirm-dialog [data-action=confirm]")
    await expect(told.page.locator(".over-panel")).to_be_visible()


async def test_the_final_place_is_told_when_the_tournament_finishes(
    told: Told, api: Api, server: ServerProcess
) -> None:
    page = told.page
    await told.context.grant_permissions(["notifications"])
    await told.prefs(notify=True)
    me = await sign_in(page, api, "vera")
    tour = api.create_tournament(name="Result cup", seed="told-result", closes_in=15, **SETTINGS)
    entry = api.join(tour["id"], me["token"])
    # Another entrant turns a card and ends: 25 to this page's 0, the page's player comes second.
    _, wes_token = api.register("wes")
    wes_entry = api.join(tour["id"], wes_token)
    wes, _ = await Player.connect(server.ws_url, wes_entry["id"], wes_token)
    await wes.start()
    game = Game(Settings(**SETTINGS), "told-result")
    move = next(m for m in card_moves(game) if reveals(game, m))
    assert (await wes.play(move.to_json()))["type"] == "result"
    await wes.play({"type": "end"})
    await wes.close()

    await page.goto(f"/#/play/{entry['id']}")
    await told.press("[data-action=start]")
    await expect_board(page, Game(Settings(**SETTINGS), "told-result").view())
    await end_on_page(told)
    place = page.locator(".over-panel [data-field=rank]")
    await expect(place).to_have_text("Your place: 2 of 2 so far: others may still be playing")
    await expect(page).to_have_title("Result cup \u00b7 spidertour")

    other = await told.look_away()
    await expect(page).to_have_title("Result: 2nd of 2 \u00b7 spidertour", timeout=40_000)
    await expect(place).to_have_text("Your place: 2 of 2")
    assert await told.notes() == [{"title": "Result: 2nd of 2", "body": "Result cup is over: you finished 2nd of 2."}]
    await page.bring_to_front()
    await other.close()


async def test_a_match_made_and_its_result_are_told(told: Told, api: Api, server: ServerProcess) -> None:
    page = told.page
    seat_waiting(server.url, FORMAT)  # a match another test left waiting would seat this player in it
    await told.context.grant_permissions(["notifications"])
    await told.prefs(notify=True)
    me = await sign_in(page, api, "xan")
    r = api.http.post("/api/matches", json={"format": FORMAT}, headers=bearer(me["token"]))
    assert r.status_code in (200, 201), r.text
    match_id, entry_id = r.json()["match"]["id"], r.json()["entry"]["id"]
    name = f"Match {match_id}"

    # The seat's game, then the match's page: waiting for an opponent.
    await page.goto(f"/#/play/{entry_id}")
    await told.press("[data-action=start]")
    await expect(page.locator(".board .card").first).to_be_visible()
    await end_on_page(told)
    waiting = page.locator(".over-panel [data-field=match-waiting]")
    await expect(waiting).to_have_text("Your game is in. The result comes when every seat of the match has played.")
    await told.press(".over-panel [data-action=match]")
    await expect(page.locator("[data-field=waiting] h2")).to_have_text("Waiting for an opponent: your game is in.")
    await expect(page).to_have_title(f"{name} \u00b7 spidertour")

    # An opponent takes the other seat: the title says so.
    _, yan_token = api.register("yan")
    r = api.http.post("/api/matches", json={"format": FORMAT}, headers=bearer(yan_token))
    assert r.status_code in (200, 201) and r.json()["match"]["id"] == match_id, r.text
    await expect(page).to_have_title(f"Opponent found \u00b7 {name} \u00b7 spidertour", timeout=15_000)

    # Looking elsewhere when the opponent's game ends: the result in the title and as a notification.
    other = await told.look_away()
    yan, _ = await Player.connect(server.ws_url, r.json()["entry"]["id"], yan_token)
    await yan.start()
    await yan.play({"type": "end"})
    await yan.close()
    await expect(page).to_have_title(
        re.compile(rf"^Result: {MATCH_PLACE} \u00b7 {name} \u00b7 spidertour$"), timeout=15_000
    )
    await expect(page.locator("[data-field=result]")).to_be_visible()
    [note] = await told.notes()  # the opponent came while the page was in view: only the result notified
    assert re.fullmatch(rf"Result: {MATCH_PLACE} \u00b7 {name}", note["title"]), note
    assert note["body"].startswith(f"{name} is over: "), note
    await page.bring_to_front()
    await other.close()


async def test_the_game_page_tells_a_match_result(told: Told, api: Api, server: ServerProcess) -> None:
    page = told.page
    seat_waiting(server.url, FORMAT)
    me = await sign_in(page, api, "zoe")
    r = api.http.post("/api/matches", json={"format": FORMAT}, headers=bearer(me["token"]))
    assert r.status_code in (200, 201), r.text
    match_id, entry_id = r.json()["match"]["id"], r.json()["entry"]["id"]
    await page.goto(f"/#/play/{entry_id}")
    await told.press("[data-action=start]")
    await expect(page.locator(".board .card").first).to_be_visible()
    await end_on_page(told)
    waiting = page.locator(".over-panel [data-field=match-waiting]")
    await expect(waiting).to_have_text("Your game is in. The result comes when every seat of the match has played.")

    # The opponent seats and plays while this page stays on the game's end: it tells the result.
    _, ada_token = api.register("ada")
    r = api.http.post("/api/matches", json={"format": FORMAT}, headers=bearer(ada_token))
    assert r.status_code in (200, 201) and r.json()["match"]["id"] == match_id, r.text
    ada, _ = await Player.connect(server.ws_url, r.json()["entry"]["id"], ada_token)
    await ada.start()
    await ada.play({"type": "end"})
    await ada.close()
    name = f"Match {match_id}"
    await expect(page).to_have_title(
        re.compile(rf"^Result: {MATCH_PLACE} \u00b7 {name} \u00b7 spidertour$"), timeout=15_000
    )
    await expect(waiting).to_have_text(re.compile(r"^The match is over: (you won|a draw|you are 2nd of 2)\.$"))
    assert await told.notes() == []  # "Notify me" is off
