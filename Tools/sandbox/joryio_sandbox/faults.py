"""Scripted faults: rules that make the next matching SDK requests misbehave.

A rule is created from the JSON body of `POST /_sandbox/faults` and consumed
by the request pipeline (server.py). The State object owns the list and its
lock; this module only knows what a rule is and whether it matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from .wire import WireError

DEFAULT_FAULT_BODY = {"success": False, "error": "injected_fault"}
MAX_DELAY_MS = 60_000
FOREVER = -1


def path_matches(pattern: str, path: str) -> bool:
    """Exact match, or prefix match when `pattern` ends with `*`."""
    if pattern.endswith("*"):
        return path.startswith(pattern[:-1])
    return path == pattern


@dataclass
class FaultRule:
    id: int
    path: str
    method: Optional[str] = None
    count: int = 1                  # requests still to affect; FOREVER = -1
    status: Optional[int] = None
    body: Any = None
    body_text: Optional[str] = None     # sent verbatim (UTF-8) instead of `body`
    content_type: Optional[str] = None  # Content-Type of the status answer (default JSON)
    status_after_processing: bool = False
    retry_after: Optional[str] = None
    delay_ms: int = 0
    drop: bool = False
    rejected_indices: list[int] = field(default_factory=list)
    failed_indices: list[int] = field(default_factory=list)
    drop_after_processing: bool = False
    reject_attribute_keys: list[str] = field(default_factory=list)
    hits: int = 0

    def matches(self, method: str, path: str) -> bool:
        return (
            self.count != 0
            and (self.method is None or self.method == method)
            and path_matches(self.path, path)
        )

    def consume(self) -> None:
        self.hits += 1
        if self.count > 0:
            self.count -= 1

    @property
    def kinds(self) -> list[str]:
        """What the rule does, in the order the pipeline applies it."""
        kinds = []
        if self.delay_ms:
            kinds.append("delay")
        if self.drop:
            kinds.append("drop")
        if self.status is not None:
            kinds.append("statusAfterProcessing" if self.status_after_processing else "status")
        if self.rejected_indices or self.failed_indices:
            kinds.append("indices")
        if self.reject_attribute_keys:
            kinds.append("rejectAttributeKeys")
        if self.drop_after_processing:
            kinds.append("dropAfterProcessing")
        return kinds

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "path": self.path,
            "method": self.method,
            "remaining": self.count,
            "hits": self.hits,
            "status": self.status,
            "body": self.body,
            "bodyText": self.body_text,
            "contentType": self.content_type,
            "statusAfterProcessing": self.status_after_processing,
            "retryAfter": self.retry_after,
            "delayMs": self.delay_ms,
            "drop": self.drop,
            "rejectedIndices": self.rejected_indices,
            "failedIndices": self.failed_indices,
            "dropAfterProcessing": self.drop_after_processing,
            "rejectAttributeKeys": self.reject_attribute_keys,
        }


def _invalid(message: str) -> WireError:
    return WireError(400, "invalid_fault", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _indices(spec: dict[str, Any], key: str) -> list[int]:
    value = spec.get(key) or []
    if not isinstance(value, list) or not all(_is_int(i) and i >= 0 for i in value):
        raise _invalid(f"{key} must be an array of non-negative integers")
    return sorted(set(value))


def _keys(spec: dict[str, Any], key: str) -> list[str]:
    value = spec.get(key) or []
    if not isinstance(value, list) or not all(isinstance(k, str) and k for k in value):
        raise _invalid(f"{key} must be an array of non-empty strings")
    return list(dict.fromkeys(value))


def parse_rule(rule_id: int, spec: Any) -> FaultRule:
    """Build a rule from its JSON description, raising WireError(400
    invalid_fault) with a readable message when the description is wrong."""
    if not isinstance(spec, dict):
        raise _invalid("the body must be a JSON object")
    path = spec.get("path")
    if not isinstance(path, str) or not path.startswith("/"):
        raise _invalid("path must be a string starting with /")

    method = spec.get("method")
    if method is not None and not (isinstance(method, str) and method):
        raise _invalid("method must be a non-empty string")

    count = spec.get("count", 1)
    if not _is_int(count) or not (count >= 1 or count == FOREVER):
        raise _invalid("count must be a positive integer or -1 (forever)")

    status = spec.get("status")
    if status is not None and not (_is_int(status) and 100 <= status <= 599):
        raise _invalid("status must be an integer between 100 and 599")
    if "body" in spec and status is None:
        raise _invalid("body needs a status")
    body_text = spec.get("bodyText")
    if body_text is not None:
        if not isinstance(body_text, str):
            raise _invalid("bodyText must be a string")
        if status is None:
            raise _invalid("bodyText needs a status")
        if "body" in spec:
            raise _invalid("body and bodyText are mutually exclusive")
    content_type = spec.get("contentType")
    if content_type is not None:
        if not isinstance(content_type, str) or not content_type.isprintable():
            raise _invalid("contentType must be a string of printable characters")
        if status is None:
            raise _invalid("contentType needs a status")
    status_after_processing = spec.get("statusAfterProcessing", False)
    if not isinstance(status_after_processing, bool):
        raise _invalid("statusAfterProcessing must be a boolean")
    if status_after_processing and status is None:
        raise _invalid("statusAfterProcessing needs a status")

    retry_after = spec.get("retryAfter")
    if retry_after is not None:
        if isinstance(retry_after, bool) or not isinstance(retry_after, (str, int, float)):
            raise _invalid("retryAfter must be a string or a number")
        if isinstance(retry_after, float) and retry_after.is_integer():
            retry_after = int(retry_after)
        retry_after = str(retry_after)
        if status is None:
            raise _invalid("retryAfter needs a status")

    delay_ms = spec.get("delayMs", 0)
    if isinstance(delay_ms, bool) or not isinstance(delay_ms, (int, float)) \
            or not 0 <= delay_ms <= MAX_DELAY_MS:
        raise _invalid(f"delayMs must be a number between 0 and {MAX_DELAY_MS}")

    drop = spec.get("drop", False)
    if not isinstance(drop, bool):
        raise _invalid("drop must be a boolean")
    if drop and status is not None:
        raise _invalid("drop and status are mutually exclusive")

    drop_after_processing = spec.get("dropAfterProcessing", False)
    if not isinstance(drop_after_processing, bool):
        raise _invalid("dropAfterProcessing must be a boolean")
    if drop_after_processing and (drop or status is not None):
        raise _invalid("dropAfterProcessing needs the request to be processed; "
                       "it cannot be combined with drop or status")

    rule = FaultRule(
        id=rule_id,
        path=path,
        method=method.upper() if method else None,
        count=count,
        status=status,
        body=spec.get("body", DEFAULT_FAULT_BODY) if status is not None and body_text is None else None,
        body_text=body_text,
        content_type=content_type,
        status_after_processing=status_after_processing,
        retry_after=retry_after,
        delay_ms=delay_ms,
        drop=drop,
        rejected_indices=_indices(spec, "rejectedIndices"),
        failed_indices=_indices(spec, "failedIndices"),
        drop_after_processing=drop_after_processing,
        reject_attribute_keys=_keys(spec, "rejectAttributeKeys"),
    )
    if set(rule.rejected_indices) & set(rule.failed_indices):
        raise _invalid("an index cannot be both rejected and failed")
    kinds = rule.kinds
    if not kinds:
        raise _invalid("the rule does nothing: give delayMs, drop, status, indices, "
                       "rejectAttributeKeys or dropAfterProcessing")
    if rule.reject_attribute_keys and ("drop" in kinds or "status" in kinds):
        raise _invalid("rejectAttributeKeys needs the request to be processed; "
                       "it cannot be combined with drop or status (statusAfterProcessing may)")
    if "indices" in kinds and ("drop" in kinds or "status" in kinds):
        raise _invalid("rejectedIndices/failedIndices need the request to be processed; "
                       "they cannot be combined with drop or status (statusAfterProcessing may)")
    return rule
