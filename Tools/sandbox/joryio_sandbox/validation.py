"""Validation rules of the wire protocol, as pure functions.

Each check returns a reason string (part of the protocol, see
docs/protocol.md) or None. Keeping them free of HTTP and state makes them easy
to unit test and to reuse from later endpoints.
"""

from __future__ import annotations

import math
import re
from typing import Any, Optional

from .wire import WireError, canonical_size, depth_exceeds, is_timestamp

# Limits (docs/protocol.md, "Limits").
MAX_BODY_BYTES = 1_000_000          # decoded request body
MAX_BATCH_EVENTS = 500
MAX_MESSAGE_ID_CHARS = 128
MAX_EVENT_NAME_CHARS = 255          # Unicode code points
MAX_PROPERTIES_BYTES = 50 * 1024    # canonical encoding of the properties object
MAX_PROPERTIES_KEYS = 200           # top-level keys
MAX_PROPERTIES_DEPTH = 5            # the properties object itself is depth 1

# Limits of the version 2 endpoints (docs/protocol.md, sections 3.3 and 5.3 - 5.9).
MAX_OPERATIONS = 1000               # attribute operations per request
MAX_UNSETS = 200                    # of which `unset`
MAX_OPERATION_ID_CHARS = 128
MAX_ATTRIBUTE_KEY_CHARS = 255       # Unicode code points
MAX_VALUE_DEPTH = 5                 # a scalar has depth 0
MAX_IDEMPOTENCY_KEY_CHARS = 128
MAX_WRITE_ID_CHARS = 128
MAX_ALIAS_NAME_CHARS = 255
MAX_GROUP_ID_CHARS = 128
MAX_PUSH_TOKEN_CHARS = 4096
ATTRIBUTE_OPS = ("set", "increment", "unset")
ALIAS_LABEL = re.compile(r"[a-z0-9_]{1,64}")
CHANNELS = ("email", "sms", "whatsapp", "push", "viber")
SUBSCRIPTION_STATUSES = ("optedIn", "subscribed", "unsubscribed")
GROUP_ACTIONS = ("join", "leave")

# Limits of the version 4 push endpoints (docs/protocol.md, sections 5.10 - 5.12).
MAX_TRACKING_ID_CHARS = 128
MAX_BUNDLE_ID_CHARS = 255
PUSH_TOKEN = re.compile(r"(?:[0-9a-fA-F]{2}){1,2048}")   # APNs hex, even length, 2 ... 4096
PUSH_ENVIRONMENTS = ("sandbox", "production")
PUSH_PERMISSIONS = ("granted", "denied", "not_determined")


def _is_non_empty_string(value: Any) -> bool:
    return isinstance(value, str) and value != ""


def _is_optional_string(value: Any) -> bool:
    return value is None or isinstance(value, str)


def properties_problem(properties: Any) -> Optional[str]:
    """Reason why an event's `properties` value is unacceptable, or None."""
    if properties is None:
        return None
    if not isinstance(properties, dict):
        return "invalid_properties"
    if canonical_size(properties) > MAX_PROPERTIES_BYTES:
        return "properties_too_large"
    if len(properties) > MAX_PROPERTIES_KEYS:
        return "too_many_properties"
    if depth_exceeds(properties, MAX_PROPERTIES_DEPTH):
        return "properties_too_deep"
    return None


def event_problem(event: Any) -> Optional[str]:
    """Reason why one batch element is not an acceptable track event, or None.

    Checks run in a fixed order and the first failure is reported.
    """
    if not isinstance(event, dict):
        return "not_an_object"
    message_id = event.get("messageId")
    if not _is_non_empty_string(message_id) or len(message_id) > MAX_MESSAGE_ID_CHARS:
        return "missing_message_id"
    if event.get("type") != "track":
        return "invalid_type"
    name = event.get("event")
    if not isinstance(name, str) or not 1 <= len(name) <= MAX_EVENT_NAME_CHARS:
        return "invalid_event_name"
    if not is_timestamp(event.get("timestamp")):
        return "invalid_timestamp"
    problem = properties_problem(event.get("properties"))
    if problem:
        return problem
    anonymous_id, user_id = event.get("anonymousId"), event.get("userId")
    if not (_is_optional_string(anonymous_id) and _is_optional_string(user_id)):
        return "invalid_identity"
    if not (_is_non_empty_string(anonymous_id) or _is_non_empty_string(user_id)):
        return "missing_identity"
    if not _is_optional_string(event.get("sessionId")):
        return "invalid_session_id"
    if not _is_optional_string(event.get("deviceId")):
        return "invalid_device_id"
    return None


