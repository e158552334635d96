"""Every game on a phone (360x740 and on its side 740x360, touch) and on a desktop (1280x800): every
column, the stock or draw piles and the sequence slots inside the window, a card moved by tap or
click, and in a column of 20 face-up cards every card's corner index left uncovered and big enough
to read (on a phone on its side such a column cannot fit: the page scrolls down, never across);
a column as a game makes it, a long run of one suit among others, fits the window at every size,
the run's inner cards closed up where it must (their ranks follow from the run's ends)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from spidertour.engine import Game, Settings
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import card, card_moves, column, drop_point, expect_board, grab_point, sign_in
from tests.client import Api
from tests.serverproc import ServerProcess

GAMES = [("spider78", 2), ("spider", 2), ("huge_spider", 4), ("black_widow", 4), ("curds_and_whey", 4)]
PHONE = {"width": 360, "height": 740}
LANDSCAPE = {"width": 740, "height": 360}
DESKTOP = {"width": 1280, "height": 800}

# The boxes of what must be on screen: every column, the stock, the draw piles, the sequence slots.
BOXES = """() => [...document.querySelectorAll('.game-page .board .column, .game-page .board .stock,'
  + ' .game-page .board .pile, .game-page .board .foundation .slot')].map((n) => {
    const r = n.getBoundingClientRect();
    return {what: n.className + (n.dataset.col ? ' ' + n.dataset.col : ''), left: r.left, right: r.right,
            top: r.top, bottom: r.bottom};
  })"""

# A long column, drawn by the game page's own board: column 0 gets three face-down cards and 20
# face-up ones, column 1 fifteen face-up ones (a view as the server would send it later in a game).
LONG_COLUMNS = """() => {
  const board = window.spidertour.board;
  const view = structuredClone(board.view);
  const ranks = 'KQJT98765432A';
  const suits = 'SHDC';
  const run = Array.from({length: 20}, (_, i) => ranks[i % 13] + suits[Math.floor(i / 2) % 4]);
  view.columns[0] = ['??', '??', '??', ...run];
  view.columns[1] = run.slice(5);
  board.render(view);
}"""

# Columns as a game makes them: face-down cards, a run of one suit (K to A of spades, 13 cards),
# then cards dealt onto it; column 1 a shorter run of hearts with cards on both sides.
RUN_COLUMNS = """() => {
  const board = window.spidertour.board;
  const view = structuredClone(board.view);
  const spades = [...'KQJT98765432A'].map((r) => r + 'S');
  view.columns[0] = ['??', '??', '??', '??', '??', ...spades, 'QH', '7D', '3C', '9H', 'JC', '5D'];
  view.columns[1] = ['??', '??', '??', '8C', ...spades.slice(1, 11).map((c) => c[0] + 'H'), '4S', 'TD'];
  board.render(view);
}"""

# For every face-up card but the last of a column: its corner rank and suit, the next card's top.
INDEXES = """(col) => {
  const cards = [...document.querySelectorAll(`.tableau .column[data-col="${col}"] .card`)];
  return cards.slice(0, -1).map((c, i) => {
    if (c.classList.contains('back')) return null;
    const box = (n) => {
      const r = n.getBoundingClientRect();
      return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
    };
    const corner = c.querySelector('.corner:not(.low)');
    return {card: c.dataset.card, rank: box(corner.querySelector('.rank')), suit: box(corner.querySelector('.suit')),
            text: corner.querySelector('.rank').textContent, face: box(c), next: box(cards[i + 1]),
            size: parseFloat(getComputedStyle(corner).fontSize), inRun: c.classList.contains('in-run')};
  }).filter(Boolean);
}"""


def inside(box: dict[str, float], width: int, height: int, bottom_bar: float) -> bool:
    return (
        box["left"] >= -0.5
        and box["right"] <= width + 0.5
        and box["top"] >= -0.5
        and box["bottom"] <= height - bottom_bar + 0.5
    )


async def bottom_bar(page: Page) -> float:
    """The height the fixed Undo/End bar takes at the bottom of a phone's window (0 elsewhere)."""
    height: float = await page.evaluate("""() => {
      const bar = document.querySelector('.game-page .actions');
      return getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().height : 0;
    }""")
    return height


async def assert_on_screen(page: Page, size: dict[str, int]) -> None:
    """Every card in the window once the layout has settled (the board is laid out again a frame or
    two after the start panel goes; on a busy machine that can take a moment)."""
    deadline = time.monotonic() + 5
    while True:
        bar = await bottom_bar(page)
        boxes: list[dict[str, Any]] = await page.evaluate(BOXES)
        assert boxes
        outside = [b for b in boxes if not inside(b, size["width"], size["height"], bar)]
        if not outside or time.monotonic() > deadline:
            break
        await page.wait_for_timeout(100)
    above = await page.evaluate(
        "() => [...document.querySelectorAll('#main > *, .game-page > *')].map((n) => [n.className, "
        "Math.round(n.getBoundingClientRect().top), Math.round(n.getBoundingClientRect().height)])"
    )
    assert outside == [], f"outside the window at {size}: {outside[:3]}; the page's parts: {above}"
    assert await page.evaluate("document.documentElement.scrollWidth") <= size["width"]


