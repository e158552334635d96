"""What a watcher reads on the boards, at a phone's size both ways (touch) and on a desktop: when the
live board closes (or opens), every name a link to the player's profile where anyone may read it, a
row that moved marked clearly for a few seconds (still, without motion), a podium that keeps its
cards aligned whatever the names, and standings that never scroll inside themselves."""

from __future__ import annotations

import re
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.competitions.test_series import finish, organiser
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.standings.test_boards import SETTINGS, SIZES, sized
from tests.client import Api, Player, bearer
from tests.server.watch.test_leaderboard import play_some
from tests.serverproc import ServerProcess

SEED = "board-marks"

# Any element of the page that scrolls up and down inside itself (the page alone should).
INNER_SCROLL = """() => [...document.querySelectorAll('main *')].filter((n) => {
  const s = getComputedStyle(n);
  return ['auto', 'scroll'].includes(s.overflowY) && n.scrollHeight > n.clientHeight + 1;
}).map((n) => `${n.tagName}.${n.className} ${n.scrollHeight}>${n.clientHeight}`)"""


def private(api: Api, token: str) -> None:
    answer = api.http.patch("/api/me/profile", json={"public": False}, headers=bearer(token))
    assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_board_says_when_it_closes_or_opens_and_links_public_names(
    browser: Browser, server: ServerProcess, api: Api, shots: Any, size: str
) -> None:
    tag = secrets.token_hex(2)
    running = api.create_tournament(name=f"Linked {tag}", closes_in=42 * 60 + 20, **SETTINGS)
    shown, shown_token = api.register(f"shown-{tag}")
    _, kept_token = api.register(f"kept-{tag}")
    private(api, kept_token)
    api.join(running["id"], shown_token)
    kept = api.join(running["id"], kept_token)
    coming = api.create_tournament(name=f"Later {tag}", opens_in=3 * 3600 + 600, closes_in=5 * 3600, **SETTINGS)
    async with sized(browser, server, size) as page:
        await page.goto(f"/#/board/{running['id']}")
        closes = page.locator(".board-page .meta [data-field=closes]")
        await expect(closes).to_have_text(re.compile(r"^closes in (41|42) min, \d\d:\d\d$"))
        await expect(page.locator(".live-board tbody tr")).to_have_count(2)
        link = page.locator(".live-board [data-field=player] a")
        await expect(link).to_have_count(1)
        await expect(link).to_have_attribute("href", f"#/player/{shown}")
        await expect(page.locator(f".live-board tr[data-entry='{kept['id']}'] [data-field=player]")).to_contain_text(
            f"kept-{tag}"
        )
        await snap(page, shots, f"board-closes-{size}")
        await link.click()
        await page.wait_for_url(f"**/#/player/{shown}")
        await expect(page.locator(".profile-page [data-field=name]")).to_have_text(f"shown-{tag}")

        await page.goto(f"/#/board/{coming['id']}")
        opens = page.locator(".board-page .meta [data-field=opens]")
        await expect(opens).to_have_text(re.compile(r"^opens in 3 h (9|10) min, \d\d:\d\d$"))
        await expect(page.locator(".board-page .meta [data-field=closes]")).to_have_count(0)


