"""The version 2 control routes (profiles, profile, push-unregistered, reset)
and faults on the version 2 endpoints (dropAfterProcessing,
rejectAttributeKeys, and the older kinds)."""

from __future__ import annotations

import http.client
import time
import unittest

from .support import (ATTRIBUTES, EVENTS, IDENTIFY, OPT_OUT, PUSH_UNREGISTER, SUBSCRIPTIONS,
                      SandboxTestCase, make_event, make_op, make_write)

PROFILE_KEYS = {"id", "userId", "anonymousIds", "attributes", "aliases", "subscriptions", "groups",
                "operations", "pushTokens"}
DROPPED = (http.client.RemoteDisconnected, ConnectionResetError)


class ProfileRoutesTests(SandboxTestCase):
    def test_events_create_profiles_in_creation_order(self):
        self.client.post_events([make_event("m1", anonymousId="a1"),
                                 make_event("m2", anonymousId=None, userId="u1"),
                                 make_event("m3", anonymousId="a1"),
                                 make_event("m4", anonymousId="a2", userId="u1")])
        profiles = self.client.profiles()
        self.assertEqual([set(p) for p in profiles], [PROFILE_KEYS] * 2)
        self.assertEqual([(p["id"], p["userId"], p["anonymousIds"]) for p in profiles],
                         [(1, None, ["a1"]), (2, "u1", [])])
        self.assertEqual(profiles[0] | {"id": 0}, {"id": 0, "userId": None, "anonymousIds": ["a1"],
                                                   "attributes": {}, "aliases": {}, "subscriptions": {},
                                                   "groups": {}, "operations": [], "pushTokens": []})

    def test_duplicate_events_create_nothing_new(self):
        self.client.post_events([make_event("m1", anonymousId="a1")])
        self.client.post_events([make_event("m1", anonymousId="a2")])
        self.assertEqual(len(self.client.profiles()), 1)

    def test_profile_by_user_or_anonymous_id(self):
        self.client.post_events([make_event("m1", anonymousId="a1"), make_event("m2", userId="u1")])
        self.assertEqual(self.client.profile(anonymousId="a1")["id"], 1)
        self.assertEqual(self.client.profile(userId="u1")["id"], 2)
        self.assertEqual(self.client.profile(userId="u1", anonymousId="a1")["id"], 2, "userId first")
        self.assertIsNone(self.client.profile(userId="nobody"))
        self.assertIsNone(self.client.profile(anonymousId="nobody"))
        reply = self.client.request("GET", "/_sandbox/profile?anonymousId=nobody")
        self.assertEqual((reply.status, reply.json["error"]), (404, "profile_not_found"))
        self.assertEqual(self.client.request("GET", "/_sandbox/profile").status, 400)

    def test_control_calls_are_not_recorded(self):
        self.client.profiles()
        self.client.profile(userId="u")
        self.client.control("GET", "push-unregistered")
        self.assertEqual(self.client.requests(), [])

    def test_reset_clears_profiles_and_every_memory(self):
        self.client.post_attributes([make_op("w1", "increment", "n", by=1)], "key-1")
        self.client.post_json(OPT_OUT, make_write("o1", optedOut=True))
        self.client.post_json(PUSH_UNREGISTER, make_write("p1", token="tok"))
        self.client.control("POST", "reset")
        self.assertEqual(self.client.profiles(), [])
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})
        # Same key, same operation id, same write ids: all new again.
        self.assertEqual(self.client.post_attributes([make_op("w1", "increment", "n", by=1)], "key-1").json,
                         {"success": True, "applied": 1, "duplicates": 0})
        self.assertEqual(self.client.post_json(OPT_OUT, make_write("o1", optedOut=True)).json,
                         {"success": True})
        self.assertEqual(self.client.profiles()[0]["id"], 1)


