"""Fuzzing HTTP: random methods, paths, queries, headers and bodies, and raw garbage on the port.
No answer is a 5xx, errors under /api are JSON, nothing is created but what the request may create,
and a player playing meanwhile is unaffected."""

from __future__ import annotations

import json
import random
import socket
import string
from urllib.parse import quote

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.fuzzing import FUZZ, SEED, Guard, ints, values


def test_fuzz_http(guard: Guard) -> None:
    """Random methods, paths, queries, headers and bodies; raw garbage on the HTTP port."""
    proc = guard.proc
    printable = st.text(alphabet=string.ascii_letters + string.digits + " -_.~!$&'()*+,;=:@%/?#", max_size=30)
    segment = st.one_of(
        st.sampled_from(
            [
                "api",
                "tournaments",
                "players",
                "entries",
                "me",
                "standings",
                "replays",
                "leaderboard",
                "around",
                "rebuild",
                "health",
                "schema",
                "openapi.json",
                "ws",
                "play",
                "watch",
                "..",
                "%2e%2e",
                "%00",
                "",
                str(guard.tid),
                str(guard.honest_entry),
            ]
        ),
        ints.map(str),
        printable.map(lambda s: quote(s, safe="")),
    )
    tokens = st.one_of(
        st.none(),
        st.just(f"Bearer {guard.fuzz_token}"),
        st.just(f"Bearer {guard.fuzz_token}x"),
        st.just("Bearer"),
        st.just("Basic YWRtaW46YWRtaW4="),
        printable.map(str.strip),
    )
    content_types = st.one_of(
        st.none(),
        st.sampled_from(
            [
                "application/json",
                "text/plain",
                "multipart/form-data",
                "application/x-www-form-urlencoded",
                "application/json; charset=latin-1",
            ]
        ),
        printable.map(str.strip),
    )
    bodies = st.one_of(
        st.none(),
        values.map(lambda v: json.dumps(v, allow_nan=True).encode()),
        st.binary(max_size=300),
        st.builds(lambda n: {"name": n}, st.text(max_size=60)).map(lambda v: json.dumps(v).encode()),
        st.integers(10_000, 1_500_000).map(lambda n: b'{"name": "' + b"n" * n + b'"}'),
    )
    http = httpx.Client(base_url=proc.url, timeout=30)
    created = guard.created

    @settings(FUZZ, max_examples=200)
    @given(
        st.sampled_from(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"]),
        st.lists(segment, max_size=6),
        st.dictionaries(
            st.sampled_from(["status", "offset", "limit", "k", "x"]), st.one_of(ints.map(str), printable), max_size=3
        ),
        tokens,
        content_types,
        bodies,
    )
    def http_request(
        method: str,
        parts: list[str],
        query: dict[str, str],
        token: str | None,
        content_type: str | None,
        body: bytes | None,
    ) -> None:
        headers = {}
        if token is not None:
            headers["authorization"] = token
        if content_type is not None:
            headers["content-type"] = content_type
        path = "/" + "/".join(parts)
        r = http.request(method, proc.url + path, params=query, headers=headers, content=body)
        assert r.status_code < 500, (method, path, query, headers, (body or b"")[:200], r.status_code, r.text[:300])
        assert SEED not in r.text
        if r.status_code == 201:
            if path.rstrip("/") == "/api/players":
                created["players"] += 1
            elif path.startswith("/api/tournaments/") and path.rstrip("/").endswith("/entries"):
                created["entries"] += 1
            else:
                raise AssertionError(f"created something unexpected: {method} {path} {r.text[:200]}")
        if r.status_code >= 400 and method != "HEAD" and path.startswith("/api/"):
            answer = r.json()
            assert answer["status_code"] == r.status_code and answer["detail"], r.text[:300]

    with guard:
        http_request()
        # Raw garbage on the HTTP port: answered with a 4xx or dropped, never a crash.
        rng = random.Random(3)
        for i in range(60):
            with socket.create_connection(("127.0.0.1", proc.port), timeout=5) as s:
                junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 3000)))
                if i % 3 == 0:
                    junk = b"GET /" + junk + b" HTTP/1.1\r\nHost: x\r\n\r\n"
                s.sendall(junk)
                s.shutdown(socket.SHUT_WR)
                reply = s.recv(200)
                assert reply == b"" or reply.startswith(b"HTTP/1.1 4"), reply
    http.close()
