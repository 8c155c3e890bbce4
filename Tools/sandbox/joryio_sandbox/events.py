"""SDK endpoint: POST {prefix}/v1/events (event batch ingest)."""

from __future__ import annotations

from typing import Any

from .auth import batch_users
from .routing import Request, Response, Router
from .validation import batch_events, event_problem
from .wire import WireError


def _message_id(event: Any) -> Any:
    """The event's messageId for error reports: a string, or None."""
    message_id = event.get("messageId") if isinstance(event, dict) else None
    return message_id if isinstance(message_id, str) else None


def post_events(request: Request) -> Response:
    events = batch_events(request.body)

    # All-or-nothing: one invalid event rejects the whole batch, so the SDK
    # can split it down to the offending event (BATCH-6).
    errors = [
        {"index": index, "messageId": _message_id(event), "reason": reason}
        for index, event in enumerate(events)
        if (reason := event_problem(event)) is not None
    ]
    if errors:
        raise WireError(422, "invalid_event", errors=errors)

    # Scripted outcomes (fault API): listed events are neither stored nor
    # remembered, so a "failed" event is stored when the SDK resends it.
    fault = request.fault
    rejected = [i for i in fault.rejected_indices if i < len(events)] if fault else []
    failed = [i for i in fault.failed_indices if i < len(events)] if fault else []
    excluded = set(rejected) | set(failed)

    accepted, duplicates = request.app.state.store_events(
        enumerate(events), skip=excluded.__contains__
    )
    return Response(200, {
        "success": True,
        "accepted": accepted,
        "duplicates": duplicates,
        "rejectedIndices": rejected,
        "failedIndices": failed,
    })


def register(router: Router) -> None:
    router.sdk("POST", "/v1/events", post_events, users=batch_users)
