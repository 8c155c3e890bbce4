"""In-app endpoints of protocol version 5: /api/v1/in-app/sync (campaigns per
person and app, with signed delivery tokens), /api/v1/in-app/track and
/api/v1/in-app/forms (token verification, required-token mode, dedup), the
in-app control API, fixtures, reset and the dashboard (INAPP-1 ... INAPP-7,
INAPP-63)."""

from __future__ import annotations

import json
import os
import tempfile
import unittest
from typing import Any

from joryio_sandbox.server import Config
from joryio_sandbox import inapp

from .support import KEY, SENT_AT, TIMESTAMP, SandboxProcess, SandboxTestCase, Client, make_op

SYNC = "/api/v1/in-app/sync"
TRACK = "/api/v1/in-app/track"
FORMS = "/api/v1/in-app/forms"
REQUIRED = "A delivery token is required"


def campaign(campaign_id: str = "c1", **fields: Any) -> dict[str, Any]:
    return {"id": campaign_id, "type": "modal",
            "content": {"native": {"headline": "Hi", "text": "Welcome", "buttons": []}}, **fields}


def sync_body(**fields: Any) -> dict[str, Any]:
    body = {"sentAt": SENT_AT, "anonymousId": "anon-1", "deviceId": "d-1", "platform": "ios"} | fields
    return {k: v for k, v in body.items() if v is not ...}


def report(message_id: str = "m1", token: Any = ..., **fields: Any) -> dict[str, Any]:
    body = {"messageId": message_id, "campaignId": "c1", "action": "displayed", "timestamp": TIMESTAMP,
            "sentAt": SENT_AT, "anonymousId": "anon-1", "deviceId": "d-1", "deliveryToken": token} | fields
    return {k: v for k, v in body.items() if v is not ...}


def form(message_id: str = "f1", token: Any = ..., **fields: Any) -> dict[str, Any]:
    body = report(message_id, token, **fields)
    body.pop("action")
    return {"values": {"email": "a@example.com", "age": 42, "news": True}} | body


class InAppTestCase(SandboxTestCase):
    def put(self, body: dict[str, Any], target: Any = None, **entry: Any) -> None:
        self.client.control("POST", "in-app/campaigns", {"campaign": body, "target": target, **entry})

    def sync(self, **fields: Any) -> dict[str, Any]:
        reply = self.client.post_json(SYNC, sync_body(**fields))
        self.assertEqual(reply.status, 200, reply.raw)
        return reply.json

    def token(self, campaign_id: str = "c1", **fields: Any) -> str:
        answer = self.sync(**fields)
        return next(c["deliveryToken"] for c in answer["campaigns"] if c["id"] == campaign_id)

    def settings(self, **settings: Any) -> dict[str, Any]:
        return self.client.control("POST", "in-app/settings", settings)

    def recorded(self, campaign_id: str | None = None) -> dict[str, Any]:
        return self.client.control("GET", "in-app/reports" + (f"?campaignId={campaign_id}" if campaign_id else ""))

    def assert_refused(self, reply, status: int, error: str, reason: str | None = None) -> None:
        self.assertEqual((reply.status, reply.json["success"], reply.json["error"]), (status, False, error), reply.raw)
        if reason is not None:
            self.assertEqual(reply.json["reason"], reason)

    def ok(self, reply, duplicate: bool = False) -> None:
        expected = {"success": True, "duplicate": True} if duplicate else {"success": True}
        self.assertEqual((reply.status, reply.json), (200, expected), reply.raw)


