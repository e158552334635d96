"""Every game the engine plays is drawn as dealt, and plays, in the browser."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page, expect

from spidertour.engine import Deal, Game, Settings
from tests.browser.helpers import card_moves, expect_board, key_move, sign_in
from tests.client import Api

GAMES = [
    ("spider", 2, 10),
    ("huge_spider", 4, 20),
    ("black_widow", 4, 10),
    ("curds_and_whey", 4, 13),
]


@pytest.mark.parametrize(("variant", "suits", "columns"), GAMES)
async def test_each_game_is_drawn_and_played(page: Page, api: Api, variant: str, suits: int, columns: int) -> None:
    seed = f"browser-{variant}"
    tour = api.create_tournament(name=variant, seed=seed, variant=variant, suits=suits)
    game = Game(Settings(variant=variant, suits=suits), seed)
    me = await sign_in(page, api, f"{variant} player")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    # Four suits read far better in four colours: the faces a player has not chosen follow the game.
    faces = "faces-bold" if suits == 4 else "faces-classic"
    await expect(page.locator("body")).to_have_class(re.compile(rf"\b{faces}\b"))
    await page.locator("[data-action=start]").click()
    await expect_board(page, game.view())
    assert await page.locator(".tableau .column").count() == columns
    assert await page.locator(".tableau .card.back").count() == sum(game.down)
    assert await page.locator(".pile").count() == 0
    await expect(page.locator(".foundation .slot")).to_have_count(game.settings.rules.sequences_to_win)

    # Every column fits across the page: the table is drawn to the screen's width.
    overflow = await page.evaluate(
        "() => document.querySelector('.board-wrap').scrollWidth - document.querySelector('.board-wrap').clientWidth"
    )
    assert overflow <= 0

    if game.stock is not None:
        # Deal a row by clicking the stock: five deals, then four.
        await expect(page.locator(".stock")).to_have_attribute("data-deals", "5")
        await page.locator(".stock").click()
        game.play(Deal())
        await expect_board(page, game.view())
        await expect(page.locator(".stock")).to_have_attribute("data-deals", "4")
    else:
        await expect(page.locator(".stock")).to_have_count(0)

    # A move from the keyboard alone: arrows, Up/Down for the count, Enter to pick and to drop.
    move = max(card_moves(game), key=lambda m: (m.count, m.src))
    await key_move(page, move.src, move.count, move.dst)
    game.play(move)
    await expect_board(page, game.view())
    await expect(page.locator("[data-stat=score]")).to_have_text(str(game.score))


async def test_chosen_faces_win_over_the_games_default(page: Page, api: Api) -> None:
    tour = api.create_tournament(name="four suits", variant="spider", suits=4)
    me = await sign_in(page, api, "classic lover")
    entry = api.join(tour["id"], me["token"])
    await page.goto("/#/settings")
    await page.locator("input[name=faces][value=classic]").check()
    await page.goto(f"/#/play/{entry['id']}")
    await expect(page.locator("[data-field=rules]")).to_contain_text("4 suits")
    await expect(page.locator("body")).to_have_class(re.compile(r"\bfaces-classic\b"))
    await page.goto("/#/lobby")  # off the game: no game's suits left behind
    await expect(page.locator("body")).not_to_have_attribute("data-suits", re.compile(".+"))
