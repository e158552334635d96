"""Rating progress in the browser, at 360x740 and 740x360 (touch) and 1280x800: the rating after
each game with its change ("rating 1,040 (+40)") on the game's result, My page and the match page;
the profile's small graph per game with its words; "provisional" wherever a rating shows; and never
the model's statistics' names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.communities.test_accounts import no_sideways_scroll
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import sign_in
from tests.client import Api, seat_waiting
from tests.server.competitions.rating_kit import Plan, create, finish, finished, play
from tests.server.helpers import unique
from tests.server.matches.kit import ask, wait_for
from tests.server.matches.kit import play as play_seat
from tests.serverproc import ServerProcess

SIZES = [
    pytest.param({"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}, id="phone"),
    pytest.param({"viewport": {"width": 740, "height": 360}, "has_touch": True, "is_mobile": True}, id="sideways"),
    pytest.param({"viewport": {"width": 1280, "height": 800}}, id="desktop"),
]
GAME = "spider78/2"
FORMAT = "spider78-2suits-5min"

# Words of the model's statistics anywhere a person reads: the text, titles, labels, alt texts.
STATISTICS = """() => {
  const said = [document.querySelector('#main').innerText, document.title];
  for (const n of document.querySelectorAll('[title], [aria-label], [alt]')) {
    said.push(n.getAttribute('title') || '', n.getAttribute('aria-label') || '', n.getAttribute('alt') || '');
  }
  return said.join(' ').match(/\\b(mu|sigma|ordinal|openskill|null|undefined|NaN)\\b/gi) || [];
}"""


def history(api: Api, player_id: int) -> list[dict[str, Any]]:
    r = api.http.get(f"/api/players/{player_id}/ratings/history")
    assert r.status_code == 200, r.text
    return r.json()["history"][GAME]  # type: ignore[no-any-return]


def said(point: dict[str, Any]) -> str:
    """ "1,040 (+40)" as the pages say a point's rating after and its change."""
    change = point["change"]
    sign = "+" if change > 0 else "\u2212" if change < 0 else "\u00b1"
    return f"{point['after']:,} ({sign}{abs(change):,})"


async def plain_words(page: Page) -> None:
    assert await page.evaluate(STATISTICS) == []
    await no_sideways_scroll(page)


@pytest.mark.parametrize("size", SIZES)
async def test_the_change_after_each_game_and_the_profile_graph(
    browser: Browser, server: ServerProcess, api: Api, size: dict[str, Any], shots: Path
) -> None:
    context = await new_context(browser, server, **size)
    try:
        page = await context.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, unique("Climber"))
        _, rival = api.register(unique("Rival"))
        first = await finished(api, server.ws_url, [Plan(me["token"], reveal=True), Plan(rival)])
        seed = unique("seed")
        second = create(api, seed)
        entry = await play(api, server.ws_url, second["id"], seed, Plan(rival, reveal=True))
        mine = await play(api, server.ws_url, second["id"], seed, Plan(me["token"]))
        assert entry != mine
        finish(api, second["id"])
        one, two = history(api, me["id"])
        assert one["change"] > 0 > two["change"] and two["provisional"]

        # The game's result, reopened once the tournament is over: the rating it left, and its change.
        await page.goto(f"/#/play/{mine}")
        over = page.locator(".over-panel [data-field=over-rating]")
        await expect(over).to_have_text(f"Your rating {said(two)} provisional")
        await expect(over.locator(".rating-change.down")).to_be_visible()
        await plain_words(page)

        # My page: each rated game's result with the rating after it and the change.
        await page.goto("/#/me")
        row = page.locator(f"[data-field=results] tr[data-tournament='{first['id']}'] [data-field=rating-line]")
        await expect(row).to_have_text(f"rating {said(one)} provisional")
        again = page.locator(f"[data-field=results] tr[data-tournament='{second['id']}'] [data-field=rating-line]")
        await expect(again).to_have_text(f"rating {said(two)} provisional")
        await plain_words(page)

        # The profile: the rating as one number, marked provisional; the graph and its words; the changes.
        await page.goto(f"/#/player/{me['id']}")
        rating = page.locator(f".profile-page [data-field=ratings] [data-game='{GAME}'] [data-field=rating]")
        await expect(rating).to_have_text(f"{two['after']:,} provisional")
        graph = page.locator(f".profile-page [data-field=rating-graph][data-game='{GAME}']")
        words = f"From 1,000 to {two['after']:,} over 2 games"
        await expect(graph.locator("[data-field=graph-words]")).to_have_text(words)
        await expect(graph.locator("svg[role=img]")).to_have_attribute("aria-label", re.compile(re.escape(words)))
        await expect(graph.locator("svg circle")).to_have_count(2)
        await expect(graph.locator("svg circle.up")).to_have_count(1)
        box = await graph.locator("svg").bounding_box()
        width = size["viewport"]["width"]
        assert box is not None and 120 <= box["width"] <= width and box["height"] >= 40, box
        latest = page.locator(
            f".profile-page [data-field=recent] [data-tournament='{second['id']}'] [data-field=rating]"
        )
        await expect(latest).to_have_text(said(two))
        await plain_words(page)
        await snap(page, shots, f"rating-progress-{size['viewport']['width']}", full_page=True)
        assert errors == []
    finally:
        await context.close()


