"""Durable writes: /api/v1/identify, alias, subscriptions, opt-out and
push/unregister; writeId dedup, merge on identify, newest-timestamp-wins."""

from __future__ import annotations

import unittest

from .support import (ALIAS, IDENTIFY, OPT_OUT, PUSH_UNREGISTER, SUBSCRIPTIONS, SandboxTestCase,
                      make_event, make_op, make_write)

T1 = "2026-11-30T10:00:00.000Z"
T2 = "2026-11-30T11:00:00.000Z"
T3 = "2026-11-30T12:00:00.000Z"

# A valid body for each endpoint (besides the shared write fields).
PAYLOADS = {
    IDENTIFY: {"userId": "u1"},
    ALIAS: {"label": "email", "name": "bo@example.com"},
    SUBSCRIPTIONS: {"channel": "email", "status": "subscribed"},
    OPT_OUT: {"optedOut": True},
    PUSH_UNREGISTER: {"token": "tok-1"},
}


class WritesTestCase(SandboxTestCase):
    def write(self, path, write_id="x0", **fields):
        return self.client.post_json(path, make_write(write_id, **fields))

    def ok(self, path, write_id="x0", **fields):
        reply = self.write(path, write_id, **fields)
        self.assertEqual((reply.status, reply.json), (200, {"success": True}), reply.raw)

    def create_profile(self, **identity):
        """Profiles for subscriptions come from events."""
        identity = identity or {"anonymousId": "anon-1"}
        self.assertEqual(self.client.post_events(
            [make_event(f"m-{sorted(identity.items())}", **identity)]).status, 200)

    def profile(self, **identity):
        return self.client.profile(**(identity or {"anonymousId": "anon-1"}))

    def assert_error(self, reply, status, error, field=...):
        self.assertEqual((reply.status, reply.json["error"]), (status, error), reply.raw)
        if field is not ...:
            self.assertEqual(reply.json["errors"], [{"field": field, "reason": error}])


class EnvelopeTests(WritesTestCase):
    def test_shared_fields_are_400_invalid_body(self):
        self.create_profile()
        for path, payload in PAYLOADS.items():
            for fields in ({"writeId": ...}, {"writeId": ""}, {"writeId": 9}, {"writeId": "w" * 129},
                           {"timestamp": ...}, {"timestamp": "now"}, {"sentAt": ...},
                           {"sentAt": None}):
                with self.subTest(path=path, fields=fields):
                    self.assert_error(self.write(path, **payload | fields), 400, "invalid_body")
            with self.subTest(path=path, body="array"):
                self.assert_error(self.client.post_json(path, [make_write()]), 400, "invalid_body")
            with self.subTest(path=path, writeId="128 chars"):
                self.assertEqual(self.write(path, (path + "w" * 128)[:128], **payload).status, 200)

    def test_identity_on_every_endpoint(self):
        for path, payload in PAYLOADS.items():
            with self.subTest(path=path):
                self.assert_error(self.write(path, **payload | {"anonymousId": 1}),
                                  422, "invalid_identity", "anonymousId")
                if path != IDENTIFY:
                    self.assert_error(self.write(path, **payload | {"anonymousId": ""}),
                                      422, "missing_identity", None)
        self.assert_error(self.write(IDENTIFY, userId=..., anonymousId=...), 422, "missing_identity", None)
        self.assertEqual(self.client.profiles(), [])

    def test_unknown_fields_are_ignored(self):
        self.ok(IDENTIFY, userId="u1", future={"x": 1})


class WriteIdTests(WritesTestCase):
    def test_a_repeated_write_id_is_a_duplicate_and_applies_nothing(self):
        self.ok(ALIAS, "w1", label="email", name="a@x")
        reply = self.write(ALIAS, "w1", label="email", name="b@x")
        self.assertEqual((reply.status, reply.json), (200, {"success": True, "duplicate": True}))
        self.assertEqual(self.profile()["aliases"], {"email": "a@x"})

    def test_write_ids_are_shared_by_all_endpoints(self):
        self.ok(OPT_OUT, "w1", optedOut=True)
        self.assertTrue(self.write(PUSH_UNREGISTER, "w1", token="t").json["duplicate"])
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})

    def test_duplicate_opt_out_adds_no_operation(self):
        self.ok(OPT_OUT, "w1", optedOut=True)
        self.assertTrue(self.write(OPT_OUT, "w1", optedOut=True).json["duplicate"])
        self.assertEqual(len(self.profile()["operations"]), 1)

    def test_a_refused_write_is_not_remembered(self):
        self.assert_error(self.write(SUBSCRIPTIONS, "w1", channel="sms", status="subscribed"),
                          404, "profile_not_found")
        self.create_profile()
        self.ok(SUBSCRIPTIONS, "w1", channel="sms", status="subscribed")

    def test_validation_comes_before_the_duplicate_test(self):
        self.ok(IDENTIFY, "w1", userId="u1")
        self.assert_error(self.write(IDENTIFY, "w1", userId=""), 422, "missing_user_id", "userId")


