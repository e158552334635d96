"""Leaderboards in Redis: one sorted set per tournament, ordered exactly as docs/rules.md ranks.

Keys of one tournament share the hash tag ``{t:ID}`` so a Redis Cluster keeps them in one slot:

    PREFIX:{t:ID}:rank   sorted set   member = entry id, score = rank_key(...)
    PREFIX:{t:ID}:rows   hash         entry id -> JSON row shown to watchers
    PREFIX:{t:ID}:players hash        entry id -> player id (a public profile's), written once when the
                                      entry is made (never by a move) and read with the rows
    PREFIX:{t:ID}:built  string       present once the set holds every entry (else: rebuild)
    PREFIX:{t:ID}:teams and PREFIX:{t:ID}:team:CLUB   a team battle's teams (``teams``)

Redis holds nothing that PostgreSQL cannot give again: ``rebuild`` restores every key. Once a
tournament is over, its final standings are PostgreSQL's and its keys are needed only by the last
updates to its watchers: they expire ``FINISHED_SECONDS`` later (``expire``).
"""

from __future__ import annotations

import logging

import asyncpg
import msgspec
from redis.asyncio import Redis

from ..operations.metrics import REBUILDS
from . import store
from .messages import Row, row_of

log = logging.getLogger("spidertour.leaderboard")

# The sorted-set score must give the true order alone, and a double is exact only up to 2**53.
# Three whole numbers are packed into 53 bits, most significant first:
#   score        17 bits  (< 131,072: time bonus <= time_limit <= 86,400 s, plus at most
#                          88 reveals x 25 + 16 sequences x 100 + 100 in huge_spider)
#   time_left    17 bits  (< 131,072: whole seconds remaining at the end, <= 86,400; running games 0)
#   order        19 bits  (2**19 - 1 - ordinal: the earlier entry ranks higher; ordinal < 524,288)
# Higher is better in every field, so ZREVRANGE lists the ranking of docs/rules.md.
SCORE_BITS, TIME_BITS, ORDER_BITS = 17, 17, 19
MAX_TIME_LIMIT = 86_400
assert SCORE_BITS + TIME_BITS + ORDER_BITS == 53

PARTS = ("built", "players", "rank", "rows", "teams")
TEAM_PART = "team:"  # and one sorted set per team of a team battle: PREFIX:{t:ID}:team:CLUB


def is_part(part: str) -> bool:
    """Whether ``part`` names one of a tournament's board keys."""
    return part in PARTS or (part.startswith(TEAM_PART) and part[len(TEAM_PART) :].isdigit())


FINISHED_SECONDS = 600  # how long a finished (or cancelled) tournament's keys stay in Redis


def rank_key(score: int, time_left: int, ordinal: int) -> int:
    if not (0 <= score < 1 << SCORE_BITS and 0 <= time_left < 1 << TIME_BITS and 0 < ordinal < 1 << ORDER_BITS):
        raise ValueError(f"cannot rank score={score} time_left={time_left} ordinal={ordinal}")
    order = (1 << ORDER_BITS) - 1 - ordinal
    return (score << (TIME_BITS + ORDER_BITS)) | (time_left << ORDER_BITS) | order


# ZREVRANK of many members at once (one key: a Redis Cluster keeps it in one slot); -1 = absent.
RANKS_LUA = """
local out = {}
for i, member in ipairs(ARGV) do
  out[i] = redis.call('ZREVRANK', KEYS[1], member) or -1
end
return out
"""

_row_encoder = msgspec.json.Encoder()
_row_decoder = msgspec.json.Decoder(Row)


