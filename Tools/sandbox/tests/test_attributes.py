"""POST /api/v1/attributes: validation, Idempotency-Key replay, operation-id
dedup and the replay of the operation log."""

from __future__ import annotations

import unittest

from .support import (ATTRIBUTES, SandboxTestCase, make_attributes, make_event, make_op)

T1 = "2026-11-30T10:00:00.000Z"
T2 = "2026-11-30T11:00:00.000Z"
T3 = "2026-11-30T12:00:00.000Z"


class AttributesTestCase(SandboxTestCase):
    def attributes(self, **identity: str) -> dict:
        profile = self.client.profile(**(identity or {"anonymousId": "anon-1"}))
        return profile["attributes"] if profile else {}

    def assert_nothing_applied(self):
        self.assertEqual(self.client.profiles(), [])


class HappyPathTests(AttributesTestCase):
    def test_set_increment_unset(self):
        reply = self.client.post_attributes([
            make_op("w1", "set", "plan", value="pro"),
            make_op("w2", "increment", "visits", by=2),
            make_op("w3", "set", "nickname", value="Bo"),
            make_op("w4", "unset", "nickname"),
        ])
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.json, {"success": True, "applied": 4, "duplicates": 0})
        [profile] = self.client.profiles()
        self.assertEqual(profile["attributes"], {"plan": "pro", "visits": 2})
        self.assertEqual((profile["userId"], profile["anonymousIds"]), (None, ["anon-1"]))
        self.assertEqual(profile["operations"], [
            {"id": "w1", "op": "set", "key": "plan", "value": "pro", "timestamp": make_op()["timestamp"]},
            {"id": "w2", "op": "increment", "key": "visits", "by": 2, "timestamp": make_op()["timestamp"]},
            {"id": "w3", "op": "set", "key": "nickname", "value": "Bo", "timestamp": make_op()["timestamp"]},
            {"id": "w4", "op": "unset", "key": "nickname", "timestamp": make_op()["timestamp"]},
        ])

    def test_user_id_names_the_users_profile(self):
        self.client.post_attributes([make_op("w1")], userId="u1", anonymousId="a1")
        self.assertEqual(self.client.profile(userId="u1")["attributes"], {"plan": "pro"})
        self.assertIsNone(self.client.profile(anonymousId="a1"), "a userId never links")

    def test_values_of_any_json_type(self):
        values = {"s": "x", "i": 1, "f": 1.5, "b": False, "o": {"a": [1, {"b": 2}]}, "l": [], "e": {},
                  "deep": {"a": {"b": {"c": {"d": {"e": 1}}}}}}
        ops = [make_op(f"w{i}", key=key, value=value) for i, (key, value) in enumerate(values.items())]
        self.assertEqual(self.client.post_attributes(ops).status, 200)
        self.assertEqual(self.attributes(), values)

    def test_gzip_and_unknown_fields(self):
        body = make_attributes([make_op("w1", extra=True)], future=1)
        reply = self.client.post_json(ATTRIBUTES, body, gzip=True, headers={"Idempotency-Key": "g"})
        self.assertEqual((reply.status, reply.json["applied"]), (200, 1))


class IncrementTests(AttributesTestCase):
    def test_int_plus_int_stays_int(self):
        self.client.post_attributes([make_op("w1", "increment", "n", by=2),
                                     make_op("w2", "increment", "n", by=3)])
        value = self.attributes()["n"]
        self.assertEqual((value, type(value)), (5, int))
        self.assertIn(b'"attributes":{"n":5}', self.client.request("GET", "/_sandbox/profiles").raw)

    def test_float_makes_a_float(self):
        self.client.post_attributes([make_op("w1", "increment", "n", by=2),
                                     make_op("w2", "increment", "n", by=0.5),
                                     make_op("w3", "increment", "m", by=-1.0)])
        self.assertEqual(self.attributes(), {"n": 2.5, "m": -1.0})
        self.assertIsInstance(self.attributes()["m"], float)

    def test_missing_or_non_number_counts_as_zero(self):
        self.client.post_attributes([make_op("w1", "set", "s", value="text"),
                                     make_op("w2", "set", "b", value=True),
                                     make_op("w3", "increment", "s", by=4),
                                     make_op("w4", "increment", "b", by=1),
                                     make_op("w5", "increment", "missing", by=-7)])
        self.assertEqual(self.attributes(), {"s": 4, "b": 1, "missing": -7})

    def test_increment_after_set_number(self):
        self.client.post_attributes([make_op("w1", "set", "n", value=10),
                                     make_op("w2", "increment", "n", by=1)])
        self.assertEqual(self.attributes(), {"n": 11})


