"""A newcomer's first game (#/play/first): from the lobby, with no account, a short unranked deal of
Spider 78 with one suit on the same table as every game, with hints; the result panel leads to the
open tournaments and to another deal. It is played in the page alone: no leaderboard, no rating."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import card, column, drag, drop_point, grab_point, sign_in
from tests.client import Api
from tests.serverproc import ServerProcess

SIZES: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True},
    "sideways": {"viewport": {"width": 740, "height": 360}, "has_touch": True, "is_mobile": True},
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}
TOUCH = ("phone", "sideways")
SAYS_NOTHING = re.compile(r"\b(?:null|undefined|NaN)\b|\[object \w+\]")


def _watch(page: Page) -> list[str]:
    """What the page asks the server beyond reading: every request not a GET, and every websocket."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(f"{r.method} {r.url}") if r.method != "GET" else None)
    page.on("websocket", lambda ws: asked.append(f"websocket {ws.url}"))
    return asked


async def _press(page: Page, size: str, selector: str) -> None:
    target = page.locator(selector)
    await (target.tap() if size in TOUCH else target.click())


async def _hint(page: Page, size: str) -> str:
    """Press Hint: the table shows a move (column:count:target) or a pile to deal, and says it."""
    board = page.locator(".first-game .board")
    await _press(page, size, "[data-action=hint]")
    await expect(board).to_have_attribute("data-hint", re.compile(r"^(\d+:\d+:\d+|pile:\d)$"))
    await expect(page.locator(".first-game .message.show")).to_contain_text("Hint:")
    return str(await board.get_attribute("data-hint"))


async def _follow(page: Page, size: str, hint: str, by: str) -> None:
    """Do what the hint says, by a tap on the cards then a tap on the target (`tap`), or a drag."""
    board = page.locator(".first-game .board")
    if hint.startswith("pile:"):
        pile = hint.split(":")[1]
        await _press(page, size, f".pile[data-pile='{pile}']")
        if size in TOUCH:  # a deal by touch is asked first
            await page.locator("dialog [data-action=confirm]").tap()
        await expect(page.locator(f".pile[data-pile='{pile}']")).to_have_attribute("data-count", "0")
        return
    src, count, dst = (int(x) for x in hint.split(":"))
    before_src = await page.locator(column(src) + " .card").count()
    before_dst = await page.locator(column(dst) + " .card").count()
    index = before_src - count
    highlighted = page.locator(f"{column(src)} .card.hint-from")
    await expect(highlighted).to_have_count(count)  # the cards to move glow, and their target
    await expect(page.locator(f"{column(dst)}.hint-to")).to_have_count(1)
    if by == "drag":
        await drag(page, src, index, dst)
    else:
        x, y = await grab_point(page, card(src, index))
        await (page.touchscreen.tap(x, y) if size in TOUCH else page.mouse.click(x, y))
        await expect(board).to_have_attribute("data-picked", re.compile(rf"^{src}:"))
        tx, ty = await drop_point(page, dst)
        await (page.touchscreen.tap(tx, ty) if size in TOUCH else page.mouse.click(tx, ty))
    await expect(board).not_to_have_attribute("data-hint", hint)  # the table is drawn again
    if not await page.locator(".first-game .message.ok").count():  # a completed run would take 13 cards away
        await expect(page.locator(column(dst) + " .card")).to_have_count(before_dst + count)


