"""``/api/organisers`` (owner): create, list and revoke organisers, each with its own token."""

from __future__ import annotations

from typing import Any

from litestar import Request, delete, get, post
from litestar.exceptions import NotFoundException

from ..core import core_of
from ..lib.http import admin_guard, printable, strict_body, valid_id
from ..lib.tokens import new_token, token_hash
from ..operations.openapi import ADMIN, errors
from . import messages as m
from . import store


def organiser_out(row: Any) -> m.Organiser:
    return m.Organiser(id=row["id"], name=row["name"], created_at=row["created_at"], revoked_at=row["revoked_at"])


@post("/api/organisers", status_code=201, guards=[admin_guard], security=ADMIN, responses=errors(400, 401, 403, 415))
async def create_organiser(request: Request[Any, Any, Any], data: m.OrganiserCreate) -> m.OrganiserCreated:
    """Owner: a new organiser. Its token is shown once; the server keeps only its SHA-256."""
    data = await strict_body(request, m.OrganiserCreate)
    name = printable(data.name)
    token = new_token()
    row = await store.create_organiser(core_of(request).db, name, token_hash(token))
    return m.OrganiserCreated(id=row["id"], name=row["name"], token=token)


@get("/api/organisers", guards=[admin_guard], security=ADMIN, responses=errors(401, 403))
async def list_organisers(request: Request[Any, Any, Any]) -> list[m.Organiser]:
    """Owner: every organiser, revoked ones included."""
    return [organiser_out(r) for r in await store.organisers(core_of(request).db)]


@delete(
    "/api/organisers/{organiser_id:int}",
    status_code=200,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(401, 403, 404),
)
async def revoke_organiser(request: Request[Any, Any, Any], organiser_id: int) -> m.Organiser:
    """Owner: revoke an organiser. Its token is refused at once; what it made stays (the owner's to manage)."""
    row = await store.revoke_organiser(core_of(request).db, organiser_id) if valid_id(organiser_id) else None
    if row is None:
        raise NotFoundException(f"no organiser {organiser_id}")
    return organiser_out(row)


ROUTES = [create_organiser, list_organisers, revoke_organiser]
