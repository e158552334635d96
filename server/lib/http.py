"""HTTP plumbing every domain's routes use: the bearer token, the admin guard, strict bodies,
ids that fit PostgreSQL, and errors as JSON on routes that answer something else."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any, TypeVar

import msgspec
from litestar import MediaType, Request, Response
from litestar.connection import ASGIConnection
from litestar.exceptions import (
    HTTPException,
    InternalServerException,
    NotAuthorizedException,
    PermissionDeniedException,
    SerializationException,
)
from litestar.handlers import BaseRouteHandler

from ..core import core_of
from .ids import MAX_ID as MAX_ID  # routes take both from here
from .ids import valid_id as valid_id
from .tokens import same_secret

T = TypeVar("T")
DISCONNECTED = "client disconnected prematurely"  # what the framework says when the body stops short


def bearer(connection: ASGIConnection[Any, Any, Any, Any]) -> str:
    header = connection.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotAuthorizedException("send the token as 'Authorization: Bearer <token>'")
    return token.strip()


def require_admin(connection: ASGIConnection[Any, Any, Any, Any]) -> None:
    if not same_secret(bearer(connection), core_of(connection).admin_token):
        raise PermissionDeniedException("the admin token is needed for this")


def admin_guard(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guards run before the body is read: without the admin token, 401/403 comes before any 400."""
    require_admin(connection)


def _integral(value: Any) -> Any:
    """JSON's numbers with no fraction (600.0) are whole numbers, as JSON Schema's ``integer`` says."""
    if type(value) is float and value.is_integer():
        return int(value)
    if type(value) is dict:
        return {k: _integral(v) for k, v in value.items()}
    if type(value) is list:
        return [_integral(v) for v in value]
    return value


async def strict_body(request: Request[Any, Any, Any], type_: type[T]) -> T:
    """The body decoded strictly: no "600" for 600, no 1 for true, no number for a time.

    The framework's own decoding is lenient and converts such values; the engine and the
    commitment must see exactly what was sent, so anything that is not already the right JSON
    type is refused, with the same error shape as the framework's validation errors.
    """
    try:
        raw = msgspec.json.decode(await request.body())
        return msgspec.convert(_integral(raw), type_, strict=True)
    except msgspec.ValidationError as err:
        message, _, at = str(err).partition(" - at `$")
        raise HTTPException(
            status_code=400,
            detail=f"Validation failed for {request.method} {request.url.path}",
            extra=[{"message": message, "key": at.rstrip("`").lstrip(".") or "data", "source": "body"}],
        ) from None
    except msgspec.DecodeError as err:
        if utf8_fault(err):
            raise not_utf8() from None
        raise HTTPException(status_code=400, detail=f"JSON is malformed: {err}") from None
    except UnicodeDecodeError:
        raise not_utf8() from None
    except RecursionError:
        raise HTTPException(status_code=400, detail="JSON is nested too deeply") from None


def utf8_fault(err: Exception) -> bool:
    """Whether a decoder's error is a body that is not UTF-8 (msgspec says so in its message; older
    releases raised ``UnicodeDecodeError`` instead)."""
    return "UTF-8" in str(err)


def not_utf8() -> HTTPException:
    return HTTPException(status_code=400, detail="JSON is malformed: the body is not valid UTF-8")


class JsonRequest(Request[Any, Any, Any]):
    """The framework's request, with two client mistakes answered as such rather than as faults:
    a body that is not UTF-8 (400), and a client gone before its body was complete (logged as a
    4xx: nobody is left to answer)."""

    async def json(self) -> Any:
        try:
            return await super().json()
        except UnicodeDecodeError:
            raise not_utf8() from None
        except SerializationException as err:
            if utf8_fault(err):
                raise not_utf8() from None
            raise

    async def stream(self) -> AsyncGenerator[bytes, None]:
        try:
            async for chunk in super().stream():
                yield chunk
        except InternalServerException as err:
            if err.detail != DISCONNECTED:
                raise
            raise HTTPException(status_code=400, detail="the client left before sending its whole body") from None


def printable(raw: str, what: str = "the name") -> str:
    """A name or reason as given, trimmed; 400 when blank or not printable."""
    text = raw.strip()
    if not text or not text.isprintable():
        raise HTTPException(status_code=400, detail=f"{what} must be printable and not blank")
    return text


def json_error(request: Request[Any, Any, Any], exc: HTTPException) -> Response[dict[str, Any]]:
    """An error as JSON, on a route whose own media type is not (errors take the route's by default)."""
    body: dict[str, Any] = {"status_code": exc.status_code, "detail": exc.detail}
    if exc.extra is not None:
        body["extra"] = exc.extra
    return Response(body, status_code=exc.status_code, headers=exc.headers, media_type=MediaType.JSON)
