"""The table on touch screens: big targets for narrow columns (Huge Spider on a phone), a compact
header in landscape, a deal asked before it is made, and a double-tap (or double-click) that sends
cards to their best place."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, expect

from spidertour.engine import Deal, Game, MoveCards, Settings
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import card, card_moves, column, expect_board, grab_point, sign_in
from tests.browser.test_screens import LONG_COLUMNS, assert_indexes_readable
from tests.client import Api
from tests.serverproc import ServerProcess

PORTRAIT = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
DESKTOP = {"width": 1280, "height": 800}
RANKS = "A23456789TJQK"


class Table:
    """A started game in its own browser context, and the engine's copy of it."""

    def __init__(self, context: BrowserContext, page: Page, game: Game, errors: list[str], size: dict[str, int]):
        self.context, self.page, self.game, self.errors, self.size = context, page, game, errors, size

    async def close(self) -> None:
        assert await self.page.evaluate("document.documentElement.scrollWidth") <= self.size["width"]
        await self.context.close()
        assert self.errors == []


async def open_table(
    browser: Browser, server: ServerProcess, api: Api, variant: str, suits: int, size: dict[str, int], **settings: Any
) -> Table:
    touch = size != DESKTOP
    seed = f"touch-{variant}-{size['width']}"
    tour = api.create_tournament(name=f"{variant} by touch", seed=seed, variant=variant, suits=suits, **settings)
    context = await new_context(browser, server, viewport=size, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    me = await sign_in(page, api, f"{variant} {size['width']}x{size['height']}")
    entry = api.join(tour["id"], me["token"])
    game = Game(Settings(variant=variant, suits=suits, **settings), seed)
    await page.goto(f"/#/play/{entry['id']}")
    start = page.locator("[data-action=start]")
    await (start.tap() if touch else start.click())
    await expect_board(page, game.view())
    return Table(context, page, game, errors, size)


# ------------------------------------------------------------------ big targets for narrow columns


async def test_huge_spider_on_a_phone_offers_targets_a_finger_can_hit(
    browser: Browser, server: ServerProcess, api: Api, shots: Path
) -> None:
    table = await open_table(browser, server, api, "huge_spider", 4, PORTRAIT)
    page, game = table.page, table.game
    box = await page.locator(column(0)).bounding_box()
    assert box is not None and box["width"] < 40  # twenty columns: far too narrow to aim at
    move = max(card_moves(game), key=lambda m: (m.count, -m.src))
    x, y = await grab_point(page, card(move.src, len(game.columns[move.src]) - move.count))
    await page.touchscreen.tap(x, y)
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{move.src}:{move.count}")

    # A big button for every column the picked cards may go to, and only those.
    targets = page.locator(".targets .target:not(.cancel)")
    legal = sorted(m.dst for m in card_moves(game, src=move.src, count=move.count))
    await expect(targets).to_have_count(len(legal))
    assert [int(t) for t in await targets.evaluate_all("(ts) => ts.map((t) => t.dataset.target)")] == legal
    for target in await page.locator(".targets .target").all():
        tbox = await target.bounding_box()
        assert tbox is not None and tbox["width"] >= 40 and tbox["height"] >= 40, tbox
        assert tbox["x"] >= 0 and tbox["x"] + tbox["width"] <= PORTRAIT["width"]
    await snap(page, shots, "touch-targets")
    top = game.view()["columns"][move.dst][-1]
    await expect(page.locator(f'.targets .target[data-target="{move.dst}"]')).to_contain_text(
        "10" if top[0] == "T" else top[0]
    )

    # The cross puts the cards back; picked again, a tap on a target moves them.
    await page.locator('.targets .target[data-target="cancel"]').tap()
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", "")
    await expect(page.locator(".targets")).to_have_count(0)
    await page.touchscreen.tap(x, y)
    await page.locator(f'.targets .target[data-target="{move.dst}"]').tap()
    game.play(move)
    await expect_board(page, game.view())
    await expect(page.locator(".targets")).to_have_count(0)
    await table.close()


async def test_wide_columns_need_no_targets(browser: Browser, server: ServerProcess, api: Api) -> None:
    table = await open_table(browser, server, api, "huge_spider", 4, DESKTOP)
    page, game = table.page, table.game
    move = max(card_moves(game), key=lambda m: (m.count, -m.src))
    x, y = await grab_point(page, card(move.src, len(game.columns[move.src]) - move.count))
    await page.mouse.click(x, y)
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{move.src}:{move.count}")
    await expect(page.locator(".targets")).to_have_count(0)
    await table.close()


# ------------------------------------------------------------------ landscape


async def test_landscape_keeps_the_height_for_the_columns(
    browser: Browser, server: ServerProcess, api: Api, shots: Path
) -> None:
    table = await open_table(browser, server, api, "spider", 2, LANDSCAPE)
    page = table.page
    parts = await page.evaluate("""() => {
      const box = (s) => document.querySelector(s).getBoundingClientRect();
      return {header: box('header.top').height, hud: box('.game-page .hud').height,
              board: box('.game-page .board-wrap').top};
    }""")
    assert parts["header"] + parts["hud"] <= 80, parts
    assert parts["board"] <= 90, parts
    await snap(page, shots, "touch-landscape")

    # The deepest column (3 face-down cards, 20 face-up) fits the window with every index readable.
    await page.evaluate(LONG_COLUMNS)
    await expect(page.locator(column(0) + " .card")).to_have_count(23)
    await assert_indexes_readable(page, 0, 20 - 1)
    # Cards are not shrunk to slivers for it: when it cannot fit, the page scrolls down, never across.
    width = await page.locator(column(0)).evaluate("(c) => c.getBoundingClientRect().width")
    assert width >= 28
    await page.locator(column(0) + " .card").last.scroll_into_view_if_needed()
    last = await page.locator(column(0) + " .card").last.bounding_box()
    assert last is not None and last["y"] >= 0 and last["y"] + last["height"] <= LANDSCAPE["height"] + 0.5, last
    assert await page.evaluate("document.documentElement.scrollWidth") <= LANDSCAPE["width"]
    await snap(page, shots, "touch-landscape-long")
    await table.close()


# ------------------------------------------------------------------ deals asked on touch screens


async def test_a_tap_on_a_draw_pile_asks_before_it_deals(
    browser: Browser, server: ServerProcess, api: Api, shots: Path
) -> None:
    table = await open_table(browser, server, api, "spider78", 2, PORTRAIT)
    page, game = table.page, table.game
    dialog = page.locator("dialog.confirm-dialog")
    await page.locator('.pile[data-pile="2"]').tap()
    await expect(dialog).to_be_visible()
    await expect(dialog).to_contain_text("Deal pile 3?")
    await expect(dialog).to_contain_text("cannot be undone")
    await snap(page, shots, "touch-deal")
    await dialog.locator("[data-action=cancel]").tap()
    await expect(dialog).to_have_count(0)
    await expect(page.locator('.pile[data-pile="2"]')).to_have_attribute("data-count", "8")
    await expect_board(page, game.view())

    await page.locator('.pile[data-pile="2"]').tap()
    await dialog.locator("[data-action=confirm]").tap()
    game.play(Deal(2))
    await expect_board(page, game.view())
    await expect(page.locator('.pile[data-pile="2"]')).to_have_attribute("data-count", "0")
    await table.close()


async def test_piles_dealt_in_order_say_which_comes_next(browser: Browser, server: ServerProcess, api: Api) -> None:
    table = await open_table(browser, server, api, "spider78", 2, LANDSCAPE, draw_pile_choice=False)
    page, game = table.page, table.game
    dialog = page.locator("dialog.confirm-dialog")
    await page.locator('.pile[data-pile="3"]').tap()
    await expect(dialog).to_contain_text("Deal pile 1?")
    await expect(dialog).to_contain_text("pile 1 is next")
    await dialog.locator("[data-action=confirm]").tap()
    game.play(Deal())
    await expect_board(page, game.view())
    await table.close()


async def test_a_tap_on_the_stock_asks_and_a_click_deals_at_once(
    browser: Browser, server: ServerProcess, api: Api
) -> None:
    table = await open_table(browser, server, api, "spider", 2, PORTRAIT)
    page, game = table.page, table.game
    dialog = page.locator("dialog.confirm-dialog")
    await page.locator(".stock").tap()
    await expect(dialog).to_contain_text("Deal a new row?")
    await expect(dialog).to_contain_text("cannot be undone")
    await dialog.locator("[data-action=confirm]").tap()
    game.play(Deal())
    await expect_board(page, game.view())
    await table.close()

    table = await open_table(browser, server, api, "spider", 2, DESKTOP)
    page, game = table.page, table.game
    await page.locator(".stock").click()
    game.play(Deal())
    await expect_board(page, game.view())
    await expect(page.locator("dialog.confirm-dialog")).to_have_count(0)
    await table.close()


# ------------------------------------------------------------------ double-tap: the best place


def best_place(game: Game, src: int, count: int) -> int | None:
    """As the board ranks them: a same-suit continuation, another build, an empty column; nearest to the right."""
    cards = game.view()["columns"]
    first = cards[src][-count]
    best: tuple[int, int] | None = None
    width = len(cards)
    for step in range(1, width):
        dst = (src + step) % width
        if dst == game.free_column or not game.is_legal(MoveCards(src, count, dst)):
            continue
        if not cards[dst]:
            if count == len(cards[src]):
                continue
            rank = 3
        else:
            top = cards[dst][-1]
            rank = 1 if top[1] == first[1] and RANKS.index(top[0]) == RANKS.index(first[0]) + 1 else 2
        if best is None or rank < best[0]:
            best = (rank, dst)
    return None if best is None else best[1]


def double_tap_cases(game: Game) -> tuple[tuple[int, int, int], int]:
    """A card with a best place (src, count, dst), one with a choice if any; a column whose last card has none."""
    movable = []
    stuck = None
    for src, cards in enumerate(game.columns):
        if not cards or src == game.free_column:
            continue
        dst = best_place(game, src, 1)
        if dst is None:
            stuck = src
        else:
            choices = len(card_moves(game, src=src, count=1))
            movable.append((choices, (src, 1, dst)))
    assert movable and stuck is not None
    return max(movable)[1], stuck


async def test_a_double_tap_sends_a_card_to_its_best_place(browser: Browser, server: ServerProcess, api: Api) -> None:
    for size in (PORTRAIT, DESKTOP):
        table = await open_table(browser, server, api, "spider", 2, size)
        page, game = table.page, table.game
        (src, count, dst), _ = double_tap_cases(game)
        x, y = await grab_point(page, card(src, len(game.columns[src]) - count))
        if size == DESKTOP:
            await page.mouse.dblclick(x, y)
        else:
            await page.touchscreen.tap(x, y)
            await page.touchscreen.tap(x, y)
        game.play(MoveCards(src, count, dst))
        await expect_board(page, game.view())
        await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", "")

        # Nowhere to go: the card shakes and a note says so; nothing moves.
        _, stuck = double_tap_cases(game)
        sx, sy = await grab_point(page, card(stuck, len(game.columns[stuck]) - 1))
        if size == DESKTOP:
            await page.mouse.dblclick(sx, sy)
        else:
            await page.touchscreen.tap(sx, sy)
            await page.touchscreen.tap(sx, sy)
        await expect(page.locator(".board-note")).to_have_text(re.compile("No column takes"))
        await expect(page.locator(f"{column(stuck)} .card.shake")).to_have_count(1)
        await expect_board(page, game.view())
        await table.close()


async def test_two_slow_taps_pick_then_put_back(browser: Browser, server: ServerProcess, api: Api) -> None:
    """Only a quick second tap moves: a slow one puts the picked cards back, as before."""
    table = await open_table(browser, server, api, "spider", 2, PORTRAIT)
    page, game = table.page, table.game
    (src, count, _), _ = double_tap_cases(game)
    x, y = await grab_point(page, card(src, len(game.columns[src]) - count))
    await page.touchscreen.tap(x, y)
    board = page.locator(".game-page .board")
    await expect(board).to_have_attribute("data-picked", f"{src}:{count}")
    await page.wait_for_timeout(600)  # longer than a double-tap: what is tested is the pause itself
    await page.touchscreen.tap(x, y)
    await expect(board).to_have_attribute("data-picked", "")
    await expect_board(page, game.view())
    await table.close()
