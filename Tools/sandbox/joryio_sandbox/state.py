"""Everything the sandbox remembers, behind one lock.

Handlers run on many threads (ThreadingHTTPServer), so every read and write of
shared data goes through a State method holding `self._lock`. Methods return
copies or JSON-ready snapshots, never live references.

Later endpoints add their own collections here; `reset()` must clear them
too. The profiles of protocol version 2 (with the memories that deduplicate
attribute operations, durable writes and Idempotency-Keys) live in a
`Profiles` object reached only through `profiles_transaction`. The SDK
authentication settings of version 3 (`AuthSettings`, immutable) are
replaced whole, and `reset()` turns authentication off again.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Callable, Iterable, Optional, TypeVar

from .auth import AuthSettings
from .faults import FaultRule, parse_rule, path_matches
from .inapp import Fixtures, InAppStore
from .profiles import Profiles

T = TypeVar("T")


class State:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._in_app_fixtures = Fixtures()
        self._clear()

    def _clear(self) -> None:
        self._requests: list[dict[str, Any]] = []
        self._next_seq = 1
        self._events: list[Any] = []
        self._seen_message_ids: set[str] = set()
        self._faults: list[FaultRule] = []
        self._next_fault_id = 1
        self._profiles = Profiles()
        self._auth = AuthSettings()
        self._push_reports: dict[str, list[dict[str, Any]]] = {"receipt": [], "click": []}
        self._seen_report_ids: dict[str, set[str]] = {"receipt": set(), "click": set()}
        self._in_app = InAppStore(self._in_app_fixtures)
        # Geozones (issue 19): zones per SDK key; the None key is every other app's default.
        self._geozones: dict[Optional[str], list[dict[str, Any]]] = {}

    def reset(self) -> None:
        """Forget everything; SDK authentication is off again."""
        with self._lock:
            self._clear()

    # -- request log -------------------------------------------------------

    def record_request(self, fields: dict[str, Any]) -> dict[str, Any]:
        """Append a request to the log under the next `seq` and return the
        entry; the caller completes it later with `update_request`."""
        with self._lock:
            entry = {"seq": self._next_seq, **fields}
            self._next_seq += 1
            self._requests.append(entry)
            return entry

    def update_request(self, entry: dict[str, Any], **fields: Any) -> None:
        with self._lock:
            entry.update(fields)

    def requests(self, path: Optional[str] = None) -> list[dict[str, Any]]:
        with self._lock:
            chosen = [r for r in self._requests if path is None or path_matches(path, r["path"])]
            return copy.deepcopy(chosen)

    # -- events ------------------------------------------------------------

    def store_events(
        self, events: Iterable[tuple[int, Any]], skip: Callable[[int], bool]
    ) -> tuple[int, int]:
        """Store `(index, event)` pairs not yet seen by messageId, atomically.

        `skip(index)` marks events to neither store nor remember (scripted
        rejected / failed indices). A stored event creates the profile its
        identity resolves to, if missing (it never links). Returns
        (accepted, duplicates).
        """
        accepted = duplicates = 0
        with self._lock:
            for index, event in events:
                if skip(index):
                    continue
                message_id = event["messageId"]
                if message_id in self._seen_message_ids:
                    duplicates += 1
                    continue
                self._seen_message_ids.add(message_id)
                self._events.append(event)
                self._profiles.resolve(event.get("userId"), event.get("anonymousId"))
                accepted += 1
        return accepted, duplicates

    def events(self) -> list[Any]:
        with self._lock:
            return copy.deepcopy(self._events)

    # -- profiles ----------------------------------------------------------

    def profiles_transaction(self, body: Callable[[Profiles], T]) -> T:
        """Run `body` with the profiles while holding the lock, so a request's
        checks and changes happen atomically. `body` must return values that
        do not reference the profiles' internals (JSON snapshots)."""
        with self._lock:
            return body(self._profiles)

    def profiles(self) -> list[dict[str, Any]]:
        return self.profiles_transaction(Profiles.snapshot)

    def profile(self, user_id: Optional[str], anonymous_id: Optional[str]) -> Optional[dict[str, Any]]:
        def find(profiles: Profiles) -> Optional[dict[str, Any]]:
            profile = profiles.find(user_id, anonymous_id)
            return profile.to_json() if profile is not None else None
        return self.profiles_transaction(find)

    def push_unregistered(self) -> list[str]:
        return self.profiles_transaction(Profiles.push_unregistered)

    # -- push receipts and clicks (version 4) ------------------------------

    def store_push_report(self, kind: str, report: dict[str, Any]) -> bool:
        """Record a receipt or click (`kind`) unless its messageId was seen for
        that kind. Returns whether it was stored (False: a duplicate)."""
        with self._lock:
            if report["messageId"] in self._seen_report_ids[kind]:
                return False
            self._seen_report_ids[kind].add(report["messageId"])
            self._push_reports[kind].append(copy.deepcopy(report))
            return True

    def push_reports(self, tracking_id: Optional[str] = None) -> dict[str, list[dict[str, Any]]]:
        """Receipts and clicks in arrival order, optionally of one trackingId."""
        with self._lock:
            return {
                f"{kind}s": [copy.deepcopy(r) for r in reports
                             if tracking_id is None or r["trackingId"] == tracking_id]
                for kind, reports in self._push_reports.items()
            }

    # -- in-app messages (version 5) -----------------------------------------

    def configure_in_app(self, fixtures: Fixtures) -> None:
        """What every reset restores (fixture campaigns and rules, the
        required-token mode of the command line); applied now."""
        with self._lock:
            self._in_app_fixtures = fixtures
            self._in_app = InAppStore(fixtures)

    def in_app_transaction(self, body: Callable[[InAppStore], T]) -> T:
        """Run `body` with the in-app store while holding the lock. `body`
        must return values that do not reference the store's internals."""
        with self._lock:
            return body(self._in_app)

    # -- SDK authentication -------------------------------------------------

    def auth(self) -> AuthSettings:
        """The current auth settings (an immutable snapshot)."""
        with self._lock:
            return self._auth

    def update_auth(self, spec: Any) -> AuthSettings:
        """Apply a `POST /_sandbox/auth` body (raises WireError when invalid)."""
        with self._lock:
            self._auth = self._auth.updated(spec)
            return self._auth

    # -- faults ------------------------------------------------------------

    def add_fault(self, spec: Any) -> FaultRule:
        """Validate and append a rule (raises WireError when invalid)."""
        with self._lock:
            rule = parse_rule(self._next_fault_id, spec)
            self._next_fault_id += 1
            self._faults.append(rule)
            return rule

    def clear_faults(self) -> None:
        with self._lock:
            self._faults.clear()

    def faults(self) -> list[dict[str, Any]]:
        with self._lock:
            return [rule.to_json() for rule in self._faults]

    def take_fault(self, method: str, path: str) -> Optional[FaultRule]:
        """Consume one use of the first rule matching the request, returning
        a snapshot of it (so later changes do not leak into this request)."""
        with self._lock:
            for rule in self._faults:
                if rule.matches(method, path):
                    rule.consume()
                    return copy.copy(rule)
            return None

    # -- geozones (issue 19) ------------------------------------------------

    def set_geozones(self, sdk_key: Optional[str], zones: list[dict[str, Any]]) -> None:
        """The zones of `sdk_key` (None: the default of every app without its own)."""
        with self._lock:
            self._geozones[sdk_key] = copy.deepcopy(zones)

    def geozones_for(self, sdk_key: Optional[str]) -> Optional[list[dict[str, Any]]]:
        """The zones served to `sdk_key`: its own, else the default, else None (fixtures)."""
        with self._lock:
            zones = self._geozones.get(sdk_key) if sdk_key is not None else None
            if zones is None:
                zones = self._geozones.get(None)
            return copy.deepcopy(zones)

    def geozones(self) -> dict[str, Any]:
        with self._lock:
            return copy.deepcopy({
                "default": self._geozones.get(None),
                "apps": {k: v for k, v in self._geozones.items() if k is not None},
            })

    def clear_geozones(self) -> None:
        with self._lock:
            self._geozones = {}
