"""A whole game in the browser against a real server: join, start, move by drag-and-drop, by clicks
and from the keyboard, an illegal drop, a deal, undo, a dropped connection, the end and its score;
and a second browser watching the leaderboard change without reloading."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import asyncpg
import pytest
import websockets
from playwright.async_api import Browser, Locator, Page, expect

from spidertour.engine import Deal, Game, MoveCards, Settings, Undo
from spidertour.engine.moves import move_from_text
from spidertour.engine.replay import replay_game
from tests.browser.conftest import js_errors, new_context, snap
from tests.browser.helpers import (
    board,
    card,
    card_moves,
    card_words,
    click_move,
    drag,
    expect_board,
    refused,
    reveals,
    sign_in,
)
from tests.client import Api, Player
from tests.serverproc import ServerProcess

SEED = "browser-play"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}


async def moves_in_database(database_url: str, entry_id: int) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(database_url)
    try:
        return await conn.fetch(
            "SELECT n, seq, move::text AS move, t FROM moves WHERE entry_id = $1 ORDER BY n", entry_id
        )
    finally:
        await conn.close()


async def entry_in_database(database_url: str, entry_id: int) -> asyncpg.Record:
    conn = await asyncpg.connect(database_url)
    try:
        row = await conn.fetchrow("SELECT status, score, final_score, time_left FROM entries WHERE id = $1", entry_id)
        assert row is not None
        return row
    finally:
        await conn.close()


def score_cell(page: Page, entry_id: int) -> Locator:
    return page.locator(f'.live-board tr[data-entry="{entry_id}"] [data-field=score]')


def rank_cell(page: Page, entry_id: int) -> Locator:
    return page.locator(f'.live-board tr[data-entry="{entry_id}"] [data-field=rank]')


def rank_text(rank: int) -> re.Pattern[str]:
    """A rank cell's text: the place, and for a few seconds after a change the places moved ("2▼1")."""
    return re.compile(rf"^{rank}(?:[▲▼]\d+)?$")


