"""Everything the sandbox remembers, behind one lock.

Handlers run on many threads (ThreadingHTTPServer), so every read and write of
shared data goes through a State method holding `self._lock`. Methods return
copies or JSON-ready snapshots, never live references.

Later endpoints add their own collections here (attributes, profiles, ...);
`reset()` must clear them too.
"""

from __future__ import annotations

import copy
import threading
from typing import Any, Callable, Iterable, Optional

from .faults import FaultRule, parse_rule, path_matches


class State:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._clear()

    def _clear(self) -> None:
        self._requests: list[dict[str, Any]] = []
        self._next_seq = 1
        self._events: list[Any] = []
        self._seen_message_ids: set[str] = set()
        self._faults: list[FaultRule] = []
        self._next_fault_id = 1

    def reset(self) -> None:
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
        rejected / failed indices). Returns (accepted, duplicates).
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
                accepted += 1
        return accepted, duplicates

    def events(self) -> list[Any]:
        with self._lock:
            return copy.deepcopy(self._events)

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
