"""POST /api/v1/events: headers, encoding, limits, validation, dedup."""

from __future__ import annotations

import gzip
import http.client
import json
import socket
import unittest

from joryio_sandbox.server import Config

from .support import (EVENTS, HOST, KEY, SandboxTestCase, compact, make_batch, make_event,
                      make_events)


def error_of(reply) -> str:
    return reply.json["error"]


class HappyPathTests(SandboxTestCase):
    def test_batch_is_stored_and_acknowledged(self):
        events = make_events(3)
        reply = self.client.post_events(events)
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.headers["Content-Type"], "application/json; charset=utf-8")
        self.assertEqual(reply.json, {"success": True, "accepted": 3, "duplicates": 0,
                                      "rejectedIndices": [], "failedIndices": []})
        self.assertEqual(self.client.events(), events)

    def test_optional_fields_may_be_absent_or_null(self):
        events = [
            make_event("a", properties=..., sessionId=..., deviceId=...),
            make_event("b", properties=None, sessionId=None, deviceId=None),
            make_event("c", anonymousId=..., userId="user-1"),
            make_event("d", anonymousId=None, userId="user-1"),
            make_event("e", properties={}),
        ]
        self.assertEqual(self.client.post_events(events).json["accepted"], 5)

    def test_unknown_fields_are_kept(self):
        event = make_event("x", context={"locale": "fr_FR"})
        body = make_batch([event]) | {"future": True}
        self.assertEqual(self.client.post_json(EVENTS, body).status, 200)
        self.assertEqual(self.client.events(), [event])

    def test_timestamp_forms(self):
        for i, stamp in enumerate(["2026-11-30T19:21:58.001Z", "2026-11-30T19:21:58Z",
                                   "2026-11-30T20:21:58.001+01:00"]):
            with self.subTest(stamp=stamp):
                reply = self.client.post_events([make_event(f"t{i}", timestamp=stamp)])
                self.assertEqual(reply.status, 200, reply.raw)

    def test_keep_alive_serves_several_requests_on_one_connection(self):
        conn = self.client.connect()
        try:
            for i in range(3):
                reply = self.client.post_events([make_event(f"k{i}")], conn=conn)
                self.assertEqual(reply.status, 200)
            # An error response keeps the connection usable too.
            self.assertEqual(self.client.post_events([], conn=conn).status, 400)
            self.assertEqual(self.client.post_events([make_event("k9")], conn=conn).status, 200)
        finally:
            conn.close()
        self.assertEqual(len(self.client.events()), 4)

    def test_chunked_request_body(self):
        conn = self.client.connect()
        try:
            conn.request("POST", EVENTS, body=iter([compact(make_batch(make_events(2)))]),
                         headers={"Content-Type": "application/json", "X-Joryio-Sdk-Key": KEY},
                         encode_chunked=True)
            response = conn.getresponse()
            response.read()
            self.assertEqual(response.status, 200)
        finally:
            conn.close()
        self.assertEqual(len(self.client.events()), 2)


class DedupTests(SandboxTestCase):
    def test_repeated_message_ids_are_acknowledged_not_stored_twice(self):
        first = self.client.post_events(make_events(3))
        self.assertEqual((first.json["accepted"], first.json["duplicates"]), (3, 0))
        again = self.client.post_events(make_events(4, start=1))   # m1..m4
        self.assertEqual((again.json["accepted"], again.json["duplicates"]), (2, 2))
        self.assertEqual([e["messageId"] for e in self.client.events()],
                         ["m0", "m1", "m2", "m3", "m4"])

    def test_duplicates_inside_one_batch(self):
        reply = self.client.post_events([make_event("same"), make_event("same", event="Other")])
        self.assertEqual((reply.json["accepted"], reply.json["duplicates"]), (1, 1))
        self.assertEqual(self.client.events()[0]["event"], "Button Tapped")