async def test_play_a_game(
    page: Page, browser: Browser, server: ServerProcess, api: Api, database_url: str, shots: Path
) -> None:
    tour = api.create_tournament(name="Browser cup", seed=SEED, **SETTINGS)
    game = Game(Settings(**SETTINGS), SEED)
    await sign_in(page, api, "ann")

    # Join from the lobby: the entry's page opens, waiting for Start.
    await page.goto("/#/lobby")
    await page.locator(f'.tournament[data-tournament="{tour["id"]}"] [data-action=join]').click()
    await page.wait_for_url(re.compile(r"#/play/\d+$"))
    entry_id = int(page.url.rsplit("/", 1)[1])

    # Someone else watches the leaderboard from another browser context.
    watcher_context = await new_context(browser, server)
    watcher = await watcher_context.new_page()
    watcher_errors = js_errors(watcher)
    await watcher.goto(f"/#/board/{tour['id']}")
    await expect(score_cell(watcher, entry_id)).to_have_text("0")
    await expect(watcher.locator("[data-field=live]")).to_have_class(re.compile(r"\bon\b"))
    await watcher.evaluate("window.stillTheSamePage = true")

    # Three more entrants; bert turns two cards before ann starts and leads.
    bots = []
    for name in ("bert", "dora", "emil"):
        _, token = api.register(name)
        bots.append((api.join(tour["id"], token), token))
    await expect(watcher.locator(".live-board tbody tr")).to_have_count(4)
    bert_game = Game(Settings(**SETTINGS), SEED)
    bert, _ = await Player.connect(server.ws_url, bots[0][0]["id"], bots[0][1])
    await bert.start()
    for _ in range(2):
        move = next(m for m in card_moves(bert_game) if reveals(bert_game, m))
        assert (await bert.play(move.to_json()))["type"] == "result"
        bert_game.play(move)
    await bert.close()
    await expect(score_cell(watcher, bots[0][0]["id"])).to_have_text("50")
    await expect(rank_cell(watcher, entry_id)).to_have_text(rank_text(2))

    await page.locator("[data-action=start]").click()
    await expect_board(page, game.view())
    assert await page.locator(".tableau .card.back").count() == sum(game.down)
    await expect(page.locator("[data-action=undo]")).to_be_disabled()
    await expect(page.locator("[data-stat=clock]")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))

    # 1. Drag and drop: a card whose move turns the card under it.
    first = next(m for m in card_moves(game, count=1) if reveals(game, m))
    await drag(page, first.src, len(game.columns[first.src]) - 1, first.dst)
    game.play(first)
    await expect_board(page, game.view())
    await expect(page.locator("[data-stat=score]")).to_have_text("25")
    await expect(page.locator("[data-stat=reveals]")).to_have_text("1")
    await expect(page.locator("[data-action=undo]")).to_be_enabled()

    # The watcher's page follows, without reloading.
    await expect(score_cell(watcher, entry_id)).to_have_text("25")
    await expect(watcher.locator(f'.live-board tr[data-entry="{entry_id}"]')).to_have_class(re.compile("flash"))
    assert await watcher.evaluate("window.stillTheSamePage === true")

    # 2. The card grabbed decides the count: the second card from the end takes two with it.
    pairs = card_moves(game, src=first.dst, count=2)
    assert pairs, "the deal of this seed has a two-card group to move here"
    pair = pairs[0]
    await drag(page, pair.src, len(game.columns[pair.src]) - 2, pair.dst)
    game.play(pair)
    await expect_board(page, game.view())

    # 3. Click a card, then click the column to put it on.
    clicked = ([m for m in card_moves(game) if reveals(game, m)] or card_moves(game))[0]
    await click_move(page, clicked.src, len(game.columns[clicked.src]) - clicked.count, clicked.dst)
    game.play(clicked)
    await expect_board(page, game.view())

    # 4. An illegal drop: the server's reason is shown and the card flies back where it was.
    bad, reason = refused(game, "cannot_place")
    selector = card(bad.src, len(game.columns[bad.src]) - 1)
    before = await page.locator(selector).bounding_box()
    await drag(page, bad.src, len(game.columns[bad.src]) - 1, bad.dst)
    # The reason names the cards as the cards show them ("10\u2665 cannot go onto K\u2666", not "TH ... KD").
    assert re.search(r"\b[A2-9TJQK][SHDC]\b", reason)
    await expect(page.locator(".message.show")).to_have_text(card_words(reason))
    await expect(page.locator(".card.dragging")).to_have_count(0)
    after = await page.locator(selector).bounding_box()
    assert before and after and abs(before["x"] - after["x"]) < 1 and abs(before["y"] - after["y"]) < 1
    await expect_board(page, game.view())

    # 5. Deal a draw pile by clicking it: its shown top lands on column 0.
    top = game.view()["draw_piles"][2]["top"]
    await page.locator('.pile[data-pile="2"]').click()
    game.play(Deal(2))
    await expect_board(page, game.view())
    assert (await board(page))["columns"][0][-1] == top
    await expect(page.locator("[data-action=undo]")).to_be_disabled()  # a deal closes the door

    # 6. From the keyboard: a digit picks a column's movable run, another digit drops it.
    runs = [
        m
        for m in card_moves(game)
        if m.count == game.settings.rules.group(game.columns[m.src], len(game.columns[m.src]) - game.down[m.src])
        and m.dst < 9
    ]
    assert runs, "some whole run can move after the deal"
    keyed = runs[0]
    await page.keyboard.press(str(keyed.src + 1))
    await expect(page.locator(".game-page .board")).to_have_attribute("data-picked", f"{keyed.src}:{keyed.count}")
    await page.keyboard.press(str(keyed.dst + 1))
    game.play(keyed)
    await expect_board(page, game.view())

    # 7. Undo takes it back; U on the keyboard is the same button.
    await expect(page.locator("[data-action=undo]")).to_be_enabled()
    await page.locator("[data-action=undo]").click()
    game.play(Undo())
    await expect_board(page, game.view())
    await expect(page.locator("[data-action=undo]")).to_be_disabled()

    # 8. D deals the next pile with cards (pile 2 is empty now: pile 0).
    await page.keyboard.press("d")
    game.play(Deal(0))
    await expect_board(page, game.view())
    await expect(page.locator("[data-stat=score]")).to_have_text(str(game.score))
    await expect(page.locator("[data-stat=clock]")).not_to_have_text("10:00")  # the clock counts down
    assert game.score > 50, "ann has overtaken bert by now"
    await expect(rank_cell(watcher, entry_id)).to_have_text(rank_text(1))
    await page.evaluate("document.querySelector('.message').classList.remove('show')")
    await snap(page, shots, "game")
    await snap(watcher, shots, "leaderboard")

    # 9. End, after a confirmation; the final score and its parts are the server's.
    await page.locator("[data-action=end]").click()
    dialog = page.locator("dialog.confirm-dialog")
    await expect(dialog).to_be_visible()
    await dialog.locator("[data-action=confirm]").click()
    panel = page.locator(".over-panel")
    await expect(panel).to_be_visible()
    await expect(panel).to_have_attribute("data-outcome", "ended")
    row = await entry_in_database(database_url, entry_id)
    assert row["status"] == "ended"
    await expect(panel.locator("[data-part=final_score]")).to_have_text(str(row["final_score"]))
    await expect(panel.locator("[data-part=reveals]")).to_have_text(str(25 * game.reveals))
    await expect(panel.locator("[data-part=sequences]")).to_have_text(str(100 * game.sequences))
    assert "null" not in (await panel.inner_text()).split()  # a game of one deal has no deals part

    recorded = await moves_in_database(database_url, entry_id)
    moves = [{**json.loads(r["move"]), "t": r["t"]} for r in recorded]
    assert [m["type"] for m in moves] == ["move"] * 3 + ["deal", "move", "undo", "deal", "end"]
    replayed = replay_game({**SETTINGS, "seed": SEED, "moves": moves})
    assert replayed["final_score"] == row["final_score"]
    last = replayed["steps"][-1]
    await expect(panel.locator("[data-part=time_bonus]")).to_have_text(str(last["time_bonus"]))
    await expect(panel.locator("[data-part=free_column_bonus]")).to_have_text(str(last["free_column_bonus"]))
    await expect(page.locator("[data-action=end]")).to_be_disabled()

    # The watcher sees the final score and status, still without reloading.
    await expect(score_cell(watcher, entry_id)).to_have_text(str(row["final_score"]))
    await expect(watcher.locator(f'tr[data-entry="{entry_id}"] [data-field=status]')).to_have_text("ended")
    assert await watcher.evaluate("window.stillTheSamePage === true")
    await watcher_context.close()
    assert watcher_errors == []