class FaultsOnNewEndpointsTests(SandboxTestCase):
    def test_status_with_retry_after_answers_without_processing(self):
        self.client.fault(path=ATTRIBUTES, count=2, status=503, retryAfter="3")
        for i in range(2):
            reply = self.client.post_attributes([make_op("w1")], "key-1")
            self.assertEqual((reply.status, reply.headers["Retry-After"]), (503, "3"))
        self.assertEqual(self.client.profiles(), [])
        # Nothing was remembered for the key: the third attempt is processed.
        self.assertEqual(self.client.post_attributes([make_op("w1")], "key-1").json,
                         {"success": True, "applied": 1, "duplicates": 0})

    def test_prefix_rule_covers_every_endpoint(self):
        self.client.fault(path="/api/v1/*", count=-1, status=500)
        self.assertEqual(self.client.post_attributes([make_op()]).status, 500)
        for path in (IDENTIFY, SUBSCRIPTIONS, OPT_OUT, PUSH_UNREGISTER, "/api/v1/alias"):
            self.assertEqual(self.client.post_json(path, make_write()).status, 500, path)
        self.assertEqual(self.client.profiles(), [])

    def test_drop_applies_nothing(self):
        self.client.fault(path=IDENTIFY, drop=True)
        with self.assertRaises(DROPPED):
            self.client.post_json(IDENTIFY, make_write("id1", userId="u1"))
        self.assertEqual(self.client.profiles(), [])
        self.assertEqual(self.client.post_json(IDENTIFY, make_write("id1", userId="u1")).json,
                         {"success": True})

    def test_delay_then_normal_processing(self):
        self.client.fault(path=OPT_OUT, delayMs=200)
        started = time.monotonic()
        reply = self.client.post_json(OPT_OUT, make_write("o1", optedOut=True))
        self.assertGreaterEqual(time.monotonic() - started, 0.2)
        self.assertEqual(reply.json, {"success": True})

    def test_method_and_count(self):
        self.client.fault(path=SUBSCRIPTIONS, method="POST", count=1, status=429)
        body = make_write("s1", channel="email", status="subscribed")
        self.assertEqual(self.client.post_json(SUBSCRIPTIONS, body).status, 429)
        self.assertEqual(self.client.post_json(SUBSCRIPTIONS, body).status, 404)


class DropAfterProcessingTests(SandboxTestCase):
    def test_attributes_are_applied_and_the_retry_is_replayed(self):
        self.client.fault(path=ATTRIBUTES, dropAfterProcessing=True)
        ops = [make_op("w1", "increment", "n", by=1)]
        with self.assertRaises(DROPPED):
            self.client.post_attributes(ops, "key-1")
        self.assertEqual(self.client.profile(anonymousId="anon-1")["attributes"], {"n": 1})
        [entry] = self.client.requests()
        self.assertEqual((entry["status"], entry["fault"]), (None, "dropAfterProcessing"))
        # The SDK resends the same key and operations: same answer, applied once.
        reply = self.client.post_attributes(ops, "key-1")
        self.assertEqual(reply.json, {"success": True, "applied": 1, "duplicates": 0, "replayed": True})
        self.assertEqual(self.client.profile(anonymousId="anon-1")["attributes"], {"n": 1})

    def test_durable_write_is_applied_and_the_retry_is_a_duplicate(self):
        self.client.fault(path=PUSH_UNREGISTER, dropAfterProcessing=True, delayMs=10)
        with self.assertRaises(DROPPED):
            self.client.post_json(PUSH_UNREGISTER, make_write("p1", token="tok"))
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": ["tok"]})
        self.assertEqual(self.client.requests()[0]["fault"], "delay+dropAfterProcessing")
        self.assertEqual(self.client.post_json(PUSH_UNREGISTER, make_write("p1", token="tok")).json,
                         {"success": True, "duplicate": True})

    def test_events_are_stored(self):
        self.client.fault(path=EVENTS, dropAfterProcessing=True)
        with self.assertRaises(DROPPED):
            self.client.post_events([make_event("m1")])
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m1"])
        self.assertEqual(self.client.post_events([make_event("m1")]).json["duplicates"], 1)

    def test_a_rejected_request_is_dropped_too(self):
        self.client.fault(path=IDENTIFY, dropAfterProcessing=True)
        with self.assertRaises(DROPPED):
            self.client.post_json(IDENTIFY, make_write("id1", userId=""))
        self.assertEqual(self.client.profiles(), [])


