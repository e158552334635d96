"""Sign-in from a host site: its signed token (a JWT) names one of its users.

The key decides the one algorithm accepted: a secret is HS256, a PEM RSA public key RS256, an EC
P-256 one ES256. PyJWT checks the signature with that algorithm alone (so neither ``none`` nor an
HS256 token signed with the public key's text passes), the issuer, the audience and the expiry;
``sub`` and ``exp`` are required, and ``exp`` may be at most ``MAX_AHEAD`` seconds ahead.

Each assertion signs in once: ``once`` names it (its ``jti``, or the token itself when it has none,
both by their SHA-256) for the caller to remember until ``expires_at`` and refuse a replay.
"""

from __future__ import annotations

import functools
import hashlib
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import load_pem_public_key

MAX_AHEAD = 600  # an assertion lives ten minutes at most
LEEWAY = 10  # seconds of clock difference forgiven on exp (and iat, nbf)
NAME_LENGTH = 40

KeyAndAlg = tuple[Any, str]


class Refused(Exception):
    """The assertion does not sign anyone in: the message says why."""


class Unusable(Exception):
    """The assertion is the host site's, but names its user in a way that cannot be kept (a bad request)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """What a valid assertion says: who, and how to recognise it again."""

    issuer: str
    subject: str
    name: str
    once: str  # "jti:<sha256>" or "token:<sha256>": remembered to refuse a replay
    expires_at: datetime  # until when it could be replayed (exp and the leeway)


@functools.cache
def key_and_algorithm(key: str) -> KeyAndAlg:
    """The key as PyJWT takes it, and its one algorithm."""
    if not key.startswith("-----BEGIN"):
        return key.encode(), "HS256"
    public = load_pem_public_key(key.encode())
    if isinstance(public, rsa.RSAPublicKey):
        return public, "RS256"
    if isinstance(public, ec.EllipticCurvePublicKey) and isinstance(public.curve, ec.SECP256R1):
        return public, "ES256"
    raise ValueError("EXTERNAL_JWT_KEY: only RSA and EC P-256 public keys are taken")


_REASONS: list[tuple[type[Exception], str]] = [
    (jwt.ExpiredSignatureError, "it has expired"),
    (jwt.InvalidAudienceError, "its audience (aud) is not this server's"),
    (jwt.InvalidIssuerError, "its issuer (iss) is not the configured host site"),
    (jwt.InvalidAlgorithmError, "its algorithm is not the one of the configured key"),
    (jwt.InvalidSignatureError, "its signature does not match the configured key"),
    (jwt.ImmatureSignatureError, "it is not valid yet (iat or nbf in the future)"),
    (jwt.exceptions.InvalidJTIError, "its id (jti) must be a string"),
]


def verify(config: tuple[str, str, str], assertion: str) -> Taken:
    """What a valid assertion says; Refused, saying why, otherwise (Unusable when it is signed
    right but its subject holds control characters)."""
    key_text, issuer, audience = config
    key, algorithm = key_and_algorithm(key_text)
    try:
        claims = jwt.decode(
            assertion,
            key,
            algorithms=[algorithm],
            audience=audience,
            issuer=issuer,
            leeway=LEEWAY,
            options={"require": ["sub", "exp", "iss", "aud"]},
        )
    except jwt.MissingRequiredClaimError as err:
        raise Refused(f"it lacks the claim {err.claim!r}") from None
    except jwt.PyJWTError as err:
        for kind, reason in _REASONS:
            if isinstance(err, kind):
                raise Refused(reason) from None
        raise Refused(f"it is not a valid JWT ({err})") from None
    if not isinstance(claims["exp"], int | float) or claims["exp"] > time.time() + MAX_AHEAD + LEEWAY:
        raise Refused(f"it expires more than {MAX_AHEAD // 60} minutes ahead: make assertions short-lived")
    subject = claims["sub"]
    if not isinstance(subject, str) or not subject.strip() or len(subject) > 255:
        raise Refused("its subject (sub) must be a string of 1 to 255 characters")
    if any(unicodedata.category(c) == "Cc" for c in subject):
        raise Unusable("its subject (sub) holds a control character (a NUL, a newline...)")
    jti = claims.get("jti")
    if jti is not None and (not isinstance(jti, str) or not 1 <= len(jti) <= 255):
        raise Refused("its id (jti) must be a string of 1 to 255 characters")
    once = f"jti:{_sha256(jti)}" if jti is not None else f"token:{_sha256(assertion)}"
    name = claims.get("name")
    if not isinstance(name, str) or not name.strip() or not name.strip().isprintable():
        name = subject if subject.strip().isprintable() else "player"
    expires_at = datetime.fromtimestamp(claims["exp"] + LEEWAY, UTC)
    return Taken(issuer, subject, name.strip()[:NAME_LENGTH], once, expires_at)


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