def batch_events(body: Any) -> list[Any]:
    """Check the envelope of an event batch and return its `batch` array.

    Raises WireError for envelope problems (400 invalid_body, 413
    too_many_events). Per-event problems are left to `event_problem`.
    """
    if not isinstance(body, dict):
        raise WireError(400, "invalid_body", "the body must be a JSON object")
    if not is_timestamp(body.get("sentAt")):
        raise WireError(400, "invalid_body", "sentAt must be an ISO-8601 timestamp")
    events = body.get("batch")
    if not isinstance(events, list) or not events:
        raise WireError(400, "invalid_body", "batch must be a non-empty array")
    if len(events) > MAX_BATCH_EVENTS:
        raise WireError(
            413, "too_many_events", f"a batch carries at most {MAX_BATCH_EVENTS} events"
        )
    return events


# --------------------------------------------------------------------------
# Version 2: identity, attributes, durable writes
# --------------------------------------------------------------------------

def _is_string_within(value: Any, limit: int) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= limit


def _is_finite_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


class RequestProblem(WireError):
    """A 422 about the request as a whole (not one attribute operation):
    `error` is the reason, and `errors` holds one entry naming the field
    (null when no single field is at fault)."""

    def __init__(self, reason: str, field: Optional[str]) -> None:
        super().__init__(422, reason, errors=[{"field": field, "reason": reason}])


def check_identity(body: dict[str, Any]) -> None:
    """`userId` and `anonymousId`: each absent, null or a string, and at
    least one a non-empty string. Raises RequestProblem."""
    for field in ("userId", "anonymousId"):
        if not _is_optional_string(body.get(field)):
            raise RequestProblem("invalid_identity", field)
    if not (_is_non_empty_string(body.get("userId")) or _is_non_empty_string(body.get("anonymousId"))):
        raise RequestProblem("missing_identity", None)


def _require_object_with_sent_at(body: Any) -> dict[str, Any]:
    if not isinstance(body, dict):
        raise WireError(400, "invalid_body", "the body must be a JSON object")
    if not is_timestamp(body.get("sentAt")):
        raise WireError(400, "invalid_body", "sentAt must be an ISO-8601 timestamp")
    return body


def idempotency_key(headers: dict[str, str]) -> str:
    """The request's `Idempotency-Key` (1 ... 128 characters), or 400
    missing_idempotency_key."""
    key = headers.get("idempotency-key", "")
    if not 1 <= len(key) <= MAX_IDEMPOTENCY_KEY_CHARS:
        raise WireError(400, "missing_idempotency_key",
                        f"send an Idempotency-Key header of 1 to {MAX_IDEMPOTENCY_KEY_CHARS} characters")
    return key


def attribute_operations(body: Any) -> list[Any]:
    """Check the envelope of an attributes request and return its
    `operations` array. Raises WireError for envelope problems (400
    invalid_body, 413 too_many_operations / too_many_unsets); identity and
    per-operation problems are left to `check_identity` and
    `operation_problem`."""
    body = _require_object_with_sent_at(body)
    operations = body.get("operations")
    if not isinstance(operations, list) or not operations:
        raise WireError(400, "invalid_body", "operations must be a non-empty array")
    if len(operations) > MAX_OPERATIONS:
        raise WireError(413, "too_many_operations",
                        f"a request carries at most {MAX_OPERATIONS} operations")
    unsets = sum(1 for op in operations if isinstance(op, dict) and op.get("op") == "unset")
    if unsets > MAX_UNSETS:
        raise WireError(413, "too_many_unsets", f"a request carries at most {MAX_UNSETS} unsets")
    return operations


def operation_problem(operation: Any, rejected_keys: frozenset[str] = frozenset()) -> Optional[str]:
    """Reason why one attribute operation is unacceptable, or None. Checks run
    in a fixed order and the first failure is reported; `rejected_keys`
    (fault API) fail last, with `rejected_key`."""
    if not isinstance(operation, dict):
        return "not_an_object"
    if not _is_string_within(operation.get("id"), MAX_OPERATION_ID_CHARS):
        return "missing_operation_id"
    op = operation.get("op")
    if op not in ATTRIBUTE_OPS:
        return "invalid_op"
    key = operation.get("key")
    if not _is_string_within(key, MAX_ATTRIBUTE_KEY_CHARS):
        return "invalid_key"
    if op == "set":
        value = operation.get("value")
        if value is None or depth_exceeds(value, MAX_VALUE_DEPTH):
            return "invalid_value"
    elif op == "increment" and not _is_finite_number(operation.get("by")):
        return "invalid_increment"
    if not is_timestamp(operation.get("timestamp")):
        return "invalid_timestamp"
    if key in rejected_keys:
        return "rejected_key"
    return None


