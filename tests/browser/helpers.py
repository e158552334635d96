"""Reading the web client's table and acting on it like a person: pointer, clicks, keys."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, IllegalMoveError, MoveCards
from tests.browser.conftest import js_errors, new_context
from tests.client import Api
from tests.serverproc import ServerProcess

# What the page shows: every column's cards as their texts ("??" face down), pile counts and tops.
READ_BOARD = """() => {
  const board = document.querySelector('.game-page .board, .replay .board');
  if (!board) return null;
  const columns = [...board.querySelectorAll('.tableau .column')].map(
    (c) => [...c.querySelectorAll('.card')].map((x) => x.dataset.card));
  const piles = [...board.querySelectorAll('.pile')].map((p) => ({
    count: Number(p.dataset.count),
    top: p.dataset.count === '0' ? null : p.querySelector('.card:not(.under)').dataset.card,
  }));
  const stock = board.querySelector('.stock');
  return {columns, piles, stock: stock ? Number(stock.dataset.stock) : null,
          deals: stock ? Number(stock.dataset.deals) : null};
}"""


async def board(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate(READ_BOARD)
    return found


def shown(view: dict[str, Any]) -> dict[str, Any]:
    """The same reading, from an engine or server view."""
    piles = view.get("draw_piles") or []
    return {
        "columns": view["columns"],
        "piles": [{"count": p["count"], "top": (p["top"] or "??") if p["count"] else None} for p in piles],
        "stock": view.get("stock"),
        "deals": view.get("deals_left"),
    }


async def expect_board(page: Page, view: dict[str, Any], timeout: float = 5.0) -> None:
    """Wait until the page shows exactly this view's table."""
    want = shown(view)
    await page.wait_for_function(
        f"want => JSON.stringify(({READ_BOARD})()) === JSON.stringify(want)", arg=want, timeout=timeout * 1000
    )


async def sign_in(page: Page, api: Api, name: str) -> dict[str, Any]:
    """A registered player whose token the page's storage holds from its first load (as after registering)."""
    player_id, token = api.register(name)
    me = {"id": player_id, "name": name, "token": token}
    stored = json.dumps(json.dumps(me))
    await page.context.add_init_script(
        f"if (!localStorage.getItem('spidertour.player')) localStorage.setItem('spidertour.player', {stored});"
    )
    return me


def card(col: int, index: int) -> str:
    return f'.tableau .column[data-col="{col}"] .card[data-index="{index}"]'


def column(col: int) -> str:
    return f'.tableau .column[data-col="{col}"]'


async def grab_point(page: Page, selector: str) -> tuple[float, float]:
    """The visible top strip of a card (the cards below it cover the rest)."""
    box = await page.locator(selector).bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + 8


async def drop_point(page: Page, col: int) -> tuple[float, float]:
    box = await page.locator(column(col)).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 120)


async def drag(page: Page, src: int, index: int, dst: int) -> None:
    """Press on card `index` of column `src`, drag it over column `dst`, release."""
    x, y = await grab_point(page, card(src, index))
    tx, ty = await drop_point(page, dst)
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 8, y + 8, steps=2)
    await page.mouse.move(tx, ty, steps=8)
    await page.mouse.up()


async def click_move(page: Page, src: int, index: int, dst: int) -> None:
    """Click a card to pick it (and the cards on it), then click the target column."""
    count = await page.locator(column(src) + " .card").count() - index
    x, y = await grab_point(page, card(src, index))
    await page.mouse.click(x, y)
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{src}:{count}")
    tx, ty = await drop_point(page, dst)
    await page.mouse.click(tx, ty)


def reveals(game: Game, move: Any) -> bool:
    """A card move that takes every face-up card of a column with face-down cards under them."""
    if move.type != "move" or game.down[move.src] == 0:
        return False
    return bool(move.count == len(game.columns[move.src]) - game.down[move.src])


def card_moves(game: Game, **where: Any) -> list[MoveCards]:
    free = game.free_column
    out = []
    for m in game.legal_moves():
        if not isinstance(m, MoveCards) or m.dst == free or m.src == free:
            continue
        if all(getattr(m, k) == v for k, v in where.items()):
            out.append(m)
    return out


def refused(game: Game, code: str) -> tuple[MoveCards, str]:
    """A single-card move the rules refuse with this code, and the engine's reason."""
    width = len(game.columns)
    for src in range(width):
        for dst in range(width):
            if src == dst or not game.columns[src]:
                continue
            move = MoveCards(src, 1, dst)
            try:
                game.copy().play(move)
            except IllegalMoveError as err:
                if err.code == code:
                    return move, err.reason
    raise AssertionError(f"no move refused with {code}")


async def key_move(page: Page, src: int, count: int, dst: int) -> None:
    """Arrows to the source column, Up/Down to the count, Enter; arrows to the target, Enter."""
    board_el = page.locator(".game-page .board")

    async def cursor_to(col: int) -> None:
        for _ in range(60):
            at = await page.evaluate("Number(document.querySelector('.tableau .column.cursor')?.dataset.col ?? -1)")
            if at == col:
                return
            await page.keyboard.press("ArrowLeft" if at > col else "ArrowRight")
        raise AssertionError(f"the cursor never reached column {col}")

    await cursor_to(src)
    for _ in range(30):
        grabbed = await page.locator(".tableau .card.grab").count()
        if grabbed == count:
            break
        await page.keyboard.press("ArrowUp" if grabbed < count else "ArrowDown")
    await page.keyboard.press("Enter")
    await expect(board_el).to_have_attribute("data-picked", f"{src}:{count}")
    await cursor_to(dst)
    await page.keyboard.press("Enter")


SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def card_words(text: str) -> str:
    """A reason from the rules as the page words it: its card codes as the cards show them ("TH" -> "10\u2665")."""
    return re.sub(r"\b([A2-9TJQK])([SHDC])\b", lambda m: ("10" if m[1] == "T" else m[1]) + SYMBOLS[m[2]], text)


# The three screens a page is tried on: (viewport, touch).
SCREENS: dict[str, tuple[dict[str, int], bool]] = {
    "phone": ({"width": 360, "height": 740}, True),
    "landscape": ({"width": 740, "height": 360}, True),
    "desktop": ({"width": 1280, "height": 800}, False),
}
# Words a page must never say.
BAD_WORDS = r"\b(null|undefined|NaN)\b"


class Screen:
    """A page on one of SCREENS, pressed as its user would: a tap on a touch screen, else a click."""

    def __init__(self, page: Page, touch: bool, name: str) -> None:
        self.page = page
        self.touch = touch
        self.name = name

    async def press(self, selector: str) -> None:
        target = self.page.locator(selector)
        await (target.tap() if self.touch else target.click())

    async def as_player(self, who: dict[str, Any]) -> None:
        """This device signed in as ``who`` (id, name, token) from its first load."""
        stored = json.dumps(json.dumps(who))
        await self.page.context.add_init_script(f"localStorage.setItem('spidertour.player', {stored});")


@asynccontextmanager
async def open_screen(browser: Browser, server: ServerProcess, name: str) -> AsyncIterator[Screen]:
    """A fresh browser context on screen ``name``; no JavaScript error may happen on it."""
    size, touch = SCREENS[name]
    context = await new_context(browser, server, viewport=size, has_touch=touch, is_mobile=touch)
    page = await context.new_page()
    errors = js_errors(page)
    yield Screen(page, touch, name)
    await context.close()
    assert errors == [], f"JavaScript errors: {errors}"
