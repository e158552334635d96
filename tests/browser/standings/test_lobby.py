"""The lobby's cards (relative times, the commitment shortened, a clear call to join, a finished
tournament's winner), one count of entrants on every page, the live board's time left on a phone
and its tie-break said, and the finished page's podium with each score's share of the par; at a
phone's size both ways (touch) and on a desktop, never wider than the window."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import card_moves, reveals, sign_in
from tests.client import Api, Player
from tests.serverproc import ServerProcess

SIZES: list[tuple[dict[str, int], bool]] = [
    ({"width": 360, "height": 740}, True),
    ({"width": 740, "height": 360}, True),
    ({"width": 1280, "height": 800}, False),
]
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


@asynccontextmanager
async def sized(browser: Browser, server: ServerProcess, viewport: dict[str, int], touch: bool) -> AsyncIterator[Page]:
    """A page at this size (a phone's: touch), failing on any JavaScript error."""
    context = await new_context(browser, server, viewport=viewport, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    try:
        yield page
    finally:
        await context.close()
    assert errors == [], f"JavaScript errors: {errors}"


async def play(
    server: ServerProcess, api: Api, tid: int, seed: str, name: str, turns: int, end: bool
) -> dict[str, Any]:
    """A new player's entry that starts, turns ``turns`` cards (25 each) and ends or goes on playing."""
    _, token = api.register(name)
    entry = api.join(tid, token)
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    game = Game(Settings(**SETTINGS), seed)
    for _ in range(turns):
        move = next(m for m in card_moves(game) if reveals(game, m))
        assert (await player.play(move.to_json()))["type"] == "result"
        game.play(move)
    if end:
        await player.play({"type": "end"})
    await player.close()
    return entry


async def wait_finished(api: Api, tid: int, par: bool = False) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while (tour := api.tournament(tid))["status"] != "finished" or (par and tour["par"] is None):
        assert time.monotonic() < deadline, f"not finished: {tour}"
        await asyncio.sleep(0.25)
    return tour


async def test_one_count_of_entrants_on_every_page(browser: Browser, server: ServerProcess, api: Api) -> None:
    """Five joined: one never started, one playing, two ended, one disqualified. The lobby, the board
    and the game's result all count the four in the ranking; the board says the rest."""
    seed = "one-count"
    tour = api.create_tournament(name="Counted cup", seed=seed, **SETTINGS)
    tid = tour["id"]
    _, ann_token = api.register("ann")
    api.join(tid, ann_token)  # joined, never started
    await play(server, api, tid, seed, "bob", 1, end=False)  # playing, 25
    dan = await play(server, api, tid, seed, "dan", 1, end=True)
    r = api.http.post(
        f"/api/tournaments/{tid}/entries/{dan['id']}/disqualify", headers=api.admin(), json={"reason": "two accounts"}
    )
    assert r.status_code == 200, r.text
    await play(server, api, tid, seed, "eve", 0, end=True)  # ended at once, 0
    board = api.http.get(f"/api/tournaments/{tid}/leaderboard").json()
    assert board["entrants"] == 3

    # cat ends her game in the browser, on a phone: her place among the four.
    async with sized(browser, server, *SIZES[0]) as page:
        cat = await sign_in(page, api, "cat")
        cat_entry = api.join(tid, cat["token"])
        await page.goto(f"/#/play/{cat_entry['id']}")
        await page.locator("[data-action=start]").click()
        await expect(page.locator(".game-page .board .card").first).to_be_visible()
        await page.locator("[data-action=end]").click()
        await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
        place = page.locator(".over-panel [data-field=rank]")
        await expect(place).to_contain_text(re.compile(r"Your place: \d of 4 so far"))
        assert await page.evaluate(NO_SIDEWAYS)

    for viewport, touch in SIZES:
        async with sized(browser, server, viewport, touch) as page:
            await page.goto("/#/lobby")
            card = page.locator(f'.tournament[data-tournament="{tid}"]')
            await expect(card.locator("[data-field=entrants]")).to_have_text("4")
            assert await page.evaluate(NO_SIDEWAYS), viewport
            await page.goto(f"/#/board/{tid}")
            await expect(page.locator(".live-board tbody tr")).to_have_count(4)
            meta = page.locator(".board-page .meta")
            await expect(meta.locator("[data-field=entrants]")).to_have_text("4")
            await expect(meta.locator("[data-field=in-play]")).to_have_text(
                " (1 playing now, 1 yet to start, 1 disqualified, not counted)"
            )
            assert await page.evaluate(NO_SIDEWAYS), viewport
    assert api.tournament(tid)["entrants"] == 4 and api.tournament(tid)["disqualified"] == 1


async def test_lobby_cards_say_when_who_won_and_how_to_join(browser: Browser, server: ServerProcess, api: Api) -> None:
    """Open and upcoming cards say "closes in" / "opens in", and leave the commitment to the tournament's
    page; a signed-out visitor gets a call to register that leads to the form; a finished card names
    its winner and the winning score."""
    seed = "lobby-cards"
    done = api.create_tournament(name="Done cup", seed=seed, closes_in=2, **SETTINGS)
    winner = await play(server, api, done["id"], seed, "wyn", 2, end=True)
    await play(server, api, done["id"], seed, "lou", 1, end=True)
    finished = await wait_finished(api, done["id"])
    score = next(
        s["score"]
        for s in api.http.get(f"/api/tournaments/{done['id']}/standings").json()
        if s["entry_id"] == winner["id"]
    )
    open_tour = api.create_tournament(name="Cards open cup", closes_in=3000, **SETTINGS)
    later = api.create_tournament(name="Cards later cup", opens_in=7200, closes_in=9000, **SETTINGS)

    for viewport, touch in SIZES:
        async with sized(browser, server, viewport, touch) as page:
            await page.goto("/#/lobby")
            card = page.locator(f'.tournament[data-tournament="{open_tour["id"]}"]')
            await expect(card.locator("[data-field=when]")).to_have_text(
                re.compile(r"^closes in (49|50) min \(\w{3} \d{1,2} \w{3}, \d\d:\d\d .+\)$")
            )
            upcoming = page.locator(f'.tournament[data-tournament="{later["id"]}"]')
            await expect(upcoming.locator("[data-field=when]")).to_have_text(
                re.compile(r"^opens in (1 h 59 min|2 h) \(")
            )
            # The commitment is on the tournament's own page (tests/browser/arriving), not on its card.
            await expect(card.locator(".commitment")).to_have_count(0)
            assert open_tour["commitment"][:8] not in await card.inner_text()
            assert await page.evaluate(NO_SIDEWAYS), viewport
            # Signed out: joining is a call to act, in the colours of one, and leads to the form.
            join = card.locator("[data-action=register-to-join]")
            await expect(join).to_be_visible()
            await expect(join).to_have_class(re.compile(r"\bbtn\b.*\bprimary\b"))
            assert await join.evaluate("(b) => !b.disabled && getComputedStyle(b).opacity === '1'")
            await join.click()
            await expect(page.locator("[data-form=register] input[name=name]")).to_be_focused()
            await expect(page.locator("[data-form=register] input[name=name]")).to_be_in_viewport()
            # Finished: the winner and the winning score.
            ended = page.locator(f'.tournament[data-tournament="{done["id"]}"]')
            await expect(ended.locator("[data-field=winner-name]")).to_have_text("wyn")
            await expect(ended.locator("[data-field=winner-score]")).to_have_text(f"{score:,}")
            await expect(ended.locator("[data-field=when]")).to_have_text(re.compile(r"^finished (now|\d+ min ago) \("))
            await expect(ended.locator(".badge")).to_have_text("finished")
            assert await page.evaluate(NO_SIDEWAYS), viewport
    assert finished["winner"] == {"player": "wyn", "score": score, "time_left": finished["winner"]["time_left"]}


async def test_live_board_shows_time_left_on_phones_and_says_the_tie_break(
    browser: Browser, server: ServerProcess, api: Api
) -> None:
    """bob plays on (25); eve and cat ended at 0 and ann never started (0): equal scores, ordered by
    the time left, marked so, with the rule under the table. bob's time left shows on a phone."""
    seed = "ties"
    tour = api.create_tournament(name="Tied cup", seed=seed, **SETTINGS)
    tid = tour["id"]
    bob = await play(server, api, tid, seed, "bob", 1, end=False)
    _, ann_token = api.register("ann")
    ann = api.join(tid, ann_token)
    eve = await play(server, api, tid, seed, "eve", 0, end=True)
    cat = await play(server, api, tid, seed, "cat", 0, end=True)

    for viewport, touch in SIZES:
        async with sized(browser, server, viewport, touch) as page:
            await page.goto(f"/#/board/{tid}")
            rows = page.locator(".live-board tbody tr")
            await expect(rows).to_have_count(4)
            order = [await rows.nth(i).get_attribute("data-entry") for i in range(4)]
            assert order[0] == str(bob["id"]) and order[3] == str(ann["id"]), order
            assert set(order[1:3]) == {str(eve["id"]), str(cat["id"])}
            # The time left, on every screen: counting down for bob, a dash for one not started.
            left = page.locator(f'.live-board tr[data-entry="{bob["id"]}"] [data-field=time-left]')
            await expect(left).to_be_visible()
            await expect(left).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
            await expect(page.locator(".live-board th", has_text="Time left")).to_be_visible()
            box = await left.bounding_box()
            assert box is not None and box["x"] + box["width"] <= viewport["width"], (viewport, box)
            await expect(page.locator(f'.live-board tr[data-entry="{ann["id"]}"] [data-field=time-left]')).to_have_text(
                "\u2013"
            )
            # Equal scores marked; the rule under the table.
            for entry in (ann, eve, cat):
                row = page.locator(f'.live-board tr[data-entry="{entry["id"]}"]')
                await expect(row).to_have_attribute("data-tie", "")
                await expect(row.locator("[data-field=tie]")).to_be_visible()
            await expect(page.locator(f'.live-board tr[data-entry="{bob["id"]}"] [data-field=tie]')).to_have_count(0)
            note = page.locator(".board-page [data-field=tie-note]")
            await expect(note).to_be_visible()
            await expect(note).to_contain_text("more time left at the end first")
            await expect(note).to_contain_text("then the earlier entry")
            assert await page.evaluate(NO_SIDEWAYS), viewport


def share(score: int, par: dict[str, Any]) -> str:
    return f"{int(100 * score / par['final_score'] + 0.5)}% of par"


async def test_finished_podium_and_each_share_of_par(browser: Browser, server: ServerProcess, api: Api) -> None:
    """ann 50, bob and cat 25 (tied: bob ended first, with more time left), dan never started: the
    podium holds ann, bob and cat with places, scores and times; every row says its share of the par."""
    seed = "podium"
    tour = api.create_tournament(name="Podium cup", seed=seed, closes_in=3, **SETTINGS)
    tid = tour["id"]
    ann = await play(server, api, tid, seed, "ann", 2, end=True)
    bob = await play(server, api, tid, seed, "bob", 1, end=True)
    cat = await play(server, api, tid, seed, "cat", 1, end=True)
    _, dan_token = api.register("dan")
    dan = api.join(tid, dan_token)
    done = await wait_finished(api, tid, par=True)
    par = done["par"]
    assert par["outcome"] == "won" and par["final_score"] > 0
    standings = {s["entry_id"]: s for s in api.http.get(f"/api/tournaments/{tid}/standings").json()}
    assert [standings[e["id"]]["rank"] for e in (ann, bob, cat, dan)] == [1, 2, 3, 4]

    for viewport, touch in SIZES:
        async with sized(browser, server, viewport, touch) as page:
            await page.goto(f"/#/finished/{tid}")
            podium = page.locator("[data-field=podium]")
            await expect(podium).to_be_visible()
            # Above the standings.
            order = await page.evaluate(
                "() => [...document.querySelectorAll('[data-field=podium], .standings.final')].map((n) => n.tagName)"
            )
            assert order == ["OL", "TABLE"], order
            steps = podium.locator(".step")
            await expect(steps).to_have_count(3)
            for place, entry, label in ((1, ann, "1st"), (2, bob, "2nd"), (3, cat, "3rd")):
                s = standings[entry["id"]]
                step = podium.locator(f'.step[data-place="{place}"]')
                await expect(step).to_have_attribute("data-entry", str(entry["id"]))
                await expect(step.locator("[data-field=place]")).to_have_text(label)
                await expect(step.locator(".medal")).to_have_attribute("data-medal", str(place))
                await expect(step.locator("[data-field=player]")).to_have_text(s["player"])
                await expect(step.locator("[data-field=score]")).to_have_text(f"{s['score']:,}")
                minutes, seconds = divmod(s["time_left"], 60)
                await expect(step.locator("[data-field=time]")).to_have_text(f"{minutes}:{seconds:02d} left")
                await expect(step.locator("[data-field=of-par]")).to_have_text(share(s["score"], par))
                await expect(step).to_be_in_viewport()
            # Every row of the standings with its share of the par, in view on a phone too.
            for entry in (ann, bob, cat, dan):
                cell = page.locator(f'.standings.final tr[data-entry="{entry["id"]}"] [data-field=of-par]')
                await expect(cell).to_be_visible()
                await expect(cell).to_have_text(share(standings[entry["id"]]["score"], par))
            # bob and cat tied on 25: marked, the tie-break said under the table.
            for entry in (bob, cat):
                row = page.locator(f'.standings.final tr[data-entry="{entry["id"]}"]')
                await expect(row.locator("[data-field=tie]")).to_be_visible()
            await expect(page.locator(f'.standings.final tr[data-entry="{ann["id"]}"] [data-field=tie]')).to_have_count(
                0
            )
            await expect(page.locator(".finished-page [data-field=tie-note]")).to_contain_text("more time left")
            assert await page.evaluate(NO_SIDEWAYS), viewport
            fits = "(t) => t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 1"
            assert await page.locator(".standings.final").evaluate(fits), viewport


async def test_a_guest_is_asked_to_sign_in_to_join_a_clubs_tournament(
    browser: Browser, server: ServerProcess, api: Api
) -> None:
    """A guest (a token, no account) sees a club's listed tournament: joining it takes an account, so
    the card says so with a button in the colours of an action, which leads to signing in."""
    r = api.http.post("/api/clubs", json={"name": "Chess club"}, headers=api.admin())
    assert r.status_code == 201, r.text
    club = r.json()
    now = datetime.now(UTC)
    body = {
        "name": "Club cup",
        "settings": SETTINGS,
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(hours=1)).isoformat(),
        "club": club["id"],
        "listed": True,
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin())
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    for viewport, touch in SIZES:
        async with sized(browser, server, viewport, touch) as page:
            await sign_in(page, api, "guest")
            await page.goto("/#/lobby")
            card = page.locator(f'.tournament[data-tournament="{tid}"]')
            button = card.locator("[data-action=sign-in-to-join]")
            await expect(button).to_have_text("Sign in to join")
            await expect(button).to_have_class(re.compile(r"\bbtn\b.*\bprimary\b"))
            await expect(card.locator("[data-action=join]")).to_have_count(0)
            assert await page.evaluate(NO_SIDEWAYS), viewport
            await button.click()
            await page.wait_for_url(re.compile(r"#/account$"))
