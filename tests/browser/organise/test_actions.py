"""Every organiser action the API offers, from the organiser's pages on a phone: a certified deal, the
fair-play report in words, a tournament's game settings and seed edited (only what changed is sent),
the settings a schedule will use, a tournament added to a series, organisers made by the owner; times
said with their zone."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio
from playwright.async_api import Browser, Page, Request, expect

from tests.browser.conftest import js_errors, new_context
from tests.browser.organise.kit import live_page, more_options, new_tournament, use_token
from tests.browser.organise.test_fit import fits, open_manage
from tests.client import Api, Player, bearer
from tests.server.helpers import unique
from tests.serverproc import ServerProcess

PHONE = {"width": 360, "height": 740}
REVEAL = {"type": "move", "from": 0, "count": 1, "to": 8}  # column 0's exposed card onto the free column


@pytest_asyncio.fixture
async def phone(browser: Browser, server: ServerProcess) -> AsyncIterator[Page]:
    """A phone in Paris (its zone said "CET" in November), failing its test on any JavaScript error."""
    context = await new_context(
        browser, server, viewport=PHONE, has_touch=True, is_mobile=True, timezone_id="Europe/Paris", locale="en-GB"
    )
    page = await context.new_page()
    errors = js_errors(page)
    yield page
    await context.close()
    assert errors == [], f"JavaScript errors: {errors}"


def patches(page: Page) -> list[dict[str, Any]]:
    """The bodies of the PATCH requests the page sends, from now on."""
    sent: list[dict[str, Any]] = []

    def seen(request: Request) -> None:
        if request.method == "PATCH":
            sent.append(json.loads(request.post_data or "{}"))

    page.on("request", seen)
    return sent


async def test_a_certified_deal_is_made_from_the_form(phone: Page, api: Api, admin_token: str) -> None:
    await use_token(phone, admin_token)
    await new_tournament(phone, more=True)
    name = unique("certified-form")
    await phone.locator("#f-name").fill(name)
    await phone.locator("#f-certified").check()
    await phone.locator("#f-certify_seconds").fill("10")
    await phone.locator("[data-action=review]").click()
    await expect(phone.locator("[data-field=summary]")).to_contain_text("a certified winnable deal")
    await phone.locator("[data-action=create]").click()
    created = phone.locator(".created [data-tournament]")
    await expect(created).to_contain_text(name, timeout=60_000)
    await expect(created.locator("[data-field=certified]")).to_have_text("certified winnable")
    made = api.tournament(int(await created.get_attribute("data-tournament") or 0))
    assert made["certified"] is True and made["name"] == name
    await fits(phone)


async def test_the_fair_play_report_reads_in_words(phone: Page, api: Api, admin_token: str, server: Any) -> None:
    tour = api.create_tournament(name=unique("report"), seed="report-seed", variant="spider78", suits=2)
    entries = {}
    for who in ("peeker", "scout"):
        _, token = api.register(unique(who))
        entries[who] = api.join(tour["id"], token)
        player, _ = await Player.connect(server.ws_url, entries[who]["id"], token)
        await player.start()
        if who == "peeker":
            assert (await player.play(REVEAL))["revealed"] == 1
            await player.play({"type": "undo"})
        else:
            for pile in (0, 1, 2):
                await player.play({"type": "deal", "pile": pile})
            await player.play({"type": "end"})
        await player.close()
    await open_manage(phone, admin_token)
    card = await live_page(phone, tour["id"])
    await card.locator("[data-action=integrity]").click()
    report = card.locator(f"[data-integrity-of='{tour['id']}']")
    await expect(report.locator("[data-field=integrity-summary]")).to_contain_text("2 entries")
    peek = report.locator("[data-flag=undo_peek]")
    await expect(peek).to_contain_text("Undo peeks")
    await expect(peek).to_contain_text("Move 1 at 0:00 turned a card in column 1; move 2")
    await expect(peek.locator(f"[data-entry='{entries['peeker']['id']}']")).to_be_visible()
    scout = report.locator("[data-flag=scout]")
    await expect(scout).to_contain_text("Dealt 3 times early")
    await expect(scout).to_contain_text("then ended the game (move 4)")
    await expect(report.locator("[data-flag=shared_address]").first).to_contain_text("One address, several players")
    text = await report.inner_text()
    assert (
        "{" not in text and '"' not in text and "undo_peek" not in text and "T" not in re.findall(r"\d{4}-\d\dT", text)
    )
    await fits(phone)


async def test_game_settings_and_seed_are_edited_before_the_opening(phone: Page, api: Api, admin_token: str) -> None:
    later = api.create_tournament(name=unique("edit-settings"), opens_in=3600, closes_in=7200, time_limit=600)
    sent = patches(phone)
    await open_manage(phone, admin_token)
    await live_page(phone, later["id"])
    await phone.locator(f"[data-tournament-row='{later['id']}'] [data-action=edit]").click()
    form = phone.locator(f"[data-edit='{later['id']}']")
    await expect(form.locator("[data-field=edit-time_limit]")).to_have_value("600")
    await form.locator("[data-field=edit-time_limit]").fill("300")
    await form.locator("[data-field=edit-reveals_final]").check()
    await form.locator("[data-field=edit-deals]").fill("2")
    await form.locator("[data-field=edit-scoring]").select_option("matchpoints")
    await fits(phone)
    await form.locator("[data-action=save]").click()
    card = phone.locator(f"[data-tournament-row='{later['id']}']")
    await expect(card.locator("[data-field=game]")).to_contain_text("reveals final")
    assert list(sent[0]) == ["settings"]  # the name and the times were left alone
    after = api.tournament(later["id"])
    s = after["settings"]
    assert (s["time_limit"], s["reveals_final"], s["deals"], s["scoring"]) == (300, True, 2, "matchpoints")
    assert after["name"] == later["name"] and after["opens_at"] == later["opens_at"]
    assert after["commitment"] != later["commitment"]

    await card.locator("[data-action=edit]").click()
    await expect(form.locator("[data-field=edit-time_limit]")).to_have_value("300")
    await form.locator("[data-field=edit-seed]").fill("a new seed")
    await form.locator("[data-action=save]").click()
    await expect(form).to_have_count(0)
    assert sent[1] == {"seed": "a new seed"}
    again = api.tournament(later["id"])
    assert again["settings"] == s and again["commitment"] != after["commitment"]


async def test_a_schedule_says_the_settings_it_will_use(phone: Page, api: Api, admin_token: str) -> None:
    await open_manage(phone, admin_token)
    await phone.goto("/#/organise/recurring")
    await more_options(phone)
    await phone.locator("#s-time_limit").fill("5")
    await phone.locator("#s-reveals_final").check()
    await phone.locator("#s-rated").uncheck()
    uses = phone.locator("[data-field=schedule-uses]")
    await expect(uses).to_contain_text("5:00")
    await expect(uses).to_contain_text("reveals final")
    await expect(uses).to_contain_text("unrated")
    name = unique("schedule-uses")
    await phone.locator("#s-name").fill(name)
    await phone.locator("[data-action=schedule]").click()
    card = phone.locator(".schedules [data-schedule]", has_text=name)
    await expect(card.locator("[data-field=schedule-game]")).to_contain_text("5:00")
    await expect(card.locator("[data-field=schedule-game]")).to_contain_text("reveals final")
    await expect(card.locator("[data-field=schedule-game]")).to_contain_text("unrated")
    await expect(card.locator("[data-field=next]")).to_contain_text("CET")
    [made] = [s for s in api.http.get("/api/schedules", headers=api.admin()).json() if s["name"] == name]
    assert made["settings"]["time_limit"] == 300 and made["rated"] is False
    await fits(phone)
    await card.locator("[data-action=stop-schedule]").click()
    await expect(card.locator("[data-field=schedule-state]")).to_have_text("stopped")


async def test_times_say_their_zone_and_statuses_are_words(phone: Page, api: Api, admin_token: str) -> None:
    later = api.create_tournament(name=unique("zone-later"), opens_in=3600, closes_in=7200)
    open_one = api.create_tournament(name=unique("zone-open"))
    await open_manage(phone, admin_token)
    await new_tournament(phone)
    for field in ("#f-opens_at", "#f-closes_at"):
        label = phone.locator("label.field", has=phone.locator(field))
        await expect(label.locator("[data-field=zone]")).to_have_text("(CET)")
    await phone.goto("/#/organise/recurring")
    label = phone.locator("label.field", has=phone.locator("#s-at"))
    await expect(label.locator("[data-field=zone]")).to_have_text("(CET)")
    card = await live_page(phone, later["id"])
    await expect(card.locator("[data-field=opens]")).to_contain_text(re.compile(r"^opens in (59 min|1 h) \(.* CET\)$"))
    await card.locator("[data-action=edit]").click()
    edit = phone.locator(f"[data-edit='{later['id']}']")
    for field in ("edit-opens", "edit-closes"):
        label = edit.locator("label.field", has=phone.locator(f"[data-field={field}]"))
        await expect(label.locator("[data-field=zone]")).to_have_text("(CET)")
    await live_page(phone, open_one["id"])
    phone.once("dialog", lambda dialog: dialog.accept())
    await phone.locator(f"[data-tournament-row='{open_one['id']}'] [data-action=close]").click()
    status = phone.locator(".live-head [data-field=status]")
    await expect(status).to_have_text(re.compile("^(entries closed|finished)$"))
    text = await phone.locator("main").inner_text()
    assert not re.search(r"\d{4}-\d\d-\d\dT|\bclosing\b|timed_out", text), text


async def test_a_tournament_joins_a_series_from_its_card(phone: Page, api: Api, admin_token: str) -> None:
    r = api.http.post("/api/series", json={"name": unique("cup series"), "points": "field"}, headers=api.admin())
    assert r.status_code == 201, r.text
    series = r.json()
    tour = api.create_tournament(name=unique("into-series"), opens_in=3600, closes_in=7200)
    await open_manage(phone, admin_token)
    card = await live_page(phone, tour["id"])
    await card.locator("[data-field=add-series]").select_option(str(series["id"]))
    await card.locator("[data-action=add-series]").click()
    await expect(card.locator("[data-field=access]")).to_contain_text(f"in series #{series['id']}")
    assert api.tournament(tour["id"])["series"] == series["id"]
    await expect(card.locator("[data-action=add-series]")).to_have_count(0)


async def test_the_owner_makes_and_revokes_organisers_from_the_page(phone: Page, api: Api, admin_token: str) -> None:
    await open_manage(phone, admin_token)
    await phone.locator("[data-action=organisers]").click()
    await phone.locator(".token-organiser summary").click()
    name = unique("Leeds club")
    await phone.locator("#o-name").fill(name)
    await phone.locator("[data-action=create-organiser]").click()
    token = await phone.locator("[data-field=organiser-token]").input_value()
    assert len(token) > 20
    mine = api.http.post("/api/tournaments", json={"name": unique("by-organiser")}, headers=bearer(token))
    assert mine.status_code == 201, mine.text
    card = phone.locator("[data-organiser]", has_text=name)
    await expect(card.locator("[data-field=organiser-state]")).to_have_text("active")
    await fits(phone)
    phone.once("dialog", lambda dialog: dialog.accept())
    await card.locator("[data-action=revoke-organiser]").click()
    await expect(card.locator("[data-field=organiser-state]")).to_have_text("revoked")
    refused = api.http.post("/api/tournaments", json={"name": unique("revoked")}, headers=bearer(token))
    assert refused.status_code in (401, 403), refused.text

    # An account made an organiser by its handle.
    handle = unique("teacher").lower()
    r = api.http.post("/api/players", json={"name": "Ms Okafor", "handle": handle, "password": "a long password"})
    assert r.status_code == 201, r.text
    await phone.locator("#o-handle").fill(f"@{handle}")
    await phone.locator("[data-action=make-account-organiser]").click()
    await expect(phone.locator("[data-organiser]", has_text="Ms Okafor")).to_have_count(1)
    session = api.http.post("/api/sessions", json={"handle": handle, "password": "a long password"}).json()["token"]
    assert api.http.get("/api/me", headers=bearer(session)).json()["organiser"]["name"] == "Ms Okafor"

    other = api.http.post("/api/organisers", json={"name": unique("plain organiser")}, headers=api.admin()).json()
    await open_manage(phone, other["token"])
    await expect(phone.locator("[data-field=dashboard] [data-section=running]")).to_be_visible()
    await expect(phone.locator("[data-action=organisers]")).to_have_count(0)  # the owner's business only
    await phone.goto("/#/organise/organisers")
    await expect(phone.locator("section.organisers")).to_be_hidden()


async def test_a_returning_organiser_sees_its_tournaments_at_once(phone: Page, api: Api, admin_token: str) -> None:
    """With a token in the tab the dashboard lists the tournaments without a click, near the top of a
    phone's screen (the long creation form is a page of its own), after a reload too."""
    tour = api.create_tournament(name=unique("returning"))
    await use_token(phone, admin_token)
    await phone.reload()
    item = phone.locator(f"[data-section=running] [data-item='tournament-{tour['id']}']")
    await expect(item).to_be_in_viewport()
    await item.locator("a").click()
    await expect(phone.locator("h1")).to_have_text(tour["name"])
    await fits(phone)
