"""Shared test helpers: an in-process sandbox per test class, a small HTTP
client, event builders, and a launcher for the command-line sandbox."""

from __future__ import annotations

import gzip as gzip_module
import http.client
import json
import subprocess
import sys
import threading
import unittest
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional
from urllib.parse import urlencode

from joryio_sandbox.server import Config, create_server

SANDBOX_DIR = Path(__file__).resolve().parents[1]
SCRIPT = SANDBOX_DIR / "sandbox.py"
HOST = "127.0.0.1"
KEY = "jry_sdk_ios_test"
EVENTS = "/api/v1/events"
ATTRIBUTES = "/api/v1/attributes"
IDENTIFY = "/api/v1/identify"
ALIAS = "/api/v1/alias"
SUBSCRIPTIONS = "/api/v1/subscriptions"
OPT_OUT = "/api/v1/opt-out"
PUSH_UNREGISTER = "/api/v1/push/unregister"
PUSH_REGISTER = "/api/v1/push/register"
PUSH_RECEIPT = "/api/v1/push/receipt"
PUSH_CLICK = "/api/v1/push/click"
TIMESTAMP = "2026-11-30T19:21:58.001Z"
SENT_AT = "2026-11-30T19:21:59.123Z"


def make_event(message_id: str = "m0", **fields: Any) -> dict[str, Any]:
    """A valid track event; keyword arguments override or add fields, and a
    value of `...` removes the field."""
    event = {
        "messageId": message_id,
        "type": "track",
        "event": "Button Tapped",
        "properties": {"k": 1},
        "timestamp": TIMESTAMP,
        "anonymousId": "anon-1",
        "sessionId": "s-1",
        "deviceId": "d-1",
    }
    event.update(fields)
    return {k: v for k, v in event.items() if v is not ...}


def make_events(count: int, start: int = 0) -> list[dict[str, Any]]:
    return [make_event(f"m{i}") for i in range(start, start + count)]


def make_batch(events: list[Any]) -> dict[str, Any]:
    return {"sentAt": SENT_AT, "batch": events}


def _without_ellipsis(value: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in value.items() if v is not ...}


def make_op(op_id: str = "w0", op: str = "set", key: str = "plan", **fields: Any) -> dict[str, Any]:
    """A valid attribute operation (`set plan = "pro"` unless told otherwise);
    `...` removes a field."""
    operation: dict[str, Any] = {"id": op_id, "op": op, "key": key}
    if op == "set":
        operation["value"] = "pro"
    elif op == "increment":
        operation["by"] = 1
    operation["timestamp"] = TIMESTAMP
    operation.update(fields)
    return _without_ellipsis(operation)


def make_attributes(operations: list[Any], **fields: Any) -> dict[str, Any]:
    """An attributes request body for anonymous id `anon-1`."""
    return _without_ellipsis({"sentAt": SENT_AT, "anonymousId": "anon-1", "operations": operations}
                             | fields)


def make_write(write_id: str = "x0", **fields: Any) -> dict[str, Any]:
    """The fields every durable write shares, for anonymous id `anon-1`."""
    return _without_ellipsis({"writeId": write_id, "timestamp": TIMESTAMP, "sentAt": SENT_AT,
                              "anonymousId": "anon-1"} | fields)


def make_report(message_id: str = "r0", **fields: Any) -> dict[str, Any]:
    """A push receipt or click (protocol version 4) for anonymous id `anon-1`."""
    return _without_ellipsis({"messageId": message_id, "trackingId": "trk-1", "timestamp": TIMESTAMP,
                              "sentAt": SENT_AT, "anonymousId": "anon-1"} | fields)