class ReplayOrderTests(AttributesTestCase):
    def test_a_later_arriving_older_write_does_not_override_a_newer_one(self):
        self.client.post_attributes([make_op("new", value="gold", timestamp=T2)], "k1")
        self.client.post_attributes([make_op("old", value="silver", timestamp=T1)], "k2")
        profile = self.client.profile(anonymousId="anon-1")
        self.assertEqual(profile["attributes"], {"plan": "gold"})
        # The log keeps the order the server applied them in.
        self.assertEqual([o["id"] for o in profile["operations"]], ["new", "old"])

    def test_equal_timestamps_follow_arrival_order(self):
        self.client.post_attributes([make_op("a", value="first", timestamp=T1)], "k1")
        self.client.post_attributes([make_op("b", value="second", timestamp=T1)], "k2")
        self.assertEqual(self.attributes(), {"plan": "second"})

    def test_order_within_a_request_is_by_timestamp(self):
        self.client.post_attributes([make_op("w1", value="late", timestamp=T3),
                                     make_op("w2", "unset", timestamp=T2),
                                     make_op("w3", value="early", timestamp=T1)])
        self.assertEqual(self.attributes(), {"plan": "late"})

    def test_increment_and_set_are_replayed_in_timestamp_order(self):
        self.client.post_attributes([make_op("set", "set", "n", value=5, timestamp=T2)], "k1")
        self.client.post_attributes([make_op("inc", "increment", "n", by=1, timestamp=T1)], "k2")
        self.assertEqual(self.attributes(), {"n": 5})
        self.client.post_attributes([make_op("inc2", "increment", "n", by=1, timestamp=T3)], "k3")
        self.assertEqual(self.attributes(), {"n": 6})

    def test_an_older_set_after_a_newer_unset_stays_removed(self):
        self.client.post_attributes([make_op("u", "unset", timestamp=T3)], "k1")
        self.client.post_attributes([make_op("s", value="x", timestamp=T2)], "k2")
        self.assertEqual(self.attributes(), {})

    def test_offsets_are_compared_as_moments(self):
        # 11:30+01:00 is 10:30Z: older than T2 (11:00Z) although it sorts later as text.
        self.client.post_attributes([make_op("a", value="newer", timestamp=T2)], "k1")
        self.client.post_attributes([make_op("b", value="older", timestamp="2026-11-30T11:30:00+01:00")], "k2")
        self.assertEqual(self.attributes(), {"plan": "newer"})


