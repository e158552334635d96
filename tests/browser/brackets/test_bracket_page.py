"""A knockout bracket in the browser, on a real server: the organiser creates it on the organiser's
page (and renames it there), a player joins on the bracket's page on a phone and another from the
lobby on a desktop, a third over the API, a fourth is disqualified before the opening. The server
plays the rounds (a short clock, no break): the absent player loses round 1, the players are led to
their games by the bracket's page and end them on the game page; the tree fills without a reload,
and the champion shows. At 360x740, 740x360 and 1280x800 the page never scrolls sideways, has no
control under 44 px on a phone and never says "null", "undefined" or "NaN"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import sign_in
from tests.browser.organise.kit import use_token
from tests.client import Api, bearer
from tests.server.helpers import stamp, unique
from tests.serverproc import ServerProcess

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
TIME_LIMIT = 12  # seconds a game: the absent player's game times out soon

# Anything wider than the screen, controls under 44 px (`phone`), and words a page must never say.
CHECK = """(phone) => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('scrolls sideways');
  for (const n of document.querySelectorAll('#main .btn, #main input, #main select, #main summary')) {
    const r = n.getBoundingClientRect();
    const name = n.dataset.action || n.dataset.field || n.textContent.trim();
    if (r.width && r.height && r.right > window.innerWidth + 1) out.push(`${name} off screen`);
    if (phone && r.width && r.height && r.height < 44 && n.type !== 'checkbox') out.push(`${name} ${r.height}px high`);
  }
  const said = document.querySelector('#main').innerText;
  for (const word of said.match(/\\b(null|undefined|NaN)\\b/g) || []) out.push(`says ${word}`);
  return out;
}"""


async def _check(page: Page, phone: bool) -> None:
    assert await page.evaluate(CHECK, phone) == []


async def _end_game(page: Page) -> None:
    """On the game page: wait for the together start, end the game, see the way back to the bracket."""
    await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
    await expect(page.locator("[data-action=end]")).to_be_enabled(timeout=20000)
    await page.locator("[data-action=end]").click()
    await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
    panel = page.locator(".over-panel")
    await expect(panel.locator("[data-field=bracket-waiting]")).to_be_visible()
    await expect(panel.locator("[data-action=leaderboard], a[href^='#/board/']")).to_have_count(0)
    await panel.locator("[data-action=bracket]").click()
    await expect(page).to_have_url(re.compile(r"#/bracket/\d+$"))


async def _organiser_creates(page: Page, admin_token: str, name: str) -> int:
    await use_token(page, admin_token)
    await page.locator("[data-action=new-bracket]").click()
    form = page.locator("[data-form=bracket]")
    await form.locator("[data-field=bracket-name]").fill(name + " draft")
    await form.locator("[data-field=edit-time_limit]").fill(str(TIME_LIMIT))
    await form.locator("[data-field=break_seconds]").fill("0")
    await form.locator("[data-action=create-bracket]").click()
    created = page.locator(".created [data-bracket]")
    await expect(created).to_be_visible()
    bracket_id = int(await created.get_attribute("data-bracket") or 0)
    # Listed with its actions; renamed before the opening with the edit form.
    row = page.locator(f"[data-bracket-row='{bracket_id}']")
    await expect(row.locator("[data-field=status]")).to_have_text("taking entries")
    await row.locator("[data-action=edit]").click()
    await row.locator("[data-field=edit-name]").fill(name)
    await row.locator("[data-action=save]").click()
    await expect(row.locator("[data-field=name]")).to_have_text(name)
    return bracket_id


async def test_a_bracket_from_its_creation_to_its_champion(
    browser: Browser, server: ServerProcess, api: Api, admin_token: str, shots: Path
) -> None:
    name = unique("Spring cup")
    organiser_context = await new_context(browser, server, **DESKTOP)
    ann_context = await new_context(browser, server, **PHONE)
    bob_context = await new_context(browser, server, **DESKTOP)
    organiser, ann, bob = (
        await organiser_context.new_page(),
        await ann_context.new_page(),
        await bob_context.new_page(),
    )
    errors = [js_errors(p) for p in (organiser, ann, bob)]
    try:
        bracket_id = await _organiser_creates(organiser, admin_token, name)
        ann_me = await sign_in(ann, api, unique("ann"))
        await sign_in(bob, api, unique("bob"))

        # Ann joins on the bracket's page, on a phone: the countdown to the opening, then "You are in".
        await ann.goto(f"/#/bracket/{bracket_id}")
        await expect(ann.locator("[data-field=name]")).to_have_text(name)
        await expect(ann.locator("[data-field=opening] [data-field=countdown]")).to_contain_text(
            "Seeding and round 1 in"
        )
        await _check(ann, phone=True)
        await ann.locator("[data-action=join]").tap()
        await expect(ann.locator("[data-you=joined]")).to_be_visible()

        # Bob finds it in the lobby's brackets.
        await bob.goto("/#/lobby")
        card = bob.locator(f".list-brackets article[data-bracket='{bracket_id}']")
        await expect(card).to_contain_text(name)
        await card.locator("[data-action=bracket]").click()
        await expect(bob.locator("[data-field=name]")).to_have_text(name)  # the bracket's page, not the lobby's Joins
        await bob.locator("[data-action=join]").click()
        await expect(bob.locator("[data-you=joined]")).to_be_visible()

        # A third joins over the API and never plays; a fourth is disqualified before the opening.
        _, cy_token = api.register(unique("cy"))
        dee_id, dee_token = api.register(unique("dee"))
        for token in (cy_token, dee_token):
            r = api.http.post(f"/api/brackets/{bracket_id}/entries", headers=bearer(token))
            assert r.status_code == 201, r.text
        await expect(ann.locator("[data-field=entrants]")).to_have_text("4")
        row = organiser.locator(f"[data-bracket-row='{bracket_id}']")
        await row.locator("[data-action=disqualify]").click()
        # Chosen by name among those who joined (four of them).
        await expect(row.locator("[data-field=dq-player] option")).to_have_count(4)
        await row.locator("[data-field=dq-player]").select_option(str(dee_id))
        await row.locator("[data-field=reason]").fill("asked to be left out")
        await row.locator("[data-action=confirm-disqualify]").click()
        await expect(row.locator("[data-field=entrants]")).to_have_text("3 entries")

        # The opening brought near: seeded (ann 1st, a bye; bob 2nd against cy), round 1 starts.
        r = api.http.patch(f"/api/brackets/{bracket_id}", json={"opens_at": stamp(2)}, headers=api.admin())
        assert r.status_code == 200, r.text
        tree = ann.locator("[data-field=tree]")
        await expect(tree.locator(".bracket-round")).to_have_count(2, timeout=15000)
        await expect(tree.locator("[data-round='1'] .pairing.bye")).to_have_count(1)
        await expect(ann.locator("[data-you=through]")).to_contain_text("A bye in round 1")
        await expect(bob.locator("[data-field=you][data-round='1']")).to_be_visible()
        await expect(bob.locator("[data-field=you] h2")).to_contain_text("Your round 1 game")
        await _check(bob, phone=False)
        await snap(ann, shots, "bracket-round1-phone", full_page=True)

        # Bob plays round 1 over the game page; cy is absent and loses when its clock runs out.
        await bob.locator("[data-field=you] [data-action=play]").click()
        await expect(bob.locator(".hud [data-field=name]")).to_have_text(f"Bracket {name}, round 1")
        await _end_game(bob)

        # The final: each is led to it by the bracket's page (no reload), and ends it.
        for page, tap in ((ann, True), (bob, False)):
            you = page.locator("[data-field=you][data-round='2']")
            await expect(you.locator("h2")).to_contain_text("Your round 2 game", timeout=TIME_LIMIT * 1000 + 30000)
            await _check(page, phone=tap)
            play = you.locator("[data-action=play]")
            await (play.tap() if tap else play.click())
            await expect(page.locator(".hud [data-field=name]")).to_have_text(f"Bracket {name}, round 2")
            await _end_game(page)

        # The champion, the tree filled, the seed checked; the finalist's page says where it went out.
        champion = ann.locator("[data-field=champion]")
        await expect(champion).to_be_visible(timeout=30000)
        await expect(ann.locator("[data-field=status]")).to_have_text("finished")
        await expect(ann.locator(".pairing.champion .side.winner")).to_have_count(1)
        await expect(tree.locator("[data-round='1'] .side.winner")).to_have_count(2)
        await expect(tree.locator("[data-round='2'] .side [data-field=score]").first).to_have_text(re.compile(r"^\d"))
        await expect(ann.locator("[data-check=commitment]")).to_have_attribute("data-ok", "true")
        winner = await champion.locator("[data-field=champion-name]").inner_text()
        mine = "You are the champion!" if winner == ann_me["name"] else "You reached the final"
        await expect(ann.locator("[data-field=you] h2")).to_have_text(mine)
        await expect(bob.locator("[data-field=champion]")).to_be_visible()
        await expect(bob.locator("[data-field=you] h2")).to_have_text(
            re.compile(r"^(You are the champion!|You reached the final)$")
        )
        # A game replayed in the browser.
        await ann.locator("[data-field=replays] [data-action=replay]").first.tap()
        await expect(ann.locator(".replay [data-field=rescore]")).to_have_attribute("data-ok", "true")
        await ann.locator(".replay").evaluate("(n) => n.remove()")

        for page, phone, shot in ((ann, True, "phone"), (bob, False, "desktop")):
            await page.evaluate("window.scrollTo(0, 0)")
            await _check(page, phone)
            await snap(page, shots, f"page-bracket-{shot}")
            await snap(page, shots, f"bracket-finished-{shot}", full_page=True)
        await ann.set_viewport_size({"width": 740, "height": 360})
        await ann.wait_for_timeout(200)
        await _check(ann, phone=True)
        await snap(ann, shots, "page-bracket-sideways")

        # The lobby names the bracket's games as the bracket's, leading to its page.
        await bob.goto("/#/lobby")
        game = bob.locator(f".my-entries li[data-bracket='{bracket_id}']").filter(has_text="round 1")
        await expect(game).to_contain_text(f"Bracket {name}, round 1")
        await game.locator("[data-action=bracket]").click()
        await expect(bob).to_have_url(re.compile(rf"#/bracket/{bracket_id}$"))
    finally:
        for context in (organiser_context, ann_context, bob_context):
            await context.close()
    assert errors == [[], [], []]
