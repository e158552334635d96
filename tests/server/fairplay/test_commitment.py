"""The salted commitment: a short organiser seed cannot be found from it; the salt is revealed with the
seed; tournaments committed before salts (seed and settings alone) still verify."""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg

from spidertour.server.cli.verify import verify
from tests.client import Api

SHORT_SEED = "4821"  # what an organiser might type


def canonical(obj: Any) -> bytes:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


async def until_finished(api: Api, tournament_id: int, timeout: float = 8.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (tour := api.tournament(tournament_id))["status"] != "finished":
        assert time.monotonic() < deadline, f"tournament {tournament_id} is still {tour['status']}"
        await asyncio.sleep(0.1)
    return tour


async def test_a_short_seed_cannot_be_found_from_the_commitment(api: Api, server: Any) -> None:
    tour = api.create_tournament(name="short seed", seed=SHORT_SEED, closes_in=1.0, variant="spider78", suits=2)
    published = tour["commitment"]
    settings = tour["settings"]
    assert tour["seed"] is None and tour["salt"] is None
    # What the search would find if the commitment covered the seed and settings alone: the control
    # proves the search itself works (it finds the seed in the unsalted form).
    unsalted = hashlib.sha256(canonical({"seed": SHORT_SEED, "settings": settings})).hexdigest()
    targets = {published: "published", unsalted: "unsalted control"}
    # Every seed of up to 5 digits: the published commitment matches none of them.
    head = b'{"seed":"'
    tail = b'","settings":' + canonical(settings) + b"}"
    found = []
    for n in range(10**5):
        digest = hashlib.sha256(head + str(n).encode() + tail).hexdigest()
        if digest in targets:
            found.append((str(n), targets[digest]))
    assert found == [(SHORT_SEED, "unsalted control")]

    finished = await until_finished(api, tour["id"])
    salt = finished["salt"]
    assert finished["seed"] == SHORT_SEED and isinstance(salt, str) and len(bytes.fromhex(salt)) >= 16
    assert hashlib.sha256(canonical({"salt": salt, "seed": SHORT_SEED, "settings": settings})).hexdigest() == published
    report = verify(server.url, tour["id"])
    assert report.ok, report.problems
    assert [c.ok for c in report.checks if c.name in ("salt", "commitment")] == [True, True]


async def test_salts_differ_between_tournaments(api: Api, server: Any) -> None:
    one = api.create_tournament(name="same seed 1", seed=SHORT_SEED, closes_in=1.0, variant="spider78", suits=2)
    two = api.create_tournament(name="same seed 2", seed=SHORT_SEED, closes_in=1.0, variant="spider78", suits=2)
    assert one["settings"] == two["settings"] and one["commitment"] != two["commitment"]
    a, b = await until_finished(api, one["id"]), await until_finished(api, two["id"])
    assert a["salt"] != b["salt"]


async def insert_unsalted(database_url: str, seed: str, settings: dict[str, Any], commitment: str) -> int:
    """A tournament as the server made them before salts: no salt, eight settings, closed already."""
    now = datetime.now(UTC)
    conn = await asyncpg.connect(database_url)
    try:
        return int(
            await conn.fetchval(
                """INSERT INTO tournaments (name, settings, seed, commitment, opens_at, closes_at)
               VALUES ('before salts', $1::jsonb, $2, $3, $4, $5) RETURNING id""",
                json.dumps(settings),
                seed,
                commitment,
                now - timedelta(hours=2),
                now - timedelta(hours=1),
            )
        )
    finally:
        await conn.close()


OLD_SETTINGS = {
    "variant": "spider78",
    "suits": 2,
    "free_column": True,
    "undo": True,
    "undo_limit": None,
    "time_limit": 600,
    "draw_pile_choice": True,
    "draw_pile_tops_up": True,
}


async def test_a_tournament_committed_before_salts_still_verifies(api: Api, server: Any, database_url: str) -> None:
    seed = "old-seed"
    old = hashlib.sha256(canonical({"seed": seed, "settings": OLD_SETTINGS})).hexdigest()
    good = await insert_unsalted(database_url, seed, OLD_SETTINGS, old)
    bad = await insert_unsalted(database_url, seed + "!", OLD_SETTINGS, old)  # a seed swapped after the fact
    finished = await until_finished(api, good)
    assert finished["salt"] is None and finished["seed"] == seed and finished["commitment"] == old
    report = verify(server.url, good)
    assert report.ok, report.problems
    salt_check = next(c for c in report.checks if c.name == "salt")
    assert salt_check.ok and "before salts" in salt_check.detail
    await until_finished(api, bad)
    tampered = verify(server.url, bad)
    assert not tampered.ok and any(p.startswith("commitment:") for p in tampered.problems)


async def test_an_edited_tournament_is_committed_afresh_with_a_new_salt(
    api: Api, server: Any, database_url: str
) -> None:
    tour = api.create_tournament(name="to edit", seed=SHORT_SEED, opens_in=600, closes_in=1200)

    async def salt() -> str:
        conn = await asyncpg.connect(database_url)
        try:
            return str(await conn.fetchval("SELECT salt FROM tournaments WHERE id = $1", tour["id"]))
        finally:
            await conn.close()

    before = await salt()
    r = api.http.patch(f"/api/tournaments/{tour['id']}", headers=api.admin(), json={"seed": "4822"})
    assert r.status_code == 200, r.text
    edited = r.json()
    after = await salt()
    assert after != before and edited["salt"] is None
    committed = {"salt": after, "seed": "4822", "settings": edited["settings"]}
    assert edited["commitment"] == hashlib.sha256(canonical(committed)).hexdigest()