def compact(value: Any) -> bytes:
    """The protocol's canonical encoding, written out independently of the
    code under test."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage
    raw: bytes

    @property
    def json(self) -> Any:
        return json.loads(self.raw)


class Client:
    def __init__(self, port: int) -> None:
        self.port = port

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection(HOST, self.port, timeout=10)

    def request(self, method: str, path: str, body: Optional[bytes] = None,
                headers: Optional[dict[str, str]] = None,
                conn: Optional[http.client.HTTPConnection] = None) -> Reply:
        own = conn is None
        conn = conn or self.connect()
        try:
            conn.request(method, path, body=body, headers=headers or {})
            response = conn.getresponse()
            return Reply(response.status, response.headers, response.read())
        finally:
            if own:
                conn.close()

    def post_json(self, path: str, value: Any, *, key: Optional[str] = KEY, gzip: bool = False,
                  headers: Optional[dict[str, str]] = None,
                  conn: Optional[http.client.HTTPConnection] = None) -> Reply:
        body = value if isinstance(value, bytes) else compact(value)
        sent = {"Content-Type": "application/json"}
        if key is not None:
            sent["X-Joryio-Sdk-Key"] = key
        if gzip:
            body = gzip_module.compress(body)
            sent["Content-Encoding"] = "gzip"
        sent.update(headers or {})
        return self.request("POST", path, body, sent, conn)

    def post_events(self, events: list[Any], **kwargs: Any) -> Reply:
        return self.post_json(EVENTS, make_batch(events), **kwargs)

    def post_attributes(self, operations: list[Any], idempotency_key: Optional[str] = "k0",
                        **fields: Any) -> Reply:
        headers = {} if idempotency_key is None else {"Idempotency-Key": idempotency_key}
        return self.post_json(ATTRIBUTES, make_attributes(operations, **fields), headers=headers)

    def profiles(self) -> list[dict[str, Any]]:
        return self.control("GET", "profiles")["profiles"]

    def profile(self, **identity: str) -> Optional[dict[str, Any]]:
        """The profile `userId=` or `anonymousId=` resolves to, or None (404)."""
        reply = self.request("GET", "/_sandbox/profile?" + urlencode(identity))
        if reply.status == 404:
            return None
        assert reply.status == 200, (reply.status, reply.raw)
        return reply.json

    def control(self, method: str, path: str, value: Any = None) -> Any:
        body = None if value is None else compact(value)
        reply = self.request(method, "/_sandbox/" + path, body,
                             {"Content-Type": "application/json"} if body else {})
        assert reply.status == 200, (reply.status, reply.raw)
        return reply.json

    def requests(self, path: Optional[str] = None) -> list[dict[str, Any]]:
        return self.control("GET", "requests" + (f"?path={path}" if path else ""))["requests"]

    def events(self) -> list[Any]:
        return self.control("GET", "events")["events"]

    def fault(self, **rule: Any) -> int:
        return self.control("POST", "faults", rule)["id"]


class SandboxTestCase(unittest.TestCase):
    """Runs one in-process sandbox per test class; state is reset before
    every test."""

    config = Config(quiet=True)

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = create_server(cls.config)
        cls.thread = threading.Thread(target=cls.server.serve_forever, kwargs={"poll_interval": 0.02},
                                      daemon=True)
        cls.thread.start()
        cls.client = Client(cls.server.server_address[1])

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.shutdown()
        cls.server.server_close()
        cls.thread.join(timeout=5)

    def setUp(self) -> None:
        self.server.app.state.reset()


class SandboxProcess:
    """The command-line sandbox in a subprocess (context manager). Reads the
    startup line; a watchdog kills the process if a test hangs."""

    def __init__(self, *args: str, quiet: bool = True) -> None:
        command = [sys.executable, str(SCRIPT), *(["--quiet"] if quiet else []), *args]
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.watchdog = threading.Timer(20, self.proc.kill)
        self.watchdog.start()
        self.startup_line = self.proc.stdout.readline()

    @property
    def port(self) -> int:
        return int(self.startup_line.rsplit(":", 1)[1])

    def close_stdin(self) -> None:
        self.proc.stdin.close()
        self.proc.stdin = None   # so communicate() does not flush a closed pipe

    def wait(self) -> tuple[int, str, str]:
        """Wait for exit; returns (exit code, remaining stdout, stderr)."""
        out, err = self.proc.communicate(timeout=10)
        return self.proc.returncode, out, err

    def __enter__(self) -> "SandboxProcess":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.watchdog.cancel()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.communicate()
