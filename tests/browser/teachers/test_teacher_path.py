"""The teacher's path end to end, as the README tells it, on a phone and on a desktop: the teacher
signs in with its account (the owner made it an organiser; no token anywhere), makes a club from
its dashboard, imports the class, prints the codes, makes a sitting for the class that starts
together, watches who has come, and takes the results and the class's progress. A pupil signs in
with the printed code on a phone and joins by the shared link."""

from __future__ import annotations

import csv
import io
import re
import secrets

import pytest
from playwright.async_api import Browser, expect

from tests.browser.communities.test_accounts import PASSWORD, VIEWPORTS, sign_in_form
from tests.browser.conftest import js_errors, new_context
from tests.browser.teachers.test_club_pages import fits, organiser_account, slips
from tests.client import Api
from tests.serverproc import ServerProcess

NAMES = ["Ann Smith", "Bo Lee", "Cy Jones"]


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_a_teacher_runs_a_sitting_for_a_class_signed_in_with_its_account(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    teacher = organiser_account(api, "Ms Rivera")
    club_name = f"Class 5B {secrets.token_hex(2)}"
    desk = await new_context(browser, server, viewport=viewport)
    kid = await new_context(browser, server, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    try:
        page = await desk.new_page()
        errors = js_errors(page)
        # Signed in as anyone is, with handle and password: Organise is the teacher's own dashboard.
        await sign_in_form(page, teacher["handle"], PASSWORD)
        await expect(page.locator("#who")).to_contain_text(teacher["handle"])
        await page.locator("header nav a[href='#/organise']").click()
        await expect(page.locator("[data-field=dashboard]")).to_be_visible()
        await expect(page.locator("#f-admin")).to_be_hidden()

        # A club, from the dashboard; its page opens.
        await page.locator("[data-action=new-club]").click()
        await page.locator("#c-name").fill(club_name)
        await page.locator("[data-action=create-club]").click()
        await page.wait_for_url("**/#/club/*")
        club_id = int(page.url.rsplit("/", 1)[1])
        await expect(page.locator("[data-field=club-name]")).to_have_text(club_name)

        # The class, typed in; then the slips to print, each with where to sign in.
        await page.locator("nav.club-menu [data-action=menu-import]").click()
        await page.locator("[data-field=roster-names]").fill("\n".join(NAMES))
        await page.locator("[data-action=import]").click()
        await page.wait_for_url(f"**/#/club/{club_id}/codes")
        await expect(page.locator(".slip")).to_have_count(len(NAMES))
        sheet = await slips(page)
        assert sorted(sheet) == sorted(NAMES)
        assert all(s["url"] == f"{server.url}/#/account" and s["club"] == club_name for s in sheet.values())
        await page.emulate_media(media="print")
        await expect(page.locator("header.top")).to_be_hidden()
        await expect(page.locator(".slip").first).to_be_visible()
        await page.emulate_media(media="screen")
        await fits(page)

        # A sitting for the class, everyone together: the short form, its summary, when it starts.
        await page.goto("/#/organise")
        await page.locator("[data-action=new-tournament]").click()
        name = f"5B sitting {secrets.token_hex(2)}"
        await page.locator("#f-name").fill(name)
        await page.locator("#f-start").select_option("together")
        await page.locator("#f-who").select_option("club")
        await page.locator("#f-club").select_option(str(club_id))
        await page.locator("[data-action=review]").click()
        summary = page.locator("[data-field=summary]")
        await expect(summary).to_contain_text("Everyone starts together")
        await expect(summary).to_contain_text(f"members of {club_name} only")
        await page.locator("[data-action=create]").click()
        created = page.locator(".created [data-tournament]")
        await expect(created.locator("[data-field=starts]")).to_contain_text(re.compile(r"^Starts (at|on) .*, in "))
        tid = int(await created.get_attribute("data-tournament") or 0)
        link = await created.locator("[data-field=join-link]").input_value()
        assert api.tournament(tid)["club"]["id"] == club_id

        # Ann signs in on a phone with the code from her slip and joins by the link; Bo joins but
        # never opens the game.
        ann = await kid.new_page()
        ann_errors = js_errors(ann)
        await sign_in_form(ann, sheet["Ann Smith"]["handle"], sheet["Ann Smith"]["code"], code=True)
        await expect(ann.locator("#who")).to_contain_text(sheet["Ann Smith"]["handle"])
        await ann.goto(link)
        await ann.locator("[data-action=join]").tap()
        await ann.wait_for_url(re.compile(r"#/play/\d+$"))
        bo = api.http.post("/api/sessions", json={"handle": sheet["Bo Lee"]["handle"], "code": sheet["Bo Lee"]["code"]})
        bo_entry = api.join(tid, bo.json()["token"])

        # The teacher's live page: who has not come, and who is there waiting for the start.
        await created.locator("[data-action=live]").click()
        await expect(page.locator(f"[data-entry='{bo_entry['id']}'] [data-field=state]")).to_have_text(
            "not connected yet"
        )
        await expect(page.locator("[data-field=counts]")).to_have_text(
            "2 entered · 1 not connected yet · 1 connected, not started", timeout=15_000
        )
        await expect(page.locator(f"[data-entry='{bo_entry['id']}'] [data-action=disqualify]")).to_be_visible()
        await fits(page)

        # After: the club's results and the class's progress, a tap away on the club's page.
        await page.goto(f"/#/club/{club_id}")
        async with page.expect_download() as download:
            await page.locator("nav.club-menu [data-action=club-results]").click()
        rows = list(csv.DictReader(io.StringIO((await (await download.value).path()).read_text())))
        assert {r["player"] for r in rows} == set(NAMES) and "disqualified" in rows[0]
        await page.locator("nav.club-menu [data-action=menu-progress]").click()
        await page.wait_for_url(f"**/#/club/{club_id}/progress")
        for pupil in NAMES:
            await expect(page.locator("main")).to_contain_text(pupil)
        await fits(page)
        text = await page.locator("main").inner_text()
        assert not re.search(r"\bnull\b|\bundefined\b|\bNaN\b", text), text
        assert errors == [] and ann_errors == [], (errors, ann_errors)
    finally:
        await desk.close()
        await kid.close()
