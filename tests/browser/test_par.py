"""The certified badge from the start, and the par on the finished page with its replay."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta

from playwright.async_api import Page, expect

from tests.client import Api


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
    await expect(panel.locator("[data-field=par-score]")).to_have_text(f"Par {par['final_score']}")
    await expect(page.locator(".finished-page [data-field=certified]")).to_be_visible()
    await panel.locator("[data-action=replay-par]").click()
    rescore = page.locator('.replay[data-entry="par"] [data-field=rescore]')
    await expect(rescore).to_have_attribute("data-ok", "true")
    await expect(rescore).to_have_attribute("data-score", str(par["final_score"]))
    await page.locator(".replay [data-action=last]").click()
    await expect(page.locator(".replay [data-field=stats]")).to_contain_text(f"final {par['final_score']}")
