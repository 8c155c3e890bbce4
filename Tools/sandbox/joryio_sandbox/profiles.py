"""The profile model of protocol version 2 (docs/protocol.md, "Profiles").

A `Profiles` object holds every profile plus the memories that make writes
safe to retry: applied operation ids, applied write ids and the answers given
per Idempotency-Key. It is not thread-safe by itself: `State` owns one and
only touches it while holding its lock (`State.profiles_transaction`).

Rules, in short:
  * resolution: a non-empty `userId` names the user's profile; otherwise the
    `anonymousId` names its own profile, or, once `identify` linked it, the
    user's profile;
  * attribute values are computed by replaying the applied operations sorted
    by (timestamp, arrival order);
  * subscriptions and groups keep, per channel and per (channel, group), the
    change with the newest timestamp;
  * identify merges an anonymous profile into the user's profile and links
    the anonymous id to it.
"""

from __future__ import annotations

import copy
import datetime as _dt
import itertools
from dataclasses import dataclass, field
from typing import Any, Optional

from .wire import WireError, parse_timestamp


@dataclass
class Operation:
    """One applied attribute operation."""
    id: str
    op: str                         # set / increment / unset
    key: str
    timestamp: str                  # as sent
    moment: _dt.datetime            # parsed, for ordering
    arrival: int                    # server-wide arrival order
    value: Any = None               # set
    by: Any = None                  # increment

    @property
    def order(self) -> tuple[_dt.datetime, int]:
        return (self.moment, self.arrival)

    def to_json(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"id": self.id, "op": self.op, "key": self.key}
        if self.op == "set":
            entry["value"] = copy.deepcopy(self.value)
        elif self.op == "increment":
            entry["by"] = self.by
        entry["timestamp"] = self.timestamp
        return entry


@dataclass
class Change:
    """The newest subscription or group change for one channel or group."""
    value: str                      # a status, or join / leave
    timestamp: str
    moment: _dt.datetime


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def compute_attributes(operations: list[Operation]) -> dict[str, Any]:
    """Replay `operations` sorted by (timestamp, arrival order)."""
    attributes: dict[str, Any] = {}
    for operation in sorted(operations, key=lambda o: o.order):
        if operation.op == "set":
            attributes[operation.key] = copy.deepcopy(operation.value)
        elif operation.op == "unset":
            attributes.pop(operation.key, None)
        else:
            current = attributes.get(operation.key)
            attributes[operation.key] = (current if _is_number(current) else 0) + operation.by
    return attributes


def _newer(change: Change, stored: Optional[Change]) -> bool:
    """Whether `change` may replace `stored`: it is not older."""
    return stored is None or change.moment >= stored.moment


@dataclass
class Profile:
    id: int
    user_id: Optional[str]
    anonymous_ids: list[str] = field(default_factory=list)
    operations: list[Operation] = field(default_factory=list)   # in arrival order
    aliases: dict[str, str] = field(default_factory=dict)
    subscriptions: dict[str, Change] = field(default_factory=dict)              # channel
    groups: dict[tuple[str, str], Change] = field(default_factory=dict)         # (channel, groupId)
    push_tokens: dict[str, dict[str, Any]] = field(default_factory=dict)        # token -> registration

    def to_json(self) -> dict[str, Any]:
        groups: dict[str, list[str]] = {}
        for (channel, group), change in self.groups.items():
            if change.value == "join":
                groups.setdefault(channel, []).append(group)
        return {
            "id": self.id,
            "userId": self.user_id,
            "anonymousIds": list(self.anonymous_ids),
            "attributes": compute_attributes(self.operations),
            "aliases": dict(self.aliases),
            "subscriptions": {channel: change.value for channel, change in self.subscriptions.items()},
            "groups": {channel: sorted(ids) for channel, ids in sorted(groups.items())},
            "operations": [operation.to_json() for operation in self.operations],
            "pushTokens": [dict(registration) for registration in self.push_tokens.values()],
        }

    def absorb(self, other: "Profile") -> None:
        """Merge `other` (an anonymous profile) into this one: operations
        (union by id), aliases (ours kept on a label clash), subscriptions and
        groups (the later change wins; ours on a tie), anonymous ids."""
        known = {operation.id for operation in self.operations}
        self.operations.extend(o for o in other.operations if o.id not in known)
        self.operations.sort(key=lambda o: o.arrival)
        for label, name in other.aliases.items():
            self.aliases.setdefault(label, name)
        for channel, change in other.subscriptions.items():
            stored = self.subscriptions.get(channel)
            if stored is None or change.moment > stored.moment:
                self.subscriptions[channel] = change
        for group, change in other.groups.items():
            stored = self.groups.get(group)
            if stored is None or change.moment > stored.moment:
                self.groups[group] = change
        self.anonymous_ids.extend(a for a in other.anonymous_ids if a not in self.anonymous_ids)
        for token, registration in other.push_tokens.items():
            self.push_tokens.setdefault(token, registration)