async def test_reconnects_and_resends_the_unanswered_move(
    page: Page, api: Api, server: ServerProcess, database_url: str
) -> None:
    tour = api.create_tournament(name="Dropped", seed=SEED, **SETTINGS)
    game = Game(Settings(**SETTINGS), SEED)
    me = await sign_in(page, api, "bob")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await page.locator("[data-action=start]").click()
    await expect_board(page, game.view())

    # The move leaves, and the connection drops before its answer can arrive.
    move = card_moves(game)[0]
    await page.evaluate(
        """move => {
        const socket = window.spidertour.socket;
        window.droppedSocket = socket.ws;
        socket.send(move);
        socket.ws.close();
    }""",
        move.to_json(),
    )
    game.play(move)
    await expect_board(page, game.view())
    assert await page.evaluate("window.spidertour.socket.ws !== window.droppedSocket")
    await expect(page.locator(".message")).to_have_text("Reconnected: your last move was already saved.")
    await expect(page.locator(".conn")).to_be_hidden()

    # Play goes on over the new connection, with the next sequence number.
    second = card_moves(game)[0]
    await drag(page, second.src, len(game.columns[second.src]) - second.count, second.dst)
    game.play(second)
    await expect_board(page, game.view())
    recorded = await moves_in_database(database_url, entry["id"])
    assert [(r["n"], r["seq"]) for r in recorded] == [(1, 1), (2, 2)]

    # Another device takes the entry over: the page says so and does not fight back, until asked.
    other, state = await Player.connect(server.ws_url, entry["id"], me["token"])
    assert state["moves"] == 2
    conn = page.locator(".conn")
    await expect(conn).to_contain_text("opened in another window or on another device")
    await page.wait_for_timeout(700)  # longer than a reconnection's first delay: it stays put
    await expect(conn).to_be_visible()
    await conn.get_by_role("button", name="Play here").click()
    await expect(conn).to_be_hidden()
    await expect_board(page, game.view())
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await other.recv()  # the taken_over error
        await other.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4001


# A move list found by a search that completes a sequence from this seed (1 suit): the last move,
# an Ace onto the 2 of column 0, takes King to Ace off the table.
SEQUENCE_SEED = "sequence-0"
SEQUENCE_MOVES = ["2>5", "7>5", "0>7", "d4", "1>5", "7:3>5", "5:8>7", "7:9>4", "4:10>0", "d0", "4>0"]


