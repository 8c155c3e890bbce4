"""Wire-level helpers shared by every endpoint: strict JSON parsing, the
canonical encoding used to measure sizes, structural depth and timestamps.

The canonical encoding is part of the protocol (docs/protocol.md, "Encoding"):
the SDK's encoder must produce the same bytes for the same value, so that a
size check done on the device agrees with the one done here.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any


class WireError(Exception):
    """A request that cannot be served: carries the HTTP status, the
    machine-readable `error` string of the JSON error body, an optional
    human-readable `message`, extra body fields and extra response headers."""

    def __init__(self, status: int, error: str, message: str = "", *,
                 headers: dict[str, str] | None = None, **extra: Any):
        super().__init__(message or error)
        self.status = status
        self.error = error
        self.message = message
        self.headers = headers or {}
        self.extra = extra

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"success": False, "error": self.error}
        body.update(self.extra)
        if self.message:
            body["message"] = self.message
        return body


# --------------------------------------------------------------------------
# Canonical JSON
# --------------------------------------------------------------------------

def canonical_bytes(value: Any) -> bytes:
    """Python's compact JSON form, UTF-8 encoded: no whitespace, non-ASCII as
    raw UTF-8, `/` not escaped, floats as `repr(float)`."""
    return json.dumps(
        value, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def canonical_size(value: Any) -> int:
    """Size in bytes of `value` in the canonical encoding."""
    return len(canonical_bytes(value))


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json(data: bytes) -> Any:
    """Parse a request body strictly (RFC 8259): UTF-8 only, no NaN/Infinity,
    and no unpaired surrogate escapes (they have no UTF-8 encoding, so the
    value could neither be measured nor produced by a Swift encoder).

    Raises ValueError on anything else.
    """
    try:
        text = data.decode("utf-8")
        value = json.loads(text, parse_constant=_reject_constant)
        canonical_bytes(value)  # unpaired surrogates fail to encode here
    except (UnicodeError, RecursionError) as exc:
        raise ValueError(str(exc)) from exc
    return value


def encode_response(value: Any) -> bytes:
    """Encode a response body; same form as the canonical encoding."""
    return canonical_bytes(value)


# --------------------------------------------------------------------------
# Structure
# --------------------------------------------------------------------------

def depth_exceeds(value: Any, limit: int) -> bool:
    """True when the container depth of `value` is greater than `limit`.

    Scalars have depth 0; an object or array (even an empty one) has depth
    1 + the greatest depth among its members. Recursion stops as soon as the
    limit is crossed, so hostile nesting costs at most `limit + 1` frames.
    """
    if isinstance(value, dict):
        children = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return False
    if limit <= 0:
        return True
    return any(depth_exceeds(child, limit - 1) for child in children)


# --------------------------------------------------------------------------
# Time
# --------------------------------------------------------------------------

def format_timestamp(moment: _dt.datetime) -> str:
    """ISO-8601 UTC with milliseconds, e.g. 2026-11-30T19:21:59.123Z."""
    moment = moment.astimezone(_dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_timestamp() -> str:
    return format_timestamp(_dt.datetime.now(_dt.timezone.utc))


def parse_timestamp(value: Any) -> _dt.datetime | None:
    """The moment `value` denotes, as an aware datetime, or None when it is
    not a protocol timestamp: a string `datetime.fromisoformat` accepts once a
    trailing `Z` is replaced by `+00:00`. A timestamp without an offset is
    read as UTC, so any two timestamps can be compared."""
    if not isinstance(value, str) or not value:
        return None
    text = value[:-1] + "+00:00" if value.endswith("Z") else value
    try:
        moment = _dt.datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.timezone.utc)
    return moment


def is_timestamp(value: Any) -> bool:
    """Whether `value` is a protocol timestamp (the acceptance rule of
    `parse_timestamp`)."""
    return parse_timestamp(value) is not None