class SyncTests(InAppTestCase):
    """INAPP-1: every campaign served comes with a signed, short-lived token."""

    def test_an_empty_sandbox_answers_no_campaigns_and_no_rules(self):
        answer = self.sync()
        self.assertEqual((answer["success"], answer["campaigns"], answer["contactRules"]), (True, [], None))
        self.assertTrue(answer["serverTime"].endswith("Z"))

    def test_a_campaign_comes_as_created_plus_its_token_and_expiry(self):
        body = campaign(triggers=[{"type": "event", "name": "Purchase"}], caps={"maxImpressions": 2},
                        priority=3, displayDelay=1.5, unknownField={"kept": True})
        self.put(body)
        served = self.sync()["campaigns"]
        self.assertEqual(len(served), 1)
        token, expires = served[0].pop("deliveryToken"), served[0].pop("deliveryTokenExpiresAt")
        self.assertEqual(served[0], body)
        self.assertTrue(token.startswith("v1.") and token.count(".") == 2)
        self.assertEqual(len(expires), 24)

    def test_the_token_lives_token_ttl_seconds_on_the_in_app_clock(self):
        self.settings(now=1_800_000_000, tokenTtl=120)
        self.put(campaign())
        answer = self.sync()
        self.assertEqual(answer["serverTime"], "2027-01-15T08:00:00.000Z")
        self.assertEqual(answer["campaigns"][0]["deliveryTokenExpiresAt"], "2027-01-15T08:02:00.000Z")

    def test_targets_limit_campaigns_to_a_person_or_an_app(self):
        self.put(campaign("everyone"))
        self.put(campaign("for-u1"), {"userId": "u1"})
        self.put(campaign("for-anon-2"), {"anonymousId": "anon-2"})
        self.put(campaign("other-app"), {"sdkKey": "jry_sdk_ios_other"})
        self.put(campaign("this-app-u1"), {"sdkKey": KEY, "userId": "u1"})
        ids = lambda **f: [c["id"] for c in self.sync(**f)["campaigns"]]
        self.assertEqual(ids(), ["everyone"])
        self.assertEqual(ids(userId="u1"), ["everyone", "for-u1", "this-app-u1"])
        self.assertEqual(ids(anonymousId="anon-2"), ["everyone", "for-anon-2"])

    def test_replacing_a_campaign_keeps_its_place_and_removal_works(self):
        self.put(campaign("c1"))
        self.put(campaign("c2"))
        self.put(campaign("c1", type="banner"))
        self.assertEqual([(c["id"], c["type"]) for c in self.sync()["campaigns"]], [("c1", "banner"), ("c2", "modal")])
        self.assertEqual(self.client.request("DELETE", "/_sandbox/in-app/campaigns?id=c1").json["removed"], 1)
        self.assertEqual([c["id"] for c in self.sync()["campaigns"]], ["c2"])
        self.assertEqual(self.client.request("DELETE", "/_sandbox/in-app/campaigns").json["removed"], 1)
        self.assertEqual(self.sync()["campaigns"], [])

    def test_issue_token_false_serves_a_token_less_campaign(self):
        self.put(campaign(), issueToken=False)
        self.assertNotIn("deliveryToken", self.sync()["campaigns"][0])

    def test_contact_rules_are_served(self):
        rules = {"maxImpressions": 3, "window": 86400, "minDelayBetweenMessages": 60}
        self.client.control("POST", "in-app/contact-rules", {"contactRules": rules})
        self.assertEqual(self.sync()["contactRules"], rules)

    def test_the_watched_numeric_attributes_of_the_profile_are_served(self):
        # ATTR-17: the device counts thresholds from the server's profile; only the numbers the
        # served campaigns' attribute triggers name leave the server.
        self.assertEqual(self.sync()["attributes"], {})
        self.put(campaign("vip", triggers=[{"type": "attribute", "key": "spend", "comparison": "gte", "value": 100},
                                           {"type": "attribute", "key": "plan", "comparison": "eq", "value": 1},
                                           {"type": "event", "name": "spend"}]))
        reply = self.client.post_attributes([
            make_op("w1", "set", "spend", value=90), make_op("w2", "increment", "spend", by=5),
            make_op("w3", "set", "plan", value="pro"), make_op("w4", "set", "email", value="a@example.com"),
            make_op("w5", "set", "visits", value=3)])
        self.assertEqual(reply.status, 200, reply.raw)
        self.assertEqual(self.sync()["attributes"], {"spend": 95})
        self.assertEqual(self.sync(anonymousId="someone-else")["attributes"], {})
        # Two finite increments whose sum is not: the answer leaves the key out rather than failing.
        self.client.post_attributes([make_op("w6", "increment", "spend", by=1.7e308),
                                     make_op("w7", "increment", "spend", by=1.7e308)], idempotency_key="k1")
        self.assertEqual(self.sync()["attributes"], {})

    def test_a_malformed_campaign_is_served_as_given(self):
        self.put({"id": "bad", "type": "hologram", "content": 7})
        self.assertEqual(self.sync()["campaigns"][0]["type"], "hologram")

    def test_sync_checks_its_body(self):
        self.assert_refused(self.client.post_json(SYNC, sync_body(sentAt=...)), 400, "invalid_body")
        self.assert_refused(self.client.post_json(SYNC, sync_body(anonymousId=...)), 422, "missing_identity")
        self.assert_refused(self.client.post_json(SYNC, sync_body(deviceId=5)), 422, "invalid_device_id")
        self.assert_refused(self.client.post_json(SYNC, sync_body(appVersion="")), 422, "invalid_body_field")
        self.assertEqual(self.client.post_json(SYNC, sync_body(), key=None).status, 403)


