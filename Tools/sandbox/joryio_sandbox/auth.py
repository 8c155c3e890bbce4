"""SDK authentication (protocol version 3, docs/protocol.md section 2.1):
HS256 JWTs in `Authorization: Bearer <jwt>`, checked against the sandbox's
auth settings.

Pure functions and values only: the settings live in `State` (behind its
lock, cleared by reset), the pipeline in server.py calls `check` once the
SDK key and the JSON body have been accepted and before the handler runs, so
a 401 applies nothing.

Checks, in this order (the first failing one answers 401 with its reason):
  the request names no user and strict identity is off -> accepted, no token needed;
  no bearer token                                      -> missing;
  not a well-formed HS256 JWT with a valid signature   -> invalid;
  exp <= the auth clock                                -> expired;
  a named user differs from the token's sub            -> sub_mismatch.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import re
import time
from dataclasses import dataclass, replace
from typing import Any, Callable, Optional

from .wire import WireError, canonical_bytes, parse_json

MISSING = "missing"
INVALID = "invalid"
EXPIRED = "expired"
SUB_MISMATCH = "sub_mismatch"

JWT_HEADER = {"alg": "HS256", "typ": "JWT"}
_B64URL = re.compile(r"[A-Za-z0-9_-]*")

# A function giving the users a request body names (non-empty userIds).
UsersOf = Callable[[Any], list[str]]


# -- settings -------------------------------------------------------------------

def _is_number(value: Any) -> bool:
    """A finite JSON number (not a boolean)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _is_non_empty_string(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _invalid(message: str) -> WireError:
    return WireError(400, "invalid_auth", message)


@dataclass(frozen=True)
class AuthSettings:
    """Off by default; `now` fixes the clock used for `exp` (None = real time)."""

    enabled: bool = False
    secret: Optional[str] = None
    strict_identity: bool = False
    now: Optional[float] = None

    def clock(self) -> float:
        """The auth clock: seconds since 1970."""
        return self.now if self.now is not None else time.time()

    def to_json(self) -> dict[str, Any]:
        return {"enabled": self.enabled, "secret": self.secret,
                "strictIdentity": self.strict_identity, "now": self.now}

    def updated(self, spec: Any) -> "AuthSettings":
        """These settings with the fields of a `POST /_sandbox/auth` body
        applied (each optional); raises WireError(400 invalid_auth)."""
        if not isinstance(spec, dict):
            raise _invalid("the body must be a JSON object")
        unknown = sorted(set(spec) - {"enabled", "secret", "strictIdentity", "now"})
        if unknown:
            raise _invalid(f"unknown fields: {', '.join(unknown)}")
        changes: dict[str, Any] = {}
        if "enabled" in spec:
            if not isinstance(spec["enabled"], bool):
                raise _invalid("enabled must be a boolean")
            changes["enabled"] = spec["enabled"]
        if "secret" in spec:
            if not _is_non_empty_string(spec["secret"]):
                raise _invalid("secret must be a non-empty string")
            changes["secret"] = spec["secret"]
        if "strictIdentity" in spec:
            if not isinstance(spec["strictIdentity"], bool):
                raise _invalid("strictIdentity must be a boolean")
            changes["strict_identity"] = spec["strictIdentity"]
        if "now" in spec:
            if spec["now"] is not None and not _is_number(spec["now"]):
                raise _invalid("now must be a number (seconds since 1970) or null")
            changes["now"] = spec["now"]
        settings = replace(self, **changes)
        if settings.enabled and settings.secret is None:
            raise _invalid("enabling SDK authentication needs a secret")
        return settings


# -- JWT ------------------------------------------------------------------------

class TokenError(Exception):
    """The token is not a well-formed HS256 JWT with a valid signature."""


def b64url_encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def b64url_decode(text: str) -> bytes:
    """Strict base64url without padding; raises TokenError."""
    if not _B64URL.fullmatch(text) or len(text) % 4 == 1:
        raise TokenError("not base64url without padding")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _signature(signing_input: str, secret: str) -> str:
    digest = hmac.new(secret.encode("utf-8"), signing_input.encode("ascii"), hashlib.sha256).digest()
    return b64url_encode(digest)


def sign(claims: dict[str, Any], secret: str) -> str:
    """An HS256 JWT carrying `claims` (header `{"alg":"HS256","typ":"JWT"}`)."""
    signing_input = b64url_encode(canonical_bytes(JWT_HEADER)) + "." + b64url_encode(canonical_bytes(claims))
    return signing_input + "." + _signature(signing_input, secret)


def _json_object(segment: str) -> dict[str, Any]:
    try:
        value = parse_json(b64url_decode(segment))
    except ValueError as exc:
        raise TokenError("a segment is not JSON") from exc
    if not isinstance(value, dict):
        raise TokenError("a segment is not a JSON object")
    return value


def verify(token: str, secret: str) -> dict[str, Any]:
    """The claims of a well-formed HS256 JWT signed with `secret` that has
    `sub` (non-empty string) and `exp` (number); raises TokenError otherwise.
    Expiry is not checked here."""
    segments = token.split(".")
    if len(segments) != 3:
        raise TokenError("a JWT has three segments")
    if not all(_B64URL.fullmatch(segment) for segment in segments):
        raise TokenError("not base64url without padding")
    header_segment, payload_segment, signature_segment = segments
    header = _json_object(header_segment)
    if header.get("alg") != "HS256" or header.get("typ", "JWT") != "JWT":
        raise TokenError("not an HS256 JWT")
    b64url_decode(signature_segment)  # well-formed, even when the comparison fails anyway
    expected = _signature(header_segment + "." + payload_segment, secret)
    # Comparing the canonical encodings in constant time also refuses a
    # signature segment with non-zero padding bits.
    if not hmac.compare_digest(signature_segment.encode("ascii"), expected.encode("ascii")):
        raise TokenError("bad signature")
    claims = _json_object(payload_segment)
    if not _is_non_empty_string(claims.get("sub")):
        raise TokenError("sub must be a non-empty string")
    if not _is_number(claims.get("exp")):
        raise TokenError("exp must be a number")
    if "iat" in claims and not _is_number(claims["iat"]):
        raise TokenError("iat must be a number")
    return claims


def bearer_token(headers: dict[str, str]) -> Optional[str]:
    """The token of `Authorization: Bearer <token>` (scheme case-insensitive),
    or None when there is no such header, another scheme, or no token."""
    scheme, _, token = headers.get("authorization", "").strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def claimed_sub(headers: dict[str, str]) -> Optional[str]:
    """The `sub` the request's bearer token claims, read as the SDK reads it
    (payload decoded, signature and expiry not checked), or None. Recorded
    as `authSub` in the request log whether auth is enabled or not."""
    token = bearer_token(headers)
    segments = token.split(".") if token else []
    if len(segments) != 3:
        return None
    try:
        sub = _json_object(segments[1]).get("sub")
    except TokenError:
        return None
    return sub if isinstance(sub, str) else None


# -- whose request is it --------------------------------------------------------

def _user(value: Any) -> Optional[str]:
    """A userId that names a user: a non-empty string. Absent, null and ""
    are anonymous; other values name nobody here and are left to content
    validation (422 invalid_identity)."""
    user_id = value.get("userId") if isinstance(value, dict) else None
    return user_id if _is_non_empty_string(user_id) else None


def body_users(body: Any) -> list[str]:
    """Attributes and durable writes: the body's `userId`."""
    user = _user(body)
    return [user] if user is not None else []


def batch_users(body: Any) -> list[str]:
    """Event batches: the `userId` of every event, in batch order, each once."""
    batch = body.get("batch") if isinstance(body, dict) else None
    users = (_user(event) for event in batch) if isinstance(batch, list) else ()
    return list(dict.fromkeys(user for user in users if user is not None))


# -- the check ------------------------------------------------------------------

def unauthorized(reason: str) -> WireError:
    return WireError(401, "unauthorized", reason=reason)


def check(settings: AuthSettings, headers: dict[str, str], users: list[str]) -> None:
    """Raise the 401 for a request naming `users`, or return when it may go on."""
    if not settings.enabled:
        return
    if not users and not settings.strict_identity:
        return
    token = bearer_token(headers)
    if token is None:
        raise unauthorized(MISSING)
    assert settings.secret is not None  # AuthSettings.updated enforces it
    try:
        claims = verify(token, settings.secret)
    except TokenError:
        raise unauthorized(INVALID) from None
    if claims["exp"] <= settings.clock():
        raise unauthorized(EXPIRED)
    if any(user != claims["sub"] for user in users):
        raise unauthorized(SUB_MISMATCH)


def mint(settings: AuthSettings, spec: Any) -> str:
    """The token for a `POST /_sandbox/auth/token` body: `{"sub", "exp"}` or
    `{"sub", "expiresIn"}` (relative to the auth clock), optionally
    `"secret"`; raises WireError(400 invalid_auth)."""
    if not isinstance(spec, dict):
        raise _invalid("the body must be a JSON object")
    unknown = sorted(set(spec) - {"sub", "exp", "expiresIn", "secret"})
    if unknown:
        raise _invalid(f"unknown fields: {', '.join(unknown)}")
    sub = spec.get("sub")
    if not _is_non_empty_string(sub):
        raise _invalid("sub must be a non-empty string")
    if ("exp" in spec) == ("expiresIn" in spec):
        raise _invalid("give exactly one of exp and expiresIn")
    now = settings.clock()
    if "exp" in spec:
        if not _is_number(spec["exp"]):
            raise _invalid("exp must be a number (seconds since 1970)")
        exp = spec["exp"]
    else:
        if not _is_number(spec["expiresIn"]):
            raise _invalid("expiresIn must be a number of seconds")
        exp = now + spec["expiresIn"]
        if not math.isfinite(exp):
            raise _invalid("expiresIn is too large")
        exp = math.floor(exp)   # a NumericDate in whole seconds
    secret = spec.get("secret", settings.secret)
    if not _is_non_empty_string(secret):
        raise _invalid("no secret: configure one with POST /_sandbox/auth, or give \"secret\"")
    return sign({"sub": sub, "exp": exp, "iat": math.floor(now)}, secret)
