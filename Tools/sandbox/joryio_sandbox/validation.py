"""Validation rules of the wire protocol, as pure functions.

Each check returns a reason string (part of the protocol, see
docs/protocol.md) or None. Keeping them free of HTTP and state makes them easy
to unit test and to reuse from later endpoints.
"""

from __future__ import annotations

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