class EncodingTests(SandboxTestCase):
    def test_gzip_body_is_decoded_and_recorded(self):
        events = make_events(30)
        reply = self.client.post_events(events, gzip=True)
        self.assertEqual(reply.status, 200, reply.raw)
        self.assertEqual(reply.json["accepted"], 30)
        [logged] = self.client.requests()
        plain = compact(make_batch(events))
        self.assertTrue(logged["gzip"])
        self.assertEqual(logged["bodyBytes"], len(plain))
        self.assertLess(logged["rawBytes"], len(plain))
        self.assertEqual(logged["body"], make_batch(events))

    def test_multi_member_gzip_is_accepted(self):
        plain = compact(make_batch(make_events(2)))
        body = gzip.compress(plain[:10]) + gzip.compress(plain[10:])
        reply = self.client.post_json(EVENTS, body, headers={"Content-Encoding": "gzip"})
        self.assertEqual(reply.status, 200, reply.raw)

    def test_bad_gzip_is_400(self):
        for body in (b"definitely not gzip", gzip.compress(b'{"batch":[]}')[:-6]):
            with self.subTest(body=body):
                reply = self.client.post_json(EVENTS, body, headers={"Content-Encoding": "gzip"})
                self.assertEqual((reply.status, error_of(reply)), (400, "bad_gzip"))
        self.assertEqual(self.client.requests()[0]["gzip"], True)
        self.assertEqual(self.client.events(), [])

    def test_other_content_encoding_is_400(self):
        reply = self.client.post_json(EVENTS, make_batch(make_events(1)),
                                      headers={"Content-Encoding": "br"})
        self.assertEqual((reply.status, error_of(reply)), (400, "unsupported_content_encoding"))

    def test_content_type(self):
        body = make_batch(make_events(1))
        for content_type, status in [("application/json; charset=utf-8", 200),
                                     ("Application/JSON", 200),
                                     ("text/plain", 400),
                                     ("application/json; charset=latin-1", 400)]:
            with self.subTest(content_type=content_type):
                self.server.app.state.reset()
                reply = self.client.post_json(EVENTS, body, headers={"Content-Type": content_type})
                self.assertEqual(reply.status, status, reply.raw)
                if status == 400:
                    self.assertEqual(error_of(reply), "unsupported_content_type")
        reply = self.client.request("POST", EVENTS, compact(body), {"X-Joryio-Sdk-Key": KEY})
        self.assertEqual((reply.status, error_of(reply)), (400, "unsupported_content_type"))

    def test_invalid_json(self):
        for body in (b"{nope", b"", b'{"sentAt":NaN}', b'"\\ud800"', b"\xff\xfe{}",
                     b'{"batch":[' * 5000):
            with self.subTest(body=body[:20]):
                reply = self.client.post_json(EVENTS, body)
                self.assertEqual((reply.status, error_of(reply)), (400, "invalid_json"))

    def test_not_json_body_is_recorded_as_text(self):
        self.client.post_json(EVENTS, b"hello <world>")
        [logged] = self.client.requests()
        self.assertEqual((logged["body"], logged["bodyText"]), (None, "hello <world>"))


class SdkKeyTests(SandboxTestCase):
    def test_missing_or_malformed_key_is_403(self):
        for key in (None, "", "jry_pk_ios_x", "JRY_SDK_IOS_X"):
            with self.subTest(key=key):
                reply = self.client.post_events(make_events(1), key=key)
                self.assertEqual(reply.status, 403)
                self.assertEqual(reply.json, {"success": False, "error": "invalid_sdk_key"})
        self.assertEqual(self.client.events(), [])
        self.assertEqual(len(self.client.requests()), 4)

    def test_any_prefixed_key_is_accepted_by_default(self):
        reply = self.client.post_events(make_events(1), key="jry_sdk_web_anything")
        self.assertEqual(reply.status, 200)

    def test_a_key_of_more_than_256_characters_is_403(self):
        longest = "jry_sdk_ios_" + "k" * (256 - len("jry_sdk_ios_"))
        self.assertEqual(self.client.post_events([make_event("a")], key=longest).status, 200)
        reply = self.client.post_events([make_event("b")], key=longest + "k")
        self.assertEqual((reply.status, reply.json), (403, {"success": False, "error": "invalid_sdk_key"}))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["a"])

    def test_key_is_checked_before_the_body(self):
        reply = self.client.post_json(EVENTS, b"{broken", key=None)
        self.assertEqual(reply.status, 403)


class ConfiguredSdkKeyTests(SandboxTestCase):
    config = Config(quiet=True, sdk_key="jry_sdk_ios_expected")

    def test_only_the_configured_key_is_accepted(self):
        self.assertEqual(self.client.post_events(make_events(1), key=KEY).status, 403)
        reply = self.client.post_events(make_events(1), key="jry_sdk_ios_expected")
        self.assertEqual(reply.status, 200)


