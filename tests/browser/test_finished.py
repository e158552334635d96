"""A finished tournament's page: the revealed seed checked against the commitment, the final standings,
the replay viewer stepping through a game rebuilt from the seed in the browser, and a certified
tournament's badge from the start and its par after the finish."""

from __future__ import annotations

import asyncio
import json
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

from spidertour.engine import Game, Settings
from spidertour.engine.replay import replay_game
from tests.browser.conftest import snap
from tests.browser.helpers import card_moves, expect_board, reveals
from tests.client import Api, Player
from tests.serverproc import ServerProcess

SEED = "browser-finished"
SETTINGS: dict[str, Any] = {"variant": "spider78", "suits": 2, "time_limit": 600}


async def test_results_and_replays(page: Page, api: Api, server: ServerProcess, shots: Path) -> None:
    tour = api.create_tournament(name="Finished cup", seed=SEED, closes_in=3, **SETTINGS)
    game = Game(Settings(**SETTINGS), SEED)
    # ann plays three moves and ends; bob joins and never starts (absent, 0).
    _, ann_token = api.register("ann")
    ann_entry = api.join(tour["id"], ann_token)
    _, bob_token = api.register("bob")
    bob_entry = api.join(tour["id"], bob_token)
    ann, _ = await Player.connect(server.ws_url, ann_entry["id"], ann_token)
    await ann.start()
    for _ in range(3):
        move = ([m for m in card_moves(game) if reveals(game, m)] or card_moves(game))[0]
        answer = await ann.play(move.to_json())
        assert answer["type"] == "result"
        game.play(move)
    await ann.play({"type": "end"})
    await ann.close()
    deadline = time.time() + 15
    while api.tournament(tour["id"])["status"] != "finished":
        assert time.time() < deadline, "the tournament did not finish"
        await asyncio.sleep(0.25)
    published = api.http.get(f"/api/tournaments/{tour['id']}/replays").text.splitlines()
    replays = {line["entry_id"]: line for line in map(json.loads, published)}

    await page.goto(f"/#/finished/{tour['id']}")
    await expect(page.locator("[data-field=seed]")).to_have_text(SEED)
    await expect(page.locator("[data-field=commitment]")).to_have_text(tour["commitment"])
    await expect(page.locator("[data-check=commitment]")).to_have_attribute("data-ok", "true")
    # Standings first; the proof of fairness under them, one click away, its verdict in view.
    order = await page.evaluate(
        """() => [...document.querySelectorAll('.standings.final, [data-field=fairness]')].map((n) => n.tagName)"""
    )
    assert order == ["TABLE", "DETAILS"], order
    assert await page.locator("[data-field=seed]").is_hidden()
    await expect(page.locator("[data-field=fairness] summary")).to_contain_text("match the commitment")
    await page.locator("[data-field=fairness] summary").click()
    await expect(page.locator("[data-field=seed]")).to_be_visible()
    rows = page.locator(".standings.final tbody tr")
    await expect(rows).to_have_count(2)
    await expect(rows.nth(0)).to_have_attribute("data-entry", str(ann_entry["id"]))
    await expect(rows.nth(0).locator(".score")).to_have_text(str(replays[ann_entry["id"]]["final_score"]))
    await expect(rows.nth(1).locator(".score")).to_have_text("0")

    # Step through ann's game: each position is the Python engine's, from the same published line.
    await rows.nth(0).locator("[data-action=replay]").click()
    viewer = page.locator(".replay")
    rescore = viewer.locator("[data-field=rescore]")
    await expect(rescore).to_have_attribute("data-ok", "true")
    await expect(rescore).to_have_attribute("data-score", str(replays[ann_entry["id"]]["final_score"]))
    expected = replay_game(replays[ann_entry["id"]])
    await expect_board(page, expected["initial"])
    for i, step in enumerate(expected["steps"], start=1):
        await viewer.locator("[data-action=next]").click()
        await expect(viewer.locator(".board")).to_have_attribute("data-step", str(i))
        await expect_board(page, step)
    await expect(viewer.locator("[data-field=stats]")).to_contain_text(f"final {expected['final_score']}")
    await viewer.locator("[data-action=first]").click()
    await expect_board(page, expected["initial"])
    await snap(page, shots, "finished", full_page=True)

    # bob never played: absent, with no game to replay (a Replay button showed an empty board).
    await expect(rows.nth(1)).to_have_attribute("data-entry", str(bob_entry["id"]))
    await expect(rows.nth(1).locator("[data-action=replay]")).to_have_count(0)
    await expect(rows.nth(0).locator("[data-action=replay]")).to_have_count(1)

    # The finished board is final: no "live" light, however its socket goes.
    await page.goto(f"/#/board/{tour['id']}")
    await expect(page.locator("[data-action=results]")).to_be_visible()
    await page.wait_for_timeout(500)
    await expect(page.locator("[data-field=live]")).to_have_text("final")


