"""HTTP plumbing, the request pipeline and the command line.

Pipeline for every request (docs/protocol.md describes the observable part):

  read body -> decode (gzip) and parse JSON, once
  -> SDK paths only: record in the request log, apply a scripted fault
     (delay, then drop or canned status; indices are left to the handler)
  -> route (404 / 405) -> SDK paths: SDK key (403), Content-Type (400)
  -> body problems (400 / 413) -> SDK paths: SDK authentication (401, auth.py)
  -> handler -> respond (status noted in the log),
     or close the connection without answering (fault dropAfterProcessing)

Control paths (/_sandbox/*, /) skip the SDK-only steps.
"""

from __future__ import annotations

import argparse
import hmac
import json
import os
import signal
import socket
import socketserver
import sys
import threading
import time
import traceback
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Optional, Sequence
from urllib.parse import parse_qs, urlsplit

from . import attributes, auth, control, events, geozones, inapp, media, preview, push, writes
from .faults import FaultRule
from .payload import BodyError, decode_payload, read_body
from .routing import Request, Response, Router, is_control_path
from .state import State
from .wire import WireError, encode_response, now_timestamp

SDK_KEY_PREFIX = "jry_sdk_"
SDK_KEY_MAX_LENGTH = 256        # characters; a longer key is refused like a malformed one
LOOPBACK_HOSTS = {"127.0.0.1": "127.0.0.1", "localhost": "127.0.0.1", "::1": "::1"}
URL_LINE_PREFIX = "JORYIO_SANDBOX_URL="

# Modules that add routes; each exposes register(router). New endpoint
# modules are added here.
ROUTE_MODULES = (events, attributes, writes, push, inapp, control, media, geozones, preview)