async def test_a_completed_sequence_flies_off_and_earns_its_time_bonus(
    page: Page, api: Api, server: ServerProcess, database_url: str, shots: Path
) -> None:
    settings: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 600}
    tour = api.create_tournament(name="Sequence", seed=SEQUENCE_SEED, **settings)
    game = Game(Settings(**settings), SEQUENCE_SEED)
    me = await sign_in(page, api, "hal")
    entry = api.join(tour["id"], me["token"])
    # All but the last move from another client; the page then takes the entry over and resumes.
    other, _ = await Player.connect(server.ws_url, entry["id"], me["token"])
    await other.start()
    for text in SEQUENCE_MOVES[:-1]:
        move = move_from_text(text)
        assert (await other.play(move.to_json()))["type"] == "result"
        game.play(move)
    await other.close()
    await page.goto(f"/#/play/{entry['id']}")
    await expect_board(page, game.view())

    last = move_from_text(SEQUENCE_MOVES[-1])
    assert isinstance(last, MoveCards)
    await drag(page, last.src, len(game.columns[last.src]) - last.count, last.dst)
    result = game.play(last)
    assert result.completed == 1
    flying = page.locator(".fly-layer .card")
    await expect(flying).to_have_count(13)
    assert await flying.evaluate_all("cards => cards.map(c => c.dataset.card).join(' ')") == (
        "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS"
    )
    await expect(page.locator(".message.show")).to_have_text("Sequence complete! +100")
    await expect(page.locator(".foundation .slot.done")).to_have_count(1)
    await expect(page.locator("[data-stat=sequences]")).to_have_text("1/6")
    await expect_board(page, game.view())
    await expect(flying).to_have_count(0)  # a short animation

    await page.keyboard.press("e")
    await page.locator("dialog.confirm-dialog [data-action=confirm]").click()
    panel = page.locator(".over-panel")
    await expect(panel).to_be_visible()
    row = await entry_in_database(database_url, entry["id"])
    recorded = await moves_in_database(database_url, entry["id"])
    replayed = replay_game(
        {**settings, "seed": SEQUENCE_SEED, "moves": [{**json.loads(r["move"]), "t": r["t"]} for r in recorded]}
    )
    end = replayed["steps"][-1]
    assert end["time_bonus"] > 0 and end["final_score"] == row["final_score"] == end["score"] + end["time_bonus"]
    await expect(panel.locator("[data-part=sequences]")).to_have_text("100")
    await expect(panel.locator("[data-part=time_bonus]")).to_have_text(str(end["time_bonus"]))
    await expect(panel.locator("[data-part=final_score]")).to_have_text(str(row["final_score"]))
    await snap(page, shots, "game-over")


async def test_the_clock_runs_out(page: Page, api: Api, database_url: str) -> None:
    settings: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 2}
    tour = api.create_tournament(name="Blitz", seed=SEED, **settings)
    game = Game(Settings(**settings), SEED)
    me = await sign_in(page, api, "ivy")
    entry = api.join(tour["id"], me["token"])
    await page.goto(f"/#/play/{entry['id']}")
    await expect(page.locator(".start-panel")).to_contain_text("0:02")
    await page.locator("[data-action=start]").click()
    await expect_board(page, game.view())
    move = next(m for m in card_moves(game, count=1) if reveals(game, m))
    await drag(page, move.src, len(game.columns[move.src]) - 1, move.dst)
    game.play(move)
    await expect_board(page, game.view())

    # Nothing more is sent: the server ends the game at its deadline and says so.
    panel = page.locator(".over-panel")
    await expect(panel).to_have_attribute("data-outcome", "timed_out", timeout=6000)
    await expect(panel.locator("h2")).to_have_text("Out of time")
    await expect(panel.locator("[data-part=final_score]")).to_have_text("25")
    await expect(panel.locator("[data-part=time_bonus]")).to_have_text("0")
    await expect(page.locator("[data-stat=clock]")).to_have_text("0:00")
    await expect(page.locator("[data-action=end]")).to_be_disabled()
    row = await entry_in_database(database_url, entry["id"])
    assert (row["status"], row["final_score"]) == ("timed_out", 25)
