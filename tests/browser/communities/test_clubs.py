"""A teacher's path in the browser, on a phone and on a desktop: an organiser's token, a club, a
roster of five, the printed code sheet, a member signing in with a code and joining the club's
private tournament with its entry code; the invite link; the club's results as CSV."""

from __future__ import annotations

import csv
import io
import secrets
from typing import Any

import pytest
from playwright.async_api import Browser, FilePayload, Page, expect

from tests.browser.communities.test_accounts import PASSWORD, VIEWPORTS, no_sideways_scroll, sign_in_form
from tests.browser.conftest import js_errors, new_context
from tests.browser.organise.kit import live_page, more_options, new_tournament, use_token
from tests.client import Api, bearer
from tests.serverproc import ServerProcess

NAMES = ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"]


def organiser(api: Api, name: str) -> dict[str, Any]:
    r = api.http.post("/api/organisers", json={"name": name}, headers=api.admin())
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


async def sheet(page: Page) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = await page.evaluate(
        """() => [...document.querySelectorAll('.code-sheet .slip')].map((s) => ({
          name: s.querySelector('[data-field=name]').textContent,
          handle: s.querySelector('[data-field=handle]').textContent,
          code: s.querySelector('[data-field=code]').textContent}))"""
    )
    return rows


@pytest.mark.parametrize("viewport", VIEWPORTS)
async def test_a_teacher_runs_a_private_cup_for_a_class(
    browser: Browser, server: ServerProcess, api: Api, viewport: dict[str, int]
) -> None:
    teacher = organiser(api, "Ms Rivera")
    club_name = f"Class 5B {secrets.token_hex(2)}"
    entry_code = f"cup-{secrets.token_hex(3)}"
    phone = viewport["width"] < 600
    desk, kid_ctx, friend_ctx = [await new_context(browser, server, viewport=viewport) for _ in range(3)]
    try:
        page = await desk.new_page()
        errors = js_errors(page)
        await use_token(page, teacher["token"])
        await page.locator("[data-action=new-club]").click()
        await page.locator("#c-name").fill(club_name)
        await no_sideways_scroll(page)
        await page.locator("[data-action=create-club]").click()
        await page.wait_for_url("**/#/club/*")
        club_id = int(page.url.rsplit("/", 1)[1])
        await expect(page.locator("[data-field=club-name]")).to_have_text(club_name)
        await expect(page.locator("[data-field=invite]")).not_to_be_empty()
        await no_sideways_scroll(page)

        # On another device the organiser's token shows the same clubs (listed by the server).
        elsewhere = await friend_ctx.new_page()
        await use_token(elsewhere, teacher["token"])
        await expect(elsewhere.locator(f"[data-item='club-{club_id}']")).to_contain_text(club_name)
        await elsewhere.goto("/#/organise/clubs")
        await expect(elsewhere.locator(f"[data-field=clubs] [data-club='{club_id}']")).to_contain_text(club_name)
        await new_tournament(elsewhere)
        await elsewhere.locator("#f-who").select_option("club")
        await expect(elsewhere.locator(f"#f-club option[value='{club_id}']")).to_have_count(1)
        await elsewhere.close()

        # The roster: names typed on the phone, a CSV file on the desktop.
        if phone:
            await page.locator("[data-field=roster-names]").fill("\n".join(NAMES) + "\n")
        else:
            roster = "name\n" + "\n".join(f'"{n}"' for n in NAMES) + "\n"
            await page.locator("[data-field=roster-file]").set_input_files(
                files=FilePayload(name="class.csv", mimeType="text/csv", buffer=roster.encode())
            )
        await page.locator("[data-action=import]").click()
        await page.wait_for_url(f"**/#/club/{club_id}/codes")
        await expect(page.locator(".code-sheet .slip")).to_have_count(5)
        rows = await sheet(page)
        assert [r["name"] for r in rows] == NAMES
        assert all(r["handle"].startswith("@") and len(r["code"]) >= 6 for r in rows)
        await expect(page.locator("[data-field=sign-in-url]")).to_have_text(f"{server.url}/#/account")
        await expect(page.locator("[data-field=club-name]")).to_have_text(club_name)
        await no_sideways_scroll(page)
        await page.emulate_media(media="print")
        assert await page.locator("header.top").is_hidden() and await page.locator("[data-action=print]").is_hidden()
        await page.emulate_media(media="screen")

        # A private cup: the club's members, with an entry code, unlisted.
        await new_tournament(page)
        await page.locator("#f-name").fill(f"{club_name} weekly cup")
        await page.locator("#f-time_limit").fill("5")
        await page.locator("#f-who").select_option("club")
        await page.locator("#f-club").select_option(str(club_id))
        await page.locator("#f-entry_code").fill(entry_code)
        await more_options(page)
        assert not await page.locator("#f-listed").is_checked()
        await page.locator("[data-action=review]").click()
        await expect(page.locator("[data-field=summary]")).to_contain_text(
            f"members of {club_name} only, with the entry code {entry_code}"
        )
        await page.locator("[data-action=create]").click()
        created = page.locator(".created [data-tournament]")
        await expect(created).to_contain_text(f"Members of {club_name} only")
        link = await page.locator("[data-field=join-link]").input_value()
        tid = int(await created.get_attribute("data-tournament") or 0)
        assert link == f"{server.url}/#/join/{tid}/{entry_code}"
        assert tid not in [t["id"] for t in api.http.get("/api/tournaments").json()]  # unlisted

        # The same every week: a schedule for the club, with its entry code.
        await page.goto("/#/organise/recurring")
        await page.locator("#s-time_limit").fill("5")
        await page.locator("#s-name").fill(f"{club_name} weekly")
        await page.locator("#s-every").select_option("week")
        await page.locator("#s-club").select_option(str(club_id))
        await page.locator("#s-entry_code").fill(entry_code)
        await page.locator("[data-action=schedule]").click()
        await expect(page.locator(".schedules [data-schedule]", has_text=f"{club_name} weekly")).to_contain_text(
            f"{club_name} only"
        )
        schedules = api.http.get("/api/schedules", headers=bearer(teacher["token"])).json()
        assert [
            (s["club"]["id"], s["entry_code"], s["listed"], s["every_minutes"], s["settings"]["time_limit"])
            for s in schedules
            if s["name"] == f"{club_name} weekly"
        ] == [(club_id, entry_code, False, 10080, 300)]  # the game settings chosen in the form
        await no_sideways_scroll(page)

        # A member signs in with the code on the sheet, on another device, and joins by the link.
        kid = await kid_ctx.new_page()
        kid_errors = js_errors(kid)
        member = rows[2]
        await sign_in_form(kid, member["handle"], member["code"], code=True)
        await expect(kid.locator("[data-field=signed-in-handle]")).to_have_text(member["handle"])
        # The lobby lists the unlisted cup to its club's members, with a field for the code.
        await kid.goto("/#/lobby")
        card = kid.locator(f"[data-tournament='{tid}']")
        await expect(card.locator("[data-field=access]")).to_have_text(
            f"Members of {club_name} only, with the entry code"
        )
        await card.locator("[data-field=entry-code]").fill("not-the-code")
        await card.locator("[data-action=join]").click()
        await expect(kid.locator(".notice.error").first).to_contain_text("entry code")
        await no_sideways_scroll(kid)
        await kid.goto(f"/#/join/{tid}/{entry_code}")
        # A hash-only navigation returns before the page is drawn, while the lobby's cards (each
        # with its own access line and code field) are still there: look inside the join page.
        joining = kid.locator(".join-page")
        await expect(joining.locator("[data-field=access]")).to_have_text(
            f"Members of {club_name} only, with the entry code"
        )
        await expect(joining.locator("[data-field=entry-code]")).to_have_value(entry_code)
        await no_sideways_scroll(kid)
        await joining.locator("[data-action=join]").click()
        await kid.wait_for_url("**/#/play/*")
        token = await kid.evaluate("JSON.parse(localStorage.getItem('spidertour.player')).token")
        mine = api.http.get("/api/me/entries", headers=bearer(token)).json()
        assert [e["tournament_id"] for e in mine] == [tid]
        await kid.goto("/#/me")
        await expect(kid.locator(f"[data-field=clubs] [data-club='{club_id}']")).to_have_text(club_name)
        await no_sideways_scroll(kid)
        # Older, the member chooses a password of its own; the printed code stops working.
        await kid.goto("/#/account")
        await kid.locator("[data-form=choose-password] input[type=password]").fill(PASSWORD)
        await no_sideways_scroll(kid)
        await kid.locator("[data-action=choose-password]").click()
        await expect(kid.locator("[data-form=choose-password]")).to_have_count(0)
        handle = member["handle"][1:]
        assert api.http.post("/api/sessions", json={"handle": handle, "code": member["code"]}).status_code == 401
        assert api.http.post("/api/sessions", json={"handle": handle, "password": PASSWORD}).status_code == 201

        # The cup's standings so far, as the organiser downloads them.
        await live_page(page, tid)
        async with page.expect_download() as download:
            await page.locator(f"[data-tournament-row='{tid}'] [data-action=standings-csv]").click()
        lines = list(csv.DictReader(io.StringIO((await (await download.value).path()).read_text())))
        assert [(r["rank"], r["handle"], r["club"]) for r in lines] == [("1", member["handle"][1:], club_name)]

        # Someone with an account joins the club by its invite link.
        await page.goto(f"/#/club/{club_id}")
        invite_link = await page.locator("[data-field=invite-link]").input_value()
        friend = await friend_ctx.new_page()
        friend_handle = f"friend-{secrets.token_hex(3)}"
        r = api.http.post("/api/players", json={"name": "Friend", "handle": friend_handle, "password": PASSWORD})
        assert r.status_code == 201
        await friend.goto(invite_link.removeprefix(server.url))
        await expect(friend.locator("[data-panel=sign-in-first]")).to_be_visible()
        await friend.locator("[data-action=sign-in]").click()
        await sign_in_form(friend, friend_handle, PASSWORD)
        await friend.wait_for_url(invite_link)  # back to the invite once signed in
        await friend.locator("[data-action=join-club]").click()
        await friend.wait_for_url("**/#/me")
        await expect(friend.locator(f"[data-field=clubs] [data-club='{club_id}']")).to_be_visible()
        # The invite link again: a member is told so, and offered no second join.
        await friend.goto(invite_link.removeprefix(server.url))
        await expect(friend.locator("[data-field=already]")).to_contain_text("a member of")
        await expect(friend.locator("[data-action=join-club]")).to_have_count(0)

        # The teacher's club page: six members, a new code for one, the results as CSV.
        await page.reload()
        await expect(page.locator("[data-field=members] tbody tr")).to_have_count(6)
        first = page.locator("[data-field=members] tbody tr", has_text=NAMES[0])
        await first.locator("[data-action=new-code]").click()
        new_code = await first.locator("[data-field=new-code]").text_content()
        assert new_code and new_code != rows[0]["code"]
        old = api.http.post("/api/sessions", json={"handle": rows[0]["handle"][1:], "code": rows[0]["code"]})
        assert old.status_code == 401
        async with page.expect_download() as download:
            await page.locator("[data-action=club-results]").click()
        saved = await (await download.value).path()
        text = saved.read_text()
        assert NAMES[2] in text
        await no_sideways_scroll(page)
        assert errors == [] and kid_errors == []
    finally:
        for ctx in (desk, kid_ctx, friend_ctx):
            await ctx.close()
