"""What watchers are sent: a row per entry, the watch socket's snapshot and updates, and the
leaderboard pages of the HTTP API."""

from __future__ import annotations

from typing import Any

import asyncpg
import msgspec


class TeamTag(msgspec.Struct):
    """The team (a club) an entry plays for in a team battle."""

    id: int
    name: str


class Row(msgspec.Struct, array_like=False):
    """One entry as watchers see it."""

    entry_id: int
    player: str
    score: int
    status: str
    time_left: int | None = None
    rank: int | None = None
    deadline: float | None = None  # while the game runs: its end, in seconds since the epoch
    team: TeamTag | None = None  # in a team battle, the club the entry plays for
    matchpoints: float | msgspec.UnsetType = msgspec.UNSET  # final standings scored by matchpoints only
    # The player's id, for a link to its profile: set where the board is read (``Leaderboard`` keeps
    # it apart from the row, written once when the entry is made), left out for a private profile.
    player_id: int | msgspec.UnsetType = msgspec.UNSET


def _deadline(record: asyncpg.Record | dict[str, Any]) -> float | None:
    """A running game's deadline as seconds since the epoch; None once it is over or not started."""
    deadline = record.get("deadline")
    return deadline.timestamp() if deadline is not None and record["status"] == "playing" else None


def team_of(record: asyncpg.Record | dict[str, Any]) -> TeamTag | None:
    """The entry's team from its record's ``team_id`` and ``team_name`` (None: no team)."""
    team_id = record.get("team_id")
    return None if team_id is None else TeamTag(id=team_id, name=record.get("team_name") or "")


def profile_of(record: asyncpg.Record | dict[str, Any]) -> int | msgspec.UnsetType:
    """The player's id when its profile is public (``player_id`` and ``profile_public`` of the record)."""
    return record["player_id"] if record.get("profile_public") else msgspec.UNSET


def row_of(record: asyncpg.Record | dict[str, Any]) -> Row:
    """An entry's row from its database record (id, player, status, score, final_score, time_left,
    and team_id with team_name in a team battle)."""
    final = record["final_score"]
    return Row(
        entry_id=record["id"],
        player=record["player"],
        score=record["score"] if final is None else final,
        status=record["status"],
        time_left=record["time_left"],
        deadline=_deadline(record),
        team=team_of(record),
    )


class Snapshot(msgspec.Struct, tag="snapshot", omit_defaults=True):
    """Watch websocket: the first message, the standings as they are now."""

    tournament_id: int
    status: str
    entrants: int
    top: list[Row]
    at: float = 0.0


class Update(msgspec.Struct, tag="update", omit_defaults=True):
    """Watch websocket: what changed since the last message."""

    tournament_id: int
    entrants: int
    changed: list[Row]
    top: list[Row]
    status: str | None = None
    at: float = 0.0  # server time (seconds since the epoch) the update was made


class Board(msgspec.Struct):
    """A page of the standings over HTTP."""

    tournament_id: int
    status: str
    entrants: int
    rows: list[Row]
    playing: int | None = None  # a running tournament's first page: how many are playing now
    waiting: int | None = None  # ... and how many have joined but not started
    found: int | None = None  # a search by name: how many entries match (the rows are a page of them)


class Rebuilt(msgspec.Struct):
    tournament_id: int
    entries: int


class TeamRow(msgspec.Struct):
    """One team of a team battle: ``score`` sums the scores of the entries ``counted`` (its best)."""

    rank: int
    team: int  # the club's id
    name: str
    score: int
    counted: list[int]


class Teams(msgspec.Struct, tag="teams"):
    """Watch websocket: the team standings of a team battle (after the snapshot, then as they change)."""

    teams: list[TeamRow]


class TeamBoard(msgspec.Struct):
    """The team standings over HTTP: live while the tournament runs, final once it is finished."""

    tournament_id: int
    status: str
    top: int  # how many best scores a team counts
    teams: list[TeamRow]
