"""A club's roster: one member account per line, each with a generated sign-in code, all created
or none. Taken as CSV (a header with ``name`` and optionally ``handle``) or JSON ``{"names"}``;
answered as JSON, or CSV for ``Accept: text/csv`` (a code sheet to print). With ``?check=true``
the roster is only checked, exactly as it would be before being made: every bad line at once, or
how many lines are fine, and nothing created (a page checks a whole roster, then makes it in parts)."""

from __future__ import annotations

import csv
import io
from typing import Annotated, Any

from litestar import Request, Response, post
from litestar.exceptions import HTTPException
from litestar.openapi import ResponseSpec
from litestar.params import Parameter

from ..core import core_of
from ..lib.csv_cells import csv_text
from ..lib.http import strict_body
from ..operations.openapi import ORGANISER, errors
from ..players.hashing import hashed_all
from . import messages as m
from . import store
from .clubs import managed_club
from .codes import HANDLE, new_code, new_handle
from .identity import organiser_guard
from .sheets import signin_url

MAX_BODY = 128 * 1024  # bytes: 500 lines of names and handles fit many times over
MAX_NAME = 40  # as a player's display name
COLUMNS = ("name", "handle")
SHEET = ("player_id", "name", "handle", "code")


Line = tuple[str, str | None] | None  # (name, handle or None) of a data line; None: it cannot be read
Problem = tuple[int, str]  # (data line from 1, what is wrong with it)


def refused(problems: list[Problem]) -> HTTPException:
    """400 naming every bad line at once, in order (``extra.lines``; ``line`` and ``reason``: the first)."""
    problems = sorted(problems)
    listed = "; ".join(f"line {n}: {reason}" for n, reason in problems)
    return HTTPException(
        status_code=400,
        detail=f"{listed}; nothing was created",
        extra={
            "line": problems[0][0],
            "reason": problems[0][1],
            "lines": [{"line": n, "reason": reason} for n, reason in problems],
        },
    )


def parse_csv(body: bytes, problems: list[Problem]) -> list[Line]:
    """(name, handle or None) per data line, None for a blank or ragged one (told in ``problems``);
    400 at once for a header without ``name``, or too many lines."""
    try:
        text = body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise HTTPException(status_code=400, detail="the roster is not valid UTF-8") from None
    rows = list(csv.reader(io.StringIO(text, newline="")))
    if not rows:
        raise HTTPException(status_code=400, detail="the roster is empty: a header line with 'name' first")
    header = [h.strip().lower() for h in rows[0]]
    if "name" not in header or any(h not in COLUMNS for h in header) or len(set(header)) != len(header):
        raise HTTPException(
            status_code=400,
            detail=f"the header line names the columns: 'name' and optionally 'handle' (got {rows[0]!r})",
        )
    if len(rows) - 1 > m.MAX_ROSTER:
        raise HTTPException(status_code=400, detail=f"a roster has at most {m.MAX_ROSTER} lines")
    people: list[Line] = []
    for n, row in enumerate(rows[1:], start=1):
        if not row or all(not cell.strip() for cell in row):
            problems.append((n, "the line is blank"))
            people.append(None)
        elif len(row) > len(header):
            problems.append((n, f"{len(row)} fields where the header has {len(header)}"))
            people.append(None)
        else:
            cells = dict(zip(header, [*row, *[""] * (len(header) - len(row))], strict=True))  # a missing handle: none
            people.append((cells["name"], cells.get("handle", "").strip() or None))
    return people


def checked(people: list[Line], problems: list[Problem]) -> list[tuple[str, str | None]]:
    """Names printable and short, handles well formed and each once; what is not, told in
    ``problems`` (its line's number)."""
    if not people:
        raise HTTPException(status_code=400, detail="the roster has no line after its header")
    seen: set[str] = set()
    out: list[tuple[str, str | None]] = []
    for n, line in enumerate(people, start=1):
        if line is None:
            out.append(("", None))
            continue
        name, handle = line[0].strip(), line[1]
        if not name or not name.isprintable() or len(name) > MAX_NAME:
            problems.append((n, f"the name must be printable, not blank, at most {MAX_NAME} characters"))
        if handle is not None:
            handle = handle.removeprefix("@").lower()
            if not HANDLE.fullmatch(handle):  # match() would take "abc\n"
                problems.append((n, f"the handle {handle!r} is not 3-24 of a-z 0-9 _ -"))
            elif handle in seen:
                problems.append((n, f"the handle {handle!r} is on an earlier line too"))
            seen.add(handle)
        out.append((name, handle))
    return out