class TrackTests(InAppTestCase):
    """INAPP-2 ... INAPP-5: reports are verified before anything is recorded."""

    def setUp(self):
        super().setUp()
        self.put(campaign("c1"))
        self.put(campaign("c2"))

    def test_a_valid_token_is_accepted_and_recorded_once(self):
        token = self.token()
        self.ok(self.client.post_json(TRACK, report("m1", token)))
        self.ok(self.client.post_json(TRACK, report("m1", token)), duplicate=True)
        self.ok(self.client.post_json(TRACK, report("m2", token, action="clicked", elementId="cta")))
        recorded = self.recorded()
        self.assertEqual([(r["messageId"], r["action"], r["elementId"], r["token"]) for r in recorded["reports"]],
                         [("m1", "displayed", None, "valid"), ("m2", "clicked", "cta", "valid")])
        self.assertEqual(recorded["reports"][0]["deliveryToken"], token)
        self.assertEqual(recorded["impressions"]["c1"],
                         {"displayed": 1, "clicked": 1, "dismissed": 0, "converted": 0, "forms": 0})

    def test_every_action_is_accepted_with_its_token(self):
        token = self.token()
        for index, action in enumerate(inapp.ACTIONS):
            self.ok(self.client.post_json(TRACK, report(f"m{index}", token, action=action)))
        self.assertEqual(self.recorded("c1")["impressions"]["c1"]["converted"], 1)

    def test_a_token_less_report_is_accepted_by_default_as_a_pre_token_client(self):
        self.ok(self.client.post_json(TRACK, report("m1")))
        self.assertEqual(self.recorded()["reports"][0]["token"], "missing")

    def test_required_token_mode_refuses_a_token_less_report_and_records_nothing(self):
        self.assertEqual(self.settings(requireDeliveryToken=True)["requireDeliveryToken"], True)
        self.assert_refused(self.client.post_json(TRACK, report("m1")), 400, REQUIRED)
        self.assert_refused(self.client.post_json(TRACK, report("m2", None)), 400, REQUIRED)
        self.ok(self.client.post_json(TRACK, report("m3", self.token())))
        self.assertEqual([r["messageId"] for r in self.recorded()["reports"]], ["m3"])

    def test_a_refused_report_can_be_sent_again_once_fixed(self):
        self.settings(requireDeliveryToken=True)
        self.assert_refused(self.client.post_json(TRACK, report("m1")), 400, REQUIRED)
        self.ok(self.client.post_json(TRACK, report("m1", self.token())))

    def test_a_forged_token_is_refused_in_both_modes(self):
        token = self.token()
        head, payload, signature = token.split(".")
        forged = head + "." + payload + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
        for required in (False, True):
            self.settings(requireDeliveryToken=required)
            self.assert_refused(self.client.post_json(TRACK, report("m1", forged)), 422, "invalid_delivery_token",
                                "bad_signature")
        self.assertEqual(self.recorded()["reports"], [])

    def test_a_tampered_payload_is_refused(self):
        head, payload, signature = self.token().split(".")
        claims = json.loads(inapp.b64url_decode(payload))
        claims["c"] = "c2"
        tampered = head + "." + inapp.b64url_encode(json.dumps(claims).encode()) + "." + signature
        self.assert_refused(self.client.post_json(TRACK, report("m1", tampered, campaignId="c2")), 422,
                            "invalid_delivery_token", "bad_signature")

    def test_garbage_tokens_are_malformed(self):
        for garbage in ("x", "v2.a.b", "v1..", "a" * 5000, 17):
            reply = self.client.post_json(TRACK, report("m1", garbage))
            self.assertEqual((reply.status, reply.json["error"]), (422, "invalid_delivery_token"), garbage)

    def test_a_token_past_its_expiry_is_refused(self):
        self.settings(now=1_800_000_000, tokenTtl=60)
        token = self.token()
        self.settings(now=1_800_000_059.9)
        self.ok(self.client.post_json(TRACK, report("m1", token)))
        self.settings(now=1_800_000_060)
        self.assert_refused(self.client.post_json(TRACK, report("m2", token)), 422, "invalid_delivery_token", "expired")

    def test_expire_invalidates_the_campaigns_tokens_and_a_new_sync_brings_a_fresh_one(self):
        old, other = self.token("c1"), self.token("c2")
        self.client.control("POST", "in-app/expire", {"campaignId": "c1"})
        self.assert_refused(self.client.post_json(TRACK, report("m1", old)), 422, "invalid_delivery_token", "expired")
        self.ok(self.client.post_json(TRACK, report("m2", other, campaignId="c2")))
        self.ok(self.client.post_json(TRACK, report("m3", self.token("c1"))))

    def test_a_token_of_another_campaign_or_person_is_refused(self):
        token = self.token("c1")
        self.assert_refused(self.client.post_json(TRACK, report("m1", token, campaignId="c2")), 422,
                            "invalid_delivery_token", "wrong_campaign")
        self.assert_refused(self.client.post_json(TRACK, report("m2", token, anonymousId="anon-2")), 422,
                            "invalid_delivery_token", "wrong_person")

    def test_the_user_or_the_anonymous_id_of_the_sync_vouches(self):
        token = self.token(userId="u1")
        self.ok(self.client.post_json(TRACK, report("m1", token, userId="u1", anonymousId="anon-9")))
        self.ok(self.client.post_json(TRACK, report("m2", token)))

    def test_a_reset_makes_earlier_tokens_forged(self):
        token = self.token()
        self.client.control("POST", "reset")
        self.put(campaign("c1"))
        self.assert_refused(self.client.post_json(TRACK, report("m1", token)), 422, "invalid_delivery_token",
                            "bad_signature")

    def test_track_checks_its_body(self):
        self.assert_refused(self.client.post_json(TRACK, report(messageId="")), 400, "invalid_body")
        self.assert_refused(self.client.post_json(TRACK, report(timestamp="yesterday")), 400, "invalid_body")
        self.assert_refused(self.client.post_json(TRACK, report(anonymousId=None)), 422, "missing_identity")
        self.assert_refused(self.client.post_json(TRACK, report(campaignId="")), 422, "invalid_campaign_id")
        self.assert_refused(self.client.post_json(TRACK, report(action="seen")), 422, "invalid_action")
        self.assert_refused(self.client.post_json(TRACK, report(elementId="")), 422, "invalid_element_id")
        self.assertEqual(self.recorded()["reports"], [])