class Leaderboard:
    def __init__(self, redis: Redis, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self._ranks = redis.register_script(RANKS_LUA)  # EVALSHA, loading the script when Redis lacks it

    def key(self, tournament_id: int, part: str) -> str:
        return f"{self.prefix}:{{t:{tournament_id}}}:{part}"

    @staticmethod
    def key_of(row: Row, ordinal: int) -> int:
        ended = row.status != "playing"
        return rank_key(row.score, (row.time_left or 0) if ended else 0, ordinal)

    async def record(self, tournament_id: int, ordinal: int, row: Row) -> bool:
        """Write one entry's row and rank. Returns False when the set needs a rebuild."""
        return (await self.record_many([(tournament_id, ordinal, row)]))[0]

    async def record_many(self, items: list[tuple[int, int, Row]]) -> list[bool]:
        """``record`` for many entries in one round trip: (tournament id, ordinal, row) each.

        Three commands per tournament, however many rows (one ZADD, one HSET, one EXISTS): the
        cost of a batch grows with its rows' bytes, not with a command per row. In a team battle,
        one ZADD more per team the rows play for (and the team's name when an entry joins). A row
        that carries its player's id (an entry just made) has it kept in the ``players`` hash, one
        HSET more; a move's row never carries it.
        """
        by_tournament: dict[
            int, tuple[dict[str, int], dict[str, bytes], dict[int, dict[str, int]], dict[int, str]]
        ] = {}
        players: dict[int, dict[str, int]] = {}
        for tournament_id, ordinal, row in items:
            keys, rows, teams, joined = by_tournament.setdefault(tournament_id, ({}, {}, {}, {}))
            member = str(row.entry_id)
            keys[member] = self.key_of(row, ordinal)
            if row.player_id is not msgspec.UNSET:
                players.setdefault(tournament_id, {})[member] = row.player_id
                row = msgspec.structs.replace(row, player_id=msgspec.UNSET)
            rows[member] = _row_encoder.encode(row)
            if row.team is not None:
                teams.setdefault(row.team.id, {})[member] = keys[member]
                if row.status == "joined":
                    joined[row.team.id] = row.team.name
        pipe = self.redis.pipeline(transaction=False)
        built_at: dict[int, int] = {}
        commands = 0
        for tournament_id, (keys, rows, teams, joined) in by_tournament.items():
            pipe.zadd(self.key(tournament_id, "rank"), keys)
            pipe.hset(self.key(tournament_id, "rows"), mapping=rows)  # type: ignore[arg-type]
            if tournament_id in players:
                pipe.hset(self.key(tournament_id, "players"), mapping=players[tournament_id])  # type: ignore[arg-type]
                commands += 1
            for team_id, members in teams.items():
                pipe.zadd(self.key(tournament_id, f"{TEAM_PART}{team_id}"), members)
            if joined:
                pipe.hset(self.key(tournament_id, "teams"), mapping=joined)  # type: ignore[arg-type]
            commands += 2 + len(teams) + bool(joined)
            pipe.exists(self.key(tournament_id, "built"))
            built_at[tournament_id] = commands
            commands += 1
        answers = await pipe.execute()
        built = {tid: bool(answers[at]) for tid, at in built_at.items()}
        return [built[tournament_id] for tournament_id, _, _ in items]

    async def is_built(self, tournament_id: int) -> bool:
        return bool(await self.redis.exists(self.key(tournament_id, "built")))

    async def rebuild(self, db: asyncpg.Pool, tournament_id: int) -> int:
        """Refill the set from PostgreSQL while games go on.

        Rows written by live moves since the loss are newer than this snapshot, so the rebuild
        only adds what is missing (ZADD NX, HSETNX) and never overwrites them.
        """
        records = await store.board_rows(db, tournament_id)
        pipe = self.redis.pipeline(transaction=False)
        rank_key_name, rows_key = self.key(tournament_id, "rank"), self.key(tournament_id, "rows")
        for record in records:
            row = row_of(record)
            key = self.key_of(row, record["ordinal"])
            pipe.zadd(rank_key_name, {str(row.entry_id): key}, nx=True)
            pipe.hsetnx(rows_key, str(row.entry_id), _row_encoder.encode(row))
            if record["profile_public"]:
                pipe.hset(self.key(tournament_id, "players"), str(row.entry_id), record["player_id"])
            if row.team is not None:  # a team battle: the entry's team too
                pipe.zadd(self.key(tournament_id, f"{TEAM_PART}{row.team.id}"), {str(row.entry_id): key}, nx=True)
                pipe.hset(self.key(tournament_id, "teams"), str(row.team.id), row.team.name)
        pipe.set(self.key(tournament_id, "built"), "1")
        await pipe.execute()
        REBUILDS.inc()
        log.info("leaderboard of tournament %s rebuilt with %d entries", tournament_id, len(records))
        return len(records)

    async def reset(self, db: asyncpg.Pool, tournament_id: int) -> int:
        """Drop the tournament's keys and rebuild them from PostgreSQL (on demand)."""
        await self.drop(tournament_id)
        return await self.rebuild(db, tournament_id)

    async def _keys(self, tournament_id: int) -> list[str]:
        """Every key of the tournament's board, its teams' sets included."""
        teams = await self.redis.hkeys(self.key(tournament_id, "teams"))
        parts = [*PARTS, *(f"{TEAM_PART}{team.decode() if isinstance(team, bytes) else team}" for team in teams)]
        return [self.key(tournament_id, part) for part in parts]

    async def drop(self, tournament_id: int) -> None:
        """Delete the tournament's board (a cancelled tournament ranks nobody)."""
        await self.redis.delete(*await self._keys(tournament_id))

    async def expire(self, tournament_id: int, seconds: int = FINISHED_SECONDS) -> None:
        """The tournament is over: its keys go in ``seconds``."""
        pipe = self.redis.pipeline(transaction=False)
        for key in await self._keys(tournament_id):
            pipe.expire(key, seconds)
        await pipe.execute()

    async def remove(self, tournament_id: int, entry_id: int) -> None:
        """Take one entry off the board (a disqualified entry), and off its team's set."""
        found = await self.redis.hget(self.key(tournament_id, "rows"), str(entry_id))
        team = _row_decoder.decode(found).team if found is not None else None
        pipe = self.redis.pipeline(transaction=False)
        pipe.zrem(self.key(tournament_id, "rank"), str(entry_id))
        pipe.hdel(self.key(tournament_id, "rows"), str(entry_id))
        pipe.hdel(self.key(tournament_id, "players"), str(entry_id))
        if team is not None:
            pipe.zrem(self.key(tournament_id, f"{TEAM_PART}{team.id}"), str(entry_id))
        await pipe.execute()

    async def ensure(self, db: asyncpg.Pool, tournament_id: int) -> None:
        if not await self.is_built(tournament_id):
            await self.rebuild(db, tournament_id)

    async def count(self, tournament_id: int) -> int:
        return int(await self.redis.zcard(self.key(tournament_id, "rank")))

    async def page(self, tournament_id: int, offset: int, limit: int) -> list[Row]:
        key = self.key(tournament_id, "rank")
        ids: list[bytes] = await self.redis.zrevrange(key, offset, offset + limit - 1)  # type: ignore[assignment]
        return await self._rows(tournament_id, ids, offset + 1)

    async def around(self, tournament_id: int, entry_id: int, k: int) -> list[Row] | None:
        key = self.key(tournament_id, "rank")
        rank: int | None = await self.redis.zrevrank(key, str(entry_id))  # type: ignore[assignment]
        if rank is None:
            return None
        start = max(0, rank - k)
        return await self.page(tournament_id, start, rank - start + k + 1)

    async def ranks(self, tournament_id: int, entry_ids: list[int]) -> list[int | None]:
        """The ranks (1 = best) of many entries in one command (None: not on the board)."""
        if not entry_ids:
            return []
        found = await self._ranks(keys=[self.key(tournament_id, "rank")], args=entry_ids)
        return [None if r < 0 else r + 1 for r in found]

    async def rows_of(self, tournament_id: int, entry_ids: list[int]) -> list[Row]:
        """These entries' rows in rank order, each with its rank (those not on the board left out):
        one ZREVRANK per entry in one command, then one HMGET."""
        ranks = await self.ranks(tournament_id, entry_ids)
        ranked = sorted((rank, entry_id) for rank, entry_id in zip(ranks, entry_ids, strict=True) if rank is not None)
        if not ranked:
            return []
        raw, players = await self._read(tournament_id, [str(e) for _, e in ranked])
        rows = []
        for (rank, _), data, player_id in zip(ranked, raw, players, strict=True):
            if data is not None:
                rows.append(_row(data, rank, player_id))
        return rows

    async def _rows(self, tournament_id: int, ids: list[bytes], first_rank: int) -> list[Row]:
        if not ids:
            return []
        raw, players = await self._read(tournament_id, ids)
        rows = []
        for i, (data, player_id) in enumerate(zip(raw, players, strict=True)):
            if data is not None:
                rows.append(_row(data, first_rank + i, player_id))
        return rows

    async def _read(
        self, tournament_id: int, ids: list[str] | list[bytes]
    ) -> tuple[list[bytes | None], list[bytes | None]]:
        """These entries' rows and their players' ids, in one round trip (two HMGETs)."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(self.key(tournament_id, "rows"), ids)
        pipe.hmget(self.key(tournament_id, "players"), ids)
        raw, players = await pipe.execute()
        return raw, players


def _row(data: bytes, rank: int, player_id: bytes | None) -> Row:
    """A row read from the board, with its rank and (a public profile's) player id."""
    row = _row_decoder.decode(data)
    row.rank = rank
    if player_id is not None:
        row.player_id = int(player_id)
    return row
