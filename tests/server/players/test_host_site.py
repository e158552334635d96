"""Sign-in from a host site: a JWT signed with the configured key names one of its users; the same
(issuer, subject) is the same player every time. Anything not exactly right is refused."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from tests.client import bearer
from tests.conftest import server_env
from tests.serverproc import ServerProcess
from tests.services import unique_name

ISSUER, AUDIENCE = "https://games.example", "spidertour-test"
SECRET = secrets.token_urlsafe(32)
RSA_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
EC_KEY = ec.generate_private_key(ec.SECP256R1())


def public_pem(key: rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey) -> str:
    return (
        key.public_key()
        .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        .decode()
    )


def start(database_url: str, redis_url: str, admin_token: str, key: str) -> ServerProcess:
    env = {
        **server_env(unique_name("jwt")),
        "EXTERNAL_JWT_KEY": key,
        "EXTERNAL_JWT_ISSUER": ISSUER,
        "EXTERNAL_JWT_AUDIENCE": AUDIENCE,
    }
    return ServerProcess(database_url, redis_url, admin_token, env=env).start()


@pytest.fixture(scope="module", params=["HS256", "RS256", "ES256"])
def host(
    request: Any, database_url: str, redis_url: str, admin_token: str, server: ServerProcess
) -> Iterator[tuple[ServerProcess, str]]:
    """A server configured for one algorithm's key (ES256's PEM written with \\n, as env files need)."""
    alg = request.param
    key = {"HS256": SECRET, "RS256": public_pem(RSA_KEY), "ES256": public_pem(EC_KEY).replace("\n", "\\n")}[alg]
    proc = start(database_url, redis_url, admin_token, key)
    try:
        yield proc, alg
    finally:
        proc.stop()


def claims(**changes: Any) -> dict[str, Any]:
    now = int(time.time())
    found = {"iss": ISSUER, "aud": AUDIENCE, "sub": "user-" + secrets.token_hex(4), "exp": now + 300, "iat": now}
    found.update(changes)
    return {k: v for k, v in found.items() if v is not None}


def sign(alg: str, payload: dict[str, Any]) -> str:
    key: Any = {"HS256": SECRET, "RS256": RSA_KEY, "ES256": EC_KEY}[alg]
    return jwt.encode(payload, key, algorithm=alg)


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hand_made(header: dict[str, Any], payload: dict[str, Any], hmac_key: bytes | None) -> str:
    """A token PyJWT would not make: alg none, or HS256 keyed with a public key's PEM text."""
    head = b64(json.dumps(header).encode()) + "." + b64(json.dumps(payload).encode())
    signature = b"" if hmac_key is None else hmac.new(hmac_key, head.encode(), hashlib.sha256).digest()
    return head + "." + b64(signature)


def post(proc: ServerProcess, assertion: str) -> httpx.Response:
    return httpx.post(f"{proc.url}/api/sessions", json={"assertion": assertion}, timeout=10)


def test_a_good_assertion_signs_in_the_same_player_every_time(host: tuple[ServerProcess, str]) -> None:
    proc, alg = host
    sub = "user-" + secrets.token_hex(4)
    first = post(proc, sign(alg, claims(sub=sub, name="Eve Example")))
    assert first.status_code == 201, first.text
    player = first.json()["player"]
    assert player["name"] == "Eve Example" and player["handle"] is None and player["clubs"] == []
    second = post(proc, sign(alg, claims(sub=sub, name="Eve Renamed")))
    assert second.status_code == 201, second.text
    assert second.json()["player"]["id"] == player["id"]
    assert second.json()["player"]["name"] == "Eve Renamed"
    assert second.json()["token"] != first.json()["token"]
    me = httpx.get(f"{proc.url}/api/me", headers=bearer(first.json()["token"]), timeout=10)
    assert me.status_code == 200 and me.json()["id"] == player["id"]
    someone_else = post(proc, sign(alg, claims(name="Eve Example")))
    assert someone_else.json()["player"]["id"] != player["id"]


def refusals(alg: str) -> list[tuple[str, str, str]]:
    """(what, assertion, what the refusal says)."""
    now = int(time.time())
    rsa_pem = public_pem(RSA_KEY).encode()
    other = "RS256" if alg != "RS256" else "HS256"
    return [
        ("expired", sign(alg, claims(exp=now - 60, iat=now - 400)), "expired"),
        ("wrong audience", sign(alg, claims(aud="someone-else")), "audience"),
        ("wrong issuer", sign(alg, claims(iss="https://evil.example")), "issuer"),
        ("no sub", sign(alg, claims(sub=None)), "'sub'"),
        ("no exp", sign(alg, claims(exp=None)), "'exp'"),
        ("exp too far ahead", sign(alg, claims(exp=now + 3600)), "10 minutes"),
        ("alg none", hand_made({"alg": "none", "typ": "JWT"}, claims(), None), "algorithm"),
        ("HS256 keyed with the RSA PEM", hand_made({"alg": "HS256", "typ": "JWT"}, claims(), rsa_pem), ""),
        ("another algorithm", sign(other, claims()), ""),
        ("a tampered payload", sign(alg, claims()).replace(".", ".e", 1), ""),
        ("not a JWT", "not-a-jwt", "valid JWT"),
    ]


def test_bad_assertions_are_refused_with_a_reason(host: tuple[ServerProcess, str]) -> None:
    proc, alg = host
    for what, assertion, needle in refusals(alg):
        r = post(proc, assertion)
        assert r.status_code == 401, (what, r.text)
        detail = r.json()["detail"]
        assert detail.startswith("assertion refused: ") and needle in detail, (what, detail)
    if alg == "RS256":  # the confusion: refused for its algorithm, not merely its signature
        confused = hand_made({"alg": "HS256", "typ": "JWT"}, claims(), public_pem(RSA_KEY).encode())
        assert "algorithm" in post(proc, confused).json()["detail"]


def test_an_assertion_is_taken_once(host: tuple[ServerProcess, str]) -> None:
    """Replayed within its lifetime, the same assertion (or another with the same jti) is refused."""
    proc, alg = host
    assertion = sign(alg, claims())
    assert post(proc, assertion).status_code == 201
    again = post(proc, assertion)
    assert again.status_code == 401 and "used already" in again.json()["detail"], again.text
    jti = secrets.token_hex(8)
    assert post(proc, sign(alg, claims(jti=jti))).status_code == 201
    same_id = post(proc, sign(alg, claims(jti=jti, name="another token, the same id")))
    assert same_id.status_code == 401 and "used already" in same_id.json()["detail"], same_id.text
    bad_id = post(proc, sign(alg, claims(jti=12)))
    assert bad_id.status_code == 401 and "jti" in bad_id.json()["detail"], bad_id.text


def test_a_subject_holding_a_nul_is_a_bad_request(host: tuple[ServerProcess, str]) -> None:
    proc, alg = host
    for sub in ("user\x00one", "user\x01"):
        r = post(proc, sign(alg, claims(sub=sub)))
        assert r.status_code == 400 and "sub" in r.json()["detail"], r.text
