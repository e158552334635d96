"""The Play page on a phone, two players: one tap from the lobby, one to be seated as a guest and
play (the game starts at once), a clear "waiting for an opponent", and the result (ranks, rating
change, the opponent's game to replay) shown to the host as soon as the second player's game is
over, without a reload."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.client import seat_waiting
from tests.serverproc import ServerProcess

PHONE: dict[str, Any] = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
FORMAT = "spider78-1suit-5min"

# Controls under 44 px, anything wider than the screen, and words a page must never say.
CHECK = """() => {
  const out = [];
  if (document.documentElement.scrollWidth > window.innerWidth) out.push('scrolls sideways');
  for (const n of document.querySelectorAll('#main .btn')) {
    const r = n.getBoundingClientRect();
    const name = n.dataset.action || n.textContent.trim();
    if (r.width && r.height && r.height < 44) out.push(`${name} ${r.height}px high`);
  }
  const said = document.querySelector('#main').innerText;
  for (const word of said.match(/\\b(null|undefined|NaN)\\b/g) || []) out.push(`says ${word}`);
  return out;
}"""


async def _check(page: Page) -> None:
    assert await page.evaluate(CHECK) == []


async def _play_and_end(page: Page) -> None:
    """The seat's game, started by the tap on Play itself (no "Start the game" to press), then
    ended (after the confirmation)."""
    await expect(page).to_have_url(re.compile(r"#/play/\d+$"))
    await expect(page.locator("[data-action=end]")).to_be_enabled()
    await expect(page.locator(".start-panel")).to_be_hidden()
    await expect(page.locator("[data-action=start]")).to_have_count(0)
    await expect(page.locator(".board .card").first).to_be_visible()
    await page.locator("[data-action=end]").tap()
    await page.locator("dialog.confirm-dialog [data-action=confirm]").tap()
    await expect(page.locator(".over-panel")).to_be_visible()


async def test_two_guests_play_a_match_and_the_host_learns_the_result(
    browser: Browser, server: ServerProcess, shots: Path
) -> None:
    seat_waiting(server.url, FORMAT)  # a match another test left waiting would seat the host in it
    host_context = await new_context(browser, server, **PHONE)
    guest_context = await new_context(browser, server, **PHONE)
    host, guest = await host_context.new_page(), await guest_context.new_page()
    host_errors, guest_errors = js_errors(host), js_errors(guest)
    try:
        # One tap from the first page to the formats; one more to be seated, as a guest.
        await host.goto("/#/lobby")
        await host.locator(".lobby-side [data-action=play-now]").tap()
        await expect(host).to_have_url(re.compile(r"#/matches$"))
        card = host.locator(f"article[data-format='{FORMAT}']")
        await expect(card.locator("[data-field=waiting]")).to_have_attribute("data-count", "0")
        await _check(host)
        await host.locator("[data-field=guest-name]").fill("Ann")
        await card.locator("[data-action=ask]").tap()
        await expect(host.locator(".hud [data-field=name]")).to_have_text(re.compile(r"^Match \d+$"))
        match_name = await host.locator(".hud [data-field=name]").inner_text()
        await _play_and_end(host)

        # After the game: a clear wait, and the way to another match meanwhile.
        panel = host.locator(".over-panel")
        await expect(panel.locator("[data-field=match-waiting]")).to_be_visible()
        await expect(panel.locator("[data-action=play-another]")).to_be_visible()
        assert "null" not in (await panel.inner_text()).split()
        await panel.locator("[data-action=match]").tap()
        await expect(host).to_have_url(re.compile(r"#/match/\d+$"))
        waiting = host.locator("[data-field=waiting]")
        await expect(waiting.locator("h2")).to_have_text("Waiting for an opponent: your game is in.")
        await expect(host.locator("[data-field=status]")).to_have_text("waiting for players")
        await expect(waiting.locator("[data-action=play-another]")).to_be_visible()
        await _check(host)
        await snap(host, shots, "match-waiting-phone", full_page=True)
        await host.evaluate("window.stillTheSamePage = true")

        # The second player sees the waiting match counted, and is seated in it.
        await guest.goto("/#/matches")
        guest_card = guest.locator(f"article[data-format='{FORMAT}']")
        await expect(guest_card.locator("[data-field=waiting]")).to_have_attribute("data-count", "1")
        await guest.locator("[data-field=guest-name]").fill("Bob")
        await guest_card.locator("[data-action=ask]").tap()
        await expect(guest.locator(".hud [data-field=name]")).to_have_text(match_name)
        await _play_and_end(guest)

        # The host's page shows the result by itself: ranks, scores, the rating change.
        result = host.locator("[data-field=result]")
        await expect(result).to_be_visible(timeout=15000)
        assert await host.evaluate("window.stillTheSamePage === true")
        await expect(host.locator("[data-field=status]")).to_have_text("over")
        await expect(result.locator("li[data-seat]")).to_have_count(2)
        await expect(result.locator("li [data-field=rank]").first).to_have_text(re.compile(r"^1=?$"))
        await expect(result.locator("li.mine [data-field=rating-change]")).to_be_visible()
        headline = re.compile(r"You won!|A draw|You are 2 of 2")
        await expect(result.locator("[data-field=headline]")).to_have_text(headline)
        await expect(host.locator("[data-check=commitment]")).to_have_attribute("data-ok", "true")
        # The opponent's game, replayed and re-scored in the browser.
        await result.locator("li:not(.mine) [data-action=replay]").tap()
        await expect(host.locator(".replay [data-field=rescore]")).to_have_attribute("data-ok", "true")
        await _check(host)
        await snap(host, shots, "match-result-phone", full_page=True)

        # Both find the match in their list, over.
        await guest.goto("/#/matches")
        mine = guest.locator(".match-list li").first
        await expect(mine).to_have_class(re.compile(r"st-over"))
        await expect(mine.locator("[data-action=match]")).to_have_text("Result")
        drawn = await result.locator("li[data-seat] [data-field=rank]").all_inner_texts() == ["1=", "1="]
        await expect(mine.locator("[data-field=rank]")).to_have_text("draw" if drawn else re.compile(r"^(won|2 of 2)$"))
        await _check(guest)

        # The lobby and the player's page show the seat as the match it is, never as a tournament.
        await guest.goto("/#/lobby")
        seat = guest.locator(".my-entries li[data-match]")
        await expect(seat).to_contain_text("Match: Spider 78 \u00b7 1 suit")
        await expect(guest.locator(".my-entries")).not_to_contain_text("Tournament")
        await seat.locator("[data-action=match]").tap()
        await expect(guest).to_have_url(re.compile(r"#/match/\d+$"))
        await guest.goto("/#/me")
        row = guest.locator("[data-field=results] tr[data-entry]")
        await expect(row.locator("[data-action=match]")).to_be_visible()
        await expect(row.locator("[data-action=board]")).to_have_count(0)
    finally:
        await host_context.close()
        await guest_context.close()
    assert host_errors == [] and guest_errors == []
