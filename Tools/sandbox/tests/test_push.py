"""Push endpoints of protocol version 4: /api/v1/push/register (a durable
write), /api/v1/push/receipt and /api/v1/push/click (reports keyed by
trackingId), the profile's current tokens and their interplay with
/api/v1/push/unregister, and fault injection on each."""

from __future__ import annotations

import unittest

from .support import (IDENTIFY, PUSH_CLICK, PUSH_RECEIPT, PUSH_REGISTER, PUSH_UNREGISTER, SandboxTestCase,
                      make_report, make_write)

T1 = "2026-11-30T10:00:00.000Z"
T2 = "2026-11-30T11:00:00.000Z"
T3 = "2026-11-30T12:00:00.000Z"
TOKEN = "9f3c" * 16            # 64 hex characters, like an APNs token
OTHER = "ab" * 40


class PushTestCase(SandboxTestCase):
    def register(self, write_id="p1", token=TOKEN, **fields):
        body = make_write(write_id, token=token, environment="production") | fields
        return self.client.post_json(PUSH_REGISTER, {k: v for k, v in body.items() if v is not ...})

    def ok(self, reply, expected=None):
        self.assertEqual((reply.status, reply.json), (200, expected or {"success": True}), reply.raw)

    def assert_problem(self, reply, status, error, field=...):
        self.assertEqual((reply.status, reply.json["error"]), (status, error), reply.raw)
        if field is not ...:
            self.assertEqual(reply.json["errors"], [{"field": field, "reason": error}])

    def tokens(self, **identity):
        profile = self.client.profile(**(identity or {"anonymousId": "anon-1"}))
        return None if profile is None else [t["token"] for t in profile["pushTokens"]]

    def reports(self, tracking_id=None):
        return self.client.control("GET", "push-reports" + (f"?trackingId={tracking_id}" if tracking_id else ""))


