"""SDK endpoints for durable writes, one write per request (docs/protocol.md,
5.4 - 5.9): POST {prefix}/v1/identify, /v1/alias, /v1/subscriptions,
/v1/opt-out and /v1/push/unregister.

Every write carries a `writeId`; a write id the server already applied is
answered `{"success": true, "duplicate": true}` and nothing is applied again.
Checks come first (400 / 422), then the duplicate test, then the change
itself, which may still be refused (404, 409) without changing anything.
"""

from __future__ import annotations

from typing import Any, Callable

from .profiles import Profiles
from .routing import Request, Response, Router
from .validation import (check_alias, check_identify, check_opt_out, check_push_unregister,
                         check_subscription, check_write)
from .wire import WireError

SUCCESS = {"success": True}
DUPLICATE = {"success": True, "duplicate": True}

Apply = Callable[[Profiles, dict[str, Any]], None]


def durable_write(request: Request, check: Callable[[dict[str, Any]], Any], apply: Apply) -> Response:
    body = check_write(request.body)
    check(body)
    write_id = body["writeId"]

    def transaction(profiles: Profiles) -> Response:
        if profiles.write_applied(write_id):
            return Response(200, dict(DUPLICATE))
        apply(profiles, body)
        profiles.mark_write_applied(write_id)
        return Response(200, dict(SUCCESS))

    return request.app.state.profiles_transaction(transaction)


def _identify(profiles: Profiles, body: dict[str, Any]) -> None:
    profiles.identify(body["userId"], body.get("anonymousId"))


def _alias(profiles: Profiles, body: dict[str, Any]) -> None:
    profiles.set_alias(body.get("userId"), body.get("anonymousId"), body["label"], body["name"])


def _subscription(profiles: Profiles, body: dict[str, Any]) -> None:
    profile = profiles.find(body.get("userId"), body.get("anonymousId"))
    if profile is None:
        raise WireError(404, "profile_not_found",
                        "no profile for this identity yet; send its events first")
    if body.get("groupId") is not None:
        profiles.change_group(profile, body["channel"], body["groupId"], body["action"],
                              body["timestamp"])
    else:
        profiles.set_subscription(profile, body["channel"], body["status"], body["timestamp"])


def _opt_out(profiles: Profiles, body: dict[str, Any]) -> None:
    profile = profiles.resolve(body.get("userId"), body.get("anonymousId"))
    profiles.opt_out(profile, body["writeId"], body["timestamp"], body["optedOut"])


def _push_unregister(profiles: Profiles, body: dict[str, Any]) -> None:
    profiles.unregister_push(body["token"], body["timestamp"])


def post_identify(request: Request) -> Response:
    return durable_write(request, check_identify, _identify)


def post_alias(request: Request) -> Response:
    return durable_write(request, check_alias, _alias)


def post_subscriptions(request: Request) -> Response:
    return durable_write(request, check_subscription, _subscription)


def post_opt_out(request: Request) -> Response:
    return durable_write(request, check_opt_out, _opt_out)


def post_push_unregister(request: Request) -> Response:
    return durable_write(request, check_push_unregister, _push_unregister)


def register(router: Router) -> None:
    router.sdk("POST", "/v1/identify", post_identify)
    router.sdk("POST", "/v1/alias", post_alias)
    router.sdk("POST", "/v1/subscriptions", post_subscriptions)
    router.sdk("POST", "/v1/opt-out", post_opt_out)
    router.sdk("POST", "/v1/push/unregister", post_push_unregister)