async def refuse_problems(db: Any, people: list[tuple[str, str | None]], problems: list[Problem]) -> None:
    """400 with every problem at once, the given handles already someone's among them; else nothing."""
    given = [h for _, h in people if h is not None]
    taken = await store.taken_handles(db, given) if given else set()
    problems.extend(
        (n, f"the handle {handle!r} is taken") for n, (_, handle) in enumerate(people, 1) if handle in taken
    )
    if problems:
        raise refused(problems)


async def with_handles(db: Any, people: list[tuple[str, str | None]], problems: list[Problem]) -> list[tuple[str, str]]:
    """Every line with its handle: the given ones if free (else told in ``problems``; then 400 with
    every problem at once), new ones made up."""
    await refuse_problems(db, people, problems)
    used = {h for _, h in people if h is not None}
    out: list[tuple[str, str]] = []
    for name, handle in people:
        if handle is None:
            for _ in range(50):
                handle = new_handle(name)
                if handle not in used and not await store.taken_handles(db, [handle]):
                    break
            else:  # pragma: no cover - 31^2 tails of one name all taken
                handle = f"{handle}{new_code(4)}"
            used.add(handle)
        out.append((name, handle))
    return out


async def hashed(codes: list[str]) -> list[str]:
    """The codes' argon2id hashes, one at a time among the process's other argon2 work (``players.hashing``)."""
    return await hashed_all(codes)


def as_csv(members: list[m.MemberCode]) -> str:
    """The code sheet, its names and handles quoted where a spreadsheet would run them."""
    return csv_text(SHEET, [[member.player_id, member.name, member.handle, member.code] for member in members])


@post(
    "/api/clubs/{club_id:int}/roster",
    status_code=201,
    guards=[organiser_guard],
    security=ORGANISER,
    request_max_body_size=MAX_BODY,
    opt={"body_types": ("application/json", "text/csv")},
    responses={
        200: ResponseSpec(m.RosterChecked, description="Checked only (`?check=true`): every line is fine"),
        **errors(400, 401, 403, 404, 413, 415),
    },
)
async def post_roster(
    request: Request[Any, Any, Any],
    club_id: int,
    check: Annotated[bool, Parameter(description="only check the roster: nothing is created")] = False,
) -> Response[Any]:
    """A club's organiser: one member account per line (CSV with a ``name`` and optional ``handle``
    column, or JSON ``{"names": [...]}``), each with a sign-in code shown once. Every bad line is
    named by its number (data lines from 1), all at once, and nothing is created. ``?check=true``:
    the same checks, then 200 ``{"lines": n, "created": 0}`` (or the same 400), nothing created."""
    await managed_club(request, club_id)
    db = core_of(request).db
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    problems: list[Problem] = []
    people: list[Line]
    if media == "text/csv":
        people = parse_csv(await request.body(), problems)
    else:
        people = [(name, None) for name in (await strict_body(request, m.RosterNames)).names]
    if check:
        fine = checked(people, problems)
        await refuse_problems(db, fine, problems)
        return Response(m.RosterChecked(lines=len(fine)), status_code=200, headers={"Cache-Control": "no-store"})
    lines = await with_handles(db, checked(people, problems), problems)
    codes = [new_code() for _ in lines]
    hashes = await hashed(codes)
    created = await store.create_members(
        db, club_id, [(name, handle, h) for (name, handle), h in zip(lines, hashes, strict=True)]
    )
    if isinstance(created, str):
        n = next(i for i, (_, handle) in enumerate(lines, start=1) if handle == created)
        raise refused([(n, f"the handle {created!r} is taken")])
    members = [
        m.MemberCode(player_id=pid, name=name, handle=handle, code=code)
        for pid, (name, handle), code in zip(created, lines, codes, strict=True)
    ]
    headers = {"Cache-Control": "no-store"}
    if "text/csv" in request.headers.get("accept", ""):
        headers["Content-Disposition"] = f'attachment; filename="club-{club_id}-codes.csv"'
        return Response(as_csv(members), media_type="text/csv; charset=utf-8", status_code=201, headers=headers)
    return Response(m.Roster(members=members, signin_url=signin_url(request)), status_code=201, headers=headers)


ROUTES = [post_roster]