class RejectAttributeKeysTests(SandboxTestCase):
    def test_listed_keys_fail_validation(self):
        self.client.fault(path=ATTRIBUTES, rejectAttributeKeys=["secret", "other"])
        reply = self.client.post_attributes([make_op("w1"), make_op("w2", key="secret", value=1),
                                             make_op("w3", "unset", "secret"),
                                             make_op("w4", op="bad", key="secret")], "key-1")
        self.assertEqual(reply.status, 422)
        self.assertEqual(reply.json, {"success": False, "error": "invalid_operation", "errors": [
            {"index": 1, "id": "w2", "key": "secret", "reason": "rejected_key"},
            {"index": 2, "id": "w3", "key": "secret", "reason": "rejected_key"},
            {"index": 3, "id": "w4", "key": "secret", "reason": "invalid_op"},
        ]})
        self.assertEqual(self.client.profiles(), [])
        self.assertEqual(self.client.requests()[0]["fault"], "rejectAttributeKeys")
        # The rule is used up: the same key is accepted by the next request.
        self.assertEqual(self.client.post_attributes([make_op("w2", key="secret", value=1)], "key-2")
                         .json["applied"], 1)

    def test_with_a_count_and_drop_after_processing(self):
        self.client.fault(path=ATTRIBUTES, count=2, rejectAttributeKeys=["secret"], dropAfterProcessing=True)
        with self.assertRaises(DROPPED):
            self.client.post_attributes([make_op("w1", key="secret")], "key-1")
        with self.assertRaises(DROPPED):
            self.client.post_attributes([make_op("w2", key="fine")], "key-2")
        self.assertEqual(self.client.profile(anonymousId="anon-1")["attributes"], {"fine": "pro"})
        # Rule used up; the retries get the remembered answers.
        rejected = self.client.post_attributes([make_op("w1", key="secret")], "key-1")
        self.assertEqual((rejected.status, rejected.json["replayed"], rejected.json["errors"][0]["reason"]),
                         (422, True, "rejected_key"))
        self.assertEqual(self.client.post_attributes([make_op("w2", key="fine")], "key-2").json,
                         {"success": True, "applied": 1, "duplicates": 0, "replayed": True})

    def test_other_endpoints_ignore_it(self):
        self.client.fault(path="/api/*", rejectAttributeKeys=["plan"])
        self.assertEqual(self.client.post_events([make_event("m1")]).status, 200)


class FaultRuleValidationTests(SandboxTestCase):
    def test_new_fields_are_listed(self):
        self.client.fault(path=ATTRIBUTES, rejectAttributeKeys=["a", "b", "a"], dropAfterProcessing=True)
        [rule] = self.client.control("GET", "faults")["faults"]
        self.assertEqual((rule["rejectAttributeKeys"], rule["dropAfterProcessing"]), (["a", "b"], True))
        self.client.control("DELETE", "faults")
        self.client.fault(path=EVENTS, status=500)
        [rule] = self.client.control("GET", "faults")["faults"]
        self.assertEqual((rule["rejectAttributeKeys"], rule["dropAfterProcessing"]), ([], False))

    def test_invalid_rules_are_400(self):
        for rule in ({"path": ATTRIBUTES, "dropAfterProcessing": 1},
                     {"path": ATTRIBUTES, "dropAfterProcessing": "yes"},
                     {"path": ATTRIBUTES, "dropAfterProcessing": True, "drop": True},
                     {"path": ATTRIBUTES, "dropAfterProcessing": True, "status": 500},
                     {"path": ATTRIBUTES, "dropAfterProcessing": False},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": "plan"},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": [""]},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": [1]},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": []},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": ["a"], "status": 500},
                     {"path": ATTRIBUTES, "rejectAttributeKeys": ["a"], "drop": True}):
            with self.subTest(rule=rule):
                reply = self.client.post_json("/_sandbox/faults", rule, key=None)
                self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_fault"))
                self.assertIn("message", reply.json)
        self.assertEqual(self.client.control("GET", "faults"), {"faults": []})


if __name__ == "__main__":
    unittest.main()
