"""The control API (requests log, events, measure, reset, health) and the
dashboard page."""

from __future__ import annotations

import json
import re
import unittest

from .support import EVENTS, KEY, SandboxTestCase, compact, make_batch, make_event, make_events

ENTRY_KEYS = {"seq", "method", "path", "query", "headers", "gzip", "rawBytes", "bodyBytes",
              "body", "bodyText", "status", "fault", "receivedAt", "authSub"}


class RequestLogTests(SandboxTestCase):
    def test_entry_shape(self):
        body = make_batch(make_events(1))
        self.client.post_json(EVENTS + "?debug=1", body, headers={
            "User-Agent": "joryio-swift/1.0.0 (iOS 18.1)", "X-Joryio-Sdk-Version": "1.0.0"})
        [entry] = self.client.requests()
        self.assertEqual(set(entry), ENTRY_KEYS)
        self.assertEqual(entry["seq"], 1)
        self.assertEqual((entry["method"], entry["path"], entry["query"]), ("POST", EVENTS, "debug=1"))
        self.assertEqual(entry["headers"]["x-joryio-sdk-key"], KEY)
        self.assertEqual(entry["headers"]["user-agent"], "joryio-swift/1.0.0 (iOS 18.1)")
        self.assertEqual(entry["headers"]["x-joryio-sdk-version"], "1.0.0")
        self.assertTrue(all(name == name.lower() for name in entry["headers"]))
        self.assertEqual((entry["gzip"], entry["rawBytes"], entry["bodyBytes"]),
                         (False, len(compact(body)), len(compact(body))))
        self.assertEqual((entry["body"], entry["bodyText"]), (body, None))
        self.assertEqual((entry["status"], entry["fault"], entry["authSub"]), (200, None, None))
        self.assertRegex(entry["receivedAt"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")

    def test_every_sdk_request_is_recorded_and_control_calls_are_not(self):
        self.client.post_events(make_events(1))            # 200
        self.client.post_events(make_events(1), key=None)  # 403
        self.client.post_json(EVENTS, b"{")                # 400
        self.client.request("GET", "/nowhere")             # 404
        self.client.control("GET", "health")
        self.client.control("GET", "events")
        self.client.control("POST", "measure", {"a": 1})
        self.client.request("GET", "/")
        self.client.request("GET", "/_sandbox/unknown")
        requests = self.client.requests()
        self.assertEqual([(r["seq"], r["path"], r["status"]) for r in requests],
                         [(1, EVENTS, 200), (2, EVENTS, 403), (3, EVENTS, 400), (4, "/nowhere", 404)])

    def test_path_filter(self):
        self.client.post_events(make_events(1))
        self.client.post_json("/api/v1/other", {})
        self.assertEqual([r["path"] for r in self.client.requests(EVENTS)], [EVENTS])
        self.assertEqual(len(self.client.requests("/api/*")), 2)
        self.assertEqual(self.client.requests("/nothing"), [])


class ControlTests(SandboxTestCase):
    def test_health(self):
        self.assertEqual(self.client.control("GET", "health"), {"ok": True})

    def test_events_are_listed_in_arrival_order(self):
        self.client.post_events(make_events(2))
        self.client.post_events(make_events(2, start=5))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m0", "m1", "m5", "m6"])

    def test_reset_clears_requests_events_dedup_and_faults(self):
        self.client.post_events(make_events(2))
        self.client.fault(path=EVENTS, count=-1, status=500)
        self.assertEqual(self.client.control("POST", "reset"), {"ok": True})
        self.assertEqual((self.client.requests(), self.client.events()), ([], []))
        self.assertEqual(self.client.control("GET", "faults"), {"faults": []})
        reply = self.client.post_events(make_events(2))     # same messageIds as before
        self.assertEqual((reply.status, reply.json["accepted"]), (200, 2))
        self.assertEqual(self.client.requests()[0]["seq"], 1)

    def test_unknown_control_path_is_404(self):
        reply = self.client.request("GET", "/_sandbox/nope")
        self.assertEqual((reply.status, reply.json["error"]), (404, "not_found"))
        reply = self.client.request("DELETE", "/_sandbox/health")
        self.assertEqual(reply.status, 405)

    def test_control_json_routes_need_valid_json(self):
        reply = self.client.request("POST", "/_sandbox/measure", b"{nope")
        self.assertEqual((reply.status, reply.json["error"]), (400, "invalid_json"))


class MeasureTests(SandboxTestCase):
    # value -> its canonical text. Written out by hand: this table is the
    # protocol (docs/protocol.md, "Canonical JSON"), not just Python's output.
    CASES = [
        ({"a": "é"}, '{"a":"é"}'),
        ({"emoji": "😀", "cjk": "日本"}, '{"emoji":"😀","cjk":"日本"}'),
        (["/", "\\", '"', "\n\r\t\b\f", "\x00\x1f\x7f", "\u2028"],
         '["/","\\\\","\\"","\\n\\r\\t\\b\\f","\\u0000\\u001f\x7f","\u2028"]'),
        ([1, -1, 0, 2 ** 64], '[1,-1,0,18446744073709551616]'),
        ([1.0, -0.0, 0.1, 1.5, 100.0, 123456789.125],
         '[1.0,-0.0,0.1,1.5,100.0,123456789.125]'),
        ([1e15, 1e16, 1.5e16, 1e-4, 1e-5, 2.5e-7, 1e22, 5e-324, 1.7976931348623157e308],
         '[1000000000000000.0,1e+16,1.5e+16,0.0001,1e-05,2.5e-07,1e+22,5e-324,1.7976931348623157e+308]'),
        ({"t": True, "f": False, "n": None, "o": {}, "l": []},
         '{"t":true,"f":false,"n":null,"o":{},"l":[]}'),
    ]

    def test_measure_equals_python_compact_encoding(self):
        for value, text in self.CASES:
            with self.subTest(text=text):
                self.assertEqual(compact(value), text.encode("utf-8"))
                self.assertEqual(self.client.control("POST", "measure", value),
                                 {"bytes": len(text.encode("utf-8"))})

    def test_measure_reencodes_the_parsed_value(self):
        # Whitespace, escapes and number spellings on the wire do not count.
        raw = b'{ "a" : 1.00, "b" : 1E2, "c" : "\\u00e9\\/", "d" : [ 1 , 2 ] }'
        reply = self.client.request("POST", "/_sandbox/measure", raw,
                                    {"Content-Type": "application/json"})
        expected = '{"a":1.0,"b":100.0,"c":"é/","d":[1,2]}'
        self.assertEqual(reply.json, {"bytes": len(expected.encode("utf-8"))})
        self.assertEqual(compact(json.loads(raw)), expected.encode("utf-8"))

    def test_measure_accepts_gzip(self):
        value = {"k": "v" * 2000}
        reply = self.client.post_json("/_sandbox/measure", value, key=None, gzip=True)
        self.assertEqual(reply.json, {"bytes": len(compact(value))})


class DashboardTests(SandboxTestCase):
    HOSTILE = '</script><script>alert(1)</script><img src=x onerror=alert(2)>&amp;'

    def test_page_is_self_contained_html(self):
        reply = self.client.request("GET", "/")
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.headers["Content-Type"], "text/html; charset=utf-8")
        self.assertEqual(int(reply.headers["Content-Length"]), len(reply.raw))
        self.assertIn("default-src 'none'", reply.headers["Content-Security-Policy"])
        page = reply.raw.decode("utf-8")
        self.assertTrue(page.startswith("<!DOCTYPE html>"))
        self.assertIn('fetch("/_sandbox/requests"', page)
        self.assertIn("setInterval(refresh, 2000)", page)
        self.assertNotRegex(page, r"https?://", "no external resources")
        self.assertNotIn("<link", page)
        self.assertNotIn("innerHTML", page, "recorded data is inserted with textContent only")

    def test_recorded_content_is_escaped(self):
        self.client.post_events([make_event("x", event=self.HOSTILE)])
        self.client.post_json(EVENTS, self.HOSTILE.encode())
        self.client.request("POST", "/api/" + "%3Cscript%3E")
        page = self.client.request("GET", "/").raw.decode("utf-8")
        self.assertNotIn("<script>alert", page)
        self.assertNotIn("<img", page)
        self.assertEqual(page.count("</script>"), 4, "only the page's own four script elements")
        # The embedded data still round-trips to the recorded requests.
        embedded = re.search(r'<script id="initial-requests" type="application/json">(.*?)</script>',
                             page, re.S).group(1)
        self.assertEqual(json.loads(embedded), self.client.requests())
        self.assertEqual(json.loads(embedded)[1]["bodyText"], self.HOSTILE)


if __name__ == "__main__":
    unittest.main()