class FormTests(InAppTestCase):
    """Form submissions carry the token and are checked like reports."""

    def setUp(self):
        super().setUp()
        self.put(campaign("c1"))

    def test_a_submission_is_recorded_once_with_its_values(self):
        token = self.token()
        self.ok(self.client.post_json(FORMS, form("f1", token)))
        self.ok(self.client.post_json(FORMS, form("f1", token)), duplicate=True)
        recorded = self.recorded()
        self.assertEqual(len(recorded["forms"]), 1)
        self.assertEqual(recorded["forms"][0]["values"], {"email": "a@example.com", "age": 42, "news": True})
        self.assertEqual(recorded["forms"][0]["token"], "valid")
        self.assertEqual(recorded["impressions"]["c1"]["forms"], 1)

    def test_tokens_are_checked_like_reports(self):
        self.settings(requireDeliveryToken=True)
        self.assert_refused(self.client.post_json(FORMS, form("f1")), 400, REQUIRED)
        self.assert_refused(self.client.post_json(FORMS, form("f2", "v1.e30.AAAA")), 422, "invalid_delivery_token")
        self.assertEqual(self.recorded()["forms"], [])

    def test_values_must_be_a_small_object_of_scalars(self):
        for values in ([], {"a": {"b": 1}}, {"a": None}, {"": 1}, {"a": "x" * 10_001},
                       {f"k{i}": i for i in range(101)}):
            self.assert_refused(self.client.post_json(FORMS, form("f1", values=values)), 422, "invalid_values")