async def overtake(api: Api, server: ServerProcess, tag: str) -> tuple[dict[str, Any], list[Player], Any]:
    """Two players playing; the second will overtake the first when ``go`` is awaited."""
    tour = api.create_tournament(name=f"Moves {tag}", seed=SEED, **SETTINGS)
    players = []
    for i in range(2):
        _, token = api.register(f"mover-{tag}-{i}")
        entry = api.join(tour["id"], token)
        player, _ = await Player.connect(server.ws_url, entry["id"], token)
        await player.start()
        players.append(player)
    await play_some(players[0], Game(Settings(**SETTINGS), SEED), 1)

    async def go() -> None:
        await play_some(players[1], Game(Settings(**SETTINGS), SEED), 4)

    return tour, players, go


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_row_that_moved_is_marked_for_a_few_seconds(
    browser: Browser, server: ServerProcess, api: Api, shots: Any, size: str
) -> None:
    tour, players, go = await overtake(api, server, secrets.token_hex(2))
    async with sized(browser, server, size) as page:
        await page.goto(f"/#/board/{tour['id']}")
        rows = page.locator(".live-board tbody tr")
        await expect(rows).to_have_count(2)
        await expect(page.locator("[data-field=live]")).to_have_text(re.compile("live"))
        first = await rows.nth(0).get_attribute("data-entry")
        await go()
        up = page.locator(".live-board tr.marked [data-field=moved].up")
        await expect(up).to_have_text("\u25b21")
        await expect(up).to_have_attribute("aria-label", "up 1 place")
        await expect(page.locator(f".live-board tr[data-entry='{first}'] [data-field=moved]")).to_have_text("\u25bc1")
        await expect(rows.nth(0)).not_to_have_attribute("data-entry", first or "")
        await snap(page, shots, f"board-moved-{size}")
        # It stays a few seconds, then goes (the row no longer marked).
        await expect(page.locator(".live-board [data-field=moved]")).to_have_count(0, timeout=12000)
        await expect(page.locator(".live-board tr.marked")).to_have_count(0)
    for player in players:
        await player.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_without_motion_a_moved_row_is_marked_still(
    browser: Browser, server: ServerProcess, api: Api, size: str
) -> None:
    tour, players, go = await overtake(api, server, secrets.token_hex(2))
    viewport, touch = SIZES[size]
    context = await new_context(
        browser, server, viewport=viewport, has_touch=touch, is_mobile=touch, reduced_motion="reduce"
    )
    page = await context.new_page()
    errors = js_errors(page)
    await page.goto(f"/#/board/{tour['id']}")
    await expect(page.locator(".live-board tbody tr")).to_have_count(2)
    await expect(page.locator("[data-field=live]")).to_have_text(re.compile("live"))
    await go()
    marked = page.locator(".live-board tr.marked").filter(has=page.locator("[data-field=moved].up"))
    await expect(marked).to_have_count(1)
    looks = await marked.evaluate(
        """(row) => [row, ...row.cells].map((n) => getComputedStyle(n))
             .map((s) => ({ animation: s.animationName, background: s.backgroundColor }))"""
    )
    assert all(x["animation"] == "none" for x in looks), looks
    assert any(x["background"] == "rgb(220, 243, 222)" for x in looks), looks  # the still wash
    await context.close()
    for player in players:
        await player.close()
    assert errors == []