@dataclass(frozen=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 0
    sdk_key: Optional[str] = None   # when set, the only key accepted
    prefix: str = "/api"
    quiet: bool = False
    jwt_secret: Optional[str] = None  # when set, SDK authentication starts enabled
    in_app: inapp.Fixtures = inapp.Fixtures()  # fixture campaigns, required-token mode (restored by reset)


class Sandbox:
    """The application: configuration, state and routes, independent of the
    socket server so tests can reach it directly."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.state = State()
        self.router = Router(config.prefix)
        for module in ROUTE_MODULES:
            module.register(self.router)
        if config.jwt_secret is not None:
            self.state.update_auth({"enabled": True, "secret": config.jwt_secret})
        self.state.configure_in_app(config.in_app)
        self.server: Optional["SandboxServer"] = None

    def log(self, line: str) -> None:
        if not self.config.quiet:
            print(f"sandbox: {line}", file=sys.stderr, flush=True)

    def request_shutdown(self) -> None:
        """Stop serving; safe to call from a handler thread."""
        if self.server is not None:
            threading.Thread(target=self.server.shutdown, daemon=True).start()

    def check_sdk_key(self, headers: dict[str, str]) -> None:
        key = headers.get("x-joryio-sdk-key", "")
        expected = self.config.sdk_key
        if not key.startswith(SDK_KEY_PREFIX) or len(key) > SDK_KEY_MAX_LENGTH or (
            expected is not None and not hmac.compare_digest(key.encode(), expected.encode())
        ):
            raise WireError(403, "invalid_sdk_key")


def check_json_content_type(headers: dict[str, str]) -> None:
    """`application/json`, optionally with `charset=utf-8`."""
    media_type, *params = [part.strip().lower() for part in headers.get("content-type", "").split(";")]
    charset_ok = all(p in ("", "charset=utf-8", 'charset="utf-8"') for p in params)
    if media_type != "application/json" or not charset_ok:
        raise WireError(400, "unsupported_content_type", "send Content-Type: application/json")


class RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"   # keep-alive; every response has Content-Length
    server_version = "JoryioSandbox/1"
    disable_nagle_algorithm = True  # headers and body go out as two writes
    server: "SandboxServer"

    def do_GET(self) -> None:
        self._dispatch()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    # -- pipeline ----------------------------------------------------------

    def _dispatch(self) -> None:
        app = self.server.app
        url = urlsplit(self.path)
        headers = self._lower_case_headers()
        sdk = not is_control_path(url.path)

        framing_error = None
        try:
            raw, raw_size = read_body(self.rfile, headers)
        except BodyError as exc:
            # We no longer know where the next request starts: answer, close.
            framing_error = WireError(400, "bad_request", str(exc))
            self.close_connection = True
            raw, raw_size = b"", 0
        payload = decode_payload(raw, raw_size, headers.get("content-encoding", ""))

        entry = None
        if sdk:
            entry = app.state.record_request({
                "method": self.command, "path": url.path, "query": url.query, "headers": headers,
                **payload.log_fields(),
                "status": None, "fault": None, "receivedAt": now_timestamp(),
                "authSub": auth.claimed_sub(headers),
            })
        if framing_error is not None:
            self._respond(framing_error, entry, app)
            return

        fault = app.state.take_fault(self.command, url.path) if sdk else None
        if fault is not None and self._apply_fault(fault, entry, app):
            return

        request = Request(
            method=self.command, path=url.path, query=parse_qs(url.query), headers=headers,
            body=payload.value, fault=fault, app=app,
        )
        response = self._handle(request, payload.error, sdk)
        if fault is not None and fault.drop_after_processing:
            # Processed (and applied) like any request; the answer is lost.
            self._drop_connection()
            app.log(f"{self.command} {entry['path']} processed, then dropped (fault {fault.id})")
            return
        if fault is not None and fault.status_after_processing:
            # Processed (and applied) like any request; the client gets the scripted answer
            # instead, as from a gateway that rewrote the server's answer.
            response = self._fault_response(fault)
        self._respond(response, entry, app)

    def _lower_case_headers(self) -> dict[str, str]:
        headers: dict[str, str] = {}
        for name, value in self.headers.items():
            name = name.lower()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        return headers

    def _apply_fault(self, fault: FaultRule, entry: dict, app: Sandbox) -> bool:
        """Apply delay / drop / status. Returns True when the request has
        been fully dealt with; False to continue with normal processing
        (the handler sees `request.fault` for indices and rejected keys;
        dropAfterProcessing is applied once the handler has answered)."""
        app.state.update_request(entry, fault="+".join(fault.kinds))
        if fault.delay_ms:
            time.sleep(fault.delay_ms / 1000)
        if fault.drop:
            self._drop_connection()
            app.log(f"{self.command} {entry['path']} dropped (fault {fault.id})")
            return True
        if fault.status is not None and not fault.status_after_processing:
            self._respond(self._fault_response(fault), entry, app)
            return True
        return False

    @staticmethod
    def _fault_response(fault: FaultRule) -> Response:
        """The scripted answer of a `status` rule: `body` as JSON, or `bodyText` verbatim."""
        headers = {"Retry-After": fault.retry_after} if fault.retry_after else {}
        response = Response(fault.status, fault.body, headers)
        if fault.body_text is not None:
            response.raw = fault.body_text.encode("utf-8")
        if fault.content_type is not None:
            response.content_type = fault.content_type
        return response

    def _handle(self, request: Request, body_error: Optional[WireError],
                sdk: bool) -> "Response | WireError":
        """Route the request and run the checks its route needs, in protocol
        order: SDK key, Content-Type, body (encoding, size, JSON), SDK
        authentication (before the handler, so a 401 applies nothing)."""
        try:
            route, allowed = request.app.router.resolve(request.method, request.path)
            if route is None:
                if allowed:
                    raise WireError(405, "method_not_allowed", headers={"Allow": ", ".join(allowed)})
                raise WireError(404, "not_found")
            if sdk:
                request.app.check_sdk_key(request.headers)
                if route.json_body:
                    check_json_content_type(request.headers)
            if not route.json_body:
                request.body = None
            elif body_error is not None:
                raise body_error
            if sdk and route.users is not None:
                auth.check(request.app.state.auth(), request.headers, route.users(request.body))
            return route.handler(request)
        except WireError as exc:
            return exc
        except Exception:  # a sandbox bug: report it, keep serving
            traceback.print_exc(file=sys.stderr)
            return WireError(500, "internal_error")

    # -- output ------------------------------------------------------------

    def _respond(self, response: "Response | WireError", entry: Optional[dict], app: Sandbox) -> None:
        if isinstance(response, WireError):
            response = Response(response.status, response.body(), response.headers)
        if response.chunks is not None:
            self._respond_streamed(response)
            return
        payload = response.raw if response.raw is not None else encode_response(response.body)
        if entry is not None:  # before writing: a client that got the answer sees the status
            app.state.update_request(entry, status=response.status)

        self.send_response(response.status)
        if response.content_type is not None:
            self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(payload)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        for name, value in response.headers.items():
            self.send_header(name, value)
        if self.close_connection:
            self.send_header("Connection", "close")
        self.end_headers()
        try:
            self.wfile.write(payload)
            self.wfile.flush()
        except OSError:
            self.close_connection = True  # the client went away; nothing to do
        if entry is not None:
            app.log(f"{self.command} {entry['path']} {response.status}"
                    f" {entry['bodyBytes'] if entry['bodyBytes'] is not None else '?'} B"
                    f"{' gzip' if entry['gzip'] else ''}"
                    f"{' fault=' + entry['fault'] if entry['fault'] else ''}")
        if response.after is not None:
            response.after()

    def _respond_streamed(self, response: Response) -> None:
        """A body written chunk by chunk (the media fixtures, media.py): with Content-Length when
        known, else ended by closing the connection. A client that goes away ends it quietly."""
        self.send_response(response.status)
        if response.content_type is not None:
            self.send_header("Content-Type", response.content_type)
        if response.content_length is not None:
            self.send_header("Content-Length", str(response.content_length))
        else:
            self.close_connection = True
            self.send_header("Connection", "close")
        self.send_header("Cache-Control", "no-store")
        for name, value in response.headers.items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.flush()
            for chunk in response.chunks or ():
                self.wfile.write(chunk)
                self.wfile.flush()
        except OSError:
            self.close_connection = True  # the client gave up (a cap or a deadline): nothing to do

    def _drop_connection(self) -> None:
        """Close the socket without answering. The base class then only
        flushes/closes its (unbuffered) file objects, writing nothing."""
        self.close_connection = True
        try:
            self.connection.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.connection.close()

    def log_request(self, code: Any = "-", size: Any = "-") -> None:
        pass  # _respond logs one concise line per SDK request instead

    def log_message(self, format: str, *args: Any) -> None:
        self.server.app.log(format % args)


class SandboxServer(ThreadingHTTPServer):
    daemon_threads = True           # a delayed request never blocks shutdown
    request_queue_size = 128        # listen backlog; SDK tests open many connections

    def __init__(self, app: Sandbox, host: str, port: int) -> None:
        self.app = app
        self.address_family = socket.AF_INET6 if ":" in host else socket.AF_INET
        super().__init__((host, port), RequestHandler)
        app.server = self

    def server_bind(self) -> None:
        # HTTPServer.server_bind resolves the host name (getfqdn), which may
        # query DNS; the sandbox never looks beyond loopback.
        socketserver.TCPServer.server_bind(self)
        host, port = self.server_address[:2]
        self.server_name, self.server_port = host, port

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def create_server(config: Config) -> SandboxServer:
    """Bind a sandbox (loopback only). Call serve_forever() to run it."""
    host = LOOPBACK_HOSTS.get(config.host)
    if host is None:
        raise ValueError(f"refusing to bind {config.host!r}: the sandbox binds loopback only "
                         f"({', '.join(LOOPBACK_HOSTS)})")
    return SandboxServer(Sandbox(config), host, config.port)


# -- command line -------------------------------------------------------------

def _normalize_prefix(prefix: str) -> str:
    prefix = prefix.rstrip("/")
    if prefix and not prefix.startswith("/"):
        raise ValueError(f"--prefix must start with / (got {prefix!r})")
    if prefix and is_control_path(prefix):
        raise ValueError(f"--prefix {prefix!r} collides with the sandbox's own paths")
    return prefix


def _parse_args(argv: Optional[Sequence[str]]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="sandbox.py", description="Local Joryio-compatible backend (loopback only).")
    parser.add_argument("--host", default="127.0.0.1", help="127.0.0.1 (default), ::1 or localhost")
    parser.add_argument("--port", type=int, default=0, help="0 (default) lets the OS choose")
    parser.add_argument("--sdk-key", help="accept only this SDK key (default: any jry_sdk_* key)")
    parser.add_argument("--prefix", default="/api", help="path prefix of the SDK endpoints (default /api)")
    parser.add_argument("--jwt-secret", metavar="SECRET",
                        help="enable SDK authentication (HS256 JWTs signed with SECRET)")
    parser.add_argument("--require-delivery-token", action="store_true",
                        help="refuse in-app reports without a delivery token (also IN_APP_REQUIRE_DELIVERY_TOKEN=true)")
    parser.add_argument("--in-app-fixtures", metavar="FILE",
                        help="JSON file of in-app campaigns and contact rules served from the start")
    parser.add_argument("--exit-on-stdin-eof", action="store_true",
                        help="exit when stdin reaches end of file (parent process gone)")
    parser.add_argument("--quiet", action="store_true", help="no per-request log lines on stderr")
    return parser.parse_args(argv)


def _read_fixtures(path: str, require_token: bool) -> inapp.Fixtures:
    """The `--in-app-fixtures` file; ValueError when unreadable or invalid."""
    try:
        with open(path, "rb") as file:
            value = json.loads(file.read())
    except (OSError, ValueError) as exc:
        raise ValueError(f"--in-app-fixtures {path}: {exc}") from None
    fixtures = inapp.parse_fixtures(value)
    return inapp.Fixtures(fixtures.campaigns, fixtures.contact_rules, require_token)


def _exit_when_stdin_closes() -> None:
    try:
        while os.read(sys.stdin.fileno(), 65536):
            pass
    except (OSError, ValueError, AttributeError):
        pass  # no usable stdin counts as closed
    sys.stderr.flush()
    os._exit(0)


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parse_args(argv)
    if args.sdk_key is not None and not args.sdk_key.startswith(SDK_KEY_PREFIX):
        print(f"sandbox: --sdk-key must start with {SDK_KEY_PREFIX}", file=sys.stderr)
        return 2
    if args.sdk_key is not None and len(args.sdk_key) > SDK_KEY_MAX_LENGTH:
        print(f"sandbox: --sdk-key must be at most {SDK_KEY_MAX_LENGTH} characters", file=sys.stderr)
        return 2
    if args.jwt_secret is not None and not args.jwt_secret:
        print("sandbox: --jwt-secret must not be empty", file=sys.stderr)
        return 2
    require_token = args.require_delivery_token or os.environ.get(
        "IN_APP_REQUIRE_DELIVERY_TOKEN", "").strip().lower() == "true"
    try:
        fixtures = inapp.Fixtures(require_delivery_token=require_token)
        if args.in_app_fixtures is not None:
            fixtures = _read_fixtures(args.in_app_fixtures, require_token)
        config = Config(host=args.host, port=args.port, sdk_key=args.sdk_key,
                        prefix=_normalize_prefix(args.prefix), quiet=args.quiet,
                        jwt_secret=args.jwt_secret, in_app=fixtures)
        server = create_server(config)
    except ValueError as exc:
        print(f"sandbox: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"sandbox: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1

    # Signal handlers run on the main thread, inside serve_forever(): ask for
    # a shutdown from another thread rather than raising through the server.
    # A parent may start us with these signals blocked (Foundation.Process on Linux does), which
    # would make SIGTERM a no-op; unblock them before installing the handlers.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: server.app.request_shutdown())
    print(URL_LINE_PREFIX + server.url, flush=True)
    if args.exit_on_stdin_eof:
        threading.Thread(target=_exit_when_stdin_closes, name="stdin-eof", daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.1)
    finally:
        server.server_close()
    return 0
