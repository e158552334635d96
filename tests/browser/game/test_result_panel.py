"""The result panel at a game's end, on a phone upright and sideways (by touch) and on a desktop: read
from its top at every size (its heading in view, or brought into view by scrolling the panel to its
top), and never a `null`, `undefined` or `NaN` in it, whatever the game (one deal, several deals,
practice, a match's seat), and nothing that axe-core finds wrong on the page, in play or with its result
open."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from playwright.async_api import Browser, expect

from spidertour.engine import Game, MoveCards, Settings
from tests.browser.conftest import snap
from tests.browser.helpers import BAD_WORDS, SCREENS, Screen, open_screen, sign_in
from tests.browser.phones.axe import violations
from tests.client import Api, Player
from tests.server.competitions.practice_kit import finished_pair
from tests.serverproc import ServerProcess

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}
PRACTICE_SEED = "result-practice"

# The panel's heading: where it is, and where it would be once the panel is scrolled to its top.
HEADING = """() => {
  const panel = document.querySelector('.over-panel');
  const h = panel.querySelector('h2');
  const shown = h.getBoundingClientRect();
  const scrolledBy = panel.scrollTop;
  const panelBox = panel.getBoundingClientRect();
  const top = shown.top + scrolledBy;  // scrolled back to its top, the heading comes down by as much
  const hit = document.elementFromPoint(shown.left + shown.width / 2, Math.max(0, shown.top) + 2);
  const by = hit ? hit.className + " " + hit.tagName : "nothing";
  return {by, top, bottom: top + shown.height, panelTop: panelBox.top, panelBottom: panelBox.bottom,
          height: window.innerHeight, text: h.textContent, covered: !(hit && panel.contains(hit))};
}"""


@pytest_asyncio.fixture(params=list(SCREENS))
async def screen(request: pytest.FixtureRequest, browser: Browser, server: ServerProcess) -> AsyncIterator[Screen]:
    async with open_screen(browser, server, request.param) as opened:
        yield opened


@pytest.fixture(scope="module")
def finished(api: Api, server: ServerProcess) -> int:
    """A finished tournament (one suit, its par worked out) whose deal can be practised."""
    return finished_pair(api, server.ws_url, "Result cup", PRACTICE_SEED)


async def end(screen: Screen) -> None:
    await expect(screen.page.locator("[data-action=end]")).to_be_enabled()
    await screen.press("[data-action=end]")
    await screen.press("dialog.confirm-dialog [data-action=confirm]")
    await expect(screen.page.locator(".over-panel")).to_be_visible()


async def check_result(screen: Screen, shots: Path, name: str) -> None:
    """The panel read from its top, no bad word in it, and a picture of it."""
    page = screen.page
    panel = page.locator(".over-panel")
    await expect(panel.locator("[data-part=final_score]")).to_have_text(re.compile(r"^\d+$"))
    await page.wait_for_timeout(300)  # the place and the final view come in just after
    where = await page.evaluate(HEADING)
    assert where["top"] >= 0 and where["bottom"] <= where["height"], f"the heading is out of reach: {where}"
    assert where["panelTop"] >= 0, f"the panel's top is above the window: {where}"
    await panel.evaluate("p => { p.scrollTop = 0; }")
    where = await page.evaluate(HEADING)
    assert not where["covered"], f"something covers the heading: {where}"
    await expect(panel.locator("h2")).to_be_in_viewport()
    said = await panel.inner_text()
    assert not re.search(BAD_WORDS, said), said
    assert await violations(page) == []  # axe-core: nothing wrong with the page and its result
    await snap(page, shots, f"result-{name}-{screen.name}")


async def test_a_one_deal_game(screen: Screen, api: Api, shots: Path) -> None:
    tour = api.create_tournament(name="One deal", seed="result-one", **SETTINGS)
    me = await sign_in(screen.page, api, "ann")
    entry = api.join(tour["id"], me["token"])
    await screen.page.goto(f"/#/play/{entry['id']}")
    await screen.press("[data-action=start]")
    await end(screen)
    await expect(screen.page.locator(".over-panel [data-field=rank]")).to_contain_text("Your place: 1 of 1")
    # Before the finish: when the analysis opens, and where (the game's own replay).
    line = screen.page.locator(".over-panel [data-field=analysis-link]")
    await expect(line).to_have_text(
        "The analysis (where the win was lost) opens when the tournament finishes: your replay."
    )
    await expect(line.locator("a")).to_have_attribute("href", f"#/finished/{tour['id']}/{entry['id']}")
    await check_result(screen, shots, "one")
    await screen.press(".over-panel [data-field=analysis-link] a")
    await expect(screen.page.locator("[data-field=replay-not-yet]")).to_have_text(
        "This game's replay and the analysis (where the win was lost) open here when the tournament finishes."
    )


async def test_a_game_of_several_deals(screen: Screen, api: Api, shots: Path) -> None:
    tour = api.create_tournament(name="Two deals", seed="result-deals", deals=2, **SETTINGS)
    me = await sign_in(screen.page, api, "bea")
    entry = api.join(tour["id"], me["token"])
    await screen.page.goto(f"/#/play/{entry['id']}")
    await screen.press("[data-action=start]")
    await end(screen)
    await expect(screen.page.locator(".over-panel [data-field=deals-total]")).to_contain_text("Deal 1 of 2")
    await check_result(screen, shots, "deals")


async def test_a_practice_game(screen: Screen, api: Api, finished: int, shots: Path) -> None:
    await sign_in(screen.page, api, "cleo")
    await screen.page.goto(f"/#/finished/{finished}")
    await screen.press(".finished-page [data-action=practise]")
    await expect(screen.page).to_have_url(re.compile(r"#/play/\d+$"))
    await screen.press("[data-action=start]")
    await end(screen)
    await expect(screen.page.locator(".over-panel [data-field=would-rank]")).to_have_text(
        "This would have ranked 3rd of 3."
    )
    # Ended at once, on a deal the solver wins: the analysis in the panel says the win was given up.
    analysis = screen.page.locator(".over-panel [data-field=analysis]")
    await expect(analysis).to_have_attribute("data-status", "ready", timeout=30_000)
    await expect(analysis.locator("[data-field=still-winnable]")).to_have_text(
        "You stopped while the game was still winnable."
    )
    await check_result(screen, shots, "practice")


async def test_practice_is_said_unranked_keeps_its_would_be_rank_and_is_on_my_page(
    screen: Screen, api: Api, finished: int, shots: Path
) -> None:
    page = screen.page
    await sign_in(page, api, "dora")
    await page.goto(f"/#/finished/{finished}")
    await screen.press(".finished-page [data-action=practise]")
    await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
    entry = int(page.url.rsplit("/", 1)[1])
    start = page.locator(".start-panel")
    await expect(start.locator("h2")).to_have_text("Practice: unranked")
    await expect(start.locator("[data-field=practice-unranked]")).to_contain_text("counts on no leaderboard")
    await screen.press("[data-action=start]")
    await end(screen)
    panel = page.locator(".over-panel")
    rank = panel.locator("[data-field=would-rank]")
    await expect(rank).to_have_text("This would have ranked 3rd of 3.")
    # The score in the head is the final score, as the badge and the panel say it, and named so.
    final = await panel.locator("[data-part=final_score]").inner_text()
    await expect(page.locator(".stat-score .label")).to_have_text("Final")
    await expect(page.locator("[data-stat=score]")).to_have_text(final)
    await expect(page.locator("[data-field=over]")).to_have_text(re.compile(rf"\u00b7 {final}$"))

    # Reopened: the panel still says where it would have ranked, and the par.
    await page.reload()
    await expect(panel).to_be_visible()
    await expect(rank).to_have_text("This would have ranked 3rd of 3.")
    await expect(panel.locator("[data-field=practice-par]")).to_contain_text("Par: ")
    await check_result(screen, shots, "practice-reopened")

    # My page lists it, with its score and the way back to it.
    await page.goto("/#/me")
    row = page.locator(f"[data-field=practice] tr[data-practice='{entry}']")
    await expect(row).to_contain_text("Result cup")
    await expect(row.locator("[data-field=score]")).to_have_text(final)
    await expect(row.locator("[data-field=outcome]")).to_have_text("ended")
    assert not re.search(BAD_WORDS, await page.locator("#main").inner_text())
    assert await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert await violations(page) == []  # axe-core: its practice table's headers each named
    await snap(page, shots, f"me-practice-{screen.name}", full_page=True)
    await screen.press(f"tr[data-practice='{entry}'] [data-action=practice-game]")
    await expect(rank).to_have_text("This would have ranked 3rd of 3.")


async def test_the_free_column_bonus_is_said_lost_once_used(
    screen: Screen, api: Api, server: ServerProcess, shots: Path
) -> None:
    settings = {**SETTINGS, "free_column": True}
    hint = screen.page.locator(".over-panel [data-part=free_column_bonus]")
    said = screen.page.locator(".over-panel tr:has([data-part=free_column_bonus]) td.muted")
    me = await sign_in(screen.page, api, "finn")
    for used in (False, True):
        tour = api.create_tournament(name="Free cup", seed="result-free", **settings)
        entry = api.join(tour["id"], me["token"])
        if used:  # a card into the free column, over the play socket, before the page opens the game
            player, _ = await Player.connect(server.ws_url, entry["id"], me["token"])
            await player.start()
            game = Game(Settings(**settings), "result-free")
            free = game.free_column
            assert free is not None
            src = next(c for c in range(len(game.columns)) if c != free and game.columns[c])
            moved = await player.play(MoveCards(src, 1, free).to_json())
            assert moved["type"] == "result" and moved["view"]["free_column_used"] is True, moved
            await player.close()
        await screen.page.goto(f"/#/play/{entry['id']}")
        if not used:
            await screen.press("[data-action=start]")
        await end(screen)
        await expect(hint).to_have_text("0")
        await expect(said).to_have_text(
            "lost: the free column was used" if used else "+100 only for a win without the free column"
        )
    await check_result(screen, shots, "free-used")


# Every labelled element a role that may carry its label; nothing to press inside an element with a role
# whose children are presentational (an image) or that is itself pressed (a button, a link).
ARIA = """() => {
  const out = [];
  const generic = 'div, span, p, b, i, em, strong, small, code';  // no role of their own that a label may name
  for (const n of document.querySelectorAll('#main [aria-label]')) {
    const role = n.getAttribute('role');
    if (n.matches(generic) && (!role || role === 'generic' || role === 'presentation' || role === 'none')) {
      out.push(`aria-label on a ${n.tagName.toLowerCase()}.${n.className} with no role`);
    }
  }
  const pressed = '#main [role=img], #main [role=button], #main [role=link], #main button, #main a';
  for (const n of document.querySelectorAll(pressed)) {
    if (n.querySelector('a[href], button, input, select, textarea, [tabindex]')) {
      out.push(`something to press inside ${n.tagName.toLowerCase()}.${n.className} (${n.getAttribute('role')})`);
    }
  }
  return out;
}"""
FOCUS = "() => { const a = document.activeElement; return a ? (a.dataset.action || a.id || a.tagName) : null; }"


async def test_the_result_is_a_dialog_the_keyboard_stays_in(screen: Screen, api: Api, shots: Path) -> None:
    page = screen.page
    tour = api.create_tournament(name="Keys cup", seed="result-keys", **SETTINGS)
    me = await sign_in(page, api, "kit")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await expect(page.locator(".start-panel")).to_be_visible()
    assert await violations(page) == []  # axe-core, on the game before its start
    await screen.press("[data-action=start]")
    await expect(page.locator(".game-page .board .card").first).to_be_visible()
    assert await page.evaluate(ARIA) == []
    assert await violations(page) == []  # axe-core, on the game in play
    await page.keyboard.press("e")  # the End key, then the confirmation by the keyboard too
    await expect(page.locator("dialog.confirm-dialog")).to_be_visible()
    assert await violations(page) == []  # its question
    await page.locator("dialog.confirm-dialog [data-action=confirm]").focus()
    await page.keyboard.press("Enter")
    panel = page.get_by_role("dialog", name="Game ended")
    await expect(panel).to_be_visible()
    assert await panel.get_attribute("aria-modal") == "true"
    await expect(panel.locator("[data-part=final_score]")).to_have_text(re.compile(r"^\d+$"))
    await page.wait_for_timeout(300)  # the final view redraws the panel: the focus stays in it
    assert await page.evaluate(FOCUS) == "over-title"
    assert await panel.evaluate("p => p.contains(document.activeElement)")
    # Tab goes round the panel's buttons and links, both ways, never out of it.
    seen: list[str] = []
    for _ in range(8):
        await page.keyboard.press("Tab")
        assert await panel.evaluate("p => p.contains(document.activeElement)"), seen
        seen.append(await page.evaluate(FOCUS))
    assert {"close-result", "see-table"} <= set(seen), seen
    for _ in range(8):
        await page.keyboard.press("Shift+Tab")
        assert await panel.evaluate("p => p.contains(document.activeElement)")
    assert await page.evaluate(ARIA) == []
    assert await violations(page) == []  # and on its result, open
    await snap(page, shots, f"result-dialog-{screen.name}")
    # Escape leaves it, to the head's Result button; that opens it again, and its Close button leaves it.
    await page.keyboard.press("Escape")
    await expect(panel).to_be_hidden()
    assert await page.evaluate(FOCUS) == "result"
    await page.keyboard.press("Enter")
    await expect(panel).to_be_visible()
    assert await page.evaluate(FOCUS) == "over-title"
    await screen.press(".over-panel [data-action=close-result]")
    await expect(panel).to_be_hidden()


async def test_a_match_seat(screen: Screen, shots: Path) -> None:
    page = screen.page
    await page.goto("/#/matches")
    await page.locator("[data-field=guest-name]").fill("Dan")
    await screen.press("article[data-format='spider78-1suit-5min'] [data-action=ask]")
    await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
    await end(screen)
    await expect(page.locator(".over-panel [data-field=match-waiting]")).to_be_visible()
    await check_result(screen, shots, "match")
