"""``/api/organisers`` (owner): create, list and revoke organisers, each with its own token or an
account whose sessions carry its rights; ``/api/me/organiser``: an account makes itself one where
the owner allows it (``ORGANISERS_OPEN``)."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, delete, get, post
from litestar.exceptions import HTTPException, NotFoundException, PermissionDeniedException

from ...core import core_of
from ...lib.http import admin_guard, printable, strict_body, valid_id
from ...lib.tokens import new_token, token_hash
from ...operations.openapi import ADMIN, PLAYER, errors
from ...players.auth import player_guard
from .. import messages as m
from .. import store

ONE_OF = "send one of name (an organiser with a token), player (an account's id) or handle (an account's)"


def organiser_out(row: Any) -> m.Organiser:
    return m.Organiser(
        id=row["id"],
        name=row["name"],
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
        player_id=row["player_id"],
    )


async def _account(request: Request[Any, Any, Any], data: m.OrganiserCreate) -> Any:
    """The account named by id or handle (404), which must have a handle (400: a guest cannot sign in)."""
    db = core_of(request).db
    if data.player is not None:
        row = await store.player(db, data.player)
        missing = f"no player {data.player}"
    else:
        handle = (data.handle or "").removeprefix("@").lower()
        row = await store.player_by_handle(db, handle)
        missing = f"no account @{handle}"
    if row is None:
        raise NotFoundException(missing)
    if row["handle"] is None:
        raise HTTPException(status_code=400, detail=f"player {row['id']} is a guest: only an account signs in")
    return row


def _made(row: Any, now: bool) -> Response[m.OrganiserCreated]:
    """201 when made (or restored) now, 200 when it was an organiser already."""
    out = m.OrganiserCreated(id=row["id"], name=row["name"], player_id=row["player_id"])
    return Response(out, status_code=201 if now else 200)


@post(
    "/api/organisers",
    status_code=201,
    guards=[admin_guard],
    security=ADMIN,
    responses=errors(400, 401, 403, 404, 415),
)
async def create_organiser(request: Request[Any, Any, Any], data: m.OrganiserCreate) -> Response[m.OrganiserCreated]:
    """Owner: ``{"name"}`` a new organiser with a token (shown once; the server keeps only its
    SHA-256); ``{"player": ID}`` or ``{"handle"}`` makes an account an organiser (its sessions carry
    the rights; 201, or 200 when it is one already; a revoked one is restored under its id)."""
    data = await strict_body(request, m.OrganiserCreate)
    if sum(x is not None for x in (data.name, data.player, data.handle)) != 1:
        raise HTTPException(status_code=400, detail=ONE_OF)
    db = core_of(request).db
    if data.name is not None:
        token = new_token()
        row = await store.create_organiser(db, printable(data.name), token_hash(token))
        return Response(m.OrganiserCreated(id=row["id"], name=row["name"], token=token), status_code=201)
    account = await _account(request, data)
    return _made(*await store.make_account_organiser(db, account["id"], account["name"]))


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
    """Owner: revoke an organiser. Its token, or its account's sessions, lose its rights at once on
    every process, and its schedules stop; what it made stays (the owner's to manage)."""
    row = await store.revoke_organiser(core_of(request).db, organiser_id) if valid_id(organiser_id) else None
    if row is None:
        raise NotFoundException(f"no organiser {organiser_id}")
    return organiser_out(row)


@post("/api/me/organiser", status_code=201, security=PLAYER, guards=[player_guard], responses=errors(401, 403))
async def become_organiser(request: Request[Any, Any, Any]) -> Response[m.OrganiserCreated]:
    """Player with an account, where the owner allows it (``ORGANISERS_OPEN=true``, else 403): it
    makes itself an organiser (201; 200 when it is one already). One the owner revoked stays revoked
    (403): only the owner makes it an organiser again."""
    player = request.state.player
    core = core_of(request)
    if not core.config.organisers_open:
        raise PermissionDeniedException("organisers are made by the server's owner here")
    if player["handle"] is None:
        raise PermissionDeniedException("an account (a handle) is needed to organise: a guest has none")
    found = await store.account_organiser(core.db, player["id"])
    if found is not None and found["revoked_at"] is not None:
        raise PermissionDeniedException("the server's owner revoked this organiser: only the owner restores it")
    return _made(*await store.make_account_organiser(core.db, player["id"], player["name"]))


ROUTES = [create_organiser, list_organisers, revoke_organiser, become_organiser]