class EnvelopeTests(SandboxTestCase):
    def post_body(self, body):
        return self.client.post_json(EVENTS, body)

    def test_wrong_shapes_are_invalid_body(self):
        for body in ([], "x", {"batch": make_events(1)}, {"sentAt": "nope", "batch": make_events(1)},
                     make_batch({"0": make_event()}), make_batch(None)):
            with self.subTest(body=body):
                reply = self.post_body(body)
                self.assertEqual((reply.status, error_of(reply)), (400, "invalid_body"))

    def test_empty_batch_is_400(self):
        reply = self.client.post_events([])
        self.assertEqual((reply.status, error_of(reply)), (400, "invalid_body"))

    def test_500_events_ok_501_is_413(self):
        reply = self.client.post_events(make_events(500))
        self.assertEqual((reply.status, reply.json["accepted"]), (200, 500))
        reply = self.client.post_events(make_events(501, start=1000))
        self.assertEqual((reply.status, error_of(reply)), (413, "too_many_events"))

    def test_body_over_1_000_000_bytes_is_413(self):
        def body_of_size(size):
            batch = make_batch([make_event("big", properties=None, pad="")])
            padding = size - len(compact(batch))
            batch["batch"][0]["pad"] = "x" * padding
            self.assertEqual(len(compact(batch)), size)
            return batch

        for gzipped in (False, True):
            with self.subTest(gzip=gzipped):
                self.server.app.state.reset()
                at_limit = self.client.post_json(EVENTS, body_of_size(1_000_000), gzip=gzipped)
                self.assertEqual(at_limit.status, 200, at_limit.raw)
                over = self.client.post_json(EVENTS, body_of_size(1_000_001), gzip=gzipped)
                self.assertEqual((over.status, error_of(over)), (413, "payload_too_large"))
                self.assertIsNone(self.client.requests()[-1]["body"])

    def test_a_client_may_keep_using_the_connection_after_413(self):
        conn = self.client.connect()
        try:
            huge = compact(make_batch([make_event(pad="x" * 3_000_000)]))
            self.assertEqual(self.client.post_json(EVENTS, huge, conn=conn).status, 413)
            self.assertEqual(self.client.post_events(make_events(1), conn=conn).status, 200)
        finally:
            conn.close()
        self.assertEqual(self.client.requests()[0]["rawBytes"], len(huge))