class IdentifyTests(WritesTestCase):
    def test_missing_user_id(self):
        for user_id in (..., None, ""):
            with self.subTest(userId=user_id):
                self.assert_error(self.write(IDENTIFY, userId=user_id), 422, "missing_user_id", "userId")
        self.assertEqual(self.client.profiles(), [])

    def test_creates_the_user_and_links_an_unseen_anonymous_id(self):
        self.ok(IDENTIFY, userId="u1", anonymousId="a1")
        [profile] = self.client.profiles()
        self.assertEqual((profile["userId"], profile["anonymousIds"]), ("u1", ["a1"]))
        self.assertEqual(self.client.profile(anonymousId="a1")["id"], profile["id"])

    def test_without_anonymous_id(self):
        self.ok(IDENTIFY, userId="u1", anonymousId=None)
        self.assertEqual(self.client.profile(userId="u1")["anonymousIds"], [])

    def test_merge_moves_the_anonymous_profile_into_the_user(self):
        # The anonymous visitor: attributes, an alias, subscriptions, a group.
        self.create_profile(anonymousId="a1")
        self.client.post_attributes([make_op("anon-op", key="plan", value="free", timestamp=T1),
                                     make_op("anon-n", "increment", "n", by=1, timestamp=T1)],
                                    "k1", anonymousId="a1")
        self.ok(ALIAS, "al1", anonymousId="a1", label="email", name="anon@x")
        self.ok(ALIAS, "al2", anonymousId="a1", label="crm", name="c-1")
        self.ok(SUBSCRIPTIONS, "s1", anonymousId="a1", channel="email", status="unsubscribed", timestamp=T2)
        self.ok(SUBSCRIPTIONS, "s2", anonymousId="a1", channel="sms", status="optedIn", timestamp=T1)
        self.ok(SUBSCRIPTIONS, "g1", anonymousId="a1", channel="email", groupId="news", action="join",
                timestamp=T2)
        self.ok(SUBSCRIPTIONS, "g2", anonymousId="a1", channel="email", groupId="promo", action="leave",
                timestamp=T3)
        # The user, known already.
        self.create_profile(userId="u1")
        self.client.post_attributes([make_op("user-op", key="plan", value="pro", timestamp=T2),
                                     make_op("user-n", "increment", "n", by=10, timestamp=T2)],
                                    "k2", userId="u1")
        self.ok(ALIAS, "al3", userId="u1", label="email", name="user@x")
        self.ok(SUBSCRIPTIONS, "s3", userId="u1", channel="email", status="subscribed", timestamp=T1)
        self.ok(SUBSCRIPTIONS, "s4", userId="u1", channel="sms", status="unsubscribed", timestamp=T2)
        self.ok(SUBSCRIPTIONS, "g3", userId="u1", channel="email", groupId="news", action="leave",
                timestamp=T1)
        self.ok(SUBSCRIPTIONS, "g4", userId="u1", channel="email", groupId="promo", action="join",
                timestamp=T2)
        self.ok(SUBSCRIPTIONS, "g5", userId="u1", channel="push", groupId="b", action="join")

        self.ok(IDENTIFY, "id1", userId="u1", anonymousId="a1")

        [profile] = self.client.profiles()
        self.assertEqual((profile["userId"], profile["anonymousIds"]), ("u1", ["a1"]))
        self.assertEqual(sorted(o["id"] for o in profile["operations"]),
                         ["anon-n", "anon-op", "user-n", "user-op"])
        self.assertEqual([o["id"] for o in profile["operations"]],
                         ["anon-op", "anon-n", "user-op", "user-n"], "applied order")
        self.assertEqual(profile["attributes"], {"plan": "pro", "n": 11})
        self.assertEqual(profile["aliases"], {"email": "user@x", "crm": "c-1"})
        self.assertEqual(profile["subscriptions"], {"email": "unsubscribed", "sms": "unsubscribed"})
        self.assertEqual(profile["groups"], {"email": ["news"], "push": ["b"]})
        # The anonymous id now resolves to the user, for every kind of request.
        self.assertEqual(self.client.profile(anonymousId="a1")["id"], profile["id"])
        self.client.post_events([make_event("later", anonymousId="a1")])
        self.client.post_attributes([make_op("later", key="x", value=1)], "k3", anonymousId="a1")
        self.ok(SUBSCRIPTIONS, "s9", anonymousId="a1", channel="viber", status="optedIn")
        [profile] = self.client.profiles()
        self.assertEqual((profile["attributes"]["x"], profile["subscriptions"]["viber"]), (1, "optedIn"))

    def test_merged_alias_no_longer_conflicts_elsewhere(self):
        self.ok(ALIAS, "al1", anonymousId="a1", label="email", name="e@x")
        self.ok(IDENTIFY, "id1", userId="u1", anonymousId="a1")
        self.assertEqual(self.client.profile(userId="u1")["aliases"], {"email": "e@x"})
        self.assert_error(self.write(ALIAS, "al2", userId="u2", label="email", name="e@x"),
                          409, "alias_conflict")

    def test_an_id_linked_to_another_user_stays(self):
        self.client.post_attributes([make_op("w1")], "k1", anonymousId="a1")
        self.ok(IDENTIFY, "id1", userId="u1", anonymousId="a1")
        self.ok(IDENTIFY, "id2", userId="u2", anonymousId="a1")
        u1, u2 = self.client.profiles()
        self.assertEqual((u1["userId"], u1["anonymousIds"], u1["attributes"]), ("u1", ["a1"], {"plan": "pro"}))
        self.assertEqual((u2["userId"], u2["anonymousIds"], u2["attributes"]), ("u2", [], {}))
        self.assertEqual(self.client.profile(anonymousId="a1")["userId"], "u1")

    def test_identify_again_changes_nothing(self):
        self.create_profile(anonymousId="a1")
        self.ok(IDENTIFY, "id1", userId="u1", anonymousId="a1")
        self.ok(IDENTIFY, "id2", userId="u1", anonymousId="a1")
        [profile] = self.client.profiles()
        self.assertEqual(profile["anonymousIds"], ["a1"])

    def test_several_anonymous_ids_join_one_user(self):
        for anonymous_id in ("a1", "a2"):
            self.client.post_attributes([make_op(f"op-{anonymous_id}", key=anonymous_id, value=1)],
                                        f"k-{anonymous_id}", anonymousId=anonymous_id)
            self.ok(IDENTIFY, f"id-{anonymous_id}", userId="u1", anonymousId=anonymous_id)
        [profile] = self.client.profiles()
        self.assertEqual((profile["anonymousIds"], profile["attributes"]), (["a1", "a2"], {"a1": 1, "a2": 1}))

    def test_events_never_link(self):
        self.client.post_events([make_event("m1", userId="u1", anonymousId="a1")])
        [profile] = self.client.profiles()
        self.assertEqual((profile["userId"], profile["anonymousIds"]), ("u1", []))
        self.assertIsNone(self.client.profile(anonymousId="a1"))


