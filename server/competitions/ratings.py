"""Ratings per game: every finished rated tournament updates the OpenSkill Plackett-Luce rating of
each entrant who started a game, in the order tournaments finished (docs/competitions.md).

Who is rated: the tournament's stored standings (disqualified entries are not in them) less the
entries that never started (joined or absent); fewer than two such entrants change nothing.
Entrants equal in final score and time left share a rank (the entry order that breaks the tie in
the standings says nothing of skill). New players start at the model's defaults. The number shown
is the ordinal, ``mu - 3 sigma``.

The same code applies a tournament at its finish and in ``spidertour ratings rebuild``, reading
the previous ratings from PostgreSQL (double precision keeps Python's floats exactly), so a rebuild
arrives at exactly the stored numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import groupby, pairwise
from typing import Any, Protocol

import asyncpg
from openskill.models import PlackettLuce

from ..storage.pool import Connection, Db
from . import rating_store as store
from .rating_scale import shown
from .rating_store import Change, Rating

MODEL = PlackettLuce()
DEFAULT = Rating(MODEL.mu, MODEL.sigma, 0)


class Ranked(Protocol):
    """A rated entrant as the standings hold it: ``player_id``, ``final_score``, ``time_left``."""

    def __getitem__(self, key: str) -> Any: ...


def game_of(settings: dict[str, Any]) -> str:
    """The rating's game: ``"variant/suits"``, e.g. ``"spider78/2"``."""
    return f"{settings['variant']}/{settings['suits']}"


def ordinal(rating: Rating) -> float:
    return float(MODEL.rating(mu=rating.mu, sigma=rating.sigma).ordinal())


def shared_ranks(entrants: Sequence[Ranked]) -> list[int]:
    """Competition ranks (1, 1, 3, ...) of entrants in standings order: equal final score and time left tie."""
    ranks: list[int] = []
    for i, row in enumerate(entrants):
        before = entrants[i - 1] if i else None
        tied = before is not None and (before["final_score"], before["time_left"]) == (
            row["final_score"],
            row["time_left"],
        )
        ranks.append(ranks[-1] if tied else i + 1)
    return ranks


def rate(entrants: Sequence[Ranked], known: dict[int, Rating]) -> list[Change]:
    """The new ratings of one tournament's rated entrants (in standings order); none under two."""
    if len(entrants) < 2:
        return []
    ranks = shared_ranks(entrants)
    before = [known.get(row["player_id"], DEFAULT) for row in entrants]
    # openskill's PlackettLuce update in linear time (its own takes 26 CPU s for 20,000 entrants).
    after = rate_ranked(MODEL, [(r.mu, r.sigma) for r in before], ranks)
    return [
        Change(row["player_id"], rank, old, Rating(mu, sigma, old.games + 1))
        for row, rank, old, (mu, sigma) in zip(entrants, ranks, before, after, strict=True)
    ]


