"""Team battles between clubs (docs/competitions.md, "Team battles"): the team a player joins for,
and the team standings over HTTP. The standings themselves live beside the leaderboard
(``watch.teams``): live in Redis, final from PostgreSQL."""

from __future__ import annotations

from typing import Any

import asyncpg
from litestar import Request, get
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException

from ..core import core_of
from ..lib.http import valid_id
from ..operations.openapi import errors
from ..watch import store as watch_store
from ..watch.boards import boards_of
from ..watch.messages import TeamBoard, TeamTag
from ..watch.standings import team_standings
from ..watch.teams import teams_top


def team_shape(teams_top: int | None, team: int | None, tournament_id: int) -> None:
    """400 when the join body's ``team`` does not fit the tournament: missing in a team battle,
    given in any other."""
    if teams_top is None and team is not None:
        raise HTTPException(
            status_code=400, detail=f"tournament {tournament_id} is no team battle: join without a team"
        )
    if teams_top is not None and team is None:
        raise HTTPException(
            status_code=400,
            detail=f'tournament {tournament_id} is a team battle: join for one of your clubs with {{"team": CLUB_ID}}',
        )


async def team_for(db: asyncpg.Pool, team: int | None, player_id: int) -> TeamTag | None:
    """The club the player joins for (None: no team), or 403 when the player is not its member."""
    if team is None:
        return None
    name: str | None = await db.fetchval(
        """SELECT c.name FROM clubs c JOIN club_members m ON m.club_id = c.id
            WHERE c.id = $1 AND m.player_id = $2""",
        team,
        player_id,
    )
    if name is None:
        raise PermissionDeniedException(f"not a member of club {team}: a player joins for one of its own clubs")
    return TeamTag(id=team, name=name)


@get("/api/tournaments/{tournament_id:int}/teams", responses=errors(400, 404))
async def teams(request: Request[Any, Any, Any], tournament_id: int) -> TeamBoard:
    """A team battle's team standings: live from Redis while it runs, final once it is finished
    (none once cancelled). 404 when there is no such tournament or it is no team battle."""
    db = core_of(request).db
    status = await watch_store.status(db, tournament_id) if valid_id(tournament_id) else None
    if status is None:
        raise NotFoundException(f"no tournament {tournament_id}")
    top = await teams_top(db, tournament_id)
    if top is None:
        raise NotFoundException(f"tournament {tournament_id} is no team battle")
    rows = await team_standings(db, boards_of(request), tournament_id, status, top)
    return TeamBoard(tournament_id=tournament_id, status=status, top=top, teams=rows)


ROUTES = [teams]