class IdempotencyTests(AttributesTestCase):
    def test_same_key_same_answer_nothing_applied_twice(self):
        ops = [make_op("w1", "increment", "n", by=1)]
        first = self.client.post_attributes(ops, "key-1")
        again = self.client.post_attributes(ops, "key-1")
        self.assertEqual(first.json, {"success": True, "applied": 1, "duplicates": 0})
        self.assertEqual(again.status, 200)
        self.assertEqual(again.json, {"success": True, "applied": 1, "duplicates": 0, "replayed": True})
        profile = self.client.profile(anonymousId="anon-1")
        self.assertEqual((profile["attributes"], len(profile["operations"])), ({"n": 1}, 1))

    def test_a_repeated_key_applies_nothing_even_with_other_operations(self):
        self.client.post_attributes([make_op("w1")], "key-1")
        again = self.client.post_attributes([make_op("w2", key="other")], "key-1")
        self.assertTrue(again.json["replayed"])
        self.assertEqual(self.attributes(), {"plan": "pro"})

    def test_a_rejection_is_replayed_too(self):
        first = self.client.post_attributes([make_op("w1", op="bogus")], "key-1")
        again = self.client.post_attributes([make_op("w1", op="bogus")], "key-1")
        self.assertEqual(first.status, 422)
        self.assertEqual((again.status, again.json), (422, first.json | {"replayed": True}))

    def test_operation_ids_are_applied_once_across_keys(self):
        self.client.post_attributes([make_op("w1", "increment", "n", by=1)], "key-1")
        reply = self.client.post_attributes([make_op("w1", "increment", "n", by=1),
                                             make_op("w2", "increment", "n", by=10)], "key-2")
        self.assertEqual(reply.json, {"success": True, "applied": 1, "duplicates": 1})
        self.assertEqual(self.attributes(), {"n": 11})

    def test_duplicate_ids_within_one_request(self):
        reply = self.client.post_attributes([make_op("w1", value="a"), make_op("w1", value="b")])
        self.assertEqual(reply.json, {"success": True, "applied": 1, "duplicates": 1})
        self.assertEqual(self.attributes(), {"plan": "a"})

    def test_operation_ids_are_server_wide(self):
        self.client.post_attributes([make_op("w1")], "key-1", anonymousId="a1")
        reply = self.client.post_attributes([make_op("w1")], "key-2", anonymousId="a2")
        self.assertEqual(reply.json["duplicates"], 1)
        self.assertEqual(self.client.profile(anonymousId="a2")["attributes"], {})

    def test_missing_empty_or_long_key_is_400(self):
        for key in (None, "", "k" * 129):
            with self.subTest(key=key):
                reply = self.client.post_attributes([make_op("w1")], key)
                self.assertEqual(reply.status, 400)
                self.assertEqual(reply.json["error"], "missing_idempotency_key")
        self.assertEqual(self.client.post_attributes([make_op("w1")], "k" * 128).status, 200)


class EnvelopeTests(AttributesTestCase):
    def post(self, body, key="k"):
        return self.client.post_json(ATTRIBUTES, body, headers={"Idempotency-Key": key})

    def test_invalid_body(self):
        for i, body in enumerate(([], "x", make_attributes([make_op()], sentAt=...),
                                  make_attributes([make_op()], sentAt="yesterday"),
                                  make_attributes([]), make_attributes(None), make_attributes({}),
                                  {"sentAt": make_op()["timestamp"], "anonymousId": "a"})):
            with self.subTest(body=body):
                reply = self.post(body, f"k{i}")
                self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_body"))
        self.assert_nothing_applied()

    def test_invalid_json_and_key_problems_come_from_the_pipeline(self):
        self.assertEqual(self.client.post_json(ATTRIBUTES, b"{", headers={"Idempotency-Key": "k"})
                         .json["error"], "invalid_json")
        self.assertEqual(self.client.post_json(ATTRIBUTES, make_attributes([make_op()]), key=None,
                                               headers={"Idempotency-Key": "k"}).status, 403)

    def test_too_many_operations(self):
        reply = self.post(make_attributes([make_op(f"w{i}") for i in range(1001)]))
        self.assertEqual((reply.status, reply.json["error"]), (413, "too_many_operations"))
        self.assert_nothing_applied()
        self.assertEqual(self.post(make_attributes([make_op(f"w{i}") for i in range(1000)]), "k2")
                         .json["applied"], 1000)

    def test_too_many_unsets(self):
        unsets = [make_op(f"u{i}", "unset", f"k{i}") for i in range(201)]
        reply = self.post(make_attributes(unsets))
        self.assertEqual((reply.status, reply.json["error"]), (413, "too_many_unsets"))
        self.assert_nothing_applied()
        self.assertEqual(self.post(make_attributes(unsets[:200] + [make_op("s")]), "k2").status, 200)

    def test_identity(self):
        cases = [({"anonymousId": 5}, "invalid_identity", "anonymousId"),
                 ({"anonymousId": "a", "userId": ["u"]}, "invalid_identity", "userId"),
                 ({"anonymousId": ...}, "missing_identity", None),
                 ({"anonymousId": "", "userId": None}, "missing_identity", None)]
        for i, (identity, error, field) in enumerate(cases):
            with self.subTest(identity=identity):
                reply = self.post(make_attributes([make_op()], **identity), f"k{i}")
                self.assertEqual(reply.status, 422)
                self.assertEqual(reply.json, {"success": False, "error": error,
                                              "errors": [{"field": field, "reason": error}]})
        self.assert_nothing_applied()


