"""How every ``spidertour`` command that talks to a running server finds it and asks it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

from ..config import Config, ConfigError

URL_HELP = "default $SPIDERTOUR_URL, else http://127.0.0.1:$PORT (PORT defaults to 8000)"


def checked_url(url: str, where: str) -> str:
    """A server's address as given, or ConfigError naming where it came from."""
    import httpx

    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        parsed = None
    if parsed is None or parsed.scheme not in ("http", "https") or not parsed.host:
        raise ConfigError(f"{where}: expected a server address such as http://127.0.0.1:8000, not {url!r}")
    return url.rstrip("/")


def server_url() -> str:
    """Where commands find a running server: $SPIDERTOUR_URL, else this machine at $PORT.

    ConfigError when either is set to something that is not a server's address or a port.
    """
    url = os.environ.get("SPIDERTOUR_URL", "").strip()
    if url:
        return checked_url(url, "SPIDERTOUR_URL")
    return f"http://127.0.0.1:{Config.from_env(only=('PORT',)).port}"


def add_server_options(parser: argparse.ArgumentParser, admin: bool = True) -> None:
    parser.add_argument("--server", help=URL_HELP)
    if admin:
        parser.add_argument("--admin-token", help="default $ADMIN_TOKEN (an organiser may give its own token)")


def base_url(args: argparse.Namespace) -> str:
    """The server a command talks to: --server, else ``server_url()``."""
    return checked_url(args.server, "--server") if args.server else server_url()


def admin_call(
    args: argparse.Namespace,
    method: str,
    path: str,
    body: Any = None,
    timeout: float = 30,
    expected: int | None = None,
    content_type: str = "application/json",
    accept: str | None = None,
) -> tuple[int, Any]:
    """One request with the admin token (or an organiser's): (exit status, JSON answer or None;
    the text itself when ``accept`` asks for anything but JSON). Errors are printed."""
    token = args.admin_token or os.environ.get("ADMIN_TOKEN")
    if not token:
        print("error: give --admin-token or set ADMIN_TOKEN", file=sys.stderr)
        return 2, None
    return server_call(args, method, path, body, token, timeout, expected, content_type, accept)


def server_call(
    args: argparse.Namespace,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 30,
    expected: int | None = None,
    content_type: str = "application/json",
    accept: str | None = None,
) -> tuple[int, Any]:
    """One request, with ``token`` as the bearer if given (None: a public route), answered as
    ``admin_call`` says. Errors are printed."""
    import httpx

    try:
        url = base_url(args)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2, None
    headers = {} if token is None else {"authorization": f"Bearer {token}"}
    content = None
    if body is not None:
        headers["content-type"] = content_type
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
    if accept is not None:
        headers["accept"] = accept
    try:
        r = httpx.request(method, f"{url}{path}", headers=headers, timeout=timeout, content=content)
    except httpx.HTTPError as err:
        print(f"error: cannot reach {url}: {err}", file=sys.stderr)
        return 1, None
    if (expected is not None and r.status_code != expected) or r.status_code >= 400:
        try:
            detail = r.json().get("detail", r.text)
        except (ValueError, AttributeError):
            detail = r.text
        print(f"error {r.status_code}: {detail}", file=sys.stderr)
        return 1, None
    if accept is not None and accept != "application/json":
        return 0, r.text
    try:
        return 0, r.json()
    except ValueError:  # not the server (a proxy's page, say): nothing to show
        print(f"error: {url} answered {r.status_code} but not in JSON: is it a spidertour server?", file=sys.stderr)
        return 1, None


def show(rc: int, answer: Any) -> int:
    """Print a JSON answer, if there is one; the exit status goes on."""
    if answer is not None:
        print(json.dumps(answer, indent=2))
    return rc
