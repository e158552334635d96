"""Team battles: the team standings, live from Redis while a tournament runs, from PostgreSQL once
it is finished (docs/competitions.md, "Team battles").

A team is a club; its score is the sum of the scores of its ``top`` best entries (the individual
ranking's order picks them). Ties go to the team whose ``top``-th best score is higher, then its
(``top``-1)-th, and so on up to its best; a team with fewer than ``top`` entries lacks the missing
places and loses such a tie to a full one; last, the smaller club id. No two teams share a rank.

Beside the tournament's leaderboard (``leaderboard.Leaderboard``), in the same hash slot:

    PREFIX:{t:ID}:teams      hash         club id -> club name (written at the join and by rebuilds)
    PREFIX:{t:ID}:team:CLUB  sorted set   member = entry id, score = the entry's rank key

A row's write adds one ZADD to its team's set, in the same pipeline as the leaderboard's own.
"""

from __future__ import annotations

from collections.abc import Iterable

import asyncpg
from redis.asyncio import Redis

from ..storage.sql import RANK_ORDER
from .leaderboard import ORDER_BITS, TIME_BITS
from .messages import TeamRow

SCORE_SHIFT = TIME_BITS + ORDER_BITS  # the score's place in a rank key

# Every team's name and its `top` best members with their rank keys, in one round trip. The team
# sets share the tournament's hash tag, so they live in the slot of KEYS[1].
TEAMS_LUA = """
local out = {}
local teams = redis.call('HGETALL', KEYS[1])
for i = 1, #teams, 2 do
  out[#out + 1] = teams[i]
  out[#out + 1] = teams[i + 1]
  out[#out + 1] = redis.call('ZREVRANGE', ARGV[1] .. teams[i], 0, tonumber(ARGV[2]) - 1, 'WITHSCORES')
end
return out
"""

Members = list[tuple[int, int]]  # (entry id, score), best first


def rank_teams(top: int, teams: Iterable[tuple[int, str, Members]]) -> list[TeamRow]:
    """The team standings: ``teams`` gives each club's id, name and entries (best first, as the
    individual ranking orders them). Teams without an entry are left out."""
    found = []
    for team_id, name, members in teams:
        best = members[:top]
        if best:
            found.append((team_id, name, [score for _, score in best], [entry for entry, _ in best]))

    def order(team: tuple[int, str, list[int], list[int]]) -> tuple[int, tuple[int, ...], int]:
        scores = team[2] + [-1] * (top - len(team[2]))  # a missing place is below any score
        return (-sum(team[2]), tuple(-score for score in reversed(scores)), team[0])

    found.sort(key=order)
    return [
        TeamRow(rank=i, team=team_id, name=name, score=sum(scores), counted=counted)
        for i, (team_id, name, scores, counted) in enumerate(found, 1)
    ]


class TeamBoard:
    """The Redis side of the team standings (the keys are those of the tournament's leaderboard)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        self.prefix = prefix
        self._read = redis.register_script(TEAMS_LUA)

    def key(self, tournament_id: int, part: str) -> str:
        return f"{self.prefix}:{{t:{tournament_id}}}:{part}"

    async def standings(self, tournament_id: int, top: int) -> list[TeamRow]:
        raw = await self._read(keys=[self.key(tournament_id, "teams")], args=[self.key(tournament_id, "team:"), top])
        teams = []
        for i in range(0, len(raw), 3):
            pairs = raw[i + 2]
            members = [(int(pairs[j]), int(float(pairs[j + 1])) >> SCORE_SHIFT) for j in range(0, len(pairs), 2)]
            teams.append((int(raw[i]), raw[i + 1].decode(errors="replace"), members))
        return rank_teams(top, teams)


# Each team's `top` best entries, from PostgreSQL: the final standings once stored, else the
# entries ranked live as docs/rules.md ranks them.
FINAL_SQL = """
    SELECT team_id, team_name, entry_id, score FROM (
        SELECT e.team_id, c.name AS team_name, s.entry_id, s.final_score AS score,
               row_number() OVER (PARTITION BY e.team_id ORDER BY s.rank) AS place
          FROM standings s JOIN entries e ON e.id = s.entry_id JOIN clubs c ON c.id = e.team_id
         WHERE s.tournament_id = $1) ranked
     WHERE place <= $2 ORDER BY team_id, place"""

LIVE_SQL = f"""
    SELECT team_id, team_name, entry_id, score FROM (
        SELECT e.team_id, c.name AS team_name, e.id AS entry_id, coalesce(e.final_score, e.score) AS score,
               row_number() OVER (PARTITION BY e.team_id ORDER BY {RANK_ORDER}) AS place
          FROM entries e JOIN clubs c ON c.id = e.team_id
         WHERE e.tournament_id = $1 AND e.disqualified IS NULL AND NOT e.practice) ranked
     WHERE place <= $2 ORDER BY team_id, place"""


async def from_db(db: asyncpg.Pool, tournament_id: int, top: int, final: bool) -> list[TeamRow]:
    """The team standings as PostgreSQL has them: final (from the stored standings) or live."""
    records = await db.fetch(FINAL_SQL if final else LIVE_SQL, tournament_id, top)
    teams: dict[int, tuple[int, str, Members]] = {}
    for r in records:
        teams.setdefault(r["team_id"], (r["team_id"], r["team_name"], []))[2].append((r["entry_id"], r["score"]))
    return rank_teams(top, teams.values())


async def teams_top(db: asyncpg.Pool, tournament_id: int) -> int | None:
    """How many best scores a team counts in this tournament (None: no team battle)."""
    top: int | None = await db.fetchval("SELECT teams_top FROM tournaments WHERE id = $1", tournament_id)
    return top
