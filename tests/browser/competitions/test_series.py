"""A season in the browser, on a phone, a desktop and a phone held sideways: an organiser creates
a series on the organiser's page, a tournament and a schedule join it from their forms, and the
series page shows the table (as the server works it out), the points rule in words, its
tournaments with links (and their pages a link back) and the CSV download."""

from __future__ import annotations

import csv
import io
import secrets
import time
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.communities.test_accounts import no_sideways_scroll
from tests.browser.conftest import js_errors, new_context
from tests.browser.organise.kit import create, new_tournament, use_token
from tests.client import Api, bearer
from tests.serverproc import ServerProcess

VIEWPORTS = [
    pytest.param({"width": 360, "height": 740}, id="phone"),
    pytest.param({"width": 1280, "height": 800}, id="desktop"),
    pytest.param({"width": 740, "height": 360}, id="sideways"),
]


def organiser(api: Api) -> str:
    r = api.http.post("/api/organisers", json={"name": f"League {secrets.token_hex(2)}"}, headers=api.admin())
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def finish(api: Api, token: str, tid: int, names: list[str]) -> list[int]:
    """Players join in this order (so they rank in it), the organiser closes, the clock finishes it."""
    ids = []
    for name in names:
        pid, player = api.register(name)
        api.join(tid, player)
        ids.append(pid)
    assert api.http.post(f"/api/tournaments/{tid}/close", headers=bearer(token)).status_code == 200
    deadline = time.monotonic() + 15
    while api.tournament(tid)["status"] != "finished":
        assert time.monotonic() < deadline, "never finished"
        time.sleep(0.2)
    return ids


async def sign_in_as_organiser(page: Page, token: str) -> None:
    await use_token(page, token)


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_a_season_from_the_organisers_page_to_its_table(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    token = organiser(api)
    name = f"Spring league {secrets.token_hex(2)}"
    ctx = await new_context(browser, server, viewport=viewport, accept_downloads=True)
    try:
        page = await ctx.new_page()
        errors = js_errors(page)
        await sign_in_as_organiser(page, token)
        await page.locator("[data-action=new-series]").click()
        await page.locator("[data-field=series-name]").fill(name)
        await page.locator("[data-field=series-points]").fill("10, 8, 6")
        await page.locator("[data-field=series-best-of]").fill("2")
        await no_sideways_scroll(page)
        await page.locator("[data-action=create-series]").click()
        listed = page.locator("[data-field=series-list] [data-series]", has_text=name)
        await expect(listed).to_have_count(1)
        series_id = int(await listed.get_attribute("data-series") or 0)
        made = api.http.get(f"/api/series/{series_id}").json()
        assert made["points"] == [10, 8, 6] and made["best_of"] == 2 and made["name"] == name

        # The tournament form's Series select puts the new tournament in it.
        await new_tournament(page, more=True)
        await expect(page.locator(f"#f-series option[value='{series_id}']")).to_have_count(1)
        await page.locator("#f-name").fill(f"Week 1 {secrets.token_hex(2)}")
        await page.locator("#f-series").select_option(str(series_id))
        created = await create(page)
        tid = int(await created.get_attribute("data-tournament") or 0)
        assert api.tournament(tid)["series"] == series_id
        await page.goto("/#/organise/series")
        await expect(listed).to_contain_text("· 1 tournament")

        # The schedule form's Series select: every tournament the schedule makes joins.
        await page.goto("/#/organise/recurring")
        await expect(page.locator(f"#s-series option[value='{series_id}']")).to_have_count(1)
        await page.locator("#s-name").fill(f"Weekly {secrets.token_hex(2)}")
        await page.locator("#s-series").select_option(str(series_id))
        await page.locator("[data-action=schedule]").click()
        await expect(page.locator("[data-schedule]")).to_have_count(1)
        schedules = api.http.get("/api/schedules", headers=bearer(token)).json()
        assert [s["series"] for s in schedules] == [series_id]
        await no_sideways_scroll(page)

        # Its live leaderboard links to the series; finished, three players ranked in the order they joined.
        await page.goto(f"/#/board/{tid}")
        await expect(page.locator("[data-action=series]")).to_have_attribute("href", f"#/series/{series_id}")
        ids = finish(api, token, tid, ["Ann", "Bo", "Cy"])
        await page.goto("/#/organise")
        await page.locator(f"[data-item='series-{series_id}'] a").click()
        await page.wait_for_url(f"**/#/series/{series_id}")
        await expect(page.locator("[data-field=series-name]")).to_have_text(name)
        rows = page.locator("[data-field=standings] tbody tr")
        await expect(rows).to_have_count(3)
        shown = await page.evaluate(
            """() => [...document.querySelectorAll('[data-field=standings] tbody tr')].map((tr) =>
                 [Number(tr.dataset.player), tr.querySelector('[data-field=points]').textContent])"""
        )
        assert shown == [[ids[0], "10"], [ids[1], "8"], [ids[2], "6"]]
        rule = page.locator("[data-field=rule]")
        await expect(rule).to_contain_text("1st 10, 2nd 8, 3rd 6")
        await expect(rule).to_contain_text("best 2 results")
        link = page.locator(f"[data-field=tournaments] [data-tournament='{tid}'] a")
        await expect(link).to_have_attribute("href", f"#/finished/{tid}")
        await no_sideways_scroll(page)

        async with page.expect_download() as download:
            await page.locator("[data-action=series-csv]").click()
        text = (await (await download.value).path()).read_text()
        parsed = list(csv.DictReader(io.StringIO(text)))
        table: list[dict[str, Any]] = api.http.get(f"/api/series/{series_id}/standings").json()
        # The CSV has the table's columns but ``profile`` (whether the name links to a profile).
        assert all(row.pop("profile") is True for row in table)
        assert parsed == [{k: "" if v is None else str(v) for k, v in row.items()} for row in table]

        # The finished tournament's page leads back to its series.
        await link.click()
        await page.wait_for_url(f"**/#/finished/{tid}")
        await page.locator("[data-action=series]").click()
        await page.wait_for_url(f"**/#/series/{series_id}")
        await expect(page.locator("[data-field=standings] tbody tr")).to_have_count(3)
        assert errors == []
    finally:
        await ctx.close()


async def test_a_missing_series_says_so(browser: Browser, server: ServerProcess) -> None:
    ctx = await new_context(browser, server)
    try:
        page = await ctx.new_page()
        errors = js_errors(page)
        await page.goto("/#/series/999999999")
        await expect(page.locator("[data-field=error]")).to_contain_text("no series 999999999")
        assert errors == []
    finally:
        await ctx.close()