@pytest.mark.parametrize("size", list(SIZES))
async def test_a_newcomer_plays_a_first_game_with_hints(
    browser: Browser, server: ServerProcess, size: str, shots: Path
) -> None:
    context = await new_context(browser, server, **SIZES[size])
    page = await context.new_page()
    errors = js_errors(page)
    asked = _watch(page)
    width = SIZES[size]["viewport"]["width"]
    try:
        await page.goto("/#/lobby")
        first = page.locator("[data-action=first-game]")
        await expect(first).to_be_visible()
        await snap(page, shots, f"first-lobby-{size}")
        box = await first.bounding_box()
        assert box is not None and box["y"] < SIZES[size]["viewport"]["height"], box  # on the first screen
        await _press(page, size, "[data-action=first-game]")
        await expect(page).to_have_url(re.compile(r"#/play/first$"))
        await expect(page).to_have_title("A first game \u00b7 spidertour")
        await expect(page.locator("h1")).to_have_count(1)
        start_panel = page.locator(".first-game .start-panel")
        await expect(start_panel).to_contain_text("no account")
        await expect(page.locator("[data-action=hint]")).to_be_disabled()  # the game begins at Start
        await expect(page.locator(".first-game .first-tip")).to_contain_text("King down to Ace")
        await _press(page, size, ".start-panel .glossary summary")
        await expect(start_panel.locator("[data-word=par]")).to_be_visible()
        await snap(page, shots, f"first-start-{size}")
        await _press(page, size, "[data-action=start]")
        await expect(start_panel).to_be_hidden()
        await expect(page.locator(".first-game .tableau .column")).to_have_count(9)  # 8 and the free column
        rules = page.locator(".first-game [data-field=rules]")
        await expect(rules).to_have_text("Spider 78 \u00b7 1 suit \u00b7 free column \u00b7 undo \u00b7 unranked")
        await expect(page.locator("[data-stat=clock]")).to_have_text(re.compile(r"^1[89]:\d\d$"))
        await _press(page, size, "[data-action=dismiss-tip]")
        await expect(page.locator(".first-game .first-tip")).to_be_hidden()

        moved = 0
        for turn in range(4):
            hint = await _hint(page, size)
            if turn == 0:
                await snap(page, shots, f"first-hint-{size}")
            by = "drag" if (size == "desktop" and turn % 2 == 0) or (size != "desktop" and turn == 3) else "tap"
            await _follow(page, size, hint, by)
            moved += not hint.startswith("pile:")
        assert moved >= 2
        assert await page.evaluate("document.documentElement.scrollWidth") <= width

        # The end: the result panel of every game, unranked, and the ways on.
        await _press(page, size, "[data-action=end]")
        await page.locator("dialog [data-action=confirm]").click()
        over = page.locator(".first-game .over-panel")
        await expect(over).to_be_visible()
        await expect(over.locator("[data-field=unranked]")).to_contain_text("unranked")
        await expect(over.locator("[data-part=final_score]")).to_have_text(re.compile(r"^\d+$"))
        await snap(page, shots, f"first-over-{size}")
        said = await over.inner_text()
        assert not SAYS_NOTHING.search(said), said
        await expect(over.locator("[data-action=join-tournament]")).to_have_attribute("href", "#/lobby/open")
        await _press(page, size, "[data-action=play-again]")
        await expect(over).to_be_hidden()
        await expect(page.locator("[data-stat=score]")).to_have_text("0")
        await expect(page.locator("[data-action=hint]")).to_be_enabled()
        await _press(page, size, "[data-action=end]")
        await page.locator("dialog [data-action=confirm]").click()
        await _press(page, size, "[data-action=join-tournament]")
        await expect(page).to_have_url(re.compile(r"#/lobby/open$"))
        await expect(page.locator(".lobby-page [data-status=open]")).to_be_in_viewport()
    finally:
        await context.close()
    assert errors == []
    assert asked == []  # the first game is the page's alone: nothing sent, no socket


async def test_the_first_game_is_on_no_board(browser: Browser, server: ServerProcess, api: Api) -> None:
    """A player with an entry in an open tournament plays a first game: its tournament's standings,
    its entrants and the player's ratings and results are as they were."""
    tour = api.create_tournament(name="Open while learning", variant="spider78", suits=1)
    context = await new_context(browser, server)
    page = await context.new_page()
    errors = js_errors(page)
    me = await sign_in(page, api, "learner")
    api.join(tour["id"], me["token"])
    board_before = api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json()
    profile_before = api.http.get(f"/api/players/{me['id']}").json()
    asked = _watch(page)
    try:
        await page.goto("/#/play/first")
        await page.locator("[data-action=start]").click()
        for _ in range(3):
            await _follow(page, "desktop", await _hint(page, "desktop"), "tap")
        await page.locator("[data-action=end]").click()
        await page.locator("dialog [data-action=confirm]").click()
        await expect(page.locator(".first-game .over-panel [data-field=unranked]")).to_be_visible()
    finally:
        await context.close()
    assert errors == []
    assert asked == []
    assert api.http.get(f"/api/tournaments/{tour['id']}/leaderboard").json() == board_before
    assert api.tournament(tour["id"])["entrants"] == 1
    assert api.http.get(f"/api/players/{me['id']}").json() == profile_before
    mine = api.http.get("/api/me/entries", headers={"Authorization": f"Bearer {me['token']}"}).json()
    assert [e["tournament_id"] for e in mine] == [tour["id"]]


async def _explained(page: Page, size: str, where: str) -> None:
    """The glossary under `where`: folded, one tap opens it, and each word has its line."""
    glossary = page.locator(f"{where} .glossary")
    await expect(glossary.locator("summary")).to_be_visible()
    lines = {word: glossary.locator(f"[data-word={word}]") for word in ("par", "certified", "commitment")}
    await expect(lines["par"]).to_be_hidden()
    await _press(page, size, f"{where} .glossary summary")
    await expect(lines["par"]).to_contain_text("solver")
    await expect(lines["certified"]).to_contain_text("can be won")
    await expect(lines["commitment"]).to_contain_text("before anyone plays")
    for line in lines.values():  # within reach: the page scrolls to it, never sideways
        await line.scroll_into_view_if_needed()
        await expect(line).to_be_in_viewport()
        box = await line.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= await page.evaluate("innerWidth")