@pytest.mark.parametrize("size", SIZES)
async def test_the_match_page_says_the_change_and_provisional(
    browser: Browser, server: ServerProcess, api: Api, size: dict[str, Any]
) -> None:
    context = await new_context(browser, server, **size)
    try:
        page = await context.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, unique("Matcher"))
        _, other = api.register(unique("Other"))
        seat_waiting(server.url, FORMAT)  # a match another test left waiting would seat the host in it
        host = ask(api, me["token"], FORMAT)
        mid = host["match"]["id"]
        await play_seat(server.ws_url, host["entry"]["id"], me["token"], reveal=True)
        guest = ask(api, other, FORMAT)
        assert guest["match"]["id"] == mid
        await play_seat(server.ws_url, guest["entry"]["id"], other)
        seat = next(p for p in wait_for(api, mid, "over")["players"] if p["player_id"] == me["id"])
        assert seat["shown_after"] > seat["shown"] and seat["provisional"]
        (point,) = [p for p in history(api, me["id"]) if p.get("match_id") == mid]

        await page.goto(f"/#/match/{mid}")
        await expect(page.locator("[data-field=my-rating]")).to_have_text(f"Your rating: {said(point)} provisional")
        mine = page.locator(".match-ranks li.mine [data-field=rating]")
        await expect(mine).to_have_text(f"rating {said(point)} provisional")
        await expect(mine.locator(".rating-change.up")).to_be_visible()
        await plain_words(page)
        assert errors == []
    finally:
        await context.close()


async def test_the_result_left_open_says_the_rating_once_the_tournament_finishes(
    browser: Browser, server: ServerProcess, api: Api
) -> None:
    context = await new_context(browser, server, viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True)
    try:
        page = await context.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, unique("Waiter"))
        _, rival = api.register(unique("Rival"))
        seed = unique("seed")
        tour = create(api, seed)
        await play(api, server.ws_url, tour["id"], seed, Plan(rival))
        mine = await play(api, server.ws_url, tour["id"], seed, Plan(me["token"], reveal=True))
        await page.goto(f"/#/play/{mine}")
        place = page.locator(".over-panel [data-field=rank]")
        await expect(place).to_contain_text("so far")  # still on: no rating yet
        over = page.locator(".over-panel [data-field=over-rating]")
        await expect(over).to_have_count(0)
        finish(api, tour["id"])
        (point,) = history(api, me["id"])
        await expect(over).to_have_text(f"Your rating {said(point)} provisional", timeout=25_000)
        await expect(place).not_to_contain_text("so far")
        assert errors == []
    finally:
        await context.close()