# The Plackett-Luce update of openskill's ``PlackettLuce().rate`` for one player per team, ranks given,
# in time linear in the entrants rather than quadratic.
#
# openskill sums, for each entrant i, a term over every entrant q ranked no lower than i: 20,000
# rated entrants take it about 26 CPU seconds, 100,000 about 11 minutes. The terms share two prefix sums:
#
#     omega_i = 1 / A_i - e_i * P1(r_i)          P1(r) = sum over q with r_q <= r of 1 / (S_q A_q)
#     delta_i = e_i * P1(r_i) - e_i^2 * P2(r_i)  P2(r) = sum over q with r_q <= r of 1 / (S_q^2 A_q)
#
# where e_i = exp(mu_i / c), S_q the sum of e over q and the entrants ranked below q, and A_q how
# many share q's rank. The model's defaults are used (tau, beta, kappa; the gamma sqrt(sigma^2) / c;
# no sigma limit, no balance). Entrants who tie each keep their own change of mu, as openskill's do
# (its averaging over a tie reads the changed ratings as the old, so it changes nothing). The
# numbers agree with openskill's to the last few bits, the order of summation being the only
# difference (``tests/server/scale/test_rating_speed.py``).
def rate_ranked(model: PlackettLuce, before: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """The new (mu, sigma) of each entrant, given (mu, sigma) before and ranks in standings order
    (never decreasing; equal ranks tie)."""
    n = len(before)
    if n != len(ranks) or any(b < a for a, b in pairwise(ranks)):
        raise ValueError("ranks must be as many as the entrants and in standings order")
    tau_squared, beta_squared = model.tau * model.tau, model.beta**2
    corrected = [math.sqrt(sigma * sigma + tau_squared) for _, sigma in before]  # sigma corrected with tau
    sigma_squared = [sigma * sigma for sigma in corrected]
    c = math.sqrt(sum(s + beta_squared for s in sigma_squared))
    e = [math.exp(mu / c) for mu, _ in before]
    # The groups of equal rank, as (first index, end index).
    groups: list[tuple[int, int]] = []
    start = 0
    for _, members in groupby(ranks):
        size = len(list(members))
        groups.append((start, start + size))
        start += size
    # S of a group: e summed over it and every entrant ranked below it.
    suffix = [0.0] * len(groups)
    total = 0.0
    for g in range(len(groups) - 1, -1, -1):
        first, end = groups[g]
        total += math.fsum(e[first:end])
        suffix[g] = total
    mu_after = [0.0] * n
    sigma_after = [0.0] * n
    p1 = p2 = 0.0
    for g, (first, end) in enumerate(groups):
        size = end - first
        s = suffix[g]
        p1 += 1.0 / s  # the group's A_q = size entrants each add 1 / (S_q A_q)
        p2 += 1.0 / (s * s)
        for i in range(first, end):
            var = sigma_squared[i]
            omega = (1.0 / size - e[i] * p1) * var / c
            delta = (e[i] * p1 - e[i] * e[i] * p2) * var / (c * c)
            delta *= math.sqrt(var) / c  # the model's gamma
            mu_after[i] = before[i][0] + omega
            sigma_after[i] = corrected[i] * math.sqrt(max(1 - delta, model.kappa))
    return list(zip(mu_after, sigma_after, strict=True))


async def _apply(conn: Connection, tournament_id: int, settings: dict[str, Any]) -> int:
    game = game_of(settings)
    entrants = await store.rated_entrants(conn, tournament_id)
    known = await store.current(conn, game, [row["player_id"] for row in entrants])
    changes = rate(entrants, known)
    if changes:
        await store.save(conn, tournament_id, game, changes)
    return len(changes)


async def lock(conn: Connection) -> None:
    """Take the ratings' lock: finishes that follow it are stamped, and applied, in one order."""
    await store.lock(conn)


async def apply(conn: Connection, tournament_id: int) -> int:
    """Rate a tournament just finished, in its finishing transaction (after its standings are stored,
    under ``lock``). Returns how many entrants were rated (0: unrated, or fewer than two)."""
    found = await store.rated_tournament(conn, tournament_id)
    if found is None:
        return 0
    return await _apply(conn, tournament_id, found["settings"])


async def rebuild(conn: Connection, game: str | None = None) -> tuple[int, int]:
    """Recompute every rating (of one game, or all) from the stored standings of the finished rated
    tournaments, in finish order, replacing what was stored. Returns (tournaments, results) applied."""
    async with conn.transaction():
        await store.lock(conn)
        await store.forget(conn, game)
        tournaments = results = 0
        for row in await store.rated_in_finish_order(conn):
            if game is not None and game_of(row["settings"]) != game:
                continue
            rated = await _apply(conn, row["id"], row["settings"])
            tournaments += rated > 0
            results += rated
        return tournaments, results


async def rerate(conn: Connection, tournament_id: int) -> None:
    """The standings of a finished tournament changed (a disqualification): its game is rebuilt."""
    found = await store.rated_tournament(conn, tournament_id)
    if found is not None:
        await rebuild(conn, game_of(found["settings"]))


async def limit_refusal(db: Db, player_id: int, tournament: asyncpg.Record) -> str | None:
    """Why the player's rating in the tournament's game keeps it out (its rating_min/rating_max), or None."""
    low, high = tournament["rating_min"], tournament["rating_max"]
    if low is None and high is None:
        return None
    game = game_of(tournament["settings"])
    found = await store.rating_of(db, player_id, game)
    value = ordinal(found or DEFAULT)
    # Said on the shown scale (rating_scale): the numbers people see on their profiles.
    mine, low_shown, high_shown = (None if x is None else f"{shown(x):,}" for x in (value, low, high))
    if found is None:
        yours = f"you are unrated in {game}, where a new player counts as {mine}"
    else:
        yours = f"your {game} rating is {mine}"
    if low is not None and value < low:
        return f"rated players only from {low_shown}: {yours}, below the minimum {low_shown}"
    if high is not None and value > high:
        return f"rated players only up to {high_shown}: {yours}, above the maximum {high_shown}"
    return None
