"""In-app messages, protocol version 5 (docs/protocol.md, "In-app messages"):
POST {prefix}/v1/in-app/sync, /v1/in-app/track and /v1/in-app/forms, and the
campaign store behind them.

Campaigns come from fixtures (`--in-app-fixtures`) and the control API; each
may be limited to a person or an app key. A sync answers the campaigns the
requester may see, each with a fresh delivery token: HMAC-SHA256 over the
campaign id, the person's ids, a per-campaign generation and the expiry,
keyed with a secret made per store (a reset makes every earlier token
forged). Reports and form submissions are verified before anything is
recorded: a token that is present but forged, tampered, expired (by time, or
by `POST /_sandbox/in-app/expire`), for another campaign or another person is
always refused (422 invalid_delivery_token); a missing token is refused only
in required-token mode (400 "A delivery token is required", INAPP-4).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import math
import os
import time
from dataclasses import dataclass, field
from typing import Any, Optional

from .auth import TokenError, b64url_decode, b64url_encode
from .routing import Request, Response, Router
from .validation import (MAX_MESSAGE_ID_CHARS, RequestProblem, _is_optional_string, _is_string_within,
                         _require_object_with_sent_at, check_identity)
from .wire import WireError, canonical_bytes, format_timestamp, is_timestamp

import datetime as _dt

TOKEN_VERSION = "v1"
DEFAULT_TOKEN_TTL = 600.0            # seconds
TOKEN_REQUIRED = "A delivery token is required"
ACTIONS = ("displayed", "clicked", "dismissed", "converted")
MAX_CAMPAIGN_ID_CHARS = 128
MAX_ELEMENT_ID_CHARS = 256
MAX_TOKEN_CHARS = 4096
MAX_FORM_FIELDS = 100
MAX_FORM_NAME_CHARS = 255
MAX_FORM_STRING_CHARS = 10_000
MAX_APP_VERSION_CHARS = 64
TARGET_FIELDS = ("userId", "anonymousId", "sdkKey")
REPORT_FIELDS = ("messageId", "campaignId", "action", "elementId", "deliveryToken", "timestamp", "sentAt",
                 "userId", "anonymousId", "deviceId")
FORM_FIELDS = ("messageId", "campaignId", "values", "deliveryToken", "timestamp", "sentAt",
               "userId", "anonymousId", "deviceId")


def _invalid(message: str) -> WireError:
    return WireError(400, "invalid_in_app", message)


def _is_number(value: Any) -> bool:
    """A JSON number a device reads as a finite double: not a bool, not inf or nan, not an integer
    too large for a double (two huge attribute increments can sum to inf)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


# -- control input ----------------------------------------------------------------

def parse_campaign_entry(spec: Any) -> dict[str, Any]:
    """A `POST /_sandbox/in-app/campaigns` body or fixture entry:
    `{"campaign": {...}, "target": {...} | null, "issueToken": true}`. The
    campaign is kept as given (tests serve malformed ones on purpose); only
    its `id` is checked. Raises WireError(400 invalid_in_app)."""
    if not isinstance(spec, dict):
        raise _invalid("the body must be a JSON object")
    unknown = sorted(set(spec) - {"campaign", "target", "issueToken"})
    if unknown:
        raise _invalid(f"unknown fields: {', '.join(unknown)}")
    campaign = spec.get("campaign")
    if not isinstance(campaign, dict) or not _is_string_within(campaign.get("id"), MAX_CAMPAIGN_ID_CHARS):
        raise _invalid(f"campaign must be an object with an id of 1 to {MAX_CAMPAIGN_ID_CHARS} characters")
    target = spec.get("target")
    if target is not None:
        if not isinstance(target, dict) or set(target) - set(TARGET_FIELDS) or not all(
                _is_string_within(v, 1024) for v in target.values()):
            raise _invalid(f"target must be null or an object of non-empty strings among {', '.join(TARGET_FIELDS)}")
    issue_token = spec.get("issueToken", True)
    if not isinstance(issue_token, bool):
        raise _invalid("issueToken must be a boolean")
    return {"campaign": copy.deepcopy(campaign), "target": copy.deepcopy(target) or None, "issueToken": issue_token}


def parse_fixtures(value: Any) -> "Fixtures":
    """The `--in-app-fixtures` file: `{"campaigns": [entry, ...], "contactRules": {...} | null}`."""
    if not isinstance(value, dict) or set(value) - {"campaigns", "contactRules"}:
        raise ValueError('in-app fixtures must be an object with "campaigns" and "contactRules"')
    entries = value.get("campaigns", [])
    if not isinstance(entries, list):
        raise ValueError("in-app fixtures: campaigns must be an array")
    try:
        parsed = [parse_campaign_entry(entry) for entry in entries]
    except WireError as exc:
        raise ValueError(f"in-app fixtures: {exc.message}") from None
    rules = value.get("contactRules")
    if rules is not None and not isinstance(rules, dict):
        raise ValueError("in-app fixtures: contactRules must be an object or null")
    return Fixtures(tuple(parsed), rules)


