"""Geozones (issue 19; docs/protocol.md "Geozones"): GET {prefix}/v1/geozones
serves the zones of the app the SDK key names, and the control API sets them.

Zones are kept per SDK key; a key with none set gets the default zones (set
without `sdkKey`), and with no default either, the fixtures below. Zone enter
and exit reports are ordinary events (`Geozone Entered`, `Geozone Exited`)
sent to /v1/events; GET /_sandbox/geozone-events lists them and the dashboard
shows a zones panel.
"""

from __future__ import annotations

import html
import math
from typing import Any

from .routing import CONTROL_PREFIX, Request, Response, Router
from .wire import WireError

REFRESH_AFTER = 86400
MAX_ZONES = 1000
MAX_RADIUS = 50000
ZONE_EVENTS = ("Geozone Entered", "Geozone Exited")

# Served to every app until a control call sets zones: three shops in Berlin.
FIXTURE_ZONES: list[dict[str, Any]] = [
    {"id": "berlin-alex", "name": "Alexanderplatz store", "latitude": 52.5219, "longitude": 13.4132, "radius": 150},
    {"id": "berlin-kudamm", "name": "Kurfürstendamm store", "latitude": 52.5037, "longitude": 13.3319, "radius": 200},
    {"id": "berlin-airport", "name": "BER airport", "latitude": 52.3667, "longitude": 13.5033, "radius": 2000},
]


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def check_zones(value: Any) -> list[dict[str, Any]]:
    """The zones of a control call, each checked as the SDK checks them (ids
    unique, non-empty, at most 128 characters; a string name; latitude within
    ±90, longitude within ±180; radius above 0 and at most 50 km); 400
    invalid_geozones otherwise."""
    if not isinstance(value, list) or len(value) > MAX_ZONES:
        raise WireError(400, "invalid_geozones", message=f"zones must be a list of at most {MAX_ZONES}")
    zones, seen = [], set()
    for index, zone in enumerate(value):
        problem = None
        if not isinstance(zone, dict):
            problem = "not an object"
        elif not isinstance(zone.get("id"), str) or not 0 < len(zone["id"]) <= 128 or zone["id"] in seen:
            problem = "id must be a unique string of 1 to 128 characters"
        elif not isinstance(zone.get("name", ""), str):
            problem = "name must be a string"
        elif not (_number(zone.get("latitude")) and abs(zone["latitude"]) <= 90):
            problem = "latitude must be a number within ±90"
        elif not (_number(zone.get("longitude")) and abs(zone["longitude"]) <= 180):
            problem = "longitude must be a number within ±180"
        elif not (_number(zone.get("radius")) and 0 < zone["radius"] <= MAX_RADIUS):
            problem = f"radius must be a number above 0 and at most {MAX_RADIUS}"
        elif set(zone) - {"id", "name", "latitude", "longitude", "radius"}:
            problem = "unknown field"
        if problem:
            raise WireError(400, "invalid_geozones", message=f"zones[{index}]: {problem}")
        seen.add(zone["id"])
        zones.append({"id": zone["id"], "name": zone.get("name", ""), "latitude": zone["latitude"],
                      "longitude": zone["longitude"], "radius": zone["radius"]})
    return zones


def zone_events(events: list[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, dict) and e.get("event") in ZONE_EVENTS]


# -- SDK endpoint -------------------------------------------------------------

def get_geozones(request: Request) -> Response:
    key = request.headers.get("x-joryio-sdk-key")
    zones = request.app.state.geozones_for(key)
    return Response(200, {"zones": FIXTURE_ZONES if zones is None else zones, "refreshAfter": REFRESH_AFTER})


# -- control API --------------------------------------------------------------

def set_zones(request: Request) -> Response:
    """`{"zones": [...], "sdkKey": K}`: K's zones; without `sdkKey`, every
    app's that has none of its own."""
    body = request.body
    if not isinstance(body, dict) or set(body) - {"zones", "sdkKey"} or "zones" not in body:
        raise WireError(400, "invalid_geozones", message='give {"zones": [...]} and optionally "sdkKey"')
    key = body.get("sdkKey")
    if key is not None and not isinstance(key, str):
        raise WireError(400, "invalid_geozones", message="sdkKey must be a string")
    zones = check_zones(body["zones"])
    request.app.state.set_geozones(key, zones)
    return Response(200, {"ok": True, "count": len(zones)})


def list_zones(request: Request) -> Response:
    return Response(200, {**request.app.state.geozones(), "fixtures": FIXTURE_ZONES})


def clear_zones(request: Request) -> Response:
    request.app.state.clear_geozones()
    return Response(200, {"ok": True})


def list_zone_events(request: Request) -> Response:
    return Response(200, {"events": zone_events(request.app.state.events())})


def panel(state: Any) -> str:
    """The dashboard's zones panel (rendered with the page; reload to update)."""
    configured = state.geozones()
    rows = []
    apps = [("(default)", configured["default"])] + sorted(configured["apps"].items())
    if configured["default"] is None and not configured["apps"]:
        apps = [("(fixtures)", FIXTURE_ZONES)]
    for app, zones in apps:
        for zone in zones or []:
            rows.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
                app, zone["id"], zone["name"], zone["latitude"], zone["longitude"], zone["radius"])) + "</tr>")
    events = []
    for event in zone_events(state.events()):
        properties = event.get("properties") if isinstance(event.get("properties"), dict) else {}
        events.append("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in (
            event.get("timestamp"), event.get("event"), properties.get("zoneId"), properties.get("name"),
            event.get("userId") or event.get("anonymousId"))) + "</tr>")
    empty = '<tr><td colspan="6" class="muted">{}</td></tr>'
    return (
        "<h2>Geozones</h2>\n<table><thead><tr><th>App (SDK key)</th><th>Zone</th><th>Name</th><th>Latitude</th>"
        "<th>Longitude</th><th>Radius (m)</th></tr></thead>\n<tbody id=\"zones\">"
        + ("".join(rows) or empty.format("No zones."))
        + "</tbody></table>\n<h2>Zone events</h2>\n<table><thead><tr><th>Time</th><th>Event</th><th>Zone</th>"
        "<th>Name</th><th>User</th></tr></thead>\n<tbody id=\"zone-events\">"
        + ("".join(events) or empty.format("No zone events yet (reload to update)."))
        + "</tbody></table>\n"
    )


def add_panel(page: bytes, state: Any) -> bytes:
    """The dashboard page with the zones panel before its scripts."""
    marker = b'<script id="initial-profiles"'
    return page.replace(marker, panel(state).encode("utf-8") + marker, 1)


def register(router: Router) -> None:
    c = CONTROL_PREFIX
    router.sdk("GET", "/v1/geozones", get_geozones, json_body=False)
    router.control("GET", f"{c}/geozones", list_zones)
    router.control("POST", f"{c}/geozones", set_zones, json_body=True)
    router.control("DELETE", f"{c}/geozones", clear_zones)
    router.control("GET", f"{c}/geozone-events", list_zone_events)
