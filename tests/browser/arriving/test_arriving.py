"""Arriving and finding one's way, on a phone held either way (touch) and on a desktop: a shared
join link that says what the tournament is, a guest told it lives on this device only, forms that
say what to fix in plain words, times said in days, the lobby's tournaments first on a phone, tap
targets a finger can hit, and every page with its own title and one heading."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.client import Api, bearer
from tests.serverproc import ServerProcess

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "sideways": {"viewport": {"width": 740, "height": 360}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
TOUCH = ["phone", "sideways"]


@pytest_asyncio.fixture(params=list(SIZES))
async def at(request: pytest.FixtureRequest, browser: Browser, server: ServerProcess) -> AsyncIterator[Page]:
    """A fresh page at each of the three sizes; the test fails on any JavaScript error."""
    context = await new_context(browser, server, **SIZES[request.param])
    page = await context.new_page()
    page.size = request.param  # type: ignore[attr-defined]
    errors = js_errors(page)
    yield page
    await context.close()
    assert errors == [], errors


def organised(api: Api, name: str, **extra: Any) -> dict[str, Any]:
    """A tournament of Spider 78, 1 suit, 10 minutes, run by an organiser called "Thursday club"."""
    r = api.http.post("/api/organisers", json={"name": "Thursday club"}, headers=api.admin())
    assert r.status_code == 201, r.text
    now = datetime.now(UTC)
    body = {
        "name": name,
        "settings": {"variant": "spider78", "suits": 1, "time_limit": 600},
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=2)).isoformat(),
        **extra,
    }
    body = {key: value for key, value in body.items() if value is not None}  # closes_at=None: left out
    made = api.http.post("/api/tournaments", json=body, headers=bearer(r.json()["token"]))
    assert made.status_code == 201, made.text
    return made.json()  # type: ignore[no-any-return]


async def no_sideways(page: Page) -> None:
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")


# ------------------------------------------------------------------ 13: a shared link says what it is


async def test_a_shared_join_link_says_what_the_tournament_is(at: Page, api: Api, shots: Path) -> None:
    t = organised(api, f"Friday {secrets.token_hex(2)}", rated=False)
    _, token = api.register("early bird")
    api.join(t["id"], token)
    await at.goto(f"/#/join/{t['id']}")
    about = at.locator("[data-panel=about]")
    await expect(about.locator("[data-field=what]")).to_contain_text("A tournament of Spider 78, 1 suit, 10 minutes")
    await expect(about.locator("[data-field=when]")).to_contain_text(
        re.compile(r"It closes in (2 h|1 h 59 min) \(\w{3} ")
    )
    await expect(about.locator("[data-field=entrants]")).to_have_text("1 player has entered.")
    await expect(about.locator("[data-field=organiser]")).to_have_text("Run by Thursday club.")
    await expect(about.locator("[data-field=rated]")).to_contain_text("Unrated")
    board = about.locator("[data-action=leaderboard]")
    await expect(board).to_be_visible()
    await expect(board).to_have_attribute("href", f"#/board/{t['id']}")
    await no_sideways(at)
    await snap(at, shots, f"arriving-join-{at.size}", full_page=True)  # type: ignore[attr-defined]
    await board.click()
    await expect(at).to_have_url(f"{at.url.split('#')[0]}#/board/{t['id']}")


# ------------------------------------------------------------------ 14: a guest by link is told it is one


async def test_a_guest_who_joins_by_link_is_told_it_lives_on_this_device(at: Page, api: Api, shots: Path) -> None:
    t = organised(api, f"Guests {secrets.token_hex(2)}")
    await at.goto(f"/#/join/{t['id']}")
    guest = at.locator("[data-form=guest]")
    await expect(guest.locator("[data-field=guest-note]")).to_contain_text("this device only")
    await guest.locator("[data-field=name]").fill("Walk-in")
    await guest.locator("button[type=submit]").click()
    await expect(at).to_have_url(re.compile(r"#/play/\d+$"))
    await expect(at.locator("#notices")).to_contain_text("a guest on this device only")
    # Back on the link: the guest is said to be one, and offered an account.
    await at.goto("about:blank")
    await at.goto(f"/#/join/{t['id']}")
    note = at.locator("[data-panel=guest-note]")
    await expect(note).to_contain_text("Walk-in, a guest: it lives on this device only")
    await no_sideways(at)
    await snap(at, shots, f"arriving-guest-{at.size}", full_page=True)  # type: ignore[attr-defined]
    await note.locator("[data-action=make-account]").click()
    await expect(at.locator("[data-form=upgrade] [data-action=upgrade]")).to_have_text("Make it an account")


# ------------------------------------------------------------------ 15: forms say what to do, plainly

RAW = re.compile(r"Validation failed|Expected `|/api/|\bnull\b|undefined|model's")


async def test_forms_check_first_and_say_what_to_do_in_plain_words(at: Page, api: Api, server: ServerProcess) -> None:
    # The lobby's registration, empty: said beside the form, nothing sent.
    await at.goto("/#/lobby")
    register = at.locator("[data-form=register]")
    await register.locator("button[type=submit]").click()
    await expect(register.locator("[data-field=error]")).to_have_text(re.compile("^Type a display name"))
    # A server's validation error, as the page's own client reports it: plain words, no raw text.
    said = await at.evaluate("import('/js/lib/api.js').then((m) => m.api.register('').catch((e) => e.message))")
    assert said == "The display name is empty: fill it in.", said
    said = await at.evaluate(
        "import('/js/lib/api.js').then((m) => m.api.signUp('Ann', 'ann ok', 'short').catch((e) => e.message))"
    )
    assert not RAW.search(said) and said.startswith("The "), said
    # The account's forms: a handle with a space, a short password, an empty sign-in.
    await at.goto("/#/account")
    up = at.locator("[data-form=sign-up]")
    await up.locator("[data-field=name]").fill("Ann")
    await up.locator("[data-field=handle]").fill("ann smith")
    await up.locator("[data-field=password]").fill("secret")
    await up.locator("[data-action=sign-up]").click()
    error = at.locator(".account-page [data-field=error]")
    await expect(error).to_have_text("A handle has letters, digits, _ and - only (no spaces).")
    await up.locator("[data-field=handle]").fill("ann_smith")
    await up.locator("[data-action=sign-up]").click()
    await expect(error).to_have_text("Choose a password of at least 8 characters.")
    await at.locator("[data-form=sign-in] [data-action=sign-in]").click()
    await expect(error).to_have_text(re.compile("^Type a handle"))
    # Joining with an entry code, left empty, then wrong: said in words, never the server's raw text.
    t = organised(api, f"Coded {secrets.token_hex(2)}", entry_code="letmein")
    _, token = api.register("coder")
    await at.evaluate(
        "(me) => localStorage.setItem('spidertour.player', JSON.stringify(me))",
        {"id": 0, "name": "coder", "token": token},
    )
    await at.goto("about:blank")
    await at.goto(f"/#/join/{t['id']}")
    await at.locator("[data-action=join]").click()
    error = at.locator(".join-page [data-field=error]")
    await expect(error).to_have_text(re.compile("^Type the entry code"))
    await at.locator("[data-form=join] [data-field=entry-code]").fill("wrong")
    await at.locator("[data-action=join]").click()
    await expect(error).not_to_have_text(re.compile("^Type the entry code"))
    assert not RAW.search(await error.inner_text())
    await no_sideways(at)


async def test_errors_replace_each_other_instead_of_piling_up(at: Page, api: Api) -> None:
    names = [f"Coded {secrets.token_hex(2)}" for _ in range(2)]
    ids = [organised(api, name, entry_code="letmein", listed=True)["id"] for name in names]
    _, token = api.register("piler")
    await at.goto("/#/lobby")
    await at.evaluate(
        "(me) => localStorage.setItem('spidertour.player', JSON.stringify(me))",
        {"id": 0, "name": "piler", "token": token},
    )
    await at.reload()
    for tid, name in zip(ids, names, strict=True):
        await at.locator(f"[data-tournament='{tid}'] [data-action=join]").click()
        await expect(at.locator("#notices .notice.error")).to_have_text(re.compile(f"^{name}: Type the entry code"))
    await expect(at.locator("#notices .notice.error")).to_have_count(1)


# ------------------------------------------------------------------ 17: countdowns in days and hours


async def test_countdowns_say_days_and_the_local_day_hours_and_minutes(at: Page, api: Api, shots: Path) -> None:
    now = datetime.now(UTC)
    far = now + timedelta(days=6, minutes=5)
    near = now + timedelta(hours=3, minutes=20, seconds=30)
    made = []
    for name, opens in ((f"Far {secrets.token_hex(2)}", far), (f"Near {secrets.token_hex(2)}", near)):
        made.append(
            organised(
                api,
                name,
                start="together",
                opens_at=opens.isoformat(),
                closes_at=None,
            )
        )
    await at.goto("/#/lobby")
    far_card = at.locator(f"[data-tournament='{made[0]['id']}'] [data-field=start] [data-field=countdown]")
    day = await at.evaluate(
        "(iso) => new Intl.DateTimeFormat(undefined, {weekday: 'short', hour: '2-digit', minute: '2-digit',"
        " hourCycle: 'h23'}).format(new Date(iso)).replace(',', '')",
        far.isoformat(),
    )
    await expect(far_card).to_have_text(f"starts in 6 days, {day}")
    near_card = at.locator(f"[data-tournament='{made[1]['id']}'] [data-field=start] [data-field=countdown]")
    await expect(near_card).to_have_text(re.compile(r"^starts in 3 h (20|19) min$"))
    await far_card.scroll_into_view_if_needed()
    await snap(at, shots, f"arriving-countdown-{at.size}")  # type: ignore[attr-defined]


# ------------------------------------------------------------------ 18: the lobby on a phone


async def test_the_lobby_shows_tournaments_first_on_a_phone_and_no_commitments(at: Page, api: Api, shots: Path) -> None:
    t = organised(api, f"Lobby {secrets.token_hex(2)}")
    await at.goto("/#/lobby")
    card = at.locator(f"[data-tournament='{t['id']}']")
    await expect(card).to_be_visible()
    await expect(at.locator("#main .commitment")).to_have_count(0)
    assert t["commitment"][:8] not in await at.locator("#main").inner_text()
    tops = await at.evaluate(
        """() => [document.querySelector('.lobby-page .tournaments').getBoundingClientRect().top,
                  document.querySelector('[data-form=register]').getBoundingClientRect().top,
                  document.querySelector('.lobby-page .tournaments').getBoundingClientRect().left,
                  document.querySelector('[data-form=register]').getBoundingClientRect().left]"""
    )
    if at.size in TOUCH:  # type: ignore[attr-defined]
        assert tops[0] < tops[1], tops  # the tournaments above the registration
    else:
        assert tops[2] > tops[3], tops  # beside it, on the right
    await no_sideways(at)
    await snap(at, shots, f"arriving-lobby-{at.size}")  # type: ignore[attr-defined]
    # The commitment is on the tournament's page: shortened, whole on a tap.
    await at.goto(f"/#/join/{t['id']}")
    short = at.locator("[data-field=commitment-short]")
    await expect(short).to_have_text(f"{t['commitment'][:8]}\u2026{t['commitment'][-6:]}")
    await short.click()
    await expect(at.locator("[data-field=commitment]")).to_have_text(t["commitment"])
    await no_sideways(at)


# ------------------------------------------------------------------ 19: targets a finger can hit

SMALL_TARGETS = """() => {
  const out = [];
  const targets = 'header.top a, .btn, button, summary, select, label:has(> input[type=radio]),'
    + ' label:has(> input[type=checkbox]), input:not([type=radio]):not([type=checkbox]):not([type=hidden])';
  for (const n of document.querySelectorAll(targets)) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || getComputedStyle(n).visibility === 'hidden') continue;
    if (n.closest('dialog:not([open]), details:not([open]) > :not(summary), .board')) continue;
    if (r.width < 43.5 || r.height < 43.5) {
      const name = (n.dataset.action || n.dataset.field || n.name || n.textContent || n.tagName).trim().slice(0, 24);
      out.push(`${n.tagName.toLowerCase()} "${name}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", TOUCH)
async def test_every_target_is_44_px_on_a_touch_screen(
    browser: Browser, server: ServerProcess, api: Api, size: str, shots: Path
) -> None:
    t = organised(api, f"Fingers {secrets.token_hex(2)}", entry_code="letmein", listed=True)
    player_id, token = api.register("thumbs")
    api.join(organised(api, f"Joined {secrets.token_hex(2)}", listed=True)["id"], token)
    routes = ["#/lobby", "#/account", f"#/join/{t['id']}", "#/settings", f"#/board/{t['id']}", "#/matches"]
    found: dict[str, list[str]] = {}
    for signed_in in (False, True):
        context = await new_context(browser, server, **SIZES[size])
        page = await context.new_page()
        errors = js_errors(page)
        if signed_in:
            me = json.dumps(json.dumps({"id": player_id, "name": "thumbs", "token": token}))
            await context.add_init_script(
                f"if (location.protocol.startsWith('http')) localStorage.setItem('spidertour.player', {me});"
            )
        for route in routes:
            await page.goto("about:blank")
            await page.goto(f"/{route}")
            await page.wait_for_load_state("networkidle")
            await page.wait_for_timeout(150)
            small = await page.evaluate(SMALL_TARGETS)
            if small:
                found[f"{route} {'signed in' if signed_in else 'signed out'}"] = small
            await no_sideways(page)
            name = route.split("/")[1]
            await snap(page, shots, f"arriving-targets-{name}-{'in' if signed_in else 'out'}-{size}", full_page=True)
        await context.close()
        assert errors == []
    assert found == {}, found


# ------------------------------------------------------------------ 20: the header (the titles and the one
# heading of every page: tests/browser/phones/test_every_page.py)


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_long_handle_ends_in_an_ellipsis_and_keeps_the_header_low(
    browser: Browser, server: ServerProcess, api: Api, size: str, shots: Path
) -> None:
    handle = "a_rather_long_handle_x24"
    assert len(handle) == 24
    context = await new_context(browser, server, **SIZES[size])
    me = json.dumps(json.dumps({"id": 1, "name": "Long", "handle": handle, "token": "x"}))
    await context.add_init_script(
        f"if (location.protocol.startsWith('http')) localStorage.setItem('spidertour.player', {me});"
    )
    page = await context.new_page()
    errors = js_errors(page)
    await page.goto("/#/settings")
    who = page.locator("#who")
    await expect(who).to_have_text(f"@{handle}")
    box = await page.locator("header.top").bounding_box()
    assert box is not None and box["height"] < 100, box
    assert await who.evaluate("(n) => getComputedStyle(n).textOverflow") == "ellipsis"
    assert await who.evaluate("(n) => n.getBoundingClientRect().right <= innerWidth")
    await no_sideways(page)
    await snap(page, shots, f"arriving-header-{size}")
    await context.close()
    assert errors == []
