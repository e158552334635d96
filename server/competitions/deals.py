"""Several deals in one event at the finish: the stored standings by matchpoints, and the replays,
one line per entry and deal (docs/competitions.md "Several deals", docs/replay.md).

The play of each deal is in server/play/deals.py; the ranking's pure functions in ``matchpoints``.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec

from ..play.deals import deal_count, deal_results, scoring_of
from ..storage.pool import Connection
from .matchpoints import Entrant, rank

TIME_UP = ("timed_out", "absent")  # a game the clock ended (or never started): it closes with "end" at the limit


async def store_matchpoint_standings(conn: Connection, tournament_id: int, settings: dict[str, Any]) -> None:
    """The final ranking by matchpoints (ties: the total, then the earlier entry), disqualified and
    practice entries left out of the field, replacing any stored before."""
    entries = await conn.fetch(
        """SELECT e.id, e.ordinal, e.player_id, p.name AS player, e.status,
                  coalesce(e.final_score, e.score) AS total, coalesce(e.time_left, 0) AS time_left
             FROM entries e JOIN players p ON p.id = e.player_id
            WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice""",
        tournament_id,
    )
    deals = deal_count(settings)
    scores: dict[int, list[int]] = {e["id"]: [0] * deals for e in entries}
    for r in await deal_results(conn, tournament_id):
        if r["entry_id"] in scores and 1 <= r["deal"] <= deals:
            scores[r["entry_id"]][r["deal"] - 1] = r["final_score"]
    by_id = {e["id"]: e for e in entries}
    field = [Entrant(e["id"], e["ordinal"], tuple(scores[e["id"]]), e["time_left"]) for e in entries]
    ranked = rank(field, scoring_of(settings))
    await conn.execute("DELETE FROM standings WHERE tournament_id = $1", tournament_id)
    await conn.executemany(
        """INSERT INTO standings (tournament_id, rank, entry_id, player_id, player, final_score, time_left,
                                  status, matchpoints)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)""",
        [
            (
                tournament_id,
                r.rank,
                r.entrant.entry_id,
                (row := by_id[r.entrant.entry_id])["player_id"],
                row["player"],
                row["total"],
                row["time_left"],
                row["status"],
                r.matchpoints,
            )
            for r in ranked
        ],
    )


async def replay_lines(db: asyncpg.Pool, tour: asyncpg.Record) -> list[bytes]:
    """Every entry's game on every deal as docs/replay.md input lines: the tournament's seed and
    ``deal: k``; a deal the entry never played closes at once by time, as an absent game does."""
    settings, seed = tour["settings"], tour["seed"]
    time_limit = settings["time_limit"]
    async with db.acquire() as conn, conn.transaction(isolation="repeatable_read", readonly=True):
        entries = await conn.fetch(
            """SELECT e.id, e.ordinal, p.name AS player, e.disqualified
                 FROM entries e JOIN players p ON p.id = e.player_id
                WHERE e.tournament_id = $1 AND NOT e.practice ORDER BY e.id""",
            tour["id"],
        )
        results = {(r["entry_id"], r["deal"]): r for r in await deal_results(conn, tour["id"])}
        moves: dict[int, list[Any]] = {}
        for m in await conn.fetch(
            """SELECT m.entry_id, m.move || jsonb_build_object('t', m.t) AS move
                 FROM moves m JOIN entries e ON e.id = m.entry_id
                WHERE e.tournament_id = $1 AND NOT e.practice ORDER BY m.entry_id, m.n""",
            tour["id"],
        ):
            moves.setdefault(m["entry_id"], []).append(m["move"])
    lines = []
    for e in entries:
        played = moves.get(e["id"], [])
        for k in range(1, deal_count(settings) + 1):
            r = results.get((e["id"], k))
            status, final = ("absent", 0) if r is None else (r["status"], r["final_score"])
            game_moves = [] if r is None else played[r["first_move"] : r["last_move"]]
            if status in TIME_UP:
                game_moves = [*game_moves, {"type": "end", "t": time_limit}]
            game = {
                **settings,
                "seed": seed,
                "deal": k,
                "entry": e["ordinal"],
                "moves": game_moves,
                "entry_id": e["id"],
                "player": e["player"],
                "status": status,
                "final_score": final,
            }
            if e["disqualified"] is not None:
                game["disqualified"] = e["disqualified"]
            lines.append(msgspec.json.encode(game))
    return lines
