"""The live board of a field bigger than a page: every place a page at a time, a player found by
name, a jump to the viewer's own place, and the count of who is playing now kept; at a phone's size
both ways (touch) and on a desktop, never wider than the window."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import sign_in
from tests.client import Api, Player, bearer
from tests.serverproc import ServerProcess

SIZES: dict[str, tuple[dict[str, int], bool]] = {
    "phone": ({"width": 360, "height": 740}, True),
    "sideways": ({"width": 740, "height": 360}, True),
    "desktop": ({"width": 1280, "height": 800}, False),
}
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@asynccontextmanager
async def sized(browser: Browser, server: ServerProcess, size: str) -> AsyncIterator[Page]:
    """A page at this size (a phone's: touch), failing on any JavaScript error."""
    viewport, touch = SIZES[size]
    context = await new_context(browser, server, viewport=viewport, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        yield page
    finally:
        await context.close()
    assert errors == [], f"JavaScript errors: {errors}"


async def field(api: Api, server: ServerProcess, tag: str, size: int, playing: int) -> tuple[dict[str, Any], list[Any]]:
    """A running tournament of ``size`` entrants named ``TAG-NN``, the first ``playing`` of them started."""
    tour = api.create_tournament(name=f"Big field {tag[-4:]}", seed="big-field", **SETTINGS)
    players = []
    for i in range(size):
        _, token = api.register(f"{tag}-{i:02d}")
        entry = api.join(tour["id"], token)
        if i < playing:
            player, _ = await Player.connect(server.ws_url, entry["id"], token)
            await player.start()
            players.append(player)
    return tour, players


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_board_goes_through_every_place_finds_names_and_my_place(
    browser: Browser, server: ServerProcess, api: Api, shots, size: str
) -> None:
    tag = f"pg{secrets.token_hex(2)}"
    tour, players = await field(api, server, tag, 44, 3)
    async with sized(browser, server, size) as page:
        me = await sign_in(page, api, f"{tag}-me")  # the 45th: joined last, not started, so ranked last
        mine = api.join(tour["id"], me["token"])
        await page.goto(f"/#/board/{tour['id']}")
        rows = page.locator(".live-board tbody tr")
        await expect(rows).to_have_count(20)
        pager = page.locator("[data-field=pager]")
        await expect(pager).to_have_text("Places 1\u201320 of 45")
        await expect(page.locator("[data-field=in-play]")).to_have_text(" (3 playing now, 42 yet to start)")
        await expect(page.locator("[data-action=prev-page]")).to_be_disabled()

        await page.locator("[data-action=next-page]").click()
        await expect(pager).to_have_text("Places 21\u201340 of 45")
        await expect(rows.first.locator("[data-field=rank]")).to_have_text("21")
        await page.locator("[data-action=next-page]").click()
        await expect(pager).to_have_text("Places 41\u201345 of 45")
        await expect(rows).to_have_count(5)
        await expect(page.locator("[data-action=next-page]")).to_be_disabled()
        await expect(page.locator(f'.live-board tr[data-entry="{mine["id"]}"]')).to_have_class(re.compile(r"\bmine\b"))
        assert await page.evaluate(NO_SIDEWAYS)
        await snap(page, shots, f"board-pages-{size}")

        await page.locator("[data-field=search]").fill(f"{tag}-1")  # 10 to 19
        await page.locator("[data-action=search]").click()
        await expect(pager).to_have_text(f"10 players match \u201c{tag}-1\u201d")
        await expect(rows).to_have_count(10)
        names = await page.locator(".live-board tbody [data-field=player]").all_inner_texts()
        assert all(n.startswith(f"{tag}-1") for n in names)
        ranks = [int(r) for r in await page.locator(".live-board tbody [data-field=rank]").all_inner_texts()]
        assert ranks == sorted(ranks) and len(set(ranks)) == 10  # their places among all 45
        await page.locator("[data-field=search]").fill("nobody-at-all")
        await page.locator("[data-field=search]").press("Enter")
        await expect(pager).to_have_text("Nobody named \u201cnobody-at-all\u201d")
        await expect(rows).to_have_text(["Nobody by that name."])
        await snap(page, shots, f"board-search-{size}")
        await page.locator("[data-action=clear-search]").click()
        await expect(pager).to_have_text("Places 1\u201320 of 45")

        await page.locator("[data-action=my-place]").click()
        await expect(pager).to_have_text("Places 41\u201345 of 45")
        mine_row = page.locator(f'.live-board tr[data-entry="{mine["id"]}"]')
        await expect(mine_row).to_be_in_viewport()
        await expect(mine_row.locator("[data-field=rank]")).to_have_text("45")
        assert await page.evaluate(NO_SIDEWAYS)
    for player in players:
        await player.close()


# Every cell of every row inside the table's box and the window: nothing cut off, nothing to scroll to.
CELLS_INSIDE = """(selector) => {
  const out = [];
  for (const table of document.querySelectorAll(selector)) {
    const wrap = table.closest('.table-wrap') || table.parentElement;
    if (wrap.scrollWidth > wrap.clientWidth + 1) out.push(`${selector} scrolls sideways`);
    const box = wrap.getBoundingClientRect();
    for (const cell of table.querySelectorAll('tbody td')) {
      const r = cell.getBoundingClientRect();
      if (!r.width) continue;  // a column left out at this size
      if (r.right > Math.min(box.right, window.innerWidth) + 1 || r.left < box.left - 1)
        out.push(`${cell.dataset.field || cell.textContent} at ${Math.round(r.left)}-${Math.round(r.right)}`);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_boards_and_series_tables_fit_a_phone(
    browser: Browser, server: ServerProcess, api: Api, shots, size: str
) -> None:
    """Long names, running games' time left and the series' best rank all on screen, a phone's included:
    under a width the rows stand as cards, each value labelled."""
    from tests.browser.competitions.test_series import finish, organiser

    tag = secrets.token_hex(2)
    token = organiser(api)
    series = api.http.post("/api/series", json={"name": f"Long names {tag}"}, headers=bearer(token)).json()
    body = {"name": f"Long names {tag}", "seed": "long-names", "settings": SETTINGS, "series": series["id"]}
    done = api.http.post("/api/tournaments", json=body, headers=bearer(token)).json()
    long = [f"Bartholomew_Featherstonehaugh_{tag}_{i}x" for i in range(3)]
    finish(api, token, done["id"], long)
    tour, players = await field(api, server, f"Featherstonehaugh_Cholmondeley_{tag}", 3, 2)
    async with sized(browser, server, size) as page:
        await page.goto(f"/#/board/{tour['id']}")
        await expect(page.locator(".live-board tbody tr")).to_have_count(3)
        await expect(page.locator(".live-board td[data-deadline]")).to_have_count(2)
        await expect(page.locator(".live-board td[data-field=time-left]").first).to_be_visible()
        assert await page.evaluate(CELLS_INSIDE, ".live-board") == []
        assert await page.evaluate(NO_SIDEWAYS)
        await snap(page, shots, f"board-cards-{size}")

        await page.goto(f"/#/series/{series['id']}")
        await expect(page.locator(".series-standings tbody tr")).to_have_count(3)
        await expect(page.locator(".series-standings td[data-field=best-rank]").first).to_be_visible()
        assert await page.evaluate(CELLS_INSIDE, ".series-standings") == []
        assert await page.evaluate(NO_SIDEWAYS)
        await snap(page, shots, f"series-cards-{size}")
    for player in players:
        await player.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
async def test_a_sitting_started_together_is_under_way_on_every_page(
    browser: Browser, server: ServerProcess, api: Api, size: str
) -> None:
    """The board's badge, the lobby's card and the join link name a started sitting alike: "under way",
    never "open" (it takes no entries); a tournament one starts alone and open is "open" on all three."""
    from datetime import UTC, datetime, timedelta

    body = {"name": f"Sitting {secrets.token_hex(2)}", "start": "together", "seed": "sitting", "settings": SETTINGS}
    body["opens_at"] = (datetime.now(UTC) + timedelta(seconds=2)).isoformat()
    answer = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert answer.status_code == 201, answer.text
    sitting = answer.json()
    _, token = api.register(f"sitter-{secrets.token_hex(2)}")
    api.join(sitting["id"], token)
    alone = api.create_tournament(name=f"Alone {secrets.token_hex(2)}", **SETTINGS)
    deadline = asyncio.get_running_loop().time() + 15
    while api.tournament(sitting["id"])["status"] != "open":
        assert asyncio.get_running_loop().time() < deadline, "the sitting never started"
        await asyncio.sleep(0.2)
    async with sized(browser, server, size) as page:
        for tour, word in ((sitting, "under way"), (alone, "open")):
            await page.goto(f"/#/board/{tour['id']}")
            await expect(page.locator(".board-page .page-head [data-field=status]")).to_have_text(word)
            await page.goto("/#/lobby")
            card = page.locator(f'.tournament[data-tournament="{tour["id"]}"]')
            await expect(card.locator("header .badge").first).to_have_text(word)
        await page.goto(f"/#/join/{sitting['id']}")
        await expect(page.locator(".panel", has_text="Entries are not open")).to_have_text(
            re.compile(r"^Entries are not open \(under way\)\.")
        )


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_cancelled_tournament_says_cancelled_and_one_count_everywhere(
    browser: Browser, server: ServerProcess, api: Api, size: str
) -> None:
    """Its lobby card, its board, its results page and its organiser's card all say "cancelled" and
    4 entrants; none says it finished, closes, or has 0 entrants."""
    from tests.browser.organise.kit import live_page, use_token

    tour = api.create_tournament(name=f"Called off {secrets.token_hex(2)}", **SETTINGS)
    for i in range(4):
        _, token = api.register(f"called-{secrets.token_hex(3)}-{i}")
        api.join(tour["id"], token)
    assert api.http.post(f"/api/tournaments/{tour['id']}/cancel", headers=api.admin()).status_code == 200
    async with sized(browser, server, size) as page:
        await page.goto("/#/lobby")
        card = page.locator(f'.tournament[data-tournament="{tour["id"]}"]')
        await expect(card.locator("[data-field=entrants]")).to_have_text("4")
        await expect(card.locator("header .badge").first).to_have_text("cancelled")

        await page.goto(f"/#/board/{tour['id']}")
        await expect(page.locator(".board-page .page-head [data-field=status]")).to_have_text("cancelled")
        await expect(page.locator(".live-board tbody")).to_have_text("Nobody is ranked: the tournament was cancelled.")
        await expect(page.locator(".board-page .meta [data-field=entrants]")).to_have_text("4")

        await page.goto(f"/#/finished/{tour['id']}")
        head = page.locator(".page-head + p")
        await expect(head.locator("[data-field=ended]")).to_contain_text("cancelled")
        await expect(head).not_to_contain_text("finished")
        await expect(head.locator("[data-field=entrants]")).to_have_text(" \u00b7 4 entrants, nobody ranked")

        await use_token(page, api.admin_token)
        row = await live_page(page, tour["id"])
        await expect(row.locator("[data-field=closes]")).to_contain_text("cancelled")
        await expect(row.locator("[data-field=closes]")).not_to_contain_text("closes")
        await expect(row.locator("[data-field=entrants]")).to_have_text("4 entries")
        assert await page.evaluate(NO_SIDEWAYS)


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_board_says_when_it_closes_and_the_series_marks_ties_and_links_names(
    browser: Browser, server: ServerProcess, api: Api, shots, size: str
) -> None:
    """A watcher reads when the board closes; a series' equal points are marked ("=1"), its names lead
    to the players' pages, and each of its tournaments says its state with the time that fits it
    (a finished one when it finished, an upcoming one when it opens)."""
    from datetime import UTC, datetime, timedelta

    from tests.browser.competitions.test_series import finish, organiser

    tag = secrets.token_hex(2)
    token = organiser(api)
    made = api.http.post("/api/series", json={"name": f"Ties {tag}", "points": [10, 10, 5]}, headers=bearer(token))
    assert made.status_code == 201, made.text
    series = made.json()
    body = {"name": f"Ties final {tag}", "seed": "ties", "settings": SETTINGS, "series": series["id"]}
    done = api.http.post("/api/tournaments", json=body, headers=bearer(token)).json()
    ids = finish(api, token, done["id"], [f"tie-{tag}-{i}" for i in range(3)])
    later = {**body, "name": f"Ties next {tag}", "opens_at": (datetime.now(UTC) + timedelta(days=2)).isoformat()}
    coming = api.http.post("/api/tournaments", json=later, headers=bearer(token)).json()
    running = api.create_tournament(name=f"Watched {tag}", closes_in=1800, **SETTINGS)
    async with sized(browser, server, size) as page:
        await page.goto(f"/#/board/{running['id']}")
        closes = page.locator(".board-page .meta [data-field=closes]")
        await expect(closes).to_have_text(re.compile(r"^closes in (29|30) min"))

        await page.goto(f"/#/series/{series['id']}")
        rows = page.locator("[data-field=standings] tbody tr")
        await expect(rows).to_have_count(3)
        await expect(rows.locator("[data-field=position]")).to_have_text(["=1", "=1", "3"])
        first = rows.nth(0).locator("[data-field=player] a")
        await expect(first).to_have_attribute("href", f"#/player/{ids[0]}")
        finished_line = page.locator(f"[data-field=tournaments] [data-tournament='{done['id']}'] [data-field=when]")
        await expect(finished_line).to_have_text(re.compile(r"^ \u00b7 finished \S"))
        upcoming = page.locator(f"[data-field=tournaments] [data-tournament='{coming['id']}'] [data-field=when]")
        await expect(upcoming).to_contain_text("upcoming \u00b7 opens ")
        assert await page.evaluate(NO_SIDEWAYS)
        await snap(page, shots, f"series-ties-{size}", full_page=True)
        await first.click()
        await page.wait_for_url(f"**/#/player/{ids[0]}")
