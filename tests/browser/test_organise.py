"""The organiser's pages in Chromium, with a token pasted in the tab: tournaments edited, closed,
cancelled on their live pages; entries disqualified; schedules made and stopped. And the API page,
served by the server itself, under its CSP."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.async_api import ConsoleMessage, Page, expect

from tests.browser.helpers import sign_in
from tests.browser.organise.kit import create, live_page, new_tournament, use_token
from tests.client import Api
from tests.server.helpers import unique


def csp_reports(page: Page) -> list[str]:
    found: list[str] = []

    def seen(msg: ConsoleMessage) -> None:
        if "Content Security Policy" in msg.text or "Refused to" in msg.text:
            found.append(msg.text)

    page.on("console", seen)
    return found


async def test_the_organiser_runs_tournaments_from_the_page(page: Page, api: Api, admin_token: str) -> None:
    blocked = csp_reports(page)
    later = api.create_tournament(name=unique("page-later"), opens_in=3600, closes_in=7200)
    running = api.create_tournament(name=unique("page-open"))
    doomed = api.create_tournament(name=unique("page-doomed"))
    _, token = api.register("page-entrant")
    entry = api.join(running["id"], token)

    await use_token(page, admin_token)
    await expect(page.locator(f"[data-section=running] [data-item='tournament-{running['id']}']")).to_be_visible()
    await live_page(page, running["id"])
    await expect(page.locator(".live-head [data-field=status]")).to_have_text("open")

    entry_row = page.locator(f"[data-entries-of='{running['id']}'] [data-entry='{entry['id']}']")
    await expect(entry_row.locator("[data-field=state]")).to_have_text("not connected yet")
    await entry_row.locator("[data-action=disqualify]").click()
    await entry_row.locator("[data-field=reason]").fill("bot account")
    await entry_row.locator("[data-action=confirm-disqualify]").click()
    await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
    await expect(entry_row.locator("[data-field=state]")).to_have_text("disqualified (bot account)")
    listed = api.http.get(f"/api/tournaments/{running['id']}/entries", headers=api.admin()).json()
    assert listed[0]["disqualified"] == "bot account" and listed[0]["status"] == "absent"

    page.once("dialog", lambda dialog: dialog.accept())  # closing entries asks first
    await page.locator(f"[data-tournament-row='{running['id']}'] [data-action=close]").click()
    await expect(page.locator(".live-head [data-field=status]")).not_to_have_text("open")
    assert api.tournament(running["id"])["status"] in ("closing", "finished")

    await live_page(page, later["id"])
    await page.locator(f"[data-tournament-row='{later['id']}'] [data-action=edit]").click()
    await page.locator(f"[data-edit='{later['id']}'] [data-field=edit-name]").fill("Renamed from the page")
    await page.locator(f"[data-edit='{later['id']}'] [data-action=save]").click()
    await expect(page.locator("h1")).to_have_text("Renamed from the page")
    assert api.tournament(later["id"])["name"] == "Renamed from the page"

    await live_page(page, doomed["id"])
    page.once("dialog", lambda dialog: dialog.accept())
    await page.locator(f"[data-tournament-row='{doomed['id']}'] [data-action=cancel]").click()
    await expect(page.locator(".live-head [data-field=status]")).to_have_text("cancelled")
    assert api.tournament(doomed["id"])["status"] == "cancelled"

    await page.goto("/#/organise/recurring")
    name = unique("page-hourly")
    await page.locator("#s-name").fill(name)
    await page.locator("#s-every").select_option("hour")
    await page.locator("#s-ahead").fill("120")
    await page.locator("[data-action=schedule]").click()
    schedule = page.locator(".schedules [data-schedule]", has_text=name)
    await expect(schedule).to_contain_text("next opens")
    made: list[dict[str, Any]] = [
        s for s in api.http.get("/api/schedules", headers=api.admin()).json() if s["name"] == name
    ]
    assert len(made) == 1 and made[0]["every_minutes"] == 60 and len(made[0]["tournaments"]) >= 2
    await schedule.locator("[data-action=stop-schedule]").click()
    await expect(schedule).to_contain_text("stopped")
    assert blocked == []


async def test_the_api_page_works_from_the_server_alone(page: Page, server: Any) -> None:
    blocked = csp_reports(page)
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server.url + "/") else outside.append(r.url))
    await page.goto("/schema/swagger")
    await expect(page.locator(".opblock").first).to_be_visible(timeout=15000)
    cancel = page.locator(".opblock-summary-path", has_text="/api/tournaments/{tournament_id}/cancel")
    await expect(cancel).to_have_count(1)
    await expect(page.locator(".authorize").first).to_be_visible()  # the bearer schemes
    assert outside == [] and blocked == []


async def test_the_finished_page_shows_disqualified_entries(page: Page, api: Api, server: Any) -> None:
    import time

    from tests.server.helpers import new_player

    tid = api.create_tournament(name=unique("page-dq"), closes_in=3)["id"]
    cheat, cheat_entry = await new_player(api, server.ws_url, tid, "page-cheat")
    fair, fair_entry = await new_player(api, server.ws_url, tid, "page-fair")
    for player in (cheat, fair):
        await player.play({"type": "end"})
        await player.close()
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{cheat_entry['id']}/disqualify",
        headers=api.admin(),
        json={"reason": "played from two accounts"},
    )
    assert r.status_code == 200, r.text
    deadline = time.monotonic() + 10
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    await page.goto(f"/#/finished/{tid}")
    shown = page.locator("[data-field=disqualified]")
    await expect(shown.locator(f"[data-entry='{cheat_entry['id']}']")).to_contain_text("played from two accounts")
    await expect(page.locator(f".standings.final [data-entry='{fair_entry['id']}']")).to_have_count(1)
    await expect(page.locator(f".standings.final [data-entry='{cheat_entry['id']}']")).to_have_count(0)


async def test_a_cancelled_tournament_is_shown_as_such(page: Page, api: Api, server: Any) -> None:
    from spidertour.server.cli.verify import VerifyError, verify

    tour = api.create_tournament(name=unique("page-cancelled"), seed="cancelled-seed")
    assert api.http.post(f"/api/tournaments/{tour['id']}/cancel", headers=api.admin()).status_code == 200
    await page.goto("/#/lobby")
    await expect(page.locator(f"[data-status=cancelled] [data-tournament='{tour['id']}']")).to_be_visible()
    await page.goto(f"/#/finished/{tour['id']}")
    await expect(page.locator("[data-field=cancelled]")).to_contain_text("cancelled-seed")
    await page.goto(f"/#/board/{tour['id']}")
    await expect(page.locator("body")).to_contain_text("cancelled this tournament")
    try:
        verify(server.url, tour["id"])
    except VerifyError as err:
        assert "cancelled" in str(err)
    else:
        raise AssertionError("verify accepted a cancelled tournament")


def together(api: Api, opens_in: float, time_limit: int = 600) -> dict[str, Any]:
    opens = (datetime.now(UTC) + timedelta(seconds=opens_in)).replace(microsecond=0)
    body = {
        "name": unique("together"),
        "start": "together",
        "opens_at": opens.isoformat(),
        "settings": {"time_limit": time_limit},
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


async def test_together_tournaments_are_made_edited_and_left_to_close_themselves(
    page: Page, api: Api, admin_token: str
) -> None:
    """Together from the form opens in the future (it was refused at "now"); editing only the name of a
    together tournament saves (it sent a closing time, refused) and keeps the opening's seconds; a
    running together sitting offers no "Close entries"; closing an open one asks first."""
    await use_token(page, admin_token)
    await new_tournament(page)
    name = unique("together-form")
    await page.locator("#f-name").fill(name)
    await page.locator("#f-start").select_option("together")
    opens = await page.locator("#f-opens_at").input_value()
    assert datetime.fromisoformat(opens) > datetime.now() + timedelta(minutes=9)  # local time, as the input shows
    created = await create(page)
    await expect(created).to_contain_text(name)
    made = api.tournament(int(await created.get_attribute("data-tournament") or 0))
    assert made["start"] == "together" and made["status"] == "scheduled"

    later = together(api, opens_in=3600.4)  # an opening time with seconds
    running = together(api, opens_in=2)
    plain = api.create_tournament(name=unique("own-open"))
    await asyncio.sleep(2.5)  # the together sitting has started
    await live_page(page, later["id"])
    await page.locator(f"[data-tournament-row='{later['id']}'] [data-action=edit]").click()
    form = page.locator(f"[data-edit='{later['id']}']")
    await expect(form.locator("[data-field=edit-closes]")).to_have_count(0)
    await form.locator("[data-field=edit-name]").fill("Together, renamed")
    await form.locator("[data-action=save]").click()
    await expect(page.locator("h1")).to_have_text("Together, renamed")
    after = api.tournament(later["id"])
    assert after["name"] == "Together, renamed" and after["opens_at"] == later["opens_at"]

    running_row = await live_page(page, running["id"])
    await expect(page.locator(".live-head [data-field=status]")).to_have_text("under way")  # together: no entries
    await expect(page.locator("[data-field=countdown]")).to_contain_text("ends in")
    await expect(running_row.locator("[data-action=close]")).to_have_count(0)
    plain_row = await live_page(page, plain["id"])
    page.once("dialog", lambda dialog: dialog.dismiss())
    await plain_row.locator("[data-action=close]").click()
    await asyncio.sleep(0.5)
    assert api.tournament(plain["id"])["status"] == "open"  # not closed without a yes


async def test_a_together_board_stops_counting_down_once_it_starts(page: Page, api: Api) -> None:
    """The live board of a together tournament said "starting..." for ever after its start."""
    soon = together(api, opens_in=4)
    _, token = api.register("waiting")
    api.join(soon["id"], token)
    await page.goto(f"/#/board/{soon['id']}")
    await expect(page.locator("[data-field=together-start]")).to_contain_text("starts in")
    await expect(page.locator("[data-field=together-start]")).to_have_count(0, timeout=15_000)
    await expect(page.locator(".page-head .badge").first).to_have_text("under way")
    await expect(page.locator("body")).not_to_contain_text("starting")


async def test_the_lobby_tells_together_tournaments_apart(page: Page, api: Api) -> None:
    """A sitting under way is not under "Open now" (with no button); one cancelled before its start does
    not say it started; a waiting entry is offered the waiting room, not a Start that starts nothing."""
    me = await sign_in(page, api, "lobby-waiter")
    waiting = together(api, opens_in=3600)
    api.join(waiting["id"], me["token"])
    called_off = together(api, opens_in=3600)
    r = api.http.post(f"/api/tournaments/{called_off['id']}/cancel", headers=api.admin())
    assert r.status_code == 200, r.text
    running = together(api, opens_in=2)
    await asyncio.sleep(2.5)
    await page.goto("/#/lobby")
    under_way = page.locator(f"[data-status=running] [data-tournament='{running['id']}']")
    await expect(under_way).to_be_visible()
    await expect(page.locator(f"[data-status=open] [data-tournament='{running['id']}']")).to_have_count(0)
    await expect(under_way.locator("[data-field=start]")).to_contain_text("started together")
    cancelled = page.locator(f"[data-tournament='{called_off['id']}'] [data-field=start]")
    await expect(cancelled).to_contain_text("cancelled before the start")
    await expect(cancelled).not_to_contain_text("started")
    await expect(page.locator(f"[data-tournament='{waiting['id']}'] [data-action=play]")).to_have_text("Waiting room")
