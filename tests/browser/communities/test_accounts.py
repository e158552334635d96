"""Accounts in the browser, on a phone and on a desktop: signing up, in (on a second device, seeing
the same entries) and out (of one device, of every device), a guest becoming an account, and the
error lines of a wrong password and of a locked handle."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import sign_in
from tests.client import Api, bearer
from tests.serverproc import ServerProcess

VIEWPORTS = [
    pytest.param({"width": 360, "height": 740}, id="phone"),
    pytest.param({"width": 1280, "height": 800}, id="desktop"),
]
PASSWORD = "correct horse"
_count = 0


def handle(stem: str) -> str:
    global _count
    _count += 1
    return f"{stem}{_count}-{id(object()) % 100000}"


async def no_sideways_scroll(page: Page) -> None:
    width = await page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    if width[0] > width[1]:
        wide = await page.evaluate(
            """() => [...document.querySelectorAll('main *')]
              .filter((n) => n.getBoundingClientRect().right > innerWidth).slice(0, 5)
              .map((n) => `${n.tagName}.${n.className}[${Math.round(n.getBoundingClientRect().right)}]`)"""
        )
        raise AssertionError(f"the page scrolls sideways: {width}, past the edge: {wide}")


async def sign_up(page: Page, name: str, who: str) -> None:
    await page.goto("/#/account")
    form = page.locator("[data-form=sign-up]")
    await form.locator("[data-field=name]").fill(name)
    await form.locator("[data-field=handle]").fill(who)
    await form.locator("[data-field=password]").fill(PASSWORD)
    await no_sideways_scroll(page)
    await form.locator("[data-action=sign-up]").click()
    await expect(page.locator("[data-field=signed-in-handle]")).to_have_text(f"@{who}")


async def sign_in_form(page: Page, who: str, secret: str, code: bool = False) -> None:
    await page.goto("/#/account")
    form = page.locator("[data-form=sign-in]")
    await form.locator("[data-field=handle]").fill(who)
    if code:
        await form.locator("[data-field=with-code]").check()
        await form.locator("[data-field=code]").fill(secret)
    else:
        await form.locator("[data-field=password]").fill(secret)
    await form.locator("[data-action=sign-in]").click()


def stored(value: str | None) -> Any:
    return json.loads(value) if value else None


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_sign_up_out_and_in_on_a_second_device(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    tour = api.create_tournament(name=handle("Account cup "))
    who = handle("ann")
    first = await new_context(browser, server, viewport=viewport)
    second = await new_context(browser, server, viewport=viewport)
    try:
        page = await first.new_page()
        errors = js_errors(page)
        await sign_up(page, "Ann", who)
        await expect(page.locator("#who")).to_have_text(f"@{who}")
        await no_sideways_scroll(page)
        token = stored(await page.evaluate("localStorage.getItem('spidertour.player')"))["token"]
        assert api.http.get("/api/me", headers=bearer(token)).json()["handle"] == who

        await page.goto("/#/lobby")
        await page.locator(f"[data-tournament='{tour['id']}'] [data-action=join]").click()
        await page.wait_for_url("**/#/play/*")
        entry_id = int(page.url.rsplit("/", 1)[1])

        await page.goto("/#/account")
        await page.locator("[data-action=sign-out]").click()
        await expect(page.locator("[data-form=sign-in]")).to_be_visible()
        await expect(page.locator("#who")).to_have_text("Sign in")
        assert await page.evaluate("localStorage.getItem('spidertour.player')") is None
        assert api.http.get("/api/me", headers=bearer(token)).status_code == 401  # ended on the server

        other = await second.new_page()
        other_errors = js_errors(other)
        await sign_in_form(other, who, "wrong password!")
        await expect(other.locator("[data-field=error]")).to_have_text("wrong handle or password")
        await sign_in_form(other, who.upper(), PASSWORD)  # capitals fold to the same handle
        await expect(other.locator("[data-field=signed-in-handle]")).to_have_text(f"@{who}")
        await other.goto("/#/me")
        row = other.locator(f"[data-field=results] [data-entry='{entry_id}']")
        await expect(row).to_contain_text(tour["name"])
        await expect(other.locator("[data-field=handle]")).to_have_text(f"@{who}")
        await no_sideways_scroll(other)
        await other.goto("/#/lobby")
        await expect(other.locator(f".my-entries [data-entry='{entry_id}']")).to_be_visible()
        assert errors == [] and other_errors == []
    finally:
        await first.close()
        await second.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_sign_out_everywhere_signs_out_the_other_device(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    who = handle("bo")
    made = api.http.post("/api/players", json={"name": "Bo", "handle": who, "password": PASSWORD})
    assert made.status_code == 201, made.text
    tour = api.create_tournament(name=handle("Everywhere cup "))
    playing = api.create_tournament(name=handle("Playing cup "))
    first, second, third = [await new_context(browser, server, viewport=viewport) for _ in range(3)]
    try:
        laptop, phone, tablet = await first.new_page(), await second.new_page(), await third.new_page()
        for page in (laptop, phone, tablet):
            await sign_in_form(page, who, PASSWORD)
            await expect(page.locator("[data-field=signed-in-handle]")).to_have_text(f"@{who}")
        token = stored(await tablet.evaluate("localStorage.getItem('spidertour.player')"))["token"]
        entry = api.join(playing["id"], token)
        await tablet.goto(f"/#/play/{entry['id']}")
        await expect(tablet.locator("[data-action=start]")).to_be_visible()
        await phone.goto("/#/lobby")
        await expect(phone.locator(f"[data-tournament='{tour['id']}'] [data-action=join]")).to_be_visible()

        await laptop.locator("[data-action=sign-out-everywhere]").click()
        await laptop.locator("dialog [data-action=confirm]").click()
        await expect(laptop.locator("[data-form=sign-in]")).to_be_visible()

        # The phone's next action finds its session ended and asks to sign in.
        await phone.locator(f"[data-tournament='{tour['id']}'] [data-action=join]").click()
        await expect(phone.locator(".notice.error").first).to_contain_text("sign in")
        await expect(phone.locator("#who")).to_have_text("Sign in")
        assert await phone.evaluate("localStorage.getItem('spidertour.player')") is None
        await phone.goto("/#/me")
        await expect(phone.locator("[data-action=sign-in]")).to_be_visible()
        # The game open on the tablet is closed by the server and says so.
        await expect(tablet.locator(".not-yours")).to_contain_text("You are signed out")
        await expect(tablet.locator("#who")).to_have_text("Sign in")
    finally:
        for ctx in (first, second, third):
            await ctx.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_a_guest_becomes_an_account_and_keeps_its_entries(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    tour = api.create_tournament(name=handle("Guest cup "))
    ctx = await new_context(browser, server, viewport=viewport)
    try:
        page = await ctx.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, "Cy")
        entry = api.join(tour["id"], me["token"])
        who = handle("cy")
        await page.goto("/#/account")
        await expect(page.locator("[data-panel=guest]")).to_contain_text("Cy")
        form = page.locator("[data-form=upgrade]")
        await form.locator("[data-field=handle]").fill(f"@{who}")
        await form.locator("[data-field=password]").fill(PASSWORD)
        await no_sideways_scroll(page)
        await form.locator("[data-action=upgrade]").click()
        await expect(page.locator("[data-field=signed-in-handle]")).to_have_text(f"@{who}")
        await expect(page.locator("#who")).to_have_text(f"@{who}")
        await page.goto("/#/me")
        await expect(page.locator(f"[data-field=results] [data-entry='{entry['id']}']")).to_be_visible()

        signed = api.http.post("/api/sessions", json={"handle": who, "password": PASSWORD})
        assert signed.status_code == 201
        mine = api.http.get("/api/me/entries", headers=bearer(signed.json()["token"])).json()
        assert [e["id"] for e in mine] == [entry["id"]]
        assert errors == []
    finally:
        await ctx.close()


async def test_a_locked_handle_says_how_long_to_wait(page: Page, api: Api) -> None:
    who = handle("dee")
    assert api.http.post("/api/players", json={"name": "Dee", "handle": who, "password": PASSWORD}).status_code == 201
    for _ in range(10):
        assert api.http.post("/api/sessions", json={"handle": who, "password": "not the one"}).status_code == 401
    await sign_in_form(page, who, PASSWORD)
    await expect(page.locator("[data-field=error]")).to_have_text(
        re.compile(r"^Too many tries: wait \d+ (s|minutes) and try again\.$")
    )
    await sign_in_form(page, who, "12345678", code=True)
    await expect(page.locator("[data-field=error]")).to_contain_text("Too many tries")