def _moment(timestamp: str) -> _dt.datetime:
    moment = parse_timestamp(timestamp)
    assert moment is not None, "timestamps are validated before they get here"
    return moment


class Profiles:
    def __init__(self) -> None:
        self._profiles: list[Profile] = []              # creation order
        self._by_user: dict[str, Profile] = {}
        self._by_anonymous_id: dict[str, Profile] = {}  # anonymous and linked ids
        self._next_id = 1
        self._arrival = itertools.count(1)
        self._applied_operation_ids: set[str] = set()
        self._applied_write_ids: set[str] = set()
        self._answers: dict[str, tuple[int, Any]] = {}  # Idempotency-Key -> (status, body)
        self._push_unregistered: list[str] = []
        self._push_changes: dict[str, Change] = {}      # token (lowercase) -> newest register / unregister

    # -- resolution --------------------------------------------------------

    def find(self, user_id: Any, anonymous_id: Any) -> Optional[Profile]:
        """The profile a request's identity resolves to, if it exists."""
        if isinstance(user_id, str) and user_id:
            return self._by_user.get(user_id)
        if isinstance(anonymous_id, str) and anonymous_id:
            return self._by_anonymous_id.get(anonymous_id)
        return None

    def resolve(self, user_id: Any, anonymous_id: Any) -> Profile:
        """The profile the identity resolves to, created when missing. The
        identity has been validated: at least one id is a non-empty string."""
        profile = self.find(user_id, anonymous_id)
        if profile is not None:
            return profile
        if isinstance(user_id, str) and user_id:
            profile = Profile(self._next_id, user_id)
            self._by_user[user_id] = profile
        else:
            profile = Profile(self._next_id, None, [anonymous_id])
            self._by_anonymous_id[anonymous_id] = profile
        self._next_id += 1
        self._profiles.append(profile)
        return profile

    # -- idempotency memories ----------------------------------------------

    def remembered_answer(self, key: str) -> Optional[tuple[int, Any]]:
        answer = self._answers.get(key)
        return (answer[0], copy.deepcopy(answer[1])) if answer is not None else None

    def remember_answer(self, key: str, status: int, body: Any) -> None:
        self._answers[key] = (status, copy.deepcopy(body))

    def write_applied(self, write_id: str) -> bool:
        return write_id in self._applied_write_ids

    def mark_write_applied(self, write_id: str) -> None:
        self._applied_write_ids.add(write_id)

    # -- writes ------------------------------------------------------------

    def apply_operations(self, profile: Profile, operations: list[dict[str, Any]]) -> tuple[int, int]:
        """Append validated operations not applied before (by id, server-wide).
        Returns (applied, duplicates)."""
        applied = duplicates = 0
        for spec in operations:
            if spec["id"] in self._applied_operation_ids:
                duplicates += 1
                continue
            self._applied_operation_ids.add(spec["id"])
            self._append_operation(profile, spec["id"], spec["op"], spec["key"], spec["timestamp"],
                                   value=spec.get("value"), by=spec.get("by"))
            applied += 1
        return applied, duplicates

    def _append_operation(self, profile: Profile, op_id: str, op: str, key: str, timestamp: str,
                          value: Any = None, by: Any = None) -> None:
        profile.operations.append(Operation(
            id=op_id, op=op, key=key, timestamp=timestamp, moment=_moment(timestamp),
            arrival=next(self._arrival),
            value=copy.deepcopy(value) if op == "set" else None,
            by=by if op == "increment" else None,
        ))

    def opt_out(self, profile: Profile, write_id: str, timestamp: str, opted_out: bool) -> None:
        """`set tracking_opted_out = opted_out`, with the write's id and time."""
        self._append_operation(profile, write_id, "set", "tracking_opted_out", timestamp,
                               value=opted_out)

    def identify(self, user_id: str, anonymous_id: Any) -> None:
        """Create the user's profile if needed; merge an anonymous profile not
        linked to anyone into it and link its id. An anonymous id linked to
        another user stays where it is; one never seen is linked."""
        user = self.resolve(user_id, None)
        if not (isinstance(anonymous_id, str) and anonymous_id):
            return
        current = self._by_anonymous_id.get(anonymous_id)
        if current is user or (current is not None and current.user_id is not None):
            return
        if current is None:
            user.anonymous_ids.append(anonymous_id)
            self._by_anonymous_id[anonymous_id] = user
            return
        user.absorb(current)
        for linked in current.anonymous_ids:
            self._by_anonymous_id[linked] = user
        self._profiles.remove(current)

    def set_alias(self, user_id: Any, anonymous_id: Any, label: str, name: str) -> None:
        """aliases[label] = name on the resolved profile (created if missing);
        409 alias_conflict, changing nothing, when another profile has it."""
        target = self.find(user_id, anonymous_id)
        for profile in self._profiles:
            if profile is not target and profile.aliases.get(label) == name:
                raise WireError(409, "alias_conflict",
                                f"{label}={name!r} belongs to another profile")
        self.resolve(user_id, anonymous_id).aliases[label] = name

    def set_subscription(self, profile: Profile, channel: str, status: str, timestamp: str) -> bool:
        """Record a channel status unless a newer one is stored. Returns
        whether it was applied."""
        change = Change(status, timestamp, _moment(timestamp))
        if not _newer(change, profile.subscriptions.get(channel)):
            return False
        profile.subscriptions[channel] = change
        return True

    def change_group(self, profile: Profile, channel: str, group_id: str, action: str,
                     timestamp: str) -> bool:
        """Record a join / leave unless a newer change of that group is
        stored. Returns whether it was applied."""
        change = Change(action, timestamp, _moment(timestamp))
        if not _newer(change, profile.groups.get((channel, group_id))):
            return False
        profile.groups[(channel, group_id)] = change
        return True

    def _push_change_is_newest(self, token: str, action: str, timestamp: str) -> bool:
        """Record a register / unregister of `token` unless a newer change of
        that token is stored. Returns whether it applies."""
        change = Change(action, timestamp, _moment(timestamp))
        if not _newer(change, self._push_changes.get(token)):
            return False
        self._push_changes[token] = change
        return True

    def register_push(self, user_id: Any, anonymous_id: Any, registration: dict[str, Any]) -> bool:
        """Make the token one of the resolved profile's current tokens (the
        profile is created when missing), moving it from any other profile.
        Returns whether it applied (an older change than the stored one does
        not)."""
        token = registration["token"]
        if not self._push_change_is_newest(token, "register", registration["registeredAt"]):
            return False
        for profile in self._profiles:
            profile.push_tokens.pop(token, None)
        self._push_unregistered = [t for t in self._push_unregistered if t.lower() != token]
        self.resolve(user_id, anonymous_id).push_tokens[token] = registration
        return True

    def unregister_push(self, token: str, timestamp: Optional[str] = None) -> bool:
        """Remove the token from every profile and record it as unregistered,
        unless a newer registration of it is stored. Returns whether it
        applied."""
        if timestamp is not None and not self._push_change_is_newest(token.lower(), "unregister", timestamp):
            return False
        for profile in self._profiles:
            profile.push_tokens.pop(token.lower(), None)
        if token not in self._push_unregistered:
            self._push_unregistered.append(token)
        return True

    # -- snapshots ---------------------------------------------------------

    def snapshot(self) -> list[dict[str, Any]]:
        return [profile.to_json() for profile in self._profiles]

    def push_unregistered(self) -> list[str]:
        return list(self._push_unregistered)
