"""Codes again: a fresh code sheet for chosen members of a club's roster, whenever needed. Each
chosen member gets a new sign-in code (shown once); its old code stops working and every session
it had ends, on every process. The sheet carries what a printed slip needs: the club, each member's
name, handle and code, and the address to sign in at."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response, post
from litestar.exceptions import HTTPException

from ..core import core_of
from ..lib.csv_cells import csv_text
from ..lib.http import strict_body
from ..operations.openapi import ORGANISER, errors
from ..players.hashing import hashed_all
from ..players.signouts import signouts_of
from . import messages as m
from . import store
from .clubs import CHOSE_PASSWORD, managed_club
from .codes import new_code
from .identity import organiser_guard

SLIP = ("player_id", "name", "handle", "code", "club", "signin_url")
SIGNIN_PAGE = "/#/account"  # the web client's page to sign in with a handle and a code


def signin_url(request: Request[Any, Any, Any]) -> str:
    """Where a member signs in: this server's web client, as the request reached it."""
    return str(request.base_url).rstrip("/") + SIGNIN_PAGE


def _refused(status: int, problems: list[tuple[int, str]]) -> HTTPException:
    """Every chosen member that cannot have a new code, at once; nothing changed."""
    listed = "; ".join(f"member {pid}: {reason}" for pid, reason in problems)
    return HTTPException(
        status_code=status,
        detail=f"{listed}; no code was replaced",
        extra={"members": [{"player_id": pid, "reason": reason} for pid, reason in problems]},
    )


async def _chosen(request: Request[Any, Any, Any], club_id: int, ids: list[int]) -> list[Any]:
    """The members, if every one is the club's roster's and signs in with a code (404 / 403 / 409
    naming every member that is not)."""
    rows = {r["id"]: r for r in await store.players_in_club(core_of(request).db, club_id, ids)}
    missing = [(pid, f"no member {pid} in club {club_id}") for pid in ids if pid not in rows]
    if missing:
        raise _refused(404, missing)
    others = [(pid, "not made by this club's roster") for pid in ids if rows[pid]["roster_club_id"] != club_id]
    if others:
        raise _refused(403, others)
    passwords = [(pid, CHOSE_PASSWORD) for pid in ids if rows[pid]["code_hash"] is None]
    if passwords:
        raise _refused(409, passwords)
    return [rows[pid] for pid in ids]


@post(
    "/api/clubs/{club_id:int}/codes",
    status_code=200,
    guards=[organiser_guard],
    security=ORGANISER,
    responses=errors(400, 401, 403, 404, 409, 415),
)
async def new_codes(request: Request[Any, Any, Any], club_id: int, data: m.CodesAgain) -> Response[Any]:
    """The organisers of the club whose roster made the members: ``{"members": [player ids]}``, a new
    code each (shown once, ``Cache-Control: no-store``), the old ones stopped and their sessions
    ended; a sheet of slips as JSON, or CSV for ``Accept: text/csv``. All or nothing: every member
    that cannot have one is named (404 not a member, 403 another club's roster, 409 a password)."""
    club = await managed_club(request, club_id)
    data = await strict_body(request, m.CodesAgain)
    ids = list(dict.fromkeys(data.members))  # each once, in the order given
    members = await _chosen(request, club_id, ids)
    codes = [new_code() for _ in members]
    ended = await store.replace_codes(core_of(request).db, list(zip(ids, await hashed_all(codes), strict=True)))
    if isinstance(ended, int):  # one chose a password while the codes were hashed
        raise _refused(409, [(ended, CHOSE_PASSWORD)])
    await signouts_of(request).ended(ended)
    url = signin_url(request)
    slips = [
        m.MemberCode(player_id=r["id"], name=r["name"], handle=r["handle"], code=code)
        for r, code in zip(members, codes, strict=True)
    ]
    headers = {"Cache-Control": "no-store"}
    if "text/csv" in request.headers.get("accept", ""):
        headers["Content-Disposition"] = f'attachment; filename="club-{club_id}-codes.csv"'
        lines = [[s.player_id, s.name, s.handle, s.code, club["name"], url] for s in slips]
        return Response(csv_text(SLIP, lines), media_type="text/csv; charset=utf-8", headers=headers)
    sheet = m.CodeSheet(club=m.ClubRef(id=club["id"], name=club["name"]), signin_url=url, members=slips)
    return Response(sheet, headers=headers)


ROUTES = [new_codes]