class RegisterTests(PushTestCase):
    """The registration body and its effect on the profile (GAP-15)."""

    def test_register_creates_the_profile_and_lists_the_token(self):
        self.ok(self.register(bundleId="com.example.app", permission="granted", timestamp=T1))
        profile = self.client.profile(anonymousId="anon-1")
        self.assertEqual(profile["pushTokens"], [{
            "token": TOKEN, "environment": "production", "bundleId": "com.example.app",
            "permission": "granted", "registeredAt": T1,
        }])

    def test_tokens_are_stored_lowercase_and_a_profile_keeps_several(self):
        self.ok(self.register("p1", TOKEN.upper()))
        self.ok(self.register("p2", OTHER, environment="sandbox"))
        self.assertEqual(self.tokens(), [TOKEN, OTHER])

    def test_a_repeated_write_id_is_a_duplicate(self):
        self.ok(self.register("p1"))
        self.ok(self.register("p1", OTHER), {"success": True, "duplicate": True})
        self.assertEqual(self.tokens(), [TOKEN])

    def test_a_token_moves_to_the_profile_that_registers_it_last(self):
        self.ok(self.register("p1", timestamp=T1))
        self.ok(self.register("p2", userId="u1", anonymousId=..., timestamp=T2))
        self.assertEqual(self.tokens(), [])
        self.assertEqual(self.tokens(userId="u1"), [TOKEN])

    def test_identify_merges_the_anonymous_profile_tokens(self):
        self.ok(self.register("p1"))
        self.ok(self.client.post_json(IDENTIFY, make_write("i1", userId="u1")))
        self.assertEqual(self.tokens(userId="u1"), [TOKEN])

    def test_validation(self):
        cases = [
            ({"token": "xyz1"}, "invalid_token", "token"),
            ({"token": "abc"}, "invalid_token", "token"),
            ({"token": ""}, "invalid_token", "token"),
            ({"token": 123}, "invalid_token", "token"),
            ({"token": "ab" * 2049}, "invalid_token", "token"),
            ({"token": "fcm:APA91bH-abc"}, "invalid_token", "token"),
            ({"environment": "staging"}, "invalid_environment", "environment"),
            ({"environment": ...}, "invalid_environment", "environment"),
            ({"bundleId": ""}, "invalid_bundle_id", "bundleId"),
            ({"bundleId": 7}, "invalid_bundle_id", "bundleId"),
            ({"permission": "notDetermined"}, "invalid_permission", "permission"),
            ({"anonymousId": 5}, "invalid_identity", "anonymousId"),
            ({"anonymousId": ""}, "missing_identity", None),
        ]
        for fields, error, field in cases:
            with self.subTest(fields=fields):
                self.assert_problem(self.register(**fields), 422, error, field)
        self.assert_problem(self.register(writeId=...), 400, "invalid_body")
        self.assert_problem(self.register(timestamp="now"), 400, "invalid_body")
        self.assertEqual(self.client.profiles(), [], "nothing was created")
        self.ok(self.register(token="ab" * 2048, bundleId=None, permission=None))

    def test_unregister_removes_the_token_and_register_takes_it_back(self):
        self.ok(self.register("p1", timestamp=T1))
        self.ok(self.client.post_json(PUSH_UNREGISTER, make_write("u1", token=TOKEN.upper(), timestamp=T2)))
        self.assertEqual(self.tokens(), [])
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": [TOKEN.upper()]})
        self.ok(self.register("p2", timestamp=T3))
        self.assertEqual(self.tokens(), [TOKEN])
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})

    def test_an_older_change_of_a_token_is_acknowledged_and_ignored(self):
        self.ok(self.register("p1", timestamp=T2))
        self.ok(self.client.post_json(PUSH_UNREGISTER, make_write("u1", token=TOKEN, timestamp=T1)))
        self.assertEqual(self.tokens(), [TOKEN], "the unregister is older than the registration")
        self.ok(self.client.post_json(PUSH_UNREGISTER, make_write("u2", token=TOKEN, timestamp=T3)))
        self.ok(self.register("p2", timestamp=T1))
        self.assertEqual(self.tokens(), [], "the registration is older than the unregister")

    def test_the_dashboard_shows_the_tokens(self):
        self.ok(self.register(userId="</script><b>u1", anonymousId=...))
        page = self.client.request("GET", "/").raw.decode("utf-8")
        self.assertIn("Push tokens", page)
        self.assertIn(TOKEN, page)
        self.assertNotIn("</script><b>", page)
        self.assertIn('fetch("/_sandbox/profiles"', page)


class ReportTests(PushTestCase):
    """Receipts and clicks by trackingId: data-collecting reports (PUSH-27, PUSH-33)."""

    def test_receipts_and_clicks_are_recorded_by_tracking_id(self):
        self.ok(self.client.post_json(PUSH_RECEIPT, make_report("r1", trackingId="t1", deviceId="d-7")))
        self.ok(self.client.post_json(PUSH_RECEIPT, make_report("r2", trackingId="t2")))
        self.ok(self.client.post_json(PUSH_CLICK, make_report("c1", trackingId="t1", userId="u1")))
        everything = self.reports()
        self.assertEqual([r["trackingId"] for r in everything["receipts"]], ["t1", "t2"])
        self.assertEqual(everything["clicks"][0] | {}, {
            "messageId": "c1", "trackingId": "t1", "timestamp": make_report()["timestamp"],
            "sentAt": make_report()["sentAt"], "userId": "u1", "anonymousId": "anon-1", "deviceId": None,
        })
        self.assertEqual(self.reports("t1"), {"receipts": [everything["receipts"][0]],
                                              "clicks": everything["clicks"]})
        self.assertEqual(self.client.profiles(), [], "reports need no profile and create none")

    def test_a_repeated_message_id_is_a_duplicate_per_kind(self):
        self.ok(self.client.post_json(PUSH_RECEIPT, make_report("m1")))
        self.ok(self.client.post_json(PUSH_RECEIPT, make_report("m1", trackingId="t9")),
                {"success": True, "duplicate": True})
        self.ok(self.client.post_json(PUSH_CLICK, make_report("m1")))
        self.assertEqual([len(v) for v in self.reports().values()], [1, 1])

    def test_validation(self):
        for path in (PUSH_RECEIPT, PUSH_CLICK):
            for fields in ({"messageId": ...}, {"messageId": ""}, {"messageId": "m" * 129},
                           {"timestamp": "yesterday"}, {"sentAt": ...}):
                with self.subTest(path=path, fields=fields):
                    self.assert_problem(self.client.post_json(path, make_report(**fields)), 400, "invalid_body")
            cases = [
                ({"trackingId": ...}, "invalid_tracking_id", "trackingId"),
                ({"trackingId": ""}, "invalid_tracking_id", "trackingId"),
                ({"trackingId": 42}, "invalid_tracking_id", "trackingId"),
                ({"trackingId": "t" * 129}, "invalid_tracking_id", "trackingId"),
                ({"deviceId": 3}, "invalid_device_id", "deviceId"),
                ({"userId": 1}, "invalid_identity", "userId"),
                ({"anonymousId": ...}, "missing_identity", None),
            ]
            for fields, error, field in cases:
                with self.subTest(path=path, fields=fields):
                    self.assert_problem(self.client.post_json(path, make_report(**fields)), 422, error, field)
            self.assert_problem(self.client.post_json(path, [make_report()]), 400, "invalid_body")
        self.assertEqual(self.reports(), {"receipts": [], "clicks": []})
        self.ok(self.client.post_json(PUSH_CLICK, make_report(trackingId="t" * 128)))

    def test_reset_forgets_reports_and_their_dedup(self):
        self.ok(self.client.post_json(PUSH_CLICK, make_report("c1")))
        self.client.control("POST", "reset")
        self.assertEqual(self.reports(), {"receipts": [], "clicks": []})
        self.ok(self.client.post_json(PUSH_CLICK, make_report("c1")))