async def test_certified_badge_and_the_par_after_the_finish(page: Page, api: Api) -> None:
    now = datetime.now(UTC)
    body = {
        "name": "Certified cup",
        "settings": {"variant": "spider78", "suits": 1},
        "opens_at": (now - timedelta(seconds=1)).isoformat(),
        "closes_at": (now + timedelta(seconds=4)).isoformat(),
        "certified": True,
        "certify_seconds": 3,
    }
    r = api.http.post("/api/tournaments", json=body, headers=api.admin(), timeout=60)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]

    await page.goto("/#/lobby")
    card = page.locator(f"[data-tournament='{tid}']")
    await expect(card.locator("[data-field=certified]")).to_have_text("certified winnable")
    await page.goto(f"/#/board/{tid}")
    await expect(page.locator(".board-page [data-field=certified]")).to_be_visible()

    deadline = time.monotonic() + 30
    while (tour := api.tournament(tid))["par"] is None:
        assert time.monotonic() < deadline, f"no par: {tour}"
        await asyncio.sleep(0.25)
    par = tour["par"]
    assert tour["status"] == "finished" and par["outcome"] == "won"

    await page.goto(f"/#/finished/{tid}")
    panel = page.locator("[data-field=par-panel]")
    assert par["pace"] == 2 and par["in_time"] is True
    await expect(panel.locator("[data-field=par-score]")).to_have_text(f"Par {par['final_score']:,}")
    await expect(panel.locator("[data-field=par]")).to_contain_text(
        f"the solver's line of {par['moves']} moves, at 2 s a move"
    )
    await expect(panel.locator("[data-field=par]")).not_to_contain_text("time runs out")
    await expect(page.locator(".finished-page [data-field=certified]")).to_be_visible()
    await panel.locator("[data-action=replay-par]").click()
    rescore = page.locator('.replay[data-entry="par"] [data-field=rescore]')
    await expect(rescore).to_have_attribute("data-ok", "true")
    await expect(rescore).to_have_attribute("data-score", str(par["final_score"]))
    await page.locator(".replay [data-action=last]").click()
    await expect(page.locator(".replay [data-field=stats]")).to_contain_text(f"final {par['final_score']}")


async def test_a_par_too_long_for_the_time_limit_and_the_winners_share_of_it(
    page: Page, api: Api, server: ServerProcess, shots: Path
) -> None:
    """At 2 s a move the solver's line does not fit in 60 s: the page says what it reaches when time
    runs out (the number its replay re-scores), and shows no score as a share of that cut line (a
    share of a score without the win's bonus would read 300%)."""
    settings: dict[str, Any] = {"variant": "spider78", "suits": 1, "time_limit": 60}
    tour = api.create_tournament(name="Short cup", seed="abc", closes_in=3, **settings)
    game = Game(Settings(**settings), "abc")
    _, token = api.register("cat")
    entry = api.join(tour["id"], token)
    cat, _ = await Player.connect(server.ws_url, entry["id"], token)
    await cat.start()
    for _ in range(4):
        move = ([m for m in card_moves(game) if reveals(game, m)] or card_moves(game))[0]
        assert (await cat.play(move.to_json()))["type"] == "result"
        game.play(move)
    await cat.play({"type": "end"})
    await cat.close()
    deadline = time.monotonic() + 60
    while (done := api.tournament(tour["id"]))["par"] is None or done["status"] != "finished":
        assert time.monotonic() < deadline, f"no par: {done}"
        await asyncio.sleep(0.25)
    par = done["par"]
    assert par["outcome"] == "won" and par["in_time"] is False and par["moves"] * par["pace"] >= 60

    await page.goto(f"/#/finished/{tour['id']}")
    panel = page.locator("[data-field=par-panel]")
    await expect(panel.locator("[data-field=par-score]")).to_have_text(f"Par {par['final_score']:,}")
    await expect(panel.locator("[data-field=par]")).to_contain_text(
        f"the solver's line of {par['moves']} moves would reach {par['final_score']:,} when time runs out at 2 s a move"
    )
    await expect(panel.locator("[data-field=winner]")).to_have_text(re.compile(r"^Winner: cat, [\d,]+\.$"))
    await expect(page.locator(".standings.final tbody tr")).to_have_count(1)
    await expect(page.locator("[data-field=of-par]")).to_have_count(0)
    await expect(page.locator(".standings.final thead")).not_to_contain_text("of par")
    assert "% of par" not in await page.locator("main").inner_text()
    await snap(page, shots, "finished-par", full_page=True)
    # The par's replay, re-scored in the browser, reaches the par shown and ends by time.
    await panel.locator("[data-action=replay-par]").click()
    rescore = page.locator('.replay[data-entry="par"] [data-field=rescore]')
    await expect(rescore).to_have_attribute("data-ok", "true")
    await expect(rescore).to_have_attribute("data-score", str(par["final_score"]))
    await page.locator(".replay [data-action=last]").click()
    await expect(page.locator(".replay [data-field=step]")).to_contain_text("out of time")