class OperationValidationTests(AttributesTestCase):
    def assert_reason(self, operation, reason):
        reply = self.client.post_attributes([make_op("good"), operation], f"key-{reason}-{id(operation)}")
        self.assertEqual(reply.status, 422, reply.raw)
        self.assertEqual(reply.json["error"], "invalid_operation")
        self.assertEqual([(e["index"], e["reason"]) for e in reply.json["errors"]], [(1, reason)])
        self.assert_nothing_applied()

    def test_every_reason(self):
        cases = [
            ("x", "not_an_object"), (None, "not_an_object"), ([make_op()], "not_an_object"),
            (make_op(...), "missing_operation_id"), (make_op(""), "missing_operation_id"),
            (make_op(7), "missing_operation_id"), (make_op("i" * 129), "missing_operation_id"),
            (make_op("w1", op=...), "invalid_op"), (make_op("w1", op="SET"), "invalid_op"),
            (make_op("w1", op="delete"), "invalid_op"),
            (make_op("w1", key=...), "invalid_key"), (make_op("w1", key=""), "invalid_key"),
            (make_op("w1", key=3), "invalid_key"), (make_op("w1", key="é" * 256), "invalid_key"),
            (make_op("w1", value=...), "invalid_value"), (make_op("w1", value=None), "invalid_value"),
            (make_op("w1", value={"a": {"b": {"c": {"d": {"e": {}}}}}}), "invalid_value"),
            (make_op("w1", value=[[[[[[]]]]]]), "invalid_value"),
            (make_op("w1", "increment", by=...), "invalid_increment"),
            (make_op("w1", "increment", by="1"), "invalid_increment"),
            (make_op("w1", "increment", by=True), "invalid_increment"),
            (make_op("w1", "increment", by=None), "invalid_increment"),
            (make_op("w1", timestamp=...), "invalid_timestamp"),
            (make_op("w1", timestamp="2026-13-40"), "invalid_timestamp"),
            (make_op("w1", "unset", timestamp=12), "invalid_timestamp"),
        ]
        for operation, reason in cases:
            with self.subTest(operation=operation, reason=reason):
                self.assert_reason(operation, reason)

    def test_limits_that_pass(self):
        reply = self.client.post_attributes([
            make_op("i" * 128, key="é" * 255, value=[[[[1]]]]),
            make_op("w2", "unset", value=None, by="ignored"),
            make_op("w3", "increment", "n", by=0),
        ])
        self.assertEqual((reply.status, reply.json["applied"]), (200, 3))

    def test_every_invalid_operation_is_listed_and_nothing_applied(self):
        reply = self.client.post_attributes([
            make_op("w0"), make_op("w1", op="nope", key=5), make_op(None, key="k"), make_op("w3"),
            make_op("w4", "increment", "n", by="2"),
        ])
        self.assertEqual(reply.status, 422)
        self.assertEqual(reply.json, {"success": False, "error": "invalid_operation", "errors": [
            {"index": 1, "id": "w1", "key": None, "reason": "invalid_op"},
            {"index": 2, "id": None, "key": "k", "reason": "missing_operation_id"},
            {"index": 4, "id": "w4", "key": "n", "reason": "invalid_increment"},
        ]})
        self.assert_nothing_applied()
        # None of the valid operation ids was remembered.
        self.assertEqual(self.client.post_attributes([make_op("w0"), make_op("w3", key="x")], "k2").json,
                         {"success": True, "applied": 2, "duplicates": 0})


class ProfileCreationTests(AttributesTestCase):
    def test_attributes_and_events_share_the_profile(self):
        self.client.post_events([make_event("m1", anonymousId="anon-1")])
        self.client.post_attributes([make_op("w1")])
        [profile] = self.client.profiles()
        self.assertEqual(profile["attributes"], {"plan": "pro"})


if __name__ == "__main__":
    unittest.main()