class AliasTests(WritesTestCase):
    def test_sets_and_replaces_a_label(self):
        self.ok(ALIAS, "w1", label="email", name="a@x")
        self.ok(ALIAS, "w2", label="email", name="b@x")
        self.ok(ALIAS, "w3", label="crm_id_2", name="é" * 255)
        self.assertEqual(self.profile()["aliases"], {"email": "b@x", "crm_id_2": "é" * 255})

    def test_invalid_label(self):
        for label in (..., None, "", "Email", "e-mail", "e mail", "a" * 65, 5):
            with self.subTest(label=label):
                self.assert_error(self.write(ALIAS, label=label, name="n"), 422, "invalid_label", "label")
        self.ok(ALIAS, "w1", label="a" * 64, name="n")

    def test_invalid_alias_name(self):
        for name in (..., None, "", "n" * 256, 5):
            with self.subTest(name=name):
                self.assert_error(self.write(ALIAS, label="email", name=name),
                                  422, "invalid_alias_name", "name")
        self.assertEqual(self.client.profiles(), [])

    def test_conflict_with_another_profile_changes_nothing(self):
        self.ok(ALIAS, "w1", anonymousId="a1", label="email", name="a@x")
        reply = self.write(ALIAS, "w2", anonymousId="a2", label="email", name="a@x")
        self.assertEqual((reply.status, reply.json), (409, {"success": False, "error": "alias_conflict",
                                                            "message": reply.json["message"]}))
        self.assertIsNone(self.client.profile(anonymousId="a2"), "not created")
        self.create_profile(anonymousId="a2")
        self.assert_error(self.write(ALIAS, "w2", anonymousId="a2", label="email", name="a@x"),
                          409, "alias_conflict")
        self.assertEqual(self.client.profile(anonymousId="a2")["aliases"], {})
        # Same name under another label, or the same alias again on its own profile: fine.
        self.ok(ALIAS, "w3", anonymousId="a2", label="crm", name="a@x")
        self.ok(ALIAS, "w4", anonymousId="a1", label="email", name="a@x")


