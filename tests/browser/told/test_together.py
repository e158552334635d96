"""A sitting where everyone starts together, on a phone held either way (touch) and a desktop: while
it waits, the page's title counts down each second; at the start the board appears by itself (no
reload, no tap) and the title names the game again, with a short start sound when the player has
sound on (and none when off); a minute or less before the start, a page out of view notifies the
player who asked for notifications."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

from playwright.async_api import expect

from spidertour.engine import Game, Settings
from tests.browser.helpers import expect_board, sign_in
from tests.browser.told.conftest import START_TONE, Told
from tests.client import Api

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 60}
COUNTING = r"^0:[0-5]\d \u00b7 {name} \u00b7 spidertour$"


def together(api: Api, name: str, seed: str, seconds: float) -> dict[str, Any]:
    opens = datetime.now(UTC) + timedelta(seconds=seconds)
    r = api.http.post(
        "/api/tournaments",
        headers=api.admin(),
        json={"name": name, "start": "together", "opens_at": opens.isoformat(), "seed": seed, "settings": SETTINGS},
    )
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


async def test_the_title_counts_down_and_the_game_starts_by_itself(told: Told, api: Api) -> None:
    page = told.page
    sound = told.touch  # the phones with sound on, the desktop with it off
    await told.prefs(sound=sound)
    me = await sign_in(page, api, "tess")
    tour = together(api, "Thursday evening", "told-together", 12)
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await expect(page.locator(".start-panel [data-field=countdown]")).to_be_visible()

    # The title counts down, second by second, while the big countdown shows.
    counting = re.compile(COUNTING.format(name="Thursday evening"))
    await expect(page).to_have_title(counting)
    first = await page.title()
    await page.wait_for_function("(t) => document.title !== t", arg=first)
    assert counting.match(await page.title()), await page.title()
    assert await told.tones() == []

    # At the start the board appears by itself, and the title names the game again.
    await expect_board(page, Game(Settings(**SETTINGS), "told-together").view(), timeout=25)
    await expect(page.locator(".start-panel")).to_be_hidden()
    await expect(page).to_have_title("Thursday evening \u00b7 spidertour")
    await expect(page.locator("[data-stat=clock]")).to_have_text(re.compile(r"^0:[0-5]\d|1:00$"))
    tones = await told.tones()
    assert (START_TONE in tones) is sound, tones


async def test_a_page_out_of_view_is_told_a_minute_before(told: Told, api: Api) -> None:
    page = told.page
    await told.context.grant_permissions(["notifications"])
    await told.prefs(notify=True)
    me = await sign_in(page, api, "uma")
    tour = together(api, "Friday night", "told-soon", 14)
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await expect(page).to_have_title(re.compile(COUNTING.format(name="Friday night")))
    assert await told.notes() == []  # in view: the page itself says it

    other = await told.look_away()
    await page.wait_for_function("() => window.told.notes.length > 0", timeout=10_000)
    [note] = await told.notes()
    assert re.fullmatch(r"Friday night starts in 0:[0-5]\d", note["title"]), note
    assert note["body"] == "Everyone starts together: your clock runs from then."

    # Back to the game: it started by itself meanwhile, and nothing more was notified.
    await expect_board(page, Game(Settings(**SETTINGS), "told-soon").view(), timeout=25)
    await page.bring_to_front()
    await other.close()
    await expect(page).to_have_title("Friday night \u00b7 spidertour")
    assert len(await told.notes()) == 1
