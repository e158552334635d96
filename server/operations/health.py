"""``GET /health``: does this process reach PostgreSQL and Redis?"""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, get
from litestar.openapi import ResponseSpec
from msgspec import Struct

from ..core import core_of

PG_SECONDS = 2.0  # whatever DB_TIMEOUT is


class Health(Struct):
    status: str
    postgres: bool
    redis: bool


@get("/health", responses={503: ResponseSpec(Health, description="PostgreSQL or Redis does not answer")})
async def health(request: Request[Any, Any, Any]) -> Response[Health]:
    """200 once PostgreSQL and Redis both answer, else 503."""
    core = core_of(request)
    pg = rd = False
    try:
        async with core.db.acquire(timeout=PG_SECONDS) as conn:  # a stalled PostgreSQL: not ok within seconds
            pg = await conn.fetchval("SELECT 1", timeout=PG_SECONDS) == 1
    except Exception:
        pg = False
    try:
        rd = bool(await core.redis.ping())
    except Exception:
        rd = False
    ok = pg and rd
    return Response(Health(status="ok" if ok else "unavailable", postgres=pg, redis=rd), status_code=200 if ok else 503)
