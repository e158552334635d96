"""The table's finer points: the drop target while dragging, messages in card names that cover
nothing and go away, a digit that drops the part of a run that fits, the key list, the game marked
over with its result and place, someone else's entry; the leaderboard's countdown, medals,
unknown tournament and phone columns; the finished page's keys, time-out and "you"."""

from __future__ import annotations

import asyncio
import random
import re
import time
from typing import Any

from playwright.async_api import Browser, FloatRect, Page, expect

from spidertour.engine import Game, MoveCards, Settings
from tests.browser.conftest import js_errors, new_context
from tests.browser.helpers import (
    card,
    card_moves,
    card_words,
    column,
    drag,
    drop_point,
    expect_board,
    grab_point,
    refused,
    reveals,
    sign_in,
)
from tests.client import Api, Player
from tests.serverproc import ServerProcess

SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}
PHONE = {"width": 360, "height": 740}


async def started(
    page: Page, api: Api, name: str, seed: str, **settings: Any
) -> tuple[dict[str, Any], dict[str, Any], Game]:
    """A tournament of one seed, this page's player in it, the game started on the page."""
    settings = {**SETTINGS, **settings}
    tour = api.create_tournament(name=name, seed=seed, **settings)
    me = await sign_in(page, api, f"{name} player")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await page.locator("[data-action=start]").click()
    game = Game(Settings(**settings), seed)
    await expect_board(page, game.view())
    return tour, entry, game


def boxes_overlap(a: FloatRect, b: FloatRect) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and (a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
    )