@pytest.mark.parametrize("size", list(SIZES))
async def test_the_first_screens_explain_par_certified_and_commitment(
    browser: Browser, server: ServerProcess, api: Api, size: str, shots: Path
) -> None:
    tours = [api.create_tournament(name=f"Evening {i}", variant="spider78", suits=2) for i in range(3)]
    context = await new_context(browser, server, **SIZES[size])
    page = await context.new_page()
    errors = js_errors(page)
    try:
        # The lobby of a newcomer, tournaments open: the first game on the first screen, the words with it.
        await page.goto("/#/lobby")
        await expect(page.locator(f"[data-tournament='{tours[0]['id']}']")).to_be_visible()
        first = page.locator("[data-action=first-game]")
        box = await first.bounding_box()
        assert box is not None and 0 <= box["y"] < SIZES[size]["viewport"]["height"] - box["height"], box
        await _explained(page, size, "[data-panel=first-game]")
        # The join page of a shared link.
        await page.goto(f"/#/join/{tours[1]['id']}")
        await expect(page.locator(".join-page [data-panel=about]")).to_be_visible()
        await _explained(page, size, ".join-page")
        await snap(page, shots, f"first-words-join-{size}")
        # A tournament game's start panel.
        me = await sign_in(page, api, f"newcomer {size}")
        entry = api.join(tours[2]["id"], me["token"])
        await page.goto(f"/#/play/{entry['id']}")
        await page.reload()  # a new document: the player's token is in its storage from the start
        await expect(page.locator("[data-action=start]")).to_be_visible()
        await _explained(page, size, ".start-panel")
        said = await page.locator(".start-panel").inner_text()
        assert not SAYS_NOTHING.search(said), said
        await snap(page, shots, f"first-words-start-{size}")
    finally:
        await context.close()
    assert errors == []


async def test_the_hint_weighs_the_moves(browser: Browser, server: ServerProcess) -> None:
    """The hint's choice on set tables: a reveal before a mere build, never a shuffle between two
    equal places nor the free column, and a deal when no move helps (then undo or end)."""
    context = await new_context(browser, server)
    page = await context.new_page()
    await page.goto("/#/settings")
    found = await page.evaluate(
        """async () => {
          const { findHint } = await import('/js/game/hint.js');
          const view = (columns, piles = 1) => ({ variant: 'spider78', free_column: 3, columns,
            draw_piles: Array.from({ length: 5 }, (_, p) => ({ count: p < piles ? 8 : 0, top: null })) });
          return [
            findHint(view([['??', '7S'], ['9S', '8S'], ['KS', '8H'], []])),  // 7S turns a card: onto 8S or 8H
            findHint(view([['5S'], ['9S', '8S'], ['JS', '6S'], []])),  // 5S builds onto 6S
            findHint(view([['9S', '8S', '7S'], ['KS', '8H'], ['5S'], []])),  // 7S already on 8S: no move
            findHint(view([['9S', '8S', '7S'], ['KS', '8H'], ['5S'], []], 0)),  // and nothing to deal
            findHint(view([['??', '7S'], ['KS', '9H'], ['QS'], []])),  // the free column, for a reveal only
            findHint(view([['KS', 'QS', 'JS', 'TS', '9S', '8S', '7S', '6S', '5S', '4S'],
              ['5S', '4S', '3S', '2S', 'AS'], ['QS'], []])),  // 3S 2S AS leave 4S to complete a sequence
          ];
        }"""
    )
    await context.close()
    assert found[0]["col"] == 0 and found[0]["to"] == 1 and "face-down" in found[0]["why"]
    assert (found[1]["col"], found[1]["count"], found[1]["to"]) == (0, 1, 2)
    assert found[2] == {"pile": 0}
    assert found[3] == {"stuck": True}
    assert (found[4]["col"], found[4]["to"]) == (0, 3) and "free column" in found[4]["why"]
    assert (found[5]["col"], found[5]["count"], found[5]["to"]) == (1, 3, 0) and "sequence" in found[5]["why"]


async def test_following_the_hints_never_goes_round_in_circles(browser: Browser, server: ServerProcess) -> None:
    """Deal after deal of the first game, every hint is a move the rules take, and hints followed one
    after another end (a win, or nothing left to suggest) instead of moving cards back and forth."""
    context = await new_context(browser, server)
    page = await context.new_page()
    await page.goto("/#/settings")
    games = await page.evaluate(
        """async () => {
          const { newGame } = await import('/js/engine/index.js');
          const { findHint } = await import('/js/game/hint.js');
          const { FIRST_SETTINGS } = await import('/js/pages/first.js');
          const out = [];
          for (let d = 0; d < 8; d++) {
            const game = await newGame(FIRST_SETTINGS, `hints-${d}`);
            let steps = 0;
            for (; steps < 400 && !game.outcome; steps++) {
              const hint = findHint(game.view());
              if (hint.stuck) break;
              if (hint.pile !== undefined) game.play({ type: 'deal', pile: hint.pile });
              else game.play({ type: 'move', from: hint.col, count: hint.count, to: hint.to });
            }
            out.push({ steps, outcome: game.outcome, sequences: game.sequences });
          }
          return out;
        }"""
    )
    await context.close()
    assert all(g["steps"] < 400 for g in games), games
    assert any(g["outcome"] == "won" for g in games), games  # hints alone win some of these deals