async def assert_indexes_readable(page: Page, col: int, expected: int) -> int:
    """Every face-up card's index readable but those closed up inside a run; returns how many those are."""
    indexes = await page.evaluate(INDEXES, col)
    assert len(indexes) == expected
    inside_runs = [i for i in indexes if i["inRun"]]
    for i in indexes:
        if i["inRun"]:
            continue
        for part in ("rank", "suit"):
            box = i[part]
            assert box["bottom"] <= i["next"]["top"] + 0.5, f"{i['card']}: its {part} is covered by the next card"
            assert box["right"] <= i["face"]["right"] + 0.5 and box["left"] >= i["face"]["left"] - 0.5, (
                f"{i['card']}: its {part} is cut off at the card's edge"
            )
        assert i["rank"]["bottom"] - i["rank"]["top"] >= 10
        assert i["size"] >= 11, f"{i['card']}: a {i['size']}px index is too small to read"
        assert i["text"] == ("10" if i["card"][0] == "T" else i["card"][0])
    return len(inside_runs)


async def move_by_pointer(page: Page, game: Game, touch: bool) -> None:
    """A legal move by tap (or click) on its first card, then on the target column."""
    move = max(card_moves(game), key=lambda m: (m.count, -m.src))
    index = len(game.columns[move.src]) - move.count
    x, y = await grab_point(page, card(move.src, index))
    tx, ty = await drop_point(page, move.dst)
    tap = page.touchscreen.tap if touch else page.mouse.click
    await tap(x, y)
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{move.src}:{move.count}")
    await tap(tx, ty)
    game.play(move)
    await expect_board(page, game.view())


@pytest.mark.parametrize(("variant", "suits"), GAMES)
async def test_every_game_fits_and_plays_on_a_phone_and_a_desktop(
    browser: Browser, server: ServerProcess, api: Api, shots: Path, variant: str, suits: int
) -> None:
    seed = f"screens-{variant}"
    tour = api.create_tournament(name=f"{variant} on every screen", seed=seed, variant=variant, suits=suits)
    for name, size in (("phone", PHONE), ("landscape", LANDSCAPE), ("desktop", DESKTOP)):
        touch = name != "desktop"
        context = await new_context(browser, server, viewport=size, has_touch=touch, is_mobile=touch)
        page = await context.new_page()
        errors = js_errors(page)
        me = await sign_in(page, api, f"{variant} {name}")
        entry = api.join(tour["id"], me["token"])
        game = Game(Settings(variant=variant, suits=suits), seed)
        await page.goto(f"/#/play/{entry['id']}")
        start = page.locator("[data-action=start]")
        await (start.tap() if touch else start.click())
        await expect_board(page, game.view())
        await assert_on_screen(page, size)
        # Nothing to reveal in a game dealt face up.
        reveals = page.locator(".stat-reveals")
        await (expect(reveals).to_be_hidden() if variant == "curds_and_whey" else expect(reveals).to_be_visible())

        await move_by_pointer(page, game, touch)
        await assert_on_screen(page, size)
        await snap(page, shots, f"game-{variant}{'' if name == 'desktop' else '-' + name}")

        await page.evaluate(LONG_COLUMNS)
        await expect(page.locator(column(0) + " .card")).to_have_count(23)
        assert await assert_indexes_readable(page, 0, 20 - 1) == 0  # no run of one suit longer than 2
        await assert_indexes_readable(page, 1, 15 - 1)
        if name == "landscape":
            assert await page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        else:
            await assert_on_screen(page, size)

        await page.evaluate(RUN_COLUMNS)
        await expect(page.locator(column(0) + " .card")).to_have_count(24)
        if name != "desktop":
            await snap(page, shots, f"game-{variant}-long-{name}")
        closed = await assert_indexes_readable(page, 0, 19 - 1)
        await assert_indexes_readable(page, 1, 13 - 1)
        if name == "landscape" and variant == "huge_spider":
            # Twenty columns too narrow for a finger keep their piles' row above them (the tray of
            # big targets lies over it): a column this long scrolls down, never across.
            assert await page.evaluate("document.documentElement.scrollWidth") <= size["width"]
            await context.close()
            assert errors == []
            continue
        await assert_on_screen(page, size)
        assert await page.evaluate("document.documentElement.scrollHeight") <= size["height"] + 1
        assert (
            await page.locator(".tableau .card.in-run").count()
            == closed + await page.locator(column(1) + " .card.in-run").count()
        )
        if name == "landscape":
            assert closed > 0, "the run closes up only where the column would not fit"
            beside = await page.evaluate(
                "() => document.querySelector('.game-page .reserve').getBoundingClientRect().right"
                " <= document.querySelector('.game-page .tableau').getBoundingClientRect().left"
            )
            assert beside, "on a phone on its side the piles stand at the left of the columns"
        await context.close()
        assert errors == []
