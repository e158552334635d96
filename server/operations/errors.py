"""Error answers: every HTTP error is JSON of one shape (``ErrorBody``), with a plain reason where
the framework's own would be cryptic, and no traceback for a client's mistake. PostgreSQL out of
reach, or not answering within ``DB_TIMEOUT``, is 503 with ``Retry-After``."""

from __future__ import annotations

from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.types import ExceptionHandlersMap
from msgspec import Struct

from ..storage.pool import UNAVAILABLE

DATABASE_UNAVAILABLE = "the database is unavailable: try again in a moment"


class ErrorBody(Struct):
    status_code: int
    detail: str
    extra: Any = None


def validation_error(request: Request[Any, Any, Any], exc: ValidationException) -> Response[dict[str, Any]]:
    """Litestar's validation errors, with a plain reason where the framework's is cryptic."""
    extra = exc.extra if isinstance(exc.extra, list) else []
    for item in extra:
        if isinstance(item, dict) and item.get("key") == "data" and item.get("message") == "'data'":
            item["message"] = "a JSON body is required"
    return Response({"status_code": 400, "detail": exc.detail, "extra": extra}, status_code=400)


def bad_path(request: Request[Any, Any, Any], exc: ValueError) -> Response[dict[str, Any]]:
    """A path the file system cannot name (a NUL byte) is simply not found."""
    if isinstance(exc, HTTPException):  # NotFoundException and friends are ValueErrors too
        body: dict[str, Any] = {"status_code": exc.status_code, "detail": exc.detail}
        if exc.extra:
            body["extra"] = exc.extra
        return Response(body, status_code=exc.status_code, headers=exc.headers)
    if "\x00" in request.url.path:
        return Response({"status_code": 404, "detail": "Not Found"}, status_code=404)
    return Response({"status_code": 500, "detail": "Internal Server Error"}, status_code=500)


def too_deep(request: Request[Any, Any, Any], exc: RecursionError) -> Response[dict[str, Any]]:
    """A JSON body nested past the decoder's depth."""
    return Response({"status_code": 400, "detail": "JSON is nested too deeply"}, status_code=400)


def database_unavailable(request: Request[Any, Any, Any], exc: Exception) -> Response[dict[str, Any]]:
    """PostgreSQL refused, dropped or did not answer the request's call in time: nothing of it is the client's fault."""
    return Response({"status_code": 503, "detail": DATABASE_UNAVAILABLE}, status_code=503, headers={"Retry-After": "1"})


EXCEPTION_HANDLERS: ExceptionHandlersMap = {
    ValidationException: validation_error,
    ValueError: bad_path,
    RecursionError: too_deep,
    **dict.fromkeys(UNAVAILABLE, database_unavailable),
}