@dataclass(frozen=True)
class Fixtures:
    """What every reset restores: the campaigns and contact rules of the
    fixtures file, and the required-token mode of the command line."""

    campaigns: tuple[dict[str, Any], ...] = ()
    contact_rules: Optional[dict[str, Any]] = None
    require_delivery_token: bool = False


# -- the store --------------------------------------------------------------------

class TokenRefused(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass
class InAppStore:
    """Campaigns, settings, tokens and what was reported. Not thread-safe:
    State reaches it under its lock (`in_app_transaction`)."""

    fixtures: Fixtures = field(default_factory=Fixtures)

    def __post_init__(self) -> None:
        self.secret = os.urandom(32)
        self.campaigns: dict[str, dict[str, Any]] = {
            entry["campaign"]["id"]: copy.deepcopy(entry) for entry in self.fixtures.campaigns}
        self.contact_rules = copy.deepcopy(self.fixtures.contact_rules)
        self.require_delivery_token = self.fixtures.require_delivery_token
        self.token_ttl = DEFAULT_TOKEN_TTL
        self.now: Optional[float] = None
        self.generations: dict[str, int] = {}
        self.reports: list[dict[str, Any]] = []
        self.forms: list[dict[str, Any]] = []
        self.seen_reports: set[str] = set()
        self.seen_forms: set[str] = set()

    def clock(self) -> float:
        return self.now if self.now is not None else time.time()

    # settings

    def settings(self) -> dict[str, Any]:
        return {"requireDeliveryToken": self.require_delivery_token, "tokenTtl": self.token_ttl, "now": self.now}

    def update_settings(self, spec: Any) -> dict[str, Any]:
        if not isinstance(spec, dict):
            raise _invalid("the body must be a JSON object")
        unknown = sorted(set(spec) - {"requireDeliveryToken", "tokenTtl", "now"})
        if unknown:
            raise _invalid(f"unknown fields: {', '.join(unknown)}")
        if "requireDeliveryToken" in spec and not isinstance(spec["requireDeliveryToken"], bool):
            raise _invalid("requireDeliveryToken must be a boolean")
        if "tokenTtl" in spec and not (_is_number(spec["tokenTtl"]) and spec["tokenTtl"] > 0):
            raise _invalid("tokenTtl must be a number of seconds above 0")
        if "now" in spec and spec["now"] is not None and not _is_number(spec["now"]):
            raise _invalid("now must be a number (seconds since 1970) or null")
        self.require_delivery_token = spec.get("requireDeliveryToken", self.require_delivery_token)
        self.token_ttl = float(spec.get("tokenTtl", self.token_ttl))
        self.now = spec.get("now", self.now)
        return self.settings()

    # campaigns

    def put_campaign(self, spec: Any) -> str:
        entry = parse_campaign_entry(spec)
        campaign_id = entry["campaign"]["id"]
        self.campaigns[campaign_id] = entry
        return campaign_id

    def remove_campaigns(self, campaign_id: Optional[str]) -> int:
        if campaign_id is None:
            count = len(self.campaigns)
            self.campaigns.clear()
            return count
        return 1 if self.campaigns.pop(campaign_id, None) is not None else 0

    def set_contact_rules(self, spec: Any) -> None:
        if not isinstance(spec, dict) or set(spec) != {"contactRules"}:
            raise _invalid('the body must be {"contactRules": object or null}')
        rules = spec["contactRules"]
        if rules is not None and not isinstance(rules, dict):
            raise _invalid("contactRules must be an object or null")
        self.contact_rules = copy.deepcopy(rules)

    def expire(self, spec: Any) -> None:
        if not isinstance(spec, dict) or set(spec) != {"campaignId"} or not _is_string_within(
                spec["campaignId"], MAX_CAMPAIGN_ID_CHARS):
            raise _invalid('the body must be {"campaignId": string}')
        campaign_id = spec["campaignId"]
        self.generations[campaign_id] = self.generations.get(campaign_id, 0) + 1

    def snapshot(self) -> dict[str, Any]:
        return {"campaigns": copy.deepcopy(list(self.campaigns.values())),
                "contactRules": copy.deepcopy(self.contact_rules), "settings": self.settings()}

    # tokens

    def _signature(self, signing_input: str) -> str:
        return b64url_encode(hmac.new(self.secret, signing_input.encode("ascii"), hashlib.sha256).digest())

    def issue_token(self, campaign_id: str, user_id: Optional[str], anonymous_id: Optional[str]) -> tuple[str, float]:
        now = self.clock()
        expires = now + self.token_ttl
        claims = {"c": campaign_id, "u": user_id, "a": anonymous_id,
                  "g": self.generations.get(campaign_id, 0), "iat": now, "exp": expires}
        signing_input = TOKEN_VERSION + "." + b64url_encode(canonical_bytes(claims))
        return signing_input + "." + self._signature(signing_input), expires

    def verify_token(self, token: str, body: dict[str, Any]) -> None:
        """Raises TokenRefused with `malformed`, `bad_signature`, `expired`,
        `wrong_campaign` or `wrong_person`."""
        parts = token.split(".")
        if len(parts) != 3 or parts[0] != TOKEN_VERSION:
            raise TokenRefused("malformed")
        signing_input = parts[0] + "." + parts[1]
        if not hmac.compare_digest(self._signature(signing_input), parts[2]):
            raise TokenRefused("bad_signature")
        try:
            claims = json.loads(b64url_decode(parts[1]))
        except (TokenError, ValueError):
            raise TokenRefused("malformed") from None
        if not isinstance(claims, dict) or not _is_number(claims.get("exp")) or not isinstance(claims.get("g"), int):
            raise TokenRefused("malformed")
        if claims["exp"] <= self.clock() or claims["g"] < self.generations.get(claims.get("c"), 0):
            raise TokenRefused("expired")
        if claims.get("c") != body["campaignId"]:
            raise TokenRefused("wrong_campaign")
        user, anonymous = claims.get("u"), claims.get("a")
        if not ((user and user == body.get("userId")) or (anonymous and anonymous == body.get("anonymousId"))):
            raise TokenRefused("wrong_person")

    def check_token(self, body: dict[str, Any]) -> str:
        """`valid` or `missing` (accepted as a pre-token client); raises
        WireError for a refusal."""
        token = body.get("deliveryToken")
        if token is None:
            if self.require_delivery_token:
                raise WireError(400, TOKEN_REQUIRED)
            return "missing"
        try:
            self.verify_token(token, body)
        except TokenRefused as exc:
            raise WireError(422, "invalid_delivery_token", reason=exc.reason) from None
        return "valid"

    # sync

    def sync(self, body: dict[str, Any], sdk_key: str,
             profile_attributes: Optional[dict[str, Any]] = None) -> dict[str, Any]:
        """The answer to a sync: the campaigns for this person, the contact rules, and the numeric
        values of the person's profile attributes that the served campaigns' attribute triggers
        name (ATTR-17: the device counts thresholds from the server's profile; nothing else of the
        profile is sent to the device)."""
        user_id, anonymous_id = body.get("userId"), body.get("anonymousId")
        asker = {"userId": user_id, "anonymousId": anonymous_id, "sdkKey": sdk_key}
        campaigns = []
        for entry in self.campaigns.values():
            target = entry["target"] or {}
            if any(asker.get(name) != value for name, value in target.items()):
                continue
            campaign = copy.deepcopy(entry["campaign"])
            if entry["issueToken"]:
                token, expires = self.issue_token(campaign["id"], user_id, anonymous_id)
                campaign["deliveryToken"] = token
                campaign["deliveryTokenExpiresAt"] = _timestamp(expires)
            campaigns.append(campaign)
        watched = {trigger["key"] for campaign in campaigns for trigger in campaign.get("triggers") or []
                   if isinstance(trigger, dict) and trigger.get("type") == "attribute"
                   and isinstance(trigger.get("key"), str)}
        attributes = {key: value for key, value in (profile_attributes or {}).items()
                      if key in watched and _is_number(value)}
        return {"success": True, "campaigns": campaigns, "contactRules": copy.deepcopy(self.contact_rules),
                "attributes": attributes, "serverTime": _timestamp(self.clock())}

    # reports

    def record_report(self, body: dict[str, Any]) -> Response:
        if body["messageId"] in self.seen_reports:
            return Response(200, {"success": True, "duplicate": True})
        token = self.check_token(body)
        self.seen_reports.add(body["messageId"])
        self.reports.append({**{name: body.get(name) for name in REPORT_FIELDS}, "token": token})
        return Response(200, {"success": True})

    def record_form(self, body: dict[str, Any]) -> Response:
        if body["messageId"] in self.seen_forms:
            return Response(200, {"success": True, "duplicate": True})
        token = self.check_token(body)
        self.seen_forms.add(body["messageId"])
        self.forms.append({**{name: copy.deepcopy(body.get(name)) for name in FORM_FIELDS}, "token": token})
        return Response(200, {"success": True})

    def recorded(self, campaign_id: Optional[str]) -> dict[str, Any]:
        reports = [r for r in self.reports if campaign_id is None or r["campaignId"] == campaign_id]
        forms = [f for f in self.forms if campaign_id is None or f["campaignId"] == campaign_id]
        impressions: dict[str, dict[str, int]] = {}
        for item, kind in [(r, r["action"]) for r in reports] + [(f, "forms") for f in forms]:
            counts = impressions.setdefault(item["campaignId"], {**{a: 0 for a in ACTIONS}, "forms": 0})
            counts[kind] += 1
        return {"reports": copy.deepcopy(reports), "forms": copy.deepcopy(forms), "impressions": impressions}


def _timestamp(seconds: float) -> str:
    return format_timestamp(_dt.datetime.fromtimestamp(seconds, _dt.timezone.utc))


# -- request checks ---------------------------------------------------------------

def check_sync(body: Any) -> dict[str, Any]:
    """An object with `sentAt` (400 invalid_body), then the identity, the
    optional `deviceId`, `platform` and `appVersion` (422)."""
    body = _require_object_with_sent_at(body)
    check_identity(body)
    if not _is_optional_string(body.get("deviceId")):
        raise RequestProblem("invalid_device_id", "deviceId")
    for name in ("platform", "appVersion"):
        value = body.get(name)
        if value is not None and not _is_string_within(value, MAX_APP_VERSION_CHARS):
            raise RequestProblem("invalid_body_field", name)
    return body


def _check_reported(body: Any) -> dict[str, Any]:
    """What a report and a form submission share."""
    body = _require_object_with_sent_at(body)
    if not _is_string_within(body.get("messageId"), MAX_MESSAGE_ID_CHARS):
        raise WireError(400, "invalid_body", f"messageId must be a string of 1 to {MAX_MESSAGE_ID_CHARS} characters")
    if not is_timestamp(body.get("timestamp")):
        raise WireError(400, "invalid_body", "timestamp must be an ISO-8601 timestamp")
    check_identity(body)
    if not _is_optional_string(body.get("deviceId")):
        raise RequestProblem("invalid_device_id", "deviceId")
    if not _is_string_within(body.get("campaignId"), MAX_CAMPAIGN_ID_CHARS):
        raise RequestProblem("invalid_campaign_id", "campaignId")
    token = body.get("deliveryToken")
    if token is not None and not _is_string_within(token, MAX_TOKEN_CHARS):
        raise WireError(422, "invalid_delivery_token", reason="malformed")
    return body


def check_track(body: Any) -> dict[str, Any]:
    body = _check_reported(body)
    if body.get("action") not in ACTIONS:
        raise RequestProblem("invalid_action", "action")
    element = body.get("elementId")
    if element is not None and not _is_string_within(element, MAX_ELEMENT_ID_CHARS):
        raise RequestProblem("invalid_element_id", "elementId")
    return body


def _is_form_value(value: Any) -> bool:
    if isinstance(value, str):
        return len(value) <= MAX_FORM_STRING_CHARS
    return isinstance(value, bool) or _is_number(value)


def check_form(body: Any) -> dict[str, Any]:
    body = _check_reported(body)
    values = body.get("values")
    if not isinstance(values, dict) or len(values) > MAX_FORM_FIELDS or not all(
            1 <= len(name) <= MAX_FORM_NAME_CHARS and _is_form_value(value) for name, value in values.items()):
        raise RequestProblem("invalid_values", "values")
    return body


# -- handlers ---------------------------------------------------------------------

def post_sync(request: Request) -> Response:
    body = check_sync(request.body)
    key = request.headers.get("x-joryio-sdk-key", "")
    profile = request.app.state.profile(body.get("userId"), body.get("anonymousId"))
    attributes = profile["attributes"] if profile is not None else {}
    return Response(200, request.app.state.in_app_transaction(lambda store: store.sync(body, key, attributes)))


def post_track(request: Request) -> Response:
    body = check_track(request.body)
    return request.app.state.in_app_transaction(lambda store: store.record_report(body))


def post_form(request: Request) -> Response:
    body = check_form(request.body)
    return request.app.state.in_app_transaction(lambda store: store.record_form(body))


def register(router: Router) -> None:
    router.sdk("POST", "/v1/in-app/sync", post_sync)
    router.sdk("POST", "/v1/in-app/track", post_track)
    router.sdk("POST", "/v1/in-app/forms", post_form)
