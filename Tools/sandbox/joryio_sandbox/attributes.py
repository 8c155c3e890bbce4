"""SDK endpoint: POST {prefix}/v1/attributes (attribute operations).

Two memories make a retried request safe (docs/protocol.md, 5.3):
  * the answer given per Idempotency-Key: a request repeating a key gets the
    same answer again with `"replayed": true` and applies nothing;
  * the operation ids applied: each operation id is applied at most once per
    server lifetime, whatever request carries it (counted in `duplicates`).
"""

from __future__ import annotations

from typing import Any

from .profiles import Profiles
from .routing import Request, Response, Router
from .validation import attribute_operations, check_identity, idempotency_key, operation_problem
from .wire import WireError


def _string_or_none(operation: Any, field: str) -> Any:
    value = operation.get(field) if isinstance(operation, dict) else None
    return value if isinstance(value, str) else None


def _evaluate(request: Request, profiles: Profiles) -> Response:
    """Check the request and apply it (all or nothing)."""
    body = request.body
    operations = attribute_operations(body)
    check_identity(body)
    rejected_keys = frozenset(request.fault.reject_attribute_keys if request.fault else ())
    errors = [
        {"index": index, "id": _string_or_none(operation, "id"),
         "key": _string_or_none(operation, "key"), "reason": reason}
        for index, operation in enumerate(operations)
        if (reason := operation_problem(operation, rejected_keys)) is not None
    ]
    if errors:
        raise WireError(422, "invalid_operation", errors=errors)

    profile = profiles.resolve(body.get("userId"), body.get("anonymousId"))
    applied, duplicates = profiles.apply_operations(profile, operations)
    return Response(200, {"success": True, "applied": applied, "duplicates": duplicates})


def post_attributes(request: Request) -> Response:
    key = idempotency_key(request.headers)

    def transaction(profiles: Profiles) -> Response:
        remembered = profiles.remembered_answer(key)
        if remembered is not None:
            status, body = remembered
            return Response(status, {**body, "replayed": True})
        try:
            response = _evaluate(request, profiles)
        except WireError as error:
            response = Response(error.status, error.body(), error.headers)
        profiles.remember_answer(key, response.status, response.body)
        return response

    return request.app.state.profiles_transaction(transaction)


def register(router: Router) -> None:
    router.sdk("POST", "/v1/attributes", post_attributes)
