"""The organiser's dashboard in Chromium, on a phone (360x740) and a desktop: an organiser account
signed in on the device lands on its own things (no token field shown, another organiser's events
absent), makes a sitting for everyone together with the short form (a summary first, then when it
starts), and watches it live: who never connected, who is connected or playing, a disqualification.
A plain account is offered to become an organiser only where the server allows it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.organise.test_fit import fits
from tests.client import Api, Player, bearer
from tests.conftest import server_env
from tests.server.helpers import unique
from tests.serverproc import ServerProcess

SIZES = [
    pytest.param({"width": 360, "height": 740}, True, id="phone"),
    pytest.param({"width": 1280, "height": 800}, False, id="desktop"),
]


def account(api: Api, name: str) -> dict[str, Any]:
    """An account (handle and password) signed in: {id, name, handle, token} as the client keeps it."""
    handle = unique("t").lower()
    r = api.http.post("/api/players", json={"name": name, "handle": handle, "password": "a long password"})
    assert r.status_code == 201, r.text
    r = api.http.post("/api/sessions", json={"handle": handle, "password": "a long password"})
    assert r.status_code == 201, r.text
    return {"id": r.json()["player"]["id"], "name": name, "handle": handle, "token": r.json()["token"]}


def organiser_account(api: Api, name: str) -> dict[str, Any]:
    me = account(api, name)
    r = api.http.post("/api/organisers", json={"handle": me["handle"]}, headers=api.admin())
    assert r.status_code == 201, r.text
    return me


def tournament(api: Api, token: str, **extra: Any) -> dict[str, Any]:
    body = {"name": unique("sitting"), "settings": {"time_limit": 600}, **extra}
    r = api.http.post("/api/tournaments", json=body, headers=bearer(token))
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


async def signed_in_page(
    browser: Browser, server: Any, me: dict[str, Any], viewport: dict[str, int], touch: bool
) -> tuple[BrowserContext, Page, list[str]]:
    context = await new_context(browser, server, viewport=viewport, has_touch=touch, is_mobile=touch)
    stored = json.dumps(json.dumps(me))
    await context.add_init_script(f"localStorage.setItem('spidertour.player', {stored});")
    page = await context.new_page()
    return context, page, js_errors(page)


@pytest.mark.parametrize(("viewport", "touch"), SIZES)
async def test_an_organiser_account_runs_a_sitting_from_its_dashboard(
    browser: Browser, server: ServerProcess, api: Api, shots: Path, viewport: dict[str, int], touch: bool
) -> None:
    size = "phone" if touch else "desktop"
    teacher = organiser_account(api, "Ms Rivera")
    other = organiser_account(api, "Mr Other")
    mine = tournament(api, teacher["token"], name=unique("Class 5B warm-up"))
    theirs = tournament(api, other["token"], name=unique("Not yours"))
    # One pupil plays the warm-up already.
    _, pupil_token = api.register("Playing pupil")
    entry = api.join(mine["id"], pupil_token)
    player, _ = await Player.connect(server.ws_url, entry["id"], pupil_token)
    await player.start()

    context, page, errors = await signed_in_page(browser, server, teacher, viewport, touch)
    try:
        await page.goto("/#/organise")
        dash = page.locator("[data-field=dashboard]")
        running = dash.locator("[data-section=running]")
        await expect(running.locator(f"[data-item='tournament-{mine['id']}']")).to_contain_text("1 entry")
        await expect(dash.locator(f"[data-item='tournament-{theirs['id']}']")).to_have_count(0)
        await expect(running.locator("[data-field=count]")).to_have_text("1")
        await expect(page.locator("#f-admin")).to_be_hidden()
        await expect(page.locator("[data-action=new-tournament]")).to_be_visible()
        await fits(page)
        await snap(page, shots, f"teachers-dashboard-{size}", full_page=True)

        # The warm-up's live page: the pupil playing, in words.
        await running.locator(f"[data-item='tournament-{mine['id']}'] a").click()
        await expect(page.locator(f"[data-entry='{entry['id']}'] [data-field=state]")).to_have_text(
            re.compile(r"^playing — \d+ moves?, score -?\d+$")
        )
        await player.close()

        # A sitting for everyone together, made with the short form.
        await page.goto("/#/organise")
        await page.locator("[data-action=new-tournament]").click()
        name = unique("Class 5B, Thursday")
        await page.locator("#f-name").fill(name)
        await page.locator("#f-time_limit").fill("10")
        await page.locator("#f-start").select_option("together")
        await expect(page.locator("#f-closes_at")).to_be_hidden()
        opens = datetime.fromisoformat(await page.locator("#f-opens_at").input_value())
        assert opens > datetime.now() + timedelta(minutes=9)
        await expect(page.locator("#f-undo_limit")).to_be_hidden()  # folded under "More options"
        await fits(page)
        await snap(page, shots, f"teachers-new-{size}", full_page=True)
        await page.locator("[data-action=review]").click()
        summary = page.locator("[data-field=summary]")
        await expect(summary).to_contain_text("Everyone starts together")
        await expect(summary).to_contain_text(re.compile(r"\(in (\d+ min|1 h( \d+ min)?)\)"))
        await expect(summary).to_contain_text("10 minutes; anyone may join")
        await expect(summary).to_contain_text("scored by final score; rated")
        await fits(page)
        await snap(page, shots, f"teachers-summary-{size}")
        await page.locator("[data-action=create]").click()
        created = page.locator(".created [data-tournament]")
        await expect(created.locator("[data-field=starts]")).to_contain_text(
            re.compile(r"^Starts (at|on) .*\d\d:\d\d, in .*; entries close then\.$")
        )
        tid = int(await created.get_attribute("data-tournament") or 0)
        made = api.tournament(tid)
        assert made["start"] == "together" and made["settings"]["time_limit"] == 600 and made["name"] == name
        link = await created.locator("[data-field=join-link]").input_value()
        assert link.endswith(f"/#/join/{tid}")
        await fits(page)
        await snap(page, shots, f"teachers-created-{size}")

        # Three pupils join; one opens the game (the sitting has not started: connected, not started).
        entries = []
        for who in ("Ann", "Bo", "Cy"):
            _, token = api.register(unique(who))
            entries.append((api.join(tid, token), token))
        waiting, _ = await Player.connect(server.ws_url, entries[2][0]["id"], entries[2][1])
        await created.locator("[data-action=live]").click()
        rows = [page.locator(f"[data-entry='{e['id']}']") for e, _ in entries]
        for row in rows[:2]:
            await expect(row.locator("[data-field=state]")).to_have_text("not connected yet")
        await expect(rows[2].locator("[data-field=state]")).to_have_text(
            re.compile(r"^(connected, not started|playing)")
        )
        await expect(page.locator("[data-field=counts]")).to_have_text(
            "3 entered · 2 not connected yet · 1 connected, not started"
        )
        await expect(page.locator("[data-field=countdown]")).to_contain_text("everyone starts in")
        await expect(page.locator("[data-field=join-link]")).to_have_value(link)

        # Bo is disqualified: a reason, then a confirmation.
        await rows[1].locator("[data-action=disqualify]").click()
        await rows[1].locator("[data-field=reason]").fill("played for someone else")
        await rows[1].locator("[data-action=confirm-disqualify]").click()
        await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
        await expect(rows[1].locator("[data-field=state]")).to_have_text("disqualified (played for someone else)")
        await expect(rows[1].locator("[data-action=disqualify]")).to_be_hidden()
        await expect(page.locator("[data-field=counts]")).to_contain_text("1 disqualified")
        listed = {
            e["id"]: e for e in api.http.get(f"/api/tournaments/{tid}/entries", headers=bearer(teacher["token"])).json()
        }
        assert listed[entries[1][0]["id"]]["disqualified"] == "played for someone else"
        await waiting.close()
        await fits(page)
        text = await page.locator("main").inner_text()
        assert not re.search(r"\bnull\b|\bundefined\b|\bNaN\b", text), text
        await snap(page, shots, f"teachers-live-{size}", full_page=True)
        assert errors == [], f"JavaScript errors: {errors}"
    finally:
        await context.close()


async def test_the_dashboard_is_paged_and_leads_to_each_kind(browser: Browser, server: ServerProcess, api: Api) -> None:
    """More than a page of sittings: "More" shows the rest; a club, a series and a schedule lead to their pages."""
    teacher = organiser_account(api, "Mr Pages")
    later = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    coming = [
        tournament(
            api, teacher["token"], opens_at=later, closes_at=(datetime.now(UTC) + timedelta(hours=3)).isoformat()
        )
        for _ in range(12)
    ]
    club = api.http.post("/api/clubs", json={"name": unique("Class 6A")}, headers=bearer(teacher["token"])).json()
    series = api.http.post("/api/series", json={"name": unique("Spring")}, headers=bearer(teacher["token"])).json()
    body = {"name": unique("weekly"), "first_opens_at": later, "every_minutes": 10080}
    schedule = api.http.post("/api/schedules", json=body, headers=bearer(teacher["token"])).json()
    context, page, errors = await signed_in_page(browser, server, teacher, {"width": 360, "height": 740}, True)
    try:
        await page.goto("/#/organise")
        section = page.locator("[data-section=coming]")
        await expect(section.locator("[data-field=count]")).to_have_text("12")
        await expect(section.locator(".organised-item")).to_have_count(10)
        await section.locator("[data-action=more]").click()
        await expect(section.locator(".organised-item")).to_have_count(12)
        await expect(section.locator("[data-action=more]")).to_be_hidden()
        await expect(section.locator(f"[data-item='tournament-{coming[0]['id']}']")).to_contain_text("opens in")
        for kind, thing, href in (
            ("club", club, f"#/club/{club['id']}"),
            ("series", series, f"#/series/{series['id']}"),
            ("schedule", schedule, f"#/organise/recurring/{schedule['id']}"),
        ):
            link = page.locator(f"[data-item='{kind}-{thing['id']}'] a")
            await expect(link).to_have_attribute("href", href)
        await page.locator(f"[data-item='schedule-{schedule['id']}'] a").click()
        await expect(page.locator(f"[data-schedule='{schedule['id']}']")).to_have_class(re.compile("chosen"))
        await fits(page)
        assert errors == []
    finally:
        await context.close()


async def test_signed_out_and_plain_accounts_are_told_how_to_organise(
    browser: Browser, server: ServerProcess, api: Api
) -> None:
    context = await new_context(browser, server, viewport={"width": 360, "height": 740})
    page = await context.new_page()
    errors = js_errors(page)
    try:
        await page.goto("/#/organise")
        await expect(page.locator("[data-field=signed-out] [data-action=sign-in]")).to_have_attribute(
            "href", "#/account"
        )
        await expect(page.locator("#f-admin")).to_be_hidden()
        await page.locator("[data-field=token-fold] summary").click()
        await expect(page.locator("#f-admin")).to_be_visible()
        await fits(page)
    finally:
        await context.close()
    plain = account(api, "Plain account")
    context, page, more_errors = await signed_in_page(browser, server, plain, {"width": 360, "height": 740}, True)
    try:
        await page.goto("/#/organise")
        await expect(page.locator("[data-field=ask-owner]")).to_contain_text(f"@{plain['handle']}")
        await expect(page.locator("[data-action=become-organiser]")).to_have_count(0)
        await fits(page)
    finally:
        await context.close()
    assert errors == [] and more_errors == []


@pytest.fixture(scope="module")
def open_server(database_url: str, redis_url: str, admin_token: str, redis_prefix: str) -> Iterator[ServerProcess]:
    """A server where any account may make itself an organiser."""
    env = {**server_env(redis_prefix), "ORGANISERS_OPEN": "true"}
    proc = ServerProcess(database_url, redis_url, admin_token, env=env).start()
    try:
        yield proc
    finally:
        proc.stop()


async def test_where_the_server_allows_it_an_account_becomes_an_organiser(
    browser: Browser, open_server: ServerProcess, admin_token: str, shots: Path
) -> None:
    api = Api(open_server.url, admin_token)
    me = account(api, "Club secretary")
    context, page, errors = await signed_in_page(browser, open_server, me, {"width": 360, "height": 740}, True)
    try:
        await page.goto("/#/organise")
        become = page.locator("[data-action=become-organiser]")
        await expect(become).to_be_visible()
        await snap(page, shots, "teachers-become-phone")
        await become.click()
        await expect(page.locator("[data-field=dashboard] [data-section=running]")).to_be_visible()
        assert api.http.get("/api/me", headers=bearer(me["token"])).json()["organiser"] is not None
        await fits(page)
        assert errors == []
    finally:
        await context.close()