def check_write(body: Any) -> dict[str, Any]:
    """The envelope every durable write shares: a JSON object with `writeId`
    (1 ... 128 characters), `timestamp` and `sentAt` (400 invalid_body), then
    the identity (422). Returns the body."""
    body = _require_object_with_sent_at(body)
    if not _is_string_within(body.get("writeId"), MAX_WRITE_ID_CHARS):
        raise WireError(400, "invalid_body",
                        f"writeId must be a string of 1 to {MAX_WRITE_ID_CHARS} characters")
    if not is_timestamp(body.get("timestamp")):
        raise WireError(400, "invalid_body", "timestamp must be an ISO-8601 timestamp")
    return body


def check_identify(body: dict[str, Any]) -> None:
    check_identity(body)
    if not _is_non_empty_string(body.get("userId")):
        raise RequestProblem("missing_user_id", "userId")


def check_alias(body: dict[str, Any]) -> None:
    check_identity(body)
    label = body.get("label")
    if not (isinstance(label, str) and ALIAS_LABEL.fullmatch(label)):
        raise RequestProblem("invalid_label", "label")
    if not _is_string_within(body.get("name"), MAX_ALIAS_NAME_CHARS):
        raise RequestProblem("invalid_alias_name", "name")


def check_subscription(body: dict[str, Any]) -> bool:
    """Checks a subscription write; returns True for a group change
    (`groupId` + `action`), False for a channel status (`status`)."""
    has_status, has_group = body.get("status") is not None, body.get("groupId") is not None
    if has_status == has_group:
        raise WireError(400, "invalid_body", "give either status, or groupId and action")
    check_identity(body)
    if body.get("channel") not in CHANNELS:
        raise RequestProblem("invalid_channel", "channel")
    if has_status:
        if body.get("status") not in SUBSCRIPTION_STATUSES:
            raise RequestProblem("invalid_status", "status")
        return False
    if not _is_string_within(body.get("groupId"), MAX_GROUP_ID_CHARS):
        raise RequestProblem("invalid_group", "groupId")
    if body.get("action") not in GROUP_ACTIONS:
        raise RequestProblem("invalid_action", "action")
    return True


def check_opt_out(body: dict[str, Any]) -> None:
    if not isinstance(body.get("optedOut"), bool):
        raise WireError(400, "invalid_body", "optedOut must be a boolean")
    check_identity(body)


def check_push_unregister(body: dict[str, Any]) -> None:
    if not _is_string_within(body.get("token"), MAX_PUSH_TOKEN_CHARS):
        raise WireError(400, "invalid_body",
                        f"token must be a string of 1 to {MAX_PUSH_TOKEN_CHARS} characters")
    check_identity(body)


# --------------------------------------------------------------------------
# Version 4: push registration, receipts and clicks
# --------------------------------------------------------------------------

def check_push_register(body: dict[str, Any]) -> None:
    """A push registration (a durable write): the identity, then `token`
    (APNs hex), `environment`, and the optional `bundleId` and `permission`.
    Raises RequestProblem."""
    check_identity(body)
    token = body.get("token")
    if not (isinstance(token, str) and PUSH_TOKEN.fullmatch(token)):
        raise RequestProblem("invalid_token", "token")
    if body.get("environment") not in PUSH_ENVIRONMENTS:
        raise RequestProblem("invalid_environment", "environment")
    if body.get("bundleId") is not None and not _is_string_within(body.get("bundleId"), MAX_BUNDLE_ID_CHARS):
        raise RequestProblem("invalid_bundle_id", "bundleId")
    if body.get("permission") is not None and body.get("permission") not in PUSH_PERMISSIONS:
        raise RequestProblem("invalid_permission", "permission")


def check_push_report(body: Any) -> dict[str, Any]:
    """A push receipt or click: a JSON object with `messageId` (1 ... 128
    characters), `timestamp` and `sentAt` (400 invalid_body), then the
    identity, `trackingId` and the optional `deviceId` (422). Returns the
    body."""
    body = _require_object_with_sent_at(body)
    if not _is_string_within(body.get("messageId"), MAX_MESSAGE_ID_CHARS):
        raise WireError(400, "invalid_body",
                        f"messageId must be a string of 1 to {MAX_MESSAGE_ID_CHARS} characters")
    if not is_timestamp(body.get("timestamp")):
        raise WireError(400, "invalid_body", "timestamp must be an ISO-8601 timestamp")
    check_identity(body)
    if not _is_string_within(body.get("trackingId"), MAX_TRACKING_ID_CHARS):
        raise RequestProblem("invalid_tracking_id", "trackingId")
    if not _is_optional_string(body.get("deviceId")):
        raise RequestProblem("invalid_device_id", "deviceId")
    return body
