"""The sandbox control API (under /_sandbox) and the dashboard page.

No SDK key, never recorded, never faulted. Tests and people use these routes
to script faults and inspect what the SDK sent.
"""

from __future__ import annotations

from typing import Any, Callable

from . import auth, dashboard, geozones
from .routing import CONTROL_PREFIX, Request, Response, Router
from .wire import WireError, canonical_size

OK = {"ok": True}


def health(request: Request) -> Response:
    return Response(200, OK)


def list_requests(request: Request) -> Response:
    path = request.query.get("path", [None])[0]
    return Response(200, {"requests": request.app.state.requests(path)})


def list_events(request: Request) -> Response:
    return Response(200, {"events": request.app.state.events()})


def list_profiles(request: Request) -> Response:
    return Response(200, {"profiles": request.app.state.profiles()})


def get_profile(request: Request) -> Response:
    """The profile `?userId=` or `?anonymousId=` resolves to (userId first)."""
    user_id = request.query.get("userId", [None])[0]
    anonymous_id = request.query.get("anonymousId", [None])[0]
    if not (user_id or anonymous_id):
        raise WireError(400, "bad_request", "give ?userId= or ?anonymousId=")
    profile = request.app.state.profile(user_id, anonymous_id)
    if profile is None:
        raise WireError(404, "profile_not_found")
    return Response(200, profile)


def list_push_unregistered(request: Request) -> Response:
    return Response(200, {"tokens": request.app.state.push_unregistered()})


def list_push_reports(request: Request) -> Response:
    """Push receipts and clicks, optionally of one `?trackingId=`."""
    tracking_id = request.query.get("trackingId", [None])[0]
    return Response(200, request.app.state.push_reports(tracking_id))


def _in_app(request: Request, body: Callable[[Any], Any]) -> Any:
    return request.app.state.in_app_transaction(body)


def list_in_app_campaigns(request: Request) -> Response:
    """Campaigns (with target and issueToken), contact rules and settings."""
    return Response(200, _in_app(request, lambda store: store.snapshot()))


def put_in_app_campaign(request: Request) -> Response:
    """Create or replace (by id) a campaign, for everyone or a target."""
    campaign_id = _in_app(request, lambda store: store.put_campaign(request.body))
    return Response(200, {"ok": True, "id": campaign_id})


def remove_in_app_campaigns(request: Request) -> Response:
    """Remove the campaign `?id=`, or every campaign."""
    campaign_id = request.query.get("id", [None])[0]
    return Response(200, {"ok": True, "removed": _in_app(request, lambda store: store.remove_campaigns(campaign_id))})


def set_in_app_contact_rules(request: Request) -> Response:
    _in_app(request, lambda store: store.set_contact_rules(request.body))
    return Response(200, OK)


def get_in_app_settings(request: Request) -> Response:
    return Response(200, _in_app(request, lambda store: store.settings()))


def set_in_app_settings(request: Request) -> Response:
    """Required-token mode, token lifetime, the in-app clock (each optional)."""
    return Response(200, _in_app(request, lambda store: store.update_settings(request.body)))


def expire_in_app_tokens(request: Request) -> Response:
    """Every token issued so far for the campaign is expired from now on."""
    _in_app(request, lambda store: store.expire(request.body))
    return Response(200, OK)


def list_in_app_reports(request: Request) -> Response:
    """Accepted reports and form submissions, and counts per campaign."""
    campaign_id = request.query.get("campaignId", [None])[0]
    return Response(200, _in_app(request, lambda store: store.recorded(campaign_id)))


def add_fault(request: Request) -> Response:
    rule = request.app.state.add_fault(request.body)
    return Response(200, {"id": rule.id})


def list_faults(request: Request) -> Response:
    return Response(200, {"faults": request.app.state.faults()})


def clear_faults(request: Request) -> Response:
    request.app.state.clear_faults()
    return Response(200, OK)


def get_auth(request: Request) -> Response:
    return Response(200, request.app.state.auth().to_json())


def set_auth(request: Request) -> Response:
    """Change the SDK-authentication settings (every field optional)."""
    return Response(200, request.app.state.update_auth(request.body).to_json())


def mint_token(request: Request) -> Response:
    """A token signed with the configured secret (or the body's `secret`),
    its `exp` absolute or relative to the auth clock."""
    return Response(200, {"token": auth.mint(request.app.state.auth(), request.body)})


def measure(request: Request) -> Response:
    return Response(200, {"bytes": canonical_size(request.body)})


def reset(request: Request) -> Response:
    request.app.state.reset()
    return Response(200, OK)


def shutdown(request: Request) -> Response:
    return Response(200, OK, after=request.app.request_shutdown)


def page(request: Request) -> Response:
    return Response(
        200,
        raw=geozones.add_panel(
            dashboard.render(request.app.state.requests(), request.app.state.profiles(),
                             _in_app(request, lambda store: {**store.snapshot(), **store.recorded(None)})),
            request.app.state),
        content_type="text/html; charset=utf-8",
        headers={"Content-Security-Policy": dashboard.CONTENT_SECURITY_POLICY},
    )


def register(router: Router) -> None:
    c = CONTROL_PREFIX
    router.control("GET", "/", page)
    router.control("GET", f"{c}/health", health)
    router.control("GET", f"{c}/requests", list_requests)
    router.control("GET", f"{c}/events", list_events)
    router.control("GET", f"{c}/profiles", list_profiles)
    router.control("GET", f"{c}/profile", get_profile)
    router.control("GET", f"{c}/push-unregistered", list_push_unregistered)
    router.control("GET", f"{c}/push-reports", list_push_reports)
    router.control("GET", f"{c}/in-app/campaigns", list_in_app_campaigns)
    router.control("POST", f"{c}/in-app/campaigns", put_in_app_campaign, json_body=True)
    router.control("DELETE", f"{c}/in-app/campaigns", remove_in_app_campaigns)
    router.control("POST", f"{c}/in-app/contact-rules", set_in_app_contact_rules, json_body=True)
    router.control("GET", f"{c}/in-app/settings", get_in_app_settings)
    router.control("POST", f"{c}/in-app/settings", set_in_app_settings, json_body=True)
    router.control("POST", f"{c}/in-app/expire", expire_in_app_tokens, json_body=True)
    router.control("GET", f"{c}/in-app/reports", list_in_app_reports)
    router.control("POST", f"{c}/faults", add_fault, json_body=True)
    router.control("GET", f"{c}/faults", list_faults)
    router.control("DELETE", f"{c}/faults", clear_faults)
    router.control("GET", f"{c}/auth", get_auth)
    router.control("POST", f"{c}/auth", set_auth, json_body=True)
    router.control("POST", f"{c}/auth/token", mint_token, json_body=True)
    router.control("POST", f"{c}/measure", measure, json_body=True)
    router.control("POST", f"{c}/reset", reset)
    router.control("POST", f"{c}/shutdown", shutdown)
