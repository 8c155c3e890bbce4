"""SDK authentication (protocol version 3): HS256 JWTs in `Authorization:
Bearer`, the auth settings and token minting of the control API, the 401
answer and its four reasons on every endpoint family, and the request log's
`authSub`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import unittest

from .support import (ALIAS, ATTRIBUTES, EVENTS, IDENTIFY, OPT_OUT, PUSH_CLICK, PUSH_RECEIPT, PUSH_REGISTER,
                      PUSH_UNREGISTER, SUBSCRIPTIONS,
                      Client, SandboxProcess, SandboxTestCase, make_attributes, make_batch, make_event,
                      make_op, make_report, make_write)

SECRET = "sandbox-secret"
NOW = 1_800_000_000          # 2027-01-15, the auth clock in most tests
LATER = NOW + 3600


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jwt(claims: dict, secret: str = SECRET, header: dict | None = None) -> str:
    """An HS256 JWT written out independently of the code under test."""
    header = header if header is not None else {"alg": "HS256", "typ": "JWT"}
    signing_input = b64url(json.dumps(header).encode()) + "." + b64url(json.dumps(claims).encode())
    signature = hmac.new(secret.encode(), signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + b64url(signature)


def payload_of(token: str) -> dict:
    segment = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# One valid request per endpoint family member, for user `u1` (`userId=None`: anonymous).
def events_body(user_id):
    return make_batch([make_event("m1", userId=user_id)])


def attributes_body(user_id):
    return make_attributes([make_op("w1")], userId=user_id)


def write_body(**fields):
    return lambda user_id: make_write("x1", userId=user_id, **fields)


ENDPOINTS = {
    EVENTS: events_body,
    ATTRIBUTES: attributes_body,
    IDENTIFY: write_body(),
    ALIAS: write_body(label="email", name="bo@example.com"),
    SUBSCRIPTIONS: write_body(channel="email", status="subscribed"),
    OPT_OUT: write_body(optedOut=True),
    PUSH_UNREGISTER: write_body(token="tok-1"),
    PUSH_REGISTER: write_body(token="ab12", environment="production"),
    PUSH_RECEIPT: lambda user_id: make_report("r1", userId=user_id),
    PUSH_CLICK: lambda user_id: make_report("c1", userId=user_id),
}


class AuthTestCase(SandboxTestCase):
    def configure(self, **settings):
        return self.client.control("POST", "auth", settings)

    def enable(self, **settings):
        return self.configure(**{"enabled": True, "secret": SECRET, "now": NOW} | settings)

    def post(self, path, body, token=None, idempotency_key="k1", headers=None):
        sent = dict(headers or {})
        if token is not None:
            sent |= bearer(token)
        if path == ATTRIBUTES and idempotency_key is not None:
            sent["Idempotency-Key"] = idempotency_key
        return self.client.post_json(path, body, headers=sent)

    def assert_401(self, reply, reason):
        self.assertEqual((reply.status, reply.json),
                         (401, {"success": False, "error": "unauthorized", "reason": reason}), reply.raw)

    def assert_ok(self, reply):
        self.assertEqual(reply.status, 200, reply.raw)
        self.assertTrue(reply.json["success"], reply.raw)

    def create_profiles(self, *users):
        """Subscriptions need an existing profile (created while auth is off)."""
        settings = self.client.control("GET", "auth")
        self.configure(enabled=False)
        for user in users:
            self.assert_ok(self.client.post_events([make_event(f"p-{user}", userId=user)]))
        self.configure(enabled=settings["enabled"])


class ReasonTests(AuthTestCase):
    """Each reason on each endpoint family, in the documented order."""

    def setUp(self):
        super().setUp()
        self.enable()

    # AUTH-1 / AUTH-2: with SDK auth on, a request that names a user must carry a token.
    def test_missing(self):
        for path, body in ENDPOINTS.items():
            with self.subTest(path=path):
                self.assert_401(self.post(path, body("u1")), "missing")
                self.assert_401(self.post(path, body("u1"), headers={"Authorization": "Bearer "}), "missing")
                self.assert_401(self.post(path, body("u1"), headers={"Authorization": "Basic dTE6cHc="}),
                                "missing")

    def test_invalid(self):
        good = jwt({"sub": "u1", "exp": LATER})
        header, payload, signature = good.split(".")
        tokens = {
            "other secret": jwt({"sub": "u1", "exp": LATER}, secret="another-secret"),
            "two segments": header + "." + payload,
            "four segments": good + ".x",
            "bad base64": header + "." + payload + "!" + "." + signature,
            "padding": good + "=",
            "alg none": jwt({"sub": "u1", "exp": LATER}, header={"alg": "none", "typ": "JWT"})
                        .rsplit(".", 1)[0] + ".",
            "alg HS512": jwt({"sub": "u1", "exp": LATER}, header={"alg": "HS512", "typ": "JWT"}),
            "header not JSON": b64url(b"alg") + "." + payload + "." + signature,
            "tampered payload": header + "." + b64url(json.dumps({"sub": "u1", "exp": LATER + 1}).encode())
                                + "." + signature,
            "no sub": jwt({"exp": LATER}),
            "empty sub": jwt({"sub": "", "exp": LATER}),
            "no exp": jwt({"sub": "u1"}),
            "exp a string": jwt({"sub": "u1", "exp": str(LATER)}),
            "payload an array": jwt(["u1"]),
        }
        for path, body in ENDPOINTS.items():
            for name, token in tokens.items():
                with self.subTest(path=path, token=name):
                    self.assert_401(self.post(path, body("u1"), token), "invalid")

    def test_expired(self):
        for path, body in ENDPOINTS.items():
            with self.subTest(path=path):
                self.assert_401(self.post(path, body("u1"), jwt({"sub": "u1", "exp": NOW})), "expired")
                self.assert_401(self.post(path, body("u1"), jwt({"sub": "u1", "exp": NOW - 60})), "expired")
        # expired comes before sub_mismatch
        self.assert_401(self.post(EVENTS, events_body("u2"), jwt({"sub": "u1", "exp": NOW})), "expired")

    def test_sub_mismatch(self):
        token = jwt({"sub": "u2", "exp": LATER})
        for path, body in ENDPOINTS.items():
            with self.subTest(path=path):
                self.assert_401(self.post(path, body("u1"), token), "sub_mismatch")

    def test_a_valid_token_for_the_user_is_accepted(self):
        self.create_profiles("u1")
        token = jwt({"sub": "u1", "exp": NOW + 1, "iat": NOW})
        for path, body in ENDPOINTS.items():
            with self.subTest(path=path):
                self.assert_ok(self.post(path, body("u1"), token))
        self.assert_ok(self.post(EVENTS, events_body("u1"), headers={"Authorization": f"bearer  {token} "}))

    # BATCH-13: the server refuses a batch that mixes two users.
    def test_a_batch_mixing_two_users_fails_with_sub_mismatch(self):
        batch = make_batch([make_event("m1", userId="u1"), make_event("m2", userId="u2")])
        for sub in ("u1", "u2"):
            with self.subTest(sub=sub):
                self.assert_401(self.post(EVENTS, batch, jwt({"sub": sub, "exp": LATER})), "sub_mismatch")
        # anonymous events next to the user's are the user's request
        batch = make_batch([make_event("m1", userId="u1"), make_event("m2", userId=None),
                            make_event("m3", userId=""), make_event("m4")])
        self.assert_401(self.post(EVENTS, batch), "missing")
        self.assert_ok(self.post(EVENTS, batch, jwt({"sub": "u1", "exp": LATER})))
        self.assertEqual(len(self.client.events()), 4)


class AnonymousTests(AuthTestCase):
    # AUTH-1: anonymous visitors have no token to show and are accepted without one.
    def test_anonymous_requests_need_no_token(self):
        self.enable()
        for path, body in ENDPOINTS.items():
            if path in (IDENTIFY, SUBSCRIPTIONS):
                continue  # identify needs a user; a subscription a profile
            with self.subTest(path=path):
                self.assert_ok(self.post(path, body(None)))
        self.assert_ok(self.post(SUBSCRIPTIONS, write_body(channel="email", status="subscribed")(None)))

    def test_a_token_on_an_anonymous_request_is_not_checked_without_strict_identity(self):
        self.enable()
        self.assert_ok(self.post(EVENTS, events_body(None), "garbage"))
        self.assert_ok(self.post(EVENTS, events_body(""), jwt({"sub": "u9", "exp": NOW - 1})))

    # AUTH-1: unless the workspace also enables strict identity.
    def test_strict_identity_needs_a_valid_token_but_does_not_compare_sub(self):
        self.enable(strictIdentity=True)
        for path, body in ENDPOINTS.items():
            if path == IDENTIFY:
                continue
            with self.subTest(path=path):
                self.assert_401(self.post(path, body(None)), "missing")
                self.assert_401(self.post(path, body(None), "a.b.c"), "invalid")
                self.assert_401(self.post(path, body(None), jwt({"sub": "u1", "exp": NOW})), "expired")
        self.assert_ok(self.post(EVENTS, events_body(None), jwt({"sub": "someone", "exp": LATER})))
        self.assert_ok(self.post(ATTRIBUTES, attributes_body(None), jwt({"sub": "someone", "exp": LATER})))
        self.assert_ok(self.post(OPT_OUT, write_body(optedOut=True)(None), jwt({"sub": "x", "exp": LATER})))
        # users named: sub is compared as usual
        self.assert_401(self.post(EVENTS, events_body("u1"), jwt({"sub": "someone", "exp": LATER})),
                        "sub_mismatch")

    def test_a_user_id_that_is_not_a_string_is_left_to_validation(self):
        self.enable()
        reply = self.post(EVENTS, make_batch([make_event("m1", userId=5)]))
        self.assertEqual((reply.status, reply.json["error"]), (422, "invalid_event"))
        reply = self.post(ATTRIBUTES, attributes_body(5))
        self.assertEqual((reply.status, reply.json["error"]), (422, "invalid_identity"))


class NothingAppliedTests(AuthTestCase):
    def setUp(self):
        super().setUp()
        self.enable()

    def test_no_events_stored(self):
        self.assert_401(self.post(EVENTS, events_body("u1")), "missing")
        self.assertEqual((self.client.events(), self.client.profiles()), ([], []))
        [entry] = self.client.requests(EVENTS)
        self.assertEqual(entry["status"], 401)
        # the same messageId is stored once a token is given
        self.assert_ok(self.post(EVENTS, events_body("u1"), jwt({"sub": "u1", "exp": LATER})))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m1"])

    def test_no_profile_changes(self):
        self.create_profiles("u1")
        before = self.client.profiles()
        wrong = jwt({"sub": "u2", "exp": LATER})
        for path, body in ENDPOINTS.items():
            if path != EVENTS:
                with self.subTest(path=path):
                    self.assert_401(self.post(path, body("u1"), wrong), "sub_mismatch")
        self.assertEqual(self.client.profiles(), before)
        self.assertEqual(self.client.control("GET", "push-unregistered"), {"tokens": []})

    def test_a_401_is_not_remembered_under_its_idempotency_key_or_write_id(self):
        token = jwt({"sub": "u1", "exp": LATER})
        self.assert_401(self.post(ATTRIBUTES, attributes_body("u1"), idempotency_key="k9"), "missing")
        reply = self.post(ATTRIBUTES, attributes_body("u1"), token, idempotency_key="k9")
        self.assertEqual(reply.json, {"success": True, "applied": 1, "duplicates": 0})
        self.assert_401(self.post(ALIAS, ENDPOINTS[ALIAS]("u1")), "missing")
        self.assertEqual(self.post(ALIAS, ENDPOINTS[ALIAS]("u1"), token).json, {"success": True})
        self.assertEqual(self.client.profile(userId="u1")["attributes"], {"plan": "pro"})

    def test_a_remembered_answer_is_not_replayed_to_a_request_without_a_valid_token(self):
        token = jwt({"sub": "u1", "exp": LATER})
        self.assert_ok(self.post(ATTRIBUTES, attributes_body("u1"), token))
        self.assert_401(self.post(ATTRIBUTES, attributes_body("u1")), "missing")
        self.assertTrue(self.post(ATTRIBUTES, attributes_body("u1"), token).json["replayed"])


class OrderTests(AuthTestCase):
    def setUp(self):
        super().setUp()
        self.enable()

    def test_sdk_key_and_body_parsing_come_first(self):
        body = events_body("u1")
        self.assertEqual(self.client.post_json(EVENTS, body, key=None).status, 403)
        self.assertEqual(self.client.post_json(EVENTS, b"{", key="jry_sdk_x").json["error"], "invalid_json")
        reply = self.client.post_json(EVENTS, body, headers={"Content-Type": "text/plain"})
        self.assertEqual(reply.status, 400)

    def test_authentication_comes_before_content_validation(self):
        self.assert_401(self.post(EVENTS, make_batch([make_event("m1", userId="u1", type="page")])),
                        "missing")
        self.assert_401(self.post(ATTRIBUTES, attributes_body("u1"), idempotency_key=None), "missing")
        self.assert_401(self.post(ATTRIBUTES, make_attributes([make_op("w1", op="nope")], userId="u1")),
                        "missing")
        self.assert_401(self.post(ALIAS, make_write("x1", userId="u1", label="Bad Label", name="n")),
                        "missing")
        self.assert_401(self.post(SUBSCRIPTIONS, write_body(channel="email", status="subscribed")("u1"),
                                  jwt({"sub": "u1", "exp": NOW})), "expired")

    def test_a_scripted_status_fault_answers_before_authentication(self):
        self.client.fault(path=EVENTS, status=503)
        self.assertEqual(self.post(EVENTS, events_body("u1")).status, 503)
        self.assert_401(self.post(EVENTS, events_body("u1")), "missing")


class SettingsTests(AuthTestCase):
    def test_off_by_default_and_tokens_are_then_ignored(self):
        self.assertEqual(self.client.control("GET", "auth"),
                         {"enabled": False, "secret": None, "strictIdentity": False, "now": None})
        self.assert_ok(self.post(EVENTS, events_body("u1")))
        self.assert_ok(self.post(IDENTIFY, ENDPOINTS[IDENTIFY]("u1"), "not.a.token"))

    def test_settings_are_updated_field_by_field(self):
        self.assertEqual(self.enable(), {"enabled": True, "secret": SECRET, "strictIdentity": False,
                                         "now": NOW})
        self.assertEqual(self.configure(strictIdentity=True)["strictIdentity"], True)
        self.assertEqual(self.configure(now=None), {"enabled": True, "secret": SECRET,
                                                    "strictIdentity": True, "now": None})
        self.assertEqual(self.configure(enabled=False)["secret"], SECRET)
        self.assertEqual(self.client.control("GET", "auth")["enabled"], False)

    def test_bad_settings_are_refused_and_change_nothing(self):
        for body in ({"enabled": "yes"}, {"secret": ""}, {"secret": 5}, {"strictIdentity": 1},
                     {"now": "today"}, {"now": True}, {"enabled": True}, {"strict_identity": True}, []):
            with self.subTest(body=body):
                reply = self.client.post_json("/_sandbox/auth", body, key=None)
                self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_auth"), reply.raw)
        self.assertEqual(self.client.control("GET", "auth")["enabled"], False)

    def test_the_real_clock_is_used_when_now_is_null(self):
        self.enable(now=None)
        self.assert_ok(self.post(EVENTS, events_body("u1"), jwt({"sub": "u1", "exp": 4_000_000_000})))
        self.assert_401(self.post(EVENTS, events_body("u1"), jwt({"sub": "u1", "exp": NOW - 10**8})),
                        "expired")

    def test_changing_the_secret_invalidates_earlier_tokens(self):
        self.enable()
        token = jwt({"sub": "u1", "exp": LATER})
        self.assert_ok(self.post(EVENTS, events_body("u1"), token))
        self.configure(secret="rotated")
        self.assert_401(self.post(EVENTS, make_batch([make_event("m2", userId="u1")]), token), "invalid")

    def test_reset_turns_auth_off_and_clears_the_settings(self):
        self.enable(strictIdentity=True)
        self.client.control("POST", "reset")
        self.assertEqual(self.client.control("GET", "auth"),
                         {"enabled": False, "secret": None, "strictIdentity": False, "now": None})
        self.assert_ok(self.post(EVENTS, events_body("u1")))


class MintTests(AuthTestCase):
    def mint(self, **body):
        return self.client.control("POST", "auth/token", body)["token"]

    def test_minted_tokens_are_hs256_jwts_relative_to_the_auth_clock(self):
        self.enable()
        token = self.mint(sub="u1", expiresIn=60)
        header = json.loads(base64.urlsafe_b64decode(token.split(".")[0] + "=="))
        self.assertEqual(header, {"alg": "HS256", "typ": "JWT"})
        self.assertEqual(payload_of(token), {"sub": "u1", "exp": NOW + 60, "iat": NOW})
        self.assertNotIn("=", token)
        self.assert_ok(self.post(EVENTS, events_body("u1"), token))
        self.configure(now=NOW + 59)
        self.assert_ok(self.post(EVENTS, make_batch([make_event("m2", userId="u1")]), token))
        self.configure(now=NOW + 60)
        self.assert_401(self.post(EVENTS, make_batch([make_event("m3", userId="u1")]), token), "expired")

    def test_the_signature_is_the_documented_hmac(self):
        self.enable()
        token = self.mint(sub="u1", exp=LATER)
        signing_input, signature = token.rsplit(".", 1)
        expected = hmac.new(SECRET.encode(), signing_input.encode(), hashlib.sha256).digest()
        self.assertEqual(signature, b64url(expected))

    def test_absolute_exp_and_negative_expires_in(self):
        self.enable()
        self.assertEqual(payload_of(self.mint(sub="u1", exp=LATER))["exp"], LATER)
        token = self.mint(sub="u1", expiresIn=-1)
        self.assertEqual(payload_of(token)["exp"], NOW - 1)
        self.assert_401(self.post(EVENTS, events_body("u1"), token), "expired")

    def test_another_secret_gives_an_invalid_token(self):
        self.enable()
        token = self.mint(sub="u1", expiresIn=60, secret="another-secret")
        self.assert_401(self.post(EVENTS, events_body("u1"), token), "invalid")

    def test_minting_needs_a_secret_and_a_well_formed_body(self):
        reply = self.client.post_json("/_sandbox/auth/token", {"sub": "u1", "expiresIn": 60}, key=None)
        self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_auth"))
        self.configure(secret=SECRET)  # auth still off: minting works
        self.assertEqual(payload_of(self.mint(sub="u1", exp=LATER))["sub"], "u1")
        for body in ({"sub": "", "exp": 1}, {"exp": 1}, {"sub": "u1"}, {"sub": "u1", "exp": 1, "expiresIn": 1},
                     {"sub": "u1", "exp": "1"}, {"sub": "u1", "expiresIn": True},
                     {"sub": "u1", "exp": 1, "secret": ""}, {"sub": "u1", "exp": 1, "aud": "x"}):
            with self.subTest(body=body):
                reply = self.client.post_json("/_sandbox/auth/token", body, key=None)
                self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_auth"), reply.raw)


class RequestLogTests(AuthTestCase):
    def test_auth_sub_is_the_claimed_sub_or_null(self):
        self.enable()
        self.post(EVENTS, events_body("u1"), jwt({"sub": "u1", "exp": LATER}))
        self.post(EVENTS, events_body("u1"), jwt({"sub": "u2", "exp": LATER}, secret="other"))
        self.post(EVENTS, events_body("u1"))
        self.post(EVENTS, events_body("u1"), "garbage")
        self.configure(enabled=False)
        self.post(EVENTS, events_body("u3"), jwt({"sub": "u3", "exp": 1}))
        entries = self.client.requests(EVENTS)
        self.assertEqual([(e["status"], e["authSub"]) for e in entries],
                         [(200, "u1"), (401, "u2"), (401, None), (401, None), (200, "u3")])


class CommandLineTests(unittest.TestCase):
    def test_jwt_secret_turns_auth_on_until_reset(self):
        with SandboxProcess("--jwt-secret", "cli-secret") as sandbox:
            client = Client(sandbox.port)
            settings = client.control("GET", "auth")
            self.assertEqual((settings["enabled"], settings["secret"]), (True, "cli-secret"))
            self.assertEqual(client.post_json(EVENTS, events_body("u1")).status, 401)
            token = client.control("POST", "auth/token", {"sub": "u1", "expiresIn": 600})["token"]
            self.assertEqual(client.post_json(EVENTS, events_body("u1"), headers=bearer(token)).status, 200)
            self.assertEqual(client.post_json(EVENTS, events_body(None)).status, 200)
            client.control("POST", "reset")
            self.assertFalse(client.control("GET", "auth")["enabled"])

    def test_an_empty_secret_is_refused(self):
        with SandboxProcess("--jwt-secret", "") as sandbox:
            code, out, err = sandbox.wait()
        self.assertEqual((code, out), (2, ""))
        self.assertIn("--jwt-secret", err)


if __name__ == "__main__":
    unittest.main()
