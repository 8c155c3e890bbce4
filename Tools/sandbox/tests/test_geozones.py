"""Geozones (issue 19): GET /api/v1/geozones per app (SDK key), the control
calls that set zones, zone events listed and shown on the dashboard."""

from __future__ import annotations

import json
import unittest

from joryio_sandbox.geozones import FIXTURE_ZONES

from .support import KEY, SandboxTestCase, make_event

GEOZONES = "/api/v1/geozones"
OTHER_KEY = "jry_sdk_ios_other"
ZONE = {"id": "shop", "name": "Shop", "latitude": 52.52, "longitude": 13.405, "radius": 200}


class GeozoneTests(SandboxTestCase):
    def fetch(self, key=KEY):
        headers = {} if key is None else {"X-Joryio-Sdk-Key": key}
        return self.client.request("GET", GEOZONES, headers=headers)

    def set_zones(self, zones, **fields):
        return self.client.request("POST", "/_sandbox/geozones",
                                   json.dumps({"zones": zones, **fields}).encode(),
                                   {"Content-Type": "application/json"})

    def test_fixtures_until_zones_are_set(self):
        reply = self.fetch()
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.json, {"zones": FIXTURE_ZONES, "refreshAfter": 86400})

    def test_zones_per_app_and_default(self):
        self.assertEqual(self.set_zones([ZONE], sdkKey=KEY).status, 200)
        self.assertEqual(self.fetch().json["zones"], [ZONE])
        self.assertEqual(self.fetch(OTHER_KEY).json["zones"], FIXTURE_ZONES)
        self.assertEqual(self.set_zones([]).status, 200)
        self.assertEqual(self.fetch(OTHER_KEY).json["zones"], [])
        self.assertEqual(self.fetch().json["zones"], [ZONE])
        listed = self.client.control("GET", "geozones")
        self.assertEqual((listed["default"], listed["apps"]), ([], {KEY: [ZONE]}))
        self.client.control("DELETE", "geozones")
        self.assertEqual(self.fetch().json["zones"], FIXTURE_ZONES)

    def test_name_defaults_to_empty(self):
        zone = {k: v for k, v in ZONE.items() if k != "name"}
        self.assertEqual(self.set_zones([zone]).status, 200)
        self.assertEqual(self.fetch().json["zones"], [ZONE | {"name": ""}])

    def test_invalid_zones_are_refused_and_change_nothing(self):
        bad = [
            [ZONE | {"id": ""}], [ZONE, ZONE], [ZONE | {"latitude": 91}], [ZONE | {"longitude": -180.5}],
            [ZONE | {"radius": 0}], [ZONE | {"radius": 50001}], [ZONE | {"radius": True}],
            [ZONE | {"name": 3}], [ZONE | {"extra": 1}], ["zone"], {"not": "a list"},
        ]
        for zones in bad:
            with self.subTest(zones=zones):
                reply = self.set_zones(zones)
                self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_geozones"), reply.raw)
        self.assertEqual(self.fetch().json["zones"], FIXTURE_ZONES)

    def test_the_sdk_key_is_required(self):
        reply = self.fetch(key=None)
        self.assertEqual((reply.status, reply.json["error"]), (403, "invalid_sdk_key"))

    def test_zone_events_are_events_listed_and_shown(self):
        entered = make_event("g1", event="Geozone Entered", properties={"zoneId": "shop", "name": "Shop"})
        other = make_event("g2", event="Signed Up")
        self.assertEqual(self.client.post_events([entered, other]).status, 200)
        events = self.client.control("GET", "geozone-events")["events"]
        self.assertEqual([e["messageId"] for e in events], ["g1"])
        self.set_zones([ZONE], sdkKey=KEY)
        page = self.client.request("GET", "/").raw.decode()
        self.assertIn("<h2>Geozones</h2>", page)
        self.assertIn("<td>Geozone Entered</td><td>shop</td><td>Shop</td>", page)
        self.assertIn(f"<td>{KEY}</td><td>shop</td>", page)

    def test_reset_clears_zones(self):
        self.set_zones([ZONE])
        self.client.control("POST", "reset")
        self.assertEqual(self.fetch().json["zones"], FIXTURE_ZONES)


if __name__ == "__main__":
    unittest.main()