class ControlTests(InAppTestCase):
    def bad(self, method: str, route: str, body: Any) -> None:
        reply = self.client.request(method, "/_sandbox/" + route, json.dumps(body).encode(),
                                    {"Content-Type": "application/json"})
        self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_in_app"), (route, body))

    def test_bad_control_bodies_are_refused(self):
        self.bad("POST", "in-app/campaigns", {"campaign": {"type": "modal"}})
        self.bad("POST", "in-app/campaigns", {"campaign": campaign(), "target": {"email": "x"}})
        self.bad("POST", "in-app/campaigns", {"campaign": campaign(), "issueToken": "yes"})
        self.bad("POST", "in-app/campaigns", {"campaign": campaign(), "extra": 1})
        self.bad("POST", "in-app/settings", {"requireDeliveryToken": "true"})
        self.bad("POST", "in-app/settings", {"tokenTtl": 0})
        self.bad("POST", "in-app/settings", {"now": "soon"})
        self.bad("POST", "in-app/settings", {"unknown": 1})
        self.bad("POST", "in-app/contact-rules", {"contactRules": 5})
        self.bad("POST", "in-app/expire", {"campaign": "c1"})

    def test_reset_clears_reports_campaigns_and_settings(self):
        self.put(campaign())
        self.settings(requireDeliveryToken=True, tokenTtl=5, now=1)
        self.client.control("POST", "in-app/contact-rules", {"contactRules": {"maxImpressions": 1}})
        self.client.post_json(TRACK, report("m1", self.token()))
        self.client.control("POST", "reset")
        self.assertEqual(self.client.control("GET", "in-app/campaigns"), {
            "campaigns": [], "contactRules": None,
            "settings": {"requireDeliveryToken": False, "tokenTtl": 600.0, "now": None}})
        self.assertEqual(self.recorded(), {"reports": [], "forms": [], "impressions": {}})

    def test_reports_filter_by_campaign(self):
        self.put(campaign("c1"))
        self.put(campaign("c2"))
        self.client.post_json(TRACK, report("m1"))
        self.client.post_json(TRACK, report("m2", campaignId="c2"))
        self.assertEqual([r["messageId"] for r in self.recorded("c2")["reports"]], ["m2"])

    def test_the_dashboard_shows_campaigns_and_impressions(self):
        self.put(campaign("spring-sale<b>"))
        self.client.post_json(TRACK, report("m1", campaignId="spring-sale<b>"))
        page = self.client.request("GET", "/").raw.decode()
        self.assertIn("In-app campaigns", page)
        self.assertIn("spring-sale\\u003cb\\u003e", page)
        self.assertNotIn("spring-sale<b>", page)
        self.assertIn('"displayed": 1', page)


FIXTURES = {"campaigns": [{"campaign": campaign("fixture"), "target": None},
                          {"campaign": campaign("vip"), "target": {"userId": "vip"}}],
            "contactRules": {"maxImpressions": 5, "window": 3600}}


class FixtureTests(InAppTestCase):
    config = Config(quiet=True, in_app=inapp.Fixtures(
        tuple(inapp.parse_campaign_entry(e) for e in FIXTURES["campaigns"]), FIXTURES["contactRules"], True))

    def test_fixtures_and_required_mode_are_served_and_restored_by_reset(self):
        self.client.control("DELETE", "in-app/campaigns")
        self.settings(requireDeliveryToken=False)
        self.client.control("POST", "reset")
        answer = self.sync(userId="vip")
        self.assertEqual([c["id"] for c in answer["campaigns"]], ["fixture", "vip"])
        self.assertEqual(answer["contactRules"], FIXTURES["contactRules"])
        self.assert_refused(self.client.post_json(TRACK, report("m1", campaignId="fixture")), 400, REQUIRED)

    def test_bad_fixtures_are_refused(self):
        for value in ([], {"campaigns": {}}, {"campaigns": [{"campaign": {}}]}, {"contactRules": 1},
                      {"other": 1}):
            with self.assertRaises(ValueError):
                inapp.parse_fixtures(value)


class CommandLineTests(unittest.TestCase):
    def start(self, *args: str, env: dict[str, str] | None = None) -> SandboxProcess:
        old = os.environ.copy()
        os.environ.update(env or {})
        try:
            return SandboxProcess(*args)
        finally:
            os.environ.clear()
            os.environ.update(old)

    def required(self, process: SandboxProcess) -> Any:
        client = Client(process.port)
        return client.control("GET", "in-app/settings")["requireDeliveryToken"]

    def test_require_delivery_token_flag_and_environment(self):
        with self.start("--require-delivery-token") as process:
            self.assertTrue(self.required(process))
        with self.start(env={"IN_APP_REQUIRE_DELIVERY_TOKEN": "true"}) as process:
            self.assertTrue(self.required(process))
        with self.start(env={"IN_APP_REQUIRE_DELIVERY_TOKEN": "false"}) as process:
            self.assertFalse(self.required(process))

    def test_fixtures_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            json.dump(FIXTURES, file)
        try:
            with self.start("--in-app-fixtures", file.name) as process:
                campaigns = Client(process.port).control("GET", "in-app/campaigns")["campaigns"]
                self.assertEqual([e["campaign"]["id"] for e in campaigns], ["fixture", "vip"])
            with open(file.name, "w") as broken:
                broken.write("{not json")
            with self.start("--in-app-fixtures", file.name) as process:
                code, _, err = process.wait()
                self.assertEqual(code, 2)
                self.assertIn("--in-app-fixtures", err)
        finally:
            os.unlink(file.name)


if __name__ == "__main__":
    unittest.main()