class EventValidationTests(SandboxTestCase):
    def assert_reason(self, reason, **fields):
        stored_before = len(self.client.events())
        good = make_event("good")
        bad = make_event("bad", **fields)
        reply = self.client.post_events([good, bad])
        self.assertEqual(reply.status, 422, reply.raw)
        message_id = bad.get("messageId") if isinstance(bad.get("messageId"), str) else None
        self.assertEqual(reply.json, {
            "success": False, "error": "invalid_event",
            "errors": [{"index": 1, "messageId": message_id, "reason": reason}],
        })
        self.assertEqual(len(self.client.events()), stored_before, "a rejected batch stores nothing")

    def assert_accepted(self, **fields):
        reply = self.client.post_events([make_event(f"ok{len(self.client.events())}", **fields)])
        self.assertEqual(reply.status, 200, reply.raw)

    def test_message_id(self):
        for value in (..., None, "", 42, "x" * 129):
            with self.subTest(value=str(value)[:10]):
                self.assert_reason("missing_message_id", messageId=value)
        self.assert_accepted(messageId="x" * 128)

    def test_type(self):
        for value in (..., "identify", "Track", None):
            with self.subTest(value=value):
                self.assert_reason("invalid_type", type=value)

    def test_event_name_counts_code_points(self):
        for value in (..., "", None, 7, "a" * 256, "😀" * 256):
            with self.subTest(value=str(value)[:10]):
                self.assert_reason("invalid_event_name", event=value)
        self.assert_accepted(event="a" * 255)
        self.assert_accepted(event="😀" * 255)   # 1020 UTF-8 bytes, 510 UTF-16 units

    def test_timestamp(self):
        for value in (..., None, "", "yesterday", 1764530518, "2026-13-01T00:00:00Z"):
            with self.subTest(value=value):
                self.assert_reason("invalid_timestamp", timestamp=value)

    def test_properties_type(self):
        for value in ([], "x", 1, True):
            with self.subTest(value=value):
                self.assert_reason("invalid_properties", properties=value)

    def test_properties_size_boundary_is_51200_bytes(self):
        overhead = len(compact({"p": ""}))
        exactly = {"p": "x" * (51_200 - overhead)}
        self.assertEqual(len(compact(exactly)), 51_200)
        self.assert_accepted(properties=exactly)
        self.assert_reason("properties_too_large", properties={"p": "x" * (51_201 - overhead)})

    def test_properties_size_counts_utf8_bytes(self):
        overhead = len(compact({"p": ""}))
        # "é" is 2 bytes in UTF-8: 25,596 of them plus the overhead is 51,200 bytes.
        self.assert_accepted(properties={"p": "é" * ((51_200 - overhead) // 2)})
        self.assert_reason("properties_too_large",
                           properties={"p": "é" * ((51_200 - overhead) // 2) + "x"})

    def test_200_top_level_keys_ok_201_rejected(self):
        self.assert_accepted(properties={f"k{i}": i for i in range(200)})
        self.assert_reason("too_many_properties", properties={f"k{i}": i for i in range(201)})

    def test_depth_5_ok_6_rejected(self):
        self.assert_accepted(properties={"a": {"b": {"c": {"d": {"e": 1}}}}})
        self.assert_accepted(properties={"a": [[[[1]]]]})
        self.assert_accepted(properties={"a": [{"c": [{}]}]})
        self.assert_reason("properties_too_deep", properties={"a": {"b": {"c": {"d": {"e": {}}}}}})
        self.assert_reason("properties_too_deep", properties={"a": [[[[[]]]]]})

    def test_identity(self):
        self.assert_reason("missing_identity", anonymousId=..., userId=...)
        self.assert_reason("missing_identity", anonymousId="", userId=None)
        self.assert_reason("invalid_identity", userId=12)
        self.assert_reason("invalid_identity", anonymousId=["a"], userId="u")

    def test_session_and_device_ids(self):
        self.assert_reason("invalid_session_id", sessionId=5)
        self.assert_reason("invalid_device_id", deviceId={})

    def test_non_object_element(self):
        reply = self.client.post_events([make_event("good"), "oops"])
        self.assertEqual(reply.json["errors"],
                         [{"index": 1, "messageId": None, "reason": "not_an_object"}])

    def test_every_invalid_event_is_listed(self):
        events = [make_event("a", type="x"), make_event("b"), make_event("c", event="")]
        reply = self.client.post_events(events)
        self.assertEqual([(e["index"], e["messageId"], e["reason"]) for e in reply.json["errors"]],
                         [(0, "a", "invalid_type"), (2, "c", "invalid_event_name")])


class RoutingTests(SandboxTestCase):
    def test_unknown_sdk_path_is_404_and_recorded(self):
        reply = self.client.post_json("/api/v1/nope", {"x": 1})
        self.assertEqual(reply.status, 404)
        self.assertEqual(reply.json, {"success": False, "error": "not_found"})
        [logged] = self.client.requests()
        self.assertEqual((logged["path"], logged["status"], logged["body"]),
                         ("/api/v1/nope", 404, {"x": 1}))

    def test_broken_framing_is_400_recorded_and_closes(self):
        for framing in ("Content-Length: nope", "Transfer-Encoding: chunked\r\n\r\nzz"):
            with self.subTest(framing=framing), \
                    socket.create_connection((HOST, self.client.port), timeout=5) as sock:
                sock.sendall(f"POST {EVENTS} HTTP/1.1\r\nHost: x\r\n{framing}\r\n\r\n".encode())
                response = http.client.HTTPResponse(sock)
                response.begin()
                self.assertEqual((response.status, response.getheader("Connection")), (400, "close"))
                self.assertEqual(json.loads(response.read())["error"], "bad_request")
        self.assertEqual([r["status"] for r in self.client.requests()], [400, 400])

    def test_wrong_method_is_405_with_allow(self):
        reply = self.client.request("GET", EVENTS, headers={"X-Joryio-Sdk-Key": KEY})
        self.assertEqual((reply.status, reply.headers["Allow"]), (405, "POST"))


class PrefixTests(SandboxTestCase):
    config = Config(quiet=True, prefix="/custom/base")

    def test_endpoints_follow_the_prefix(self):
        reply = self.client.post_json("/custom/base/v1/events", make_batch(make_events(1)))
        self.assertEqual(reply.status, 200)
        self.assertEqual(self.client.post_events(make_events(1, start=5)).status, 404)


if __name__ == "__main__":
    unittest.main()