class SubscriptionTests(WritesTestCase):
    def test_404_until_an_event_creates_the_profile(self):
        reply = self.write(SUBSCRIPTIONS, "s1", channel="email", status="subscribed")
        self.assert_error(reply, 404, "profile_not_found")
        self.assertEqual(self.client.profiles(), [])
        self.client.post_events([make_event("m1", anonymousId="anon-1")])
        self.ok(SUBSCRIPTIONS, "s1", channel="email", status="subscribed")
        self.assertEqual(self.profile()["subscriptions"], {"email": "subscribed"})

    def test_a_user_id_needs_the_users_profile(self):
        self.create_profile(anonymousId="a1")
        self.assert_error(self.write(SUBSCRIPTIONS, userId="u1", anonymousId="a1", channel="email",
                                     status="subscribed"), 404, "profile_not_found")

    def test_rejected_event_or_failed_index_creates_no_profile(self):
        self.client.post_events([make_event("m1", type="nope")])
        self.client.fault(path="/api/v1/events", failedIndices=[0])
        self.client.post_events([make_event("m2")])
        self.assert_error(self.write(SUBSCRIPTIONS, channel="email", status="subscribed"),
                          404, "profile_not_found")

    def test_other_writes_create_a_profile_for_subscriptions(self):
        self.ok(OPT_OUT, "o1", anonymousId="a1", optedOut=False)
        self.client.post_attributes([make_op("w1")], "k1", anonymousId="a2")
        self.ok(ALIAS, "al1", anonymousId="a3", label="l", name="n")
        self.ok(IDENTIFY, "id1", userId="u4")
        for identity in ({"anonymousId": "a1"}, {"anonymousId": "a2"}, {"anonymousId": "a3"},
                         {"userId": "u4"}):
            self.ok(SUBSCRIPTIONS, f"s-{identity}", channel="email", status="subscribed",
                    **{"anonymousId": None} | identity)
        # Push unregister needs no profile and creates none.
        self.ok(PUSH_UNREGISTER, "p1", anonymousId="a9", token="t")
        self.assertIsNone(self.client.profile(anonymousId="a9"))

    def test_validation(self):
        self.create_profile()
        cases = [
            ({"channel": "fax", "status": "subscribed"}, 422, "invalid_channel", "channel"),
            ({"channel": None, "status": "subscribed"}, 422, "invalid_channel", "channel"),
            ({"channel": "email", "status": "yes"}, 422, "invalid_status", "status"),
            ({"channel": "email", "status": "Subscribed"}, 422, "invalid_status", "status"),
            ({"channel": "email", "groupId": "", "action": "join"}, 422, "invalid_group", "groupId"),
            ({"channel": "email", "groupId": "g" * 129, "action": "join"}, 422, "invalid_group", "groupId"),
            ({"channel": "email", "groupId": 4, "action": "join"}, 422, "invalid_group", "groupId"),
            ({"channel": "email", "groupId": "g", "action": "add"}, 422, "invalid_action", "action"),
            ({"channel": "email", "groupId": "g"}, 422, "invalid_action", "action"),
            ({"channel": "email"}, 400, "invalid_body", ...),
            ({"channel": "email", "status": "subscribed", "groupId": "g", "action": "join"},
             400, "invalid_body", ...),
        ]
        for fields, status, error, field in cases:
            with self.subTest(fields=fields):
                self.assert_error(self.write(SUBSCRIPTIONS, **fields), status, error, field)
        self.assertEqual((self.profile()["subscriptions"], self.profile()["groups"]), ({}, {}))
        for channel in ("email", "sms", "whatsapp", "push", "viber"):
            self.ok(SUBSCRIPTIONS, f"s-{channel}", channel=channel, status="optedIn")
        self.ok(SUBSCRIPTIONS, "g-128", channel="sms", groupId="g" * 128, action="join")

    def test_newest_timestamp_wins_per_channel(self):
        self.create_profile()
        self.ok(SUBSCRIPTIONS, "s1", channel="email", status="unsubscribed", timestamp=T2)
        self.ok(SUBSCRIPTIONS, "s2", channel="email", status="subscribed", timestamp=T1)  # older: ignored
        self.ok(SUBSCRIPTIONS, "s3", channel="sms", status="subscribed", timestamp=T1)   # other channel
        self.assertEqual(self.profile()["subscriptions"], {"email": "unsubscribed", "sms": "subscribed"})
        self.ok(SUBSCRIPTIONS, "s4", channel="email", status="optedIn", timestamp=T2)    # same time: applies
        self.ok(SUBSCRIPTIONS, "s5", channel="sms", status="unsubscribed", timestamp=T3)
        self.assertEqual(self.profile()["subscriptions"], {"email": "optedIn", "sms": "unsubscribed"})

    def test_newest_timestamp_wins_per_group(self):
        self.create_profile()
        self.ok(SUBSCRIPTIONS, "g1", channel="email", groupId="b", action="join", timestamp=T2)
        self.ok(SUBSCRIPTIONS, "g2", channel="email", groupId="a", action="join", timestamp=T1)
        self.ok(SUBSCRIPTIONS, "g3", channel="sms", groupId="a", action="join", timestamp=T1)
        self.ok(SUBSCRIPTIONS, "g4", channel="email", groupId="b", action="leave", timestamp=T1)  # older
        self.assertEqual(self.profile()["groups"], {"email": ["a", "b"], "sms": ["a"]})
        self.ok(SUBSCRIPTIONS, "g5", channel="email", groupId="a", action="leave", timestamp=T3)
        self.ok(SUBSCRIPTIONS, "g6", channel="email", groupId="a", action="join", timestamp=T2)   # older
        self.ok(SUBSCRIPTIONS, "g7", channel="sms", groupId="a", action="leave", timestamp=T1)    # same time
        self.assertEqual(self.profile()["groups"], {"email": ["b"]})
        self.assertEqual(self.profile()["subscriptions"], {}, "groups and statuses are separate")


