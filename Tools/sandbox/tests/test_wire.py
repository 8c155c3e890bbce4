"""Unit tests of the pure helpers (no server)."""

from __future__ import annotations

import datetime as dt
import gzip
import unittest

from joryio_sandbox import payload, validation, wire


class WireTests(unittest.TestCase):
    def test_depth(self):
        self.assertFalse(wire.depth_exceeds(1, 0))
        self.assertTrue(wire.depth_exceeds({}, 0))
        self.assertFalse(wire.depth_exceeds({"a": [1]}, 2))
        self.assertTrue(wire.depth_exceeds({"a": [[]]}, 2))
        hostile = []
        for _ in range(100_000):
            hostile = [hostile]
        self.assertTrue(wire.depth_exceeds(hostile, 5))   # no RecursionError

    def test_parse_json_is_strict(self):
        self.assertEqual(wire.parse_json(b'{"a":[1,2.5,"\\u00e9"]}'), {"a": [1, 2.5, "é"]})
        for bad in (b"NaN", b"[Infinity]", b"[-Infinity]", b'"\\udc00"', b"\xc3", b"{'a':1}"):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                wire.parse_json(bad)

    def test_timestamps(self):
        for good in ("2026-11-30T19:21:58.001Z", "2026-11-30T19:21:58+02:00", "2026-11-30"):
            self.assertTrue(wire.is_timestamp(good), good)
        for bad in ("", "Z", "30/11/2026", None, 0, "2026-11-30T25:00:00Z"):
            self.assertFalse(wire.is_timestamp(bad), bad)
        moment = dt.datetime(2026, 11, 30, 20, 21, 59, 123999, tzinfo=dt.timezone(dt.timedelta(hours=1)))
        self.assertEqual(wire.format_timestamp(moment), "2026-11-30T19:21:59.123Z")


class PayloadTests(unittest.TestCase):
    def test_gzip_limit_stops_inflating(self):
        bomb = gzip.compress(b"0" * (validation.MAX_BODY_BYTES * 5))
        decoded = payload.decode_payload(bomb, len(bomb), "gzip")
        self.assertEqual(decoded.error.error, "payload_too_large")
        self.assertIsNone(decoded.data_size)

    def test_trailing_garbage_after_gzip_is_bad_gzip(self):
        body = gzip.compress(b"{}") + b"junk"
        self.assertEqual(payload.decode_payload(body, len(body), "gzip").error.error, "bad_gzip")

    def test_identity_encoding(self):
        decoded = payload.decode_payload(b"{}", 2, "identity")
        self.assertEqual((decoded.error, decoded.value, decoded.gzip), (None, {}, False))


class ValidationTests(unittest.TestCase):
    def test_first_failing_check_is_reported(self):
        event = {"messageId": "", "type": "x", "event": ""}
        self.assertEqual(validation.event_problem(event), "missing_message_id")

    def test_limits_match_the_protocol(self):
        self.assertEqual(validation.MAX_PROPERTIES_BYTES, 51_200)
        self.assertEqual(validation.MAX_BODY_BYTES, 1_000_000)
        self.assertEqual((validation.MAX_BATCH_EVENTS, validation.MAX_PROPERTIES_KEYS,
                          validation.MAX_PROPERTIES_DEPTH, validation.MAX_EVENT_NAME_CHARS,
                          validation.MAX_MESSAGE_ID_CHARS), (500, 200, 5, 255, 128))


if __name__ == "__main__":
    unittest.main()
