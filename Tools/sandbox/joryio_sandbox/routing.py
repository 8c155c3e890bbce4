"""The route table and the request/response values handlers work with.

A handler is a function `handler(request: Request) -> Response`. Feature
modules (events.py, attributes.py, writes.py, control.py) expose a
`register(router)` function that adds their routes; server.py builds the
router once at startup. Handlers signal protocol errors by raising
`wire.WireError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Optional

from .auth import UsersOf, body_users

if TYPE_CHECKING:  # pragma: no cover
    from .faults import FaultRule
    from .server import Sandbox

CONTROL_PREFIX = "/_sandbox"
JSON_CONTENT_TYPE = "application/json; charset=utf-8"


def is_control_path(path: str) -> bool:
    """Paths that belong to the sandbox itself (control API, dashboard): they
    need no SDK key, are never faulted and never recorded. Every other path
    is treated as an SDK endpoint, known or not."""
    return (
        path in ("/", "/favicon.ico", CONTROL_PREFIX)
        or path.startswith(CONTROL_PREFIX + "/")
    )


@dataclass
class Request:
    method: str
    path: str                       # without the query string
    query: dict[str, list[str]]
    headers: dict[str, str]         # lower-cased names
    body: Any                       # parsed JSON (json_body routes), else None
    fault: Optional["FaultRule"]    # the fault rule applied to this request, if any
    app: "Sandbox"


@dataclass
class Response:
    status: int
    body: Any = None                # JSON value, encoded canonically
    headers: dict[str, str] = field(default_factory=dict)
    raw: Optional[bytes] = None     # pre-encoded body (overrides `body`)
    content_type: Optional[str] = JSON_CONTENT_TYPE  # None: no Content-Type header
    after: Optional[Callable[[], None]] = None  # run once the response is written
    chunks: Optional[Iterable[bytes]] = None    # a streamed body (overrides `raw` and `body`)
    content_length: Optional[int] = None        # of `chunks`; None: the body ends at connection close


Handler = Callable[[Request], Response]


@dataclass(frozen=True)
class Route:
    handler: Handler
    json_body: bool                 # the route needs a JSON request body
    users: Optional[UsersOf] = None  # SDK routes: the users a body names (SDK authentication)


class Router:
    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self._routes: dict[tuple[str, str], Route] = {}

    def _add(self, method: str, path: str, route: Route) -> None:
        key = (method.upper(), path)
        if key in self._routes:
            raise ValueError(f"duplicate route {method} {path}")
        self._routes[key] = route

    def sdk(self, method: str, path: str, handler: Handler, *, json_body: bool = True,
            users: UsersOf = body_users) -> None:
        """An SDK endpoint; `path` is relative to the API prefix. `users`
        tells SDK authentication whose request a body is (default: the
        body's `userId`)."""
        if is_control_path(self.prefix + path):
            raise ValueError(f"SDK route {path} collides with the control API")
        self._add(method, self.prefix + path, Route(handler, json_body, users))

    def control(self, method: str, path: str, handler: Handler, *, json_body: bool = False) -> None:
        """A sandbox route (control API or dashboard); `path` is absolute."""
        if not is_control_path(path):
            raise ValueError(f"control route {path} must live under {CONTROL_PREFIX}")
        self._add(method, path, Route(handler, json_body))

    def resolve(self, method: str, path: str) -> tuple[Optional[Route], list[str]]:
        """The route for (method, path), plus the methods the path allows
        (to tell 404 from 405 when there is no route)."""
        allowed = sorted(m for (m, p) in self._routes if p == path)
        return self._routes.get((method, path)), allowed