async def tables_scroll_with_the_page(page: Page) -> None:
    assert await page.evaluate(INNER_SCROLL) == []
    assert await page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_podium_and_standings_keep_aligned_and_scroll_with_the_page(
    browser: Browser, server: ServerProcess, api: Api, shots: Any, size: str
) -> None:
    tag = secrets.token_hex(2)
    token = organiser(api)
    series = api.http.post("/api/series", json={"name": f"Podium {tag}"}, headers=bearer(token)).json()
    body = {"name": f"Podium {tag}", "seed": "podium", "settings": SETTINGS, "series": series["id"]}
    done = api.http.post("/api/tournaments", json=body, headers=bearer(token)).json()
    # Three play (the winner's profile private: its name is no link anywhere), twenty never start.
    long = f"Bartholomew Featherstone {tag}"  # 29 characters
    names = [f"kept-{tag}", long, f"cy-{tag}", *(f"Cholmondeley Marjoribanks {tag} {i:02d}" for i in range(20))]
    ids = []
    for i, name in enumerate(names):
        pid, player_token = api.register(name)
        ids.append(pid)
        entry = api.join(done["id"], player_token)
        if i == 0:
            private(api, player_token)
        if i < 3:
            player, _ = await Player.connect(server.ws_url, entry["id"], player_token)
            await player.start()
            await play_some(player, Game(Settings(**SETTINGS), "podium"), 3 - i)
            await player.play({"type": "end"})
            await player.close()
    finish(api, token, done["id"], [])
    soon = datetime.now(UTC) + timedelta(days=2)
    later = {**body, "name": f"Podium next {tag}", "opens_at": soon.isoformat()}
    made = api.http.post("/api/tournaments", json=later, headers=bearer(token))
    assert made.status_code == 201, made.text
    coming = made.json()
    async with sized(browser, server, size) as page:
        await page.goto(f"/#/finished/{done['id']}")
        steps = page.locator("[data-field=podium] .step")
        await expect(steps).to_have_count(3)
        shown_names = steps.locator("[data-field=player]")
        await expect(shown_names.nth(1)).to_have_attribute("title", long)
        await expect(shown_names.nth(1).locator("a")).to_have_attribute("href", f"#/player/{ids[1]}")
        await expect(shown_names.nth(0).locator("a")).to_have_count(0)
        boxes = await steps.evaluate_all(
            """(cards) => cards.map((c) => {
                 const card = c.getBoundingClientRect();
                 const name = c.querySelector('[data-field=player]');
                 const place = c.querySelector('[data-field=place]').getBoundingClientRect();
                 const s = getComputedStyle(name);
                 return { width: card.width, place: place.bottom, lines: name.getBoundingClientRect().height
                   / (1.2 * parseFloat(s.fontSize)), cut: s.textOverflow, inside: name.getBoundingClientRect().right
                   <= card.right + 0.5 && name.scrollWidth >= name.clientWidth };
               })"""
        )
        assert max(b["width"] for b in boxes) - min(b["width"] for b in boxes) < 1, boxes
        assert max(b["place"] for b in boxes) - min(b["place"] for b in boxes) < 1, boxes
        assert all(b["cut"] == "ellipsis" and b["lines"] < 1.5 and b["inside"] for b in boxes), boxes
        if size == "phone":  # a third of a phone's width: the long name is cut short, its link too
            cut = """(n) => [n, n.querySelector('a')]
                       .map((e) => [e.scrollWidth > e.clientWidth, e.getBoundingClientRect().right])"""
            (_, name_right), (link_cut, link_right) = await shown_names.nth(1).evaluate(cut)
            assert link_cut and link_right <= name_right + 0.5  # the link's box ends where the name's does
        await expect(page.locator(".standings.final tbody tr")).to_have_count(len(names))
        await expect(page.locator(".standings.final tbody tr").nth(0).locator("a.pname")).to_have_count(0)
        await tables_scroll_with_the_page(page)
        await snap(page, shots, f"podium-{size}")

        await page.goto(f"/#/board/{done['id']}")
        await expect(page.locator(".live-board tbody tr")).to_have_count(20)
        await expect(page.locator(".live-board tbody tr").nth(0).locator("[data-field=player] a")).to_have_count(0)
        await expect(page.locator(".live-board [data-field=player] a").first).to_have_attribute(
            "href", f"#/player/{ids[1]}"
        )
        await tables_scroll_with_the_page(page)

        await page.goto(f"/#/series/{series['id']}")
        rows = page.locator("[data-field=standings] tbody tr")
        await expect(rows).to_have_count(len(names))
        await expect(rows.nth(0).locator("[data-field=player] a")).to_have_count(0)
        await expect(rows.nth(1).locator("[data-field=player] a")).to_have_attribute("href", f"#/player/{ids[1]}")
        upcoming = page.locator(f"[data-field=tournaments] [data-tournament='{coming['id']}'] [data-field=when]")
        await expect(upcoming).to_contain_text("upcoming \u00b7 opens ")
        await expect(upcoming).not_to_contain_text("finished")
        await tables_scroll_with_the_page(page)
        await snap(page, shots, f"series-podium-{size}", full_page=True)