class OptOutTests(WritesTestCase):
    def test_appends_a_tracking_opted_out_operation(self):
        self.ok(OPT_OUT, "o1", optedOut=True, timestamp=T1)
        profile = self.profile()
        self.assertEqual(profile["attributes"], {"tracking_opted_out": True})
        self.assertEqual(profile["operations"], [
            {"id": "o1", "op": "set", "key": "tracking_opted_out", "value": True, "timestamp": T1}])

    def test_is_ordered_with_attribute_writes_by_timestamp(self):
        self.ok(OPT_OUT, "o1", optedOut=False, timestamp=T3)
        self.ok(OPT_OUT, "o2", optedOut=True, timestamp=T2)   # older, arrives later
        self.client.post_attributes([make_op("w1", key="tracking_opted_out", value="x", timestamp=T1)])
        self.assertEqual(self.profile()["attributes"], {"tracking_opted_out": False})

    def test_opted_out_must_be_a_boolean(self):
        for value in (..., None, "true", 1):
            with self.subTest(optedOut=value):
                self.assert_error(self.write(OPT_OUT, optedOut=value), 400, "invalid_body")
        self.assertEqual(self.client.profiles(), [])


class PushUnregisterTests(WritesTestCase):
    def test_records_tokens(self):
        self.ok(PUSH_UNREGISTER, "p1", token="tok-1")
        self.ok(PUSH_UNREGISTER, "p2", token="t" * 4096, userId="u1", anonymousId=None)
        self.ok(PUSH_UNREGISTER, "p3", token="tok-1")
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": ["tok-1", "t" * 4096]})
        self.assertEqual(self.client.profiles(), [])

    def test_token_must_be_a_string_of_1_to_4096(self):
        for token in (..., None, "", "t" * 4097, 12):
            with self.subTest(token=token if token != "t" * 4097 else "4097 chars"):
                self.assert_error(self.write(PUSH_UNREGISTER, token=token), 400, "invalid_body")
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})


if __name__ == "__main__":
    unittest.main()
