"""The ratings' linear-time Plackett-Luce update against openskill's own, and at a big finish's size
(stored in two statements)."""

from __future__ import annotations

import asyncio
import random
import secrets
from typing import Any

import asyncpg
import pytest
from openskill.models import PlackettLuce

from spidertour.server.competitions.rating_store import RATED_SQL
from spidertour.server.competitions.ratings import rate, rate_ranked, shared_ranks
from tests.client import Api
from tests.server.helpers import spidertour

MODEL = PlackettLuce()


def _openskill(before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    return [(t[0].mu, t[0].sigma) for t in MODEL.rate(teams, ranks=[float(r) for r in ranks])]


@pytest.mark.parametrize("n", [2, 3, 7, 60, 400])
def test_the_update_is_openskills(n: int) -> None:
    rng = random.Random(n)
    before = [(rng.uniform(10, 40), rng.uniform(1, 8.4)) for _ in range(n)]
    ranks = sorted(rng.randint(1, max(1, n // 3)) for _ in range(n))  # many ties
    got = rate_ranked(MODEL, before, ranks)
    for (mu, sigma), (want_mu, want_sigma) in zip(got, _openskill(before, ranks), strict=True):
        assert mu == pytest.approx(want_mu, rel=1e-12, abs=1e-12)
        assert sigma == pytest.approx(want_sigma, rel=1e-12)


def test_two_from_the_defaults_are_exactly_openskills() -> None:
    before = [(MODEL.mu, MODEL.sigma)] * 2
    assert rate_ranked(MODEL, before, [1, 2]) == _openskill(before, [1, 2])


def test_ranks_out_of_order_are_refused() -> None:
    with pytest.raises(ValueError, match="standings order"):
        rate_ranked(MODEL, [(25.0, 8.0)] * 3, [1, 3, 2])


def test_a_hundred_thousand_entrants_are_rated_in_order() -> None:
    """openskill's own update would take half an hour here; every entrant gets a rating, the winner
    gains most, the last loses most, and entrants tied from equal ratings change alike."""
    rows: list[dict[str, Any]] = [
        {"player_id": i, "final_score": 100_000 - i // 2, "time_left": 0} for i in range(100_000)
    ]
    changes = rate(rows, {})
    assert len(changes) == 100_000 and shared_ranks(rows)[:4] == [1, 1, 3, 3]
    mus = [c.after.mu for c in changes]
    assert mus[0] == max(mus) > MODEL.mu > mus[-1] == min(mus)
    assert changes[0].after == changes[1].after and changes[2].after.mu < changes[1].after.mu
    # sigma, first widened by the model's tau, narrows with the game played
    widened = (MODEL.sigma**2 + MODEL.tau**2) ** 0.5
    assert all(0 < c.after.sigma < widened and c.after.games == 1 for c in changes)


async def test_a_big_rated_finish_stores_every_rating(api: Api, database_url: str) -> None:
    """A rated tournament of 3,000 entrants who ended their games (and 1,000 who never started),
    finished by the server's clock: every starter rated as ``rate`` rates the stored standings."""
    tour = api.create_tournament(name="big-rated", seed="big", closes_in=3600, variant="spider78", suits=1)
    conn = await asyncpg.connect(database_url)
    try:
        tag = secrets.token_hex(4)
        await conn.execute("INSERT INTO players (name) SELECT $1 || '-' || g FROM generate_series(1, 4000) g", tag)
        await conn.execute(
            """INSERT INTO entries (tournament_id, player_id, ordinal, status, score, final_score, time_left)
               SELECT $1, p.id, row_number() OVER (ORDER BY p.id),
                      CASE WHEN p.id % 4 = 0 THEN 'joined' ELSE 'ended' END, (p.id * 7) % 900, (p.id * 7) % 900, 0
                 FROM players p WHERE p.name LIKE $2 || '-%'""",
            tour["id"],
            tag,
        )
        await conn.execute("UPDATE tournaments SET closes_at = now(), entry_count = 4000 WHERE id = $1", tour["id"])
        for _ in range(200):
            if await conn.fetchval("SELECT finished_at IS NOT NULL FROM tournaments WHERE id = $1", tour["id"]):
                break
            await asyncio.sleep(0.1)
        rated = await conn.fetch(
            "SELECT player_id, rank, mu, sigma, games FROM rating_history WHERE tournament_id = $1 ORDER BY rank",
            tour["id"],
        )
        standings = await conn.fetch(RATED_SQL, tour["id"])
        stored = {r["player_id"]: r for r in await conn.fetch("SELECT * FROM ratings WHERE game = 'spider78/1'")}
        # A rebuild of the game arrives at the same numbers, bit for bit.
        history_sql = "SELECT * FROM rating_history WHERE tournament_id = $1 ORDER BY player_id"
        before = [tuple(r) for r in await conn.fetch(history_sql, tour["id"])]
        done = spidertour("ratings", "rebuild", "--game", "spider78/1", DATABASE_URL=database_url)
        assert done.returncode == 0, done.stderr
        assert [tuple(r) for r in await conn.fetch(history_sql, tour["id"])] == before
    finally:
        await conn.close()
    assert len(rated) == len(standings) == 3000
    expected = {c.player_id: c for c in rate(standings, {})}
    for row in rated:
        want = expected[row["player_id"]]
        assert (row["rank"], row["mu"], row["sigma"], row["games"]) == (
            want.rank,
            want.after.mu,
            want.after.sigma,
            1,
        )
        assert (stored[row["player_id"]]["mu"], stored[row["player_id"]]["games"]) == (want.after.mu, 1)