async def test_drop_target_and_messages(browser: Browser, server: ServerProcess, api: Api) -> None:
    context = await new_context(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    errors = js_errors(page)
    _, _, game = await started(page, api, "Drops", "drops")

    # While a card is dragged, the column under it is marked: gold where the rules let it go.
    legal = card_moves(game, count=1)[0]
    bad, reason = refused(game, "cannot_place")
    x, y = await grab_point(page, card(legal.src, len(game.columns[legal.src]) - 1))
    await page.mouse.move(x, y)
    await page.mouse.down()
    await page.mouse.move(x + 8, y + 8, steps=2)
    await page.mouse.move(*(await drop_point(page, legal.dst)), steps=5)
    target = page.locator(column(legal.dst))
    await expect(target).to_have_class(re.compile(r"\bdrop-target\b.*\bdrop-ok\b"))
    outline = await target.evaluate("c => getComputedStyle(c, '::after').borderTopStyle")
    assert outline == "solid"
    allowed = {(m.src, m.count, m.dst) for m in game.legal_moves() if isinstance(m, MoveCards)}
    wrong = next(d for d in range(len(game.columns)) if d != legal.src and (legal.src, 1, d) not in allowed)
    await page.mouse.move(*(await drop_point(page, wrong)), steps=5)
    wrong_target = page.locator(column(wrong))
    await expect(wrong_target).to_have_class(re.compile(r"\bdrop-target\b"))
    await expect(wrong_target).not_to_have_class(re.compile(r"\bdrop-ok\b"))
    assert await wrong_target.evaluate("c => getComputedStyle(c, '::after').borderTopStyle") == "dashed"
    await expect(target).not_to_have_class(re.compile(r"\bdrop-target\b"))
    await page.mouse.move(x, y, steps=3)
    await page.mouse.up()
    await expect(page.locator(".column.drop-target")).to_have_count(0)

    # An illegal drop: the reason names its cards as they show, and covers no card nor the buttons.
    await drag(page, bad.src, len(game.columns[bad.src]) - 1, bad.dst)
    message = page.locator(".message.show")
    await expect(message).to_have_text(card_words(reason))
    assert "\u2660" in card_words(reason) and not re.search(r"\b[A2-9TJQK][SHDC]\b", await message.inner_text())
    await page.wait_for_timeout(300)  # its slide-in
    shown = await message.bounding_box()
    assert shown is not None
    for thing in await page.locator(".tableau .card").all() + [page.locator(".game-page .actions")]:
        box = await thing.bounding_box()
        assert box is not None and not boxes_overlap(shown, box), "the message covers the table or the buttons"
    await message.tap()  # a tap dismisses it
    await expect(page.locator(".message.show")).to_have_count(0)

    # Notices elsewhere do not pile up without end, and a tap dismisses one.
    await page.evaluate("""async () => {
      const { notify } = await import('/js/lib/ui.js');
      for (let i = 0; i < 8; i++) notify(`notice ${i}`, 'info', 60000);
      notify('notice 7', 'info', 60000);
    }""")
    notices = page.locator("#notices .notice")
    await expect(notices).to_have_count(3)
    await expect(notices).to_have_text(["notice 5", "notice 6", "notice 7"])
    await notices.first.tap()
    await expect(notices).to_have_count(2)
    await context.close()
    assert errors == []


def partial_fit(seed: str) -> tuple[list[MoveCards], int, int, int, int]:
    """Random play from a seed up to a column whose movable run does not fit a target while its
    last cards do: the moves, the run's column and length, the target, the longest part that fits."""
    game = Game(Settings(**SETTINGS), seed)
    rng = random.Random(1)
    played: list[MoveCards] = []
    for _ in range(300):
        legal = {(m.src, m.count, m.dst) for m in card_moves(game)}
        for src in range(min(10, len(game.columns))):
            cards = game.columns[src]
            run = game.settings.rules.group(cards, len(cards) - game.down[src]) if cards else 0
            for dst in range(min(10, len(game.columns))):
                parts = [k for k in range(1, run) if (src, k, dst) in legal]
                if run >= 2 and parts and (src, run, dst) not in legal:
                    return played, src, run, dst, max(parts)
        move = rng.choice(card_moves(game))
        game.play(move)
        played.append(move)
    raise AssertionError("no such position")


async def test_a_digit_drops_the_part_of_the_run_that_fits(page: Page, api: Api, server: ServerProcess) -> None:
    seed = "partial-fit"
    moves, src, run, dst, fits = partial_fit(seed)
    tour = api.create_tournament(name="Fits", seed=seed, **SETTINGS)
    me = await sign_in(page, api, "fitter")
    entry = api.join(tour["id"], me["token"])
    game = Game(Settings(**SETTINGS), seed)
    other, _ = await Player.connect(server.ws_url, entry["id"], me["token"])
    await other.start()
    for move in moves:
        assert (await other.play(move.to_json()))["type"] == "result"
        game.play(move)
    await other.close()
    await page.goto(f"/#/play/{entry['id']}")
    await expect_board(page, game.view())

    # The digit of the run's column picks all of it; the target's digit moves the part that fits.
    await page.keyboard.press(str(src + 1))
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{src}:{run}")
    await page.keyboard.press(str(dst + 1))
    game.play(MoveCards(src, fits, dst))
    await expect_board(page, game.view())
    await expect(page.locator(".message.show")).to_have_count(0)


async def test_keys_the_end_the_result_and_the_place(page: Page, api: Api) -> None:
    _, _, game = await started(page, api, "Result", "result")
    # ? lists the keys, Esc puts the list away.
    help_panel = page.locator(".help")
    await page.keyboard.press("?")
    await expect(help_panel).to_be_visible()
    await expect(help_panel).to_contain_text("show or hide these keys")
    await page.keyboard.press("Escape")
    await expect(help_panel).to_be_hidden()

    move = next(m for m in card_moves(game, count=1) if reveals(game, m))
    await drag(page, move.src, len(game.columns[move.src]) - 1, move.dst)
    game.play(move)
    await expect_board(page, game.view())
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("Enter")
    await expect(page.locator(".column.cursor")).to_have_count(1)

    await page.keyboard.press("e")
    await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
    panel = page.locator(".over-panel")
    await expect(panel).to_be_visible()
    # The cursor and the picked cards leave the table once the game is over.
    await expect(page.locator(".column.cursor, .card.grab, .card.picked")).to_have_count(0)
    await page.keyboard.press("ArrowLeft")
    await expect(page.locator(".column.cursor")).to_have_count(0)
    # The player's place among the entrants (the only one here).
    await expect(panel.locator("[data-field=rank]")).to_have_attribute("data-rank", "1")
    await expect(panel.locator("[data-field=rank]")).to_contain_text("1 of 1")

    # See the table: the game stays marked over, and the result opens again.
    await panel.locator("[data-action=see-table]").click()
    await expect(panel).to_be_hidden()
    await expect(page.locator("[data-field=over]")).to_have_text(f"game over: ended \u00b7 {game.score}")
    await expect(page.locator(".game-page .board")).to_have_class(re.compile(r"\bgame-over\b"))
    await expect(page.locator("[data-action=undo]")).to_be_hidden()
    await page.locator("[data-action=result]").click()
    await expect(panel).to_be_visible()
    await expect(panel.locator("[data-part=final_score]")).to_have_text(str(game.score))


async def test_someone_elses_entry(page: Page, api: Api) -> None:
    tour = api.create_tournament(name="Not mine", seed="not-mine", **SETTINGS)
    _, owner_token = api.register("owner")
    entry = api.join(tour["id"], owner_token)
    await sign_in(page, api, "visitor")
    await page.goto(f"/#/play/{entry['id']}")
    conn = page.locator(".conn")
    await expect(conn).to_contain_text("This is not your game")
    await expect(conn).to_contain_text(f"Entry {entry['id']} belongs to another player")
    assert "null" not in await conn.inner_text()
    await expect(page.locator("[data-action=start]")).to_have_count(0)
    await expect(page.locator(".game-page .board-wrap")).to_be_hidden()


async def test_leaderboard_countdown_medals_and_phone(browser: Browser, server: ServerProcess, api: Api) -> None:
    tour = api.create_tournament(name="Countdown", seed="countdown", **SETTINGS)
    _, ann_token = api.register("ann")
    ann_entry = api.join(tour["id"], ann_token)
    _, bob_token = api.register("bob")
    bob_entry = api.join(tour["id"], bob_token)
    ann, _ = await Player.connect(server.ws_url, ann_entry["id"], ann_token)
    await ann.start()
    game = Game(Settings(**SETTINGS), "countdown")
    move = next(m for m in card_moves(game) if reveals(game, m))
    assert (await ann.play(move.to_json()))["type"] == "result"

    context = await new_context(browser, server, viewport=PHONE, has_touch=True, is_mobile=True)
    page = await context.new_page()
    errors = js_errors(page)
    await page.goto(f"/#/board/{tour['id']}")
    ann_row = page.locator(f'.live-board tr[data-entry="{ann_entry["id"]}"]')
    bob_row = page.locator(f'.live-board tr[data-entry="{bob_entry["id"]}"]')
    await expect(ann_row.locator("[data-field=score]")).to_have_text("25")
    # A game still playing counts its time down from its deadline; one not started has none.
    left = ann_row.locator("[data-field=time-left]")
    await expect(left).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    first = await left.text_content()
    await expect(left).not_to_have_text(first or "", timeout=3000)
    await expect(bob_row.locator("[data-field=time-left]")).to_have_text("\u2013")
    # A medal for a place with a score, none for 0.
    await expect(ann_row.locator("[data-field=rank]")).to_have_attribute("data-medal", "1")
    assert await bob_row.locator("[data-field=rank]").get_attribute("data-medal") is None
    # On a phone the status stays; the table fits the width.
    await expect(page.locator(".live-board th", has_text="Status")).to_be_visible()
    await expect(ann_row.locator("[data-field=status]")).to_have_text("playing")
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # An unknown tournament says so at once.
    await page.goto("/#/board/987654")
    await expect(page.locator("[data-field=name]")).to_have_text("No such tournament")
    await expect(page.locator("[data-field=live]")).not_to_contain_text("connecting")
    await ann.close()
    await context.close()
    assert errors == []


async def test_finished_page_marks_you_steps_by_keys_and_names_the_time_out(
    page: Page, api: Api, server: ServerProcess
) -> None:
    settings = {**SETTINGS, "time_limit": 2}
    tour = api.create_tournament(name="Timed out", seed="timed-out", closes_in=3, **settings)
    me = await sign_in(page, api, "tess")  # this device holds the token and never opens the lobby
    entry = api.join(tour["id"], me["token"])
    tess, _ = await Player.connect(server.ws_url, entry["id"], me["token"])
    await tess.start()
    game = Game(Settings(**settings), "timed-out")
    move = next(m for m in card_moves(game) if reveals(game, m))
    assert (await tess.play(move.to_json()))["type"] == "result"
    await tess.close()
    deadline = time.time() + 20
    while api.tournament(tour["id"])["status"] != "finished":
        assert time.time() < deadline, "the tournament did not finish"
        await asyncio.sleep(0.25)

    await page.goto(f"/#/finished/{tour['id']}")
    row = page.locator(f'.standings.final tr[data-entry="{entry["id"]}"]')
    await expect(row.locator(".you-tag")).to_have_text("you")
    await row.locator("[data-action=replay]").click()
    viewer = page.locator(".replay")
    await expect(viewer.locator("[data-field=rescore]")).to_have_attribute("data-ok", "true")
    board = viewer.locator(".board")
    await page.locator("body").click(position={"x": 5, "y": 5})  # the keys belong to the page, not a button
    await page.keyboard.press("ArrowRight")
    await expect(board).to_have_attribute("data-step", "1")
    await page.keyboard.press("ArrowRight")
    await expect(board).to_have_attribute("data-step", "2")
    label = viewer.locator("[data-field=step]")
    await expect(label).to_have_text(re.compile(r"^Move 2 of 2: out of time at 0:02$"))
    await page.keyboard.press("ArrowLeft")
    await expect(board).to_have_attribute("data-step", "1")
    await page.keyboard.press("Home")
    await expect(board).to_have_attribute("data-step", "0")
