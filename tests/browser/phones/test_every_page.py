"""Every page of the client at 360x740 and 740x360 (phones, touch) and 1280x800 (a desktop), filled
as a club would fill it: a running tournament with players, a finished one, a series, a club, an
organiser's pages: its dashboard, the new tournament's form with every option unfolded, a sitting's
live page with its entrants. On none of them may the page scroll sideways, no button, link or field
may sit off screen (in a table that scrolls sideways, say), no page may say "null",
"undefined", "NaN" or "[object ...]", each has its own title and one h1, and axe-core finds nothing
wrong on any of them."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import DOCS_SHOTS, js_errors, new_context, snap
from tests.browser.helpers import card_moves, reveals
from tests.browser.phones.axe import violations
from tests.client import Api, Player, bearer
from tests.serverproc import ServerProcess

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "sideways": {"viewport": {"width": 740, "height": 360}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}
MATCH_FORMAT = "spider78-2suits-5min"

# What sticks out: the page's own width, then each control whose box leaves the screen's width.
OFF_SCREEN = """() => {
  const width = window.innerWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth}px wide`);
  for (const n of document.querySelectorAll("button, a[href], input, select, textarea, summary")) {
    const r = n.getBoundingClientRect();
    if (!r.width || !r.height || n.closest("dialog:not([open])")) continue;
    if (getComputedStyle(n).visibility === "hidden") continue;
    if (r.left < -1 || r.right > width + 1) {
      const name = (n.dataset.action || n.dataset.field || n.name || n.textContent || n.tagName).trim().slice(0, 30);
      out.push(`${n.tagName.toLowerCase()} "${name}" at ${Math.round(r.left)}..${Math.round(r.right)}px`);
    }
  }
  return out;
}"""

# Each page's title and headings: its own title, exactly one h1 (the game page's is the tournament's
# name in its score bar).
HEADINGS = "() => [document.title, [...document.querySelectorAll('h1')].map((h) => h.textContent.trim())]"


def _ask(api: Api, token: str) -> dict[str, Any]:
    """A seat in a match of spider78 with 2 suits, head to head."""
    r = api.http.post("/api/matches", json={"format": MATCH_FORMAT}, headers=bearer(token))
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def _organiser(api: Api) -> str:
    r = api.http.post("/api/organisers", json={"name": f"Club {secrets.token_hex(2)}"}, headers=api.admin())
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


async def _play(server: ServerProcess, entry: dict[str, Any], token: str, moves: int, end: bool) -> None:
    game = Game(Settings(**SETTINGS), "every-page")
    player, _ = await Player.connect(server.ws_url, entry["id"], token)
    await player.start()
    for _ in range(moves):
        move = ([m for m in card_moves(game) if reveals(game, m)] or card_moves(game))[0]
        assert (await player.play(move.to_json()))["type"] == "result"
        game.play(move)
    if end:
        await player.play({"type": "end"})
    await player.close()


@pytest.fixture(scope="module")
def world(api: Api, server: ServerProcess) -> Iterator[dict[str, Any]]:
    """A club's evening: an organiser with a club and a series, a finished tournament of four players
    (one never started), a running one with three (one playing on the page), and a player's account.
    The running tournament's name and a player's are long words that a phone's width cannot hold."""
    organiser = _organiser(api)
    club = api.http.post("/api/clubs", json={"name": "Thursday club"}, headers=bearer(organiser)).json()
    series = api.http.post("/api/series", json={"name": "Winter season"}, headers=bearer(organiser)).json()
    assert "id" in club and "id" in series, (club, series)

    def tournament(name: str, closes_in: float) -> dict[str, Any]:
        now = datetime.now(UTC)
        body = {
            "name": name,
            "seed": "every-page",
            "settings": SETTINGS,
            "series": series["id"],
            "opens_at": (now - timedelta(seconds=1)).isoformat(),
            "closes_at": (now + timedelta(seconds=closes_in)).isoformat(),
        }
        r = api.http.post("/api/tournaments", json=body, headers=bearer(organiser))
        assert r.status_code == 201, r.text
        return r.json()  # type: ignore[no-any-return]

    finished = tournament("Autumn final with a rather long name", 4)
    # Names with no space to break at (a tournament's, a player's) must wrap, not widen the page.
    running = tournament("ThursdayEveningSpiderAtTheSpringfieldElementarySchoolClubhouse", 3600)
    names = {"ann": "ann", "bob": "bob", "cy": "MaximilianAlexanderVonHohenzollernSpider", "dee": "dee"}
    players = {key: api.register(name) for key, name in names.items()}

    played: dict[str, int] = {}  # the finished tournament's entries that played

    async def fill() -> dict[str, Any]:
        for i, name in enumerate(("ann", "bob", "cy")):
            entry = api.join(finished["id"], players[name][1])
            played[name] = entry["id"]
            await _play(server, entry, players[name][1], 3 - i, end=True)
        api.join(finished["id"], players["dee"][1])  # never starts
        for i, name in enumerate(("bob", "cy")):
            entry = api.join(running["id"], players[name][1])
            await _play(server, entry, players[name][1], 2 + i, end=False)
        mine = api.join(running["id"], players["ann"][1])
        await _play(server, mine, players["ann"][1], 1, end=False)
        return mine

    async def match() -> int:
        """A match of ann and bob, over (the result, the replays); one of cy's waits (the counts)."""
        seats = [_ask(api, players[name][1]) for name in ("ann", "bob")]
        assert seats[0]["match"]["id"] == seats[1]["match"]["id"]
        for seat, name in zip(seats, ("ann", "bob"), strict=True):
            await _play(server, seat["entry"], players[name][1], 0, end=True)  # its deal is its own: no moves
        _ask(api, players["cy"][1])
        return int(seats[0]["match"]["id"])

    mine = asyncio.run(fill())
    match_id = asyncio.run(match())
    # A bracket taking entries, ann in it (the page's join, countdown and the lobby's list).
    cup_body = {
        "name": "Spring knockout cup",
        "settings": SETTINGS,
        "opens_at": (datetime.now(UTC) + timedelta(hours=1)).isoformat(),
    }
    cup = api.http.post("/api/brackets", json=cup_body, headers=bearer(organiser))
    assert cup.status_code == 201, cup.text
    joined = api.http.post(f"/api/brackets/{cup.json()['id']}/entries", headers=bearer(players["ann"][1]))
    assert joined.status_code == 201, joined.text
    deadline = time.monotonic() + 20
    while api.tournament(finished["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the first tournament did not finish"
        time.sleep(0.2)
    ann_id, ann_token = players["ann"]
    yield {
        "organiser": organiser,
        "club": club["id"],
        "series": series["id"],
        "finished": finished["id"],
        "finished_entry": played["ann"],
        "running": running["id"],
        "entry": mine["id"],
        "match": match_id,
        "bracket": cup.json()["id"],
        "player": {"id": ann_id, "name": "ann", "token": ann_token},
    }


def _routes(w: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("lobby", "#/lobby"),
        ("game", f"#/play/{w['entry']}"),
        ("first-game", "#/play/first"),
        ("board", f"#/board/{w['running']}"),
        ("finished-board", f"#/board/{w['finished']}"),
        ("finished", f"#/finished/{w['finished']}"),
        ("finished-replay", f"#/finished/{w['finished']}/{w['finished_entry']}"),  # ann's replay, in view
        ("settings", "#/settings"),
        ("account", "#/account"),
        ("me", "#/me"),
        ("profile", f"#/player/{w['player']['id']}"),
        ("join", f"#/join/{w['running']}"),
        ("series", f"#/series/{w['series']}"),
        ("club", f"#/club/{w['club']}"),
        ("codes", f"#/club/{w['club']}/codes"),
        ("progress", f"#/club/{w['club']}/progress"),
        ("organise", "#/organise"),
        ("organise-new", "#/organise/new"),
        ("organise-live", f"#/organise/tournament/{w['running']}"),
        ("organise-recurring", "#/organise/recurring"),
        ("organise-clubs", "#/organise/clubs"),
        ("organise-series", "#/organise/series"),
        ("organise-brackets", "#/organise/brackets"),
        ("play-now", "#/matches"),
        ("match", f"#/match/{w['match']}"),
        ("knockout", f"#/bracket/{w['bracket']}"),  # its README pictures: tests/browser/brackets
    ]


@pytest.mark.parametrize("size", list(SIZES))
async def test_no_page_scrolls_sideways(
    browser: Browser, server: ServerProcess, world: dict[str, Any], size: str, shots: Path
) -> None:
    context = await new_context(browser, server, **SIZES[size])
    me = json.dumps(json.dumps(world["player"]))
    admin = json.dumps(world["organiser"])
    await context.add_init_script(  # not on about:blank, which has no storage
        f"if (location.protocol.startsWith('http')) {{ localStorage.setItem('spidertour.player', {me});"
        f" sessionStorage.setItem('spidertour.admin', {admin}); }}"
    )
    page: Page = await context.new_page()
    errors = js_errors(page)
    found: dict[str, list[str]] = {}
    axe: dict[str, list[str]] = {}  # what axe-core finds on each page
    titles: dict[str, str] = {}
    try:
        for name, route in _routes(world):
            await page.goto("about:blank")  # a full load each time: a hash change alone keeps the old page a while
            await page.goto(f"/{route}")
            await expect(page.locator(f"body[data-route='{route.split('/')[1]}'] #main > *").first).to_be_visible()
            await page.wait_for_load_state("networkidle")
            if name.startswith("organise"):
                await _open_organiser_sections(page, name, world)
            if name == "finished-replay":
                await expect(page.locator(f".replay[data-entry='{world['finished_entry']}'] h2")).to_be_in_viewport()
            if name in ("finished", "finished-replay", "organise-new", "organise-recurring", "organise-brackets"):
                for details in await page.locator("details").all():
                    await details.evaluate("(d) => { d.open = true; }")
            await page.wait_for_timeout(150)
            out = await page.evaluate(OFF_SCREEN)
            title, h1s = await page.evaluate(HEADINGS)
            if title == "spidertour" or len(h1s) != 1:
                out.append(f"title {title!r}, headings {h1s}")
            titles[name] = title
            said = await page.locator("#main").inner_text()
            out += [f"says {word!r}" for word in re.findall(r"\b(?:null|undefined|NaN)\b|\[object \w+\]", said)]
            if out:
                found[name] = out
            if broken := await violations(page):
                axe[name] = broken
            await snap(page, shots, f"every-{name}-{size}", full_page=True)
            if f"page-{name}-{size}" in DOCS_SHOTS:  # the README's pictures: the screen as it first shows
                await page.evaluate("window.scrollTo(0, 0)")
                await snap(page, shots, f"page-{name}-{size}")
    finally:
        await context.close()
    assert found == {}, found
    assert axe == {}, axe
    assert errors == []
    twins = {name: title for name, title in titles.items() if list(titles.values()).count(title) > 1}
    assert twins == {}, twins  # every page its own title


async def _open_organiser_sections(page: Page, name: str, world: dict[str, Any]) -> None:
    """The organiser's pages with what they list shown: the dashboard's sittings, a sitting's entrants."""
    if name == "organise":
        await expect(page.locator(f"[data-item='tournament-{world['running']}']")).to_be_visible()
        await expect(page.locator(f"[data-item='club-{world['club']}']")).to_be_visible()
    if name == "organise-live":
        await expect(page.locator(f"[data-entries-of='{world['running']}'] [data-entry]").first).to_be_visible()
        await expect(page.locator(f"[data-tournament-row='{world['running']}']")).to_be_visible()
