"""SDK endpoints of protocol version 4 for push (docs/protocol.md, 5.10 -
5.12): POST {prefix}/v1/push/register, /v1/push/receipt and /v1/push/click.
(POST /v1/push/unregister is a durable write of version 2, in writes.py.)

A registration is a durable write (`writeId`, deduplicated with the others):
the token becomes one of the resolved profile's current tokens, created when
missing, and leaves any other profile; a register or unregister older than
the newest stored change of the same token is acknowledged and ignored.

Receipts and clicks are data-collecting reports keyed by `trackingId`, one per
request, deduplicated by `messageId` per kind like events; they need no
profile and create none.
"""

from __future__ import annotations

from typing import Any

from .profiles import Profiles
from .routing import Request, Response, Router
from .validation import check_push_register, check_push_report
from .writes import durable_write

REPORT_FIELDS = ("messageId", "trackingId", "timestamp", "sentAt", "userId", "anonymousId", "deviceId")


def _register(profiles: Profiles, body: dict[str, Any]) -> None:
    registration = {
        "token": body["token"].lower(),
        "environment": body["environment"],
        "bundleId": body.get("bundleId"),
        "permission": body.get("permission"),
        "registeredAt": body["timestamp"],
    }
    profiles.register_push(body.get("userId"), body.get("anonymousId"), registration)


def post_push_register(request: Request) -> Response:
    return durable_write(request, check_push_register, _register)


def _report(request: Request, kind: str) -> Response:
    body = check_push_report(request.body)
    report = {field: body.get(field) for field in REPORT_FIELDS}
    if not request.app.state.store_push_report(kind, report):
        return Response(200, {"success": True, "duplicate": True})
    return Response(200, {"success": True})


def post_push_receipt(request: Request) -> Response:
    return _report(request, "receipt")


def post_push_click(request: Request) -> Response:
    return _report(request, "click")


def register(router: Router) -> None:
    router.sdk("POST", "/v1/push/register", post_push_register)
    router.sdk("POST", "/v1/push/receipt", post_push_receipt)
    router.sdk("POST", "/v1/push/click", post_push_click)