class PushFaultTests(PushTestCase):
    BODIES = {
        PUSH_REGISTER: lambda: make_write("p1", token=TOKEN, environment="production"),
        PUSH_UNREGISTER: lambda: make_write("u1", token=TOKEN),
        PUSH_RECEIPT: lambda: make_report("r1"),
        PUSH_CLICK: lambda: make_report("c1"),
    }

    def assert_nothing_applied(self):
        self.assertEqual(self.client.profiles(), [])
        self.assertEqual(self.reports(), {"receipts": [], "clicks": []})
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})

    def test_success_false_401_and_5xx_answer_without_applying(self):
        scripts = [
            ({"status": 200, "body": {"success": False, "message": "nope"}}, 200, {"success": False, "message": "nope"}),
            ({"status": 401, "body": {"success": False, "error": "unauthorized", "reason": "expired"}}, 401,
             {"success": False, "error": "unauthorized", "reason": "expired"}),
            ({"status": 503, "retryAfter": "5"}, 503, {"success": False, "error": "injected_fault"}),
            ({"status": 500}, 500, {"success": False, "error": "injected_fault"}),
        ]
        for path, body in self.BODIES.items():
            self.client.control("POST", "reset")
            for rule, status, answer in scripts:
                with self.subTest(path=path, rule=rule):
                    self.client.fault(path=path, **rule)
                    reply = self.client.post_json(path, body())
                    self.assertEqual((reply.status, reply.json), (status, answer), reply.raw)
                    self.assert_nothing_applied()
            with self.subTest(path=path, then="normal"):
                self.ok(self.client.post_json(path, body()))

    def test_drop_after_processing_applies_then_the_resend_is_a_duplicate(self):
        self.client.fault(path=PUSH_REGISTER, dropAfterProcessing=True)
        with self.assertRaises(Exception):
            self.client.post_json(PUSH_REGISTER, self.BODIES[PUSH_REGISTER]())
        self.assertEqual(self.tokens(), [TOKEN])
        self.ok(self.client.post_json(PUSH_REGISTER, self.BODIES[PUSH_REGISTER]()),
                {"success": True, "duplicate": True})

    def test_a_wildcard_rule_covers_every_push_endpoint(self):
        self.client.fault(path="/api/v1/push/*", count=4, status=502)
        for path, body in self.BODIES.items():
            self.assertEqual(self.client.post_json(path, body()).status, 502, path)
        self.assert_nothing_applied()


if __name__ == "__main__":
    unittest.main()
