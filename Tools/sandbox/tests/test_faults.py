"""Fault scripting: POST/GET/DELETE /_sandbox/faults and their effect."""

from __future__ import annotations

import http.client
import time
import unittest

from .support import (ATTRIBUTES, EVENTS, KEY, TIMESTAMP, SandboxTestCase, compact, make_batch, make_event,
                      make_events)


class StatusFaultTests(SandboxTestCase):
    def test_status_and_retry_after_for_exactly_n_requests_then_normal(self):
        self.client.fault(path=EVENTS, count=2, status=503, retryAfter="3")
        for i in range(2):
            reply = self.client.post_events([make_event(f"m{i}")])
            self.assertEqual(reply.status, 503)
            self.assertEqual(reply.headers["Retry-After"], "3")
            self.assertEqual(reply.json, {"success": False, "error": "injected_fault"})
        reply = self.client.post_events([make_event("m9")])
        self.assertEqual(reply.status, 200)
        self.assertIsNone(reply.headers["Retry-After"])
        # Faulted requests were answered without processing: only m9 is stored.
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m9"])
        self.assertEqual([(r["status"], r["fault"]) for r in self.client.requests()],
                         [(503, "status"), (503, "status"), (200, None)])

    def test_custom_body_and_numeric_retry_after(self):
        self.client.fault(path=EVENTS, status=429, retryAfter=7, body={"success": False, "x": 1})
        reply = self.client.post_events(make_events(1))
        self.assertEqual((reply.status, reply.headers["Retry-After"], reply.json),
                         (429, "7", {"success": False, "x": 1}))

    def test_body_text_and_content_type_are_sent_verbatim(self):
        html = "<html><body>Sign in to Wi-Fi</body></html>"
        self.client.fault(path=EVENTS, status=200, bodyText=html, contentType="text/html")
        self.client.fault(path=EVENTS, status=206, bodyText="")
        first = self.client.post_events([make_event("a")])
        self.assertEqual((first.status, first.raw.decode(), first.headers["Content-Type"]),
                         (200, html, "text/html"))
        second = self.client.post_events([make_event("b")])
        self.assertEqual((second.status, second.raw, second.headers["Content-Length"]), (206, b"", "0"))
        self.assertEqual(second.headers["Content-Type"], "application/json; charset=utf-8")
        self.assertEqual(self.client.events(), [], "answered without processing")
        listed = self.client.control("GET", "faults")["faults"]
        self.assertEqual([(f["bodyText"], f["contentType"], f["body"]) for f in listed],
                         [(html, "text/html", None), ("", None, None)])

    def test_status_after_processing_applies_the_request_then_answers_the_script(self):
        self.client.fault(path=EVENTS, status=200, body={"success": "true"}, statusAfterProcessing=True)
        reply = self.client.post_events([make_event("a")])
        self.assertEqual((reply.status, reply.json), (200, {"success": "true"}))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["a"], "stored all the same")
        [entry] = self.client.requests()
        self.assertEqual((entry["status"], entry["fault"]), (200, "statusAfterProcessing"))
        # The resend is a duplicate, answered normally.
        again = self.client.post_events([make_event("a")])
        self.assertEqual((again.json["accepted"], again.json["duplicates"]), (0, 1))

    def test_status_after_processing_works_with_indices_and_attributes(self):
        self.client.fault(path=EVENTS, status=207, bodyText="<multistatus/>", failedIndices=[1],
                          statusAfterProcessing=True)
        reply = self.client.post_events(make_events(2))
        self.assertEqual((reply.status, reply.raw), (207, b"<multistatus/>"))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m0"])
        self.client.fault(path=ATTRIBUTES, status=200, body={}, statusAfterProcessing=True)
        operation = {"id": "w1", "op": "set", "key": "plan", "value": "pro", "timestamp": TIMESTAMP}
        self.assertEqual(self.client.post_attributes([operation]).json, {})
        # The remembered answer for the key is the server's own, not the scripted one.
        replay = self.client.post_attributes([operation])
        self.assertEqual(replay.json, {"success": True, "applied": 1, "duplicates": 0, "replayed": True})

    def test_status_fault_applies_before_validation_and_key_check(self):
        self.client.fault(path=EVENTS, status=500)
        self.assertEqual(self.client.post_json(EVENTS, b"garbage", key=None).status, 500)

    def test_prefix_wildcard_path(self):
        self.client.fault(path="/api/*", count=-1, status=502)
        self.assertEqual(self.client.post_events(make_events(1)).status, 502)
        self.assertEqual(self.client.post_json("/api/v1/other", {}).status, 502)
        self.assertEqual(self.client.post_json("/elsewhere", {}).status, 404)
        # Control calls are never faulted.
        self.assertEqual(self.client.control("GET", "health"), {"ok": True})

    def test_method_filter(self):
        self.client.fault(path=EVENTS, method="get", status=500)
        self.assertEqual(self.client.post_events(make_events(1)).status, 200)
        self.assertEqual(self.client.request("GET", EVENTS).status, 500)

    def test_rules_apply_in_order_added(self):
        first = self.client.fault(path=EVENTS, status=500)
        second = self.client.fault(path=EVENTS, count=2, status=429)
        statuses = [self.client.post_events([make_event(f"m{i}")]).status for i in range(4)]
        self.assertEqual(statuses, [500, 429, 429, 200])
        listed = self.client.control("GET", "faults")["faults"]
        self.assertEqual([(f["id"], f["remaining"], f["hits"]) for f in listed],
                         [(first, 0, 1), (second, 0, 2)])

    def test_forever_and_clear(self):
        self.client.fault(path=EVENTS, count=-1, status=503)
        for i in range(3):
            self.assertEqual(self.client.post_events([make_event(f"m{i}")]).status, 503)
        self.assertEqual(self.client.control("GET", "faults")["faults"][0]["remaining"], -1)
        self.client.control("DELETE", "faults")
        self.assertEqual(self.client.control("GET", "faults"), {"faults": []})
        self.assertEqual(self.client.post_events(make_events(1)).status, 200)

    def test_invalid_rules_are_400(self):
        for rule in ({}, {"path": "api"}, {"path": EVENTS}, {"path": EVENTS, "count": 0, "status": 500},
                     {"path": EVENTS, "status": 99}, {"path": EVENTS, "drop": True, "status": 500},
                     {"path": EVENTS, "body": {}}, {"path": EVENTS, "delayMs": -1},
                     {"path": EVENTS, "rejectedIndices": [-1]},
                     {"path": EVENTS, "rejectedIndices": [1], "failedIndices": [1]},
                     {"path": EVENTS, "failedIndices": [0], "status": 500},
                     {"path": EVENTS, "bodyText": "x"}, {"path": EVENTS, "status": 200, "bodyText": 1},
                     {"path": EVENTS, "status": 200, "bodyText": "x", "body": {}},
                     {"path": EVENTS, "contentType": "text/html"},
                     {"path": EVENTS, "status": 200, "contentType": "a\nb"},
                     {"path": EVENTS, "statusAfterProcessing": True},
                     {"path": EVENTS, "status": 200, "statusAfterProcessing": "yes"},
                     {"path": EVENTS, "status": 200, "statusAfterProcessing": True, "dropAfterProcessing": True}):
            with self.subTest(rule=rule):
                reply = self.client.post_json("/_sandbox/faults", rule, key=None)
                self.assertEqual(reply.status, 400)
                self.assertEqual(reply.json["error"], "invalid_fault")
                self.assertIn("message", reply.json)
        self.assertEqual(self.client.control("GET", "faults"), {"faults": []})


class DelayAndDropTests(SandboxTestCase):
    def test_delay_then_normal_processing(self):
        self.client.fault(path=EVENTS, delayMs=200)
        started = time.monotonic()
        reply = self.client.post_events(make_events(1))
        self.assertGreaterEqual(time.monotonic() - started, 0.2)
        self.assertEqual((reply.status, reply.json["accepted"]), (200, 1))
        [entry] = self.client.requests()
        self.assertEqual((entry["fault"], entry["status"]), ("delay", 200))

    def test_a_delayed_request_blocks_nobody(self):
        # Deterministic, no timing: the delayed request is sent but its answer
        # never awaited; everything else must still be answered meanwhile.
        self.client.fault(path=EVENTS, delayMs=60_000)
        waiting = self.client.connect()
        try:
            waiting.request("POST", EVENTS, body=compact(make_batch(make_events(1))),
                            headers={"Content-Type": "application/json", "X-Joryio-Sdk-Key": KEY})
            self.assertEqual(self.client.control("GET", "health"), {"ok": True})
            self.assertEqual(self.client.post_events([make_event("other")]).status, 200)
            delayed = next(r for r in self.client.requests() if r["fault"] == "delay")
            self.assertIsNone(delayed["status"], "still waiting")
        finally:
            waiting.close()

    def test_drop_closes_the_connection_without_a_response(self):
        self.client.fault(path=EVENTS, drop=True)
        with self.assertRaises((http.client.RemoteDisconnected, ConnectionResetError)):
            self.client.post_events(make_events(1))
        self.assertEqual(self.client.events(), [])
        [entry] = self.client.requests()
        self.assertEqual((entry["fault"], entry["status"]), ("drop", None))
        self.assertEqual(entry["body"]["batch"][0]["messageId"], "m0")
        # The next request is served normally.
        self.assertEqual(self.client.post_events(make_events(1)).status, 200)

    def test_drop_on_a_keep_alive_connection(self):
        conn = self.client.connect()
        try:
            self.assertEqual(self.client.post_events([make_event("a")], conn=conn).status, 200)
            self.client.fault(path=EVENTS, drop=True)
            with self.assertRaises((http.client.RemoteDisconnected, ConnectionResetError)):
                self.client.post_events([make_event("b")], conn=conn)
        finally:
            conn.close()


class IndicesFaultTests(SandboxTestCase):
    def test_rejected_and_failed_indices(self):
        self.client.fault(path=EVENTS, rejectedIndices=[1], failedIndices=[2, 7])
        events = make_events(4)
        reply = self.client.post_events(events)
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.json, {"success": True, "accepted": 2, "duplicates": 0,
                                      "rejectedIndices": [1], "failedIndices": [2]})
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m0", "m3"])
        self.assertEqual(self.client.requests()[0]["fault"], "indices")

        # The SDK keeps the failed event and resends it: now it is stored.
        retry = self.client.post_events([events[2]])
        self.assertEqual((retry.json["accepted"], retry.json["duplicates"]), (1, 0))
        self.assertEqual([e["messageId"] for e in self.client.events()], ["m0", "m3", "m2"])

    def test_indices_need_a_valid_batch(self):
        self.client.fault(path=EVENTS, failedIndices=[0])
        reply = self.client.post_events([make_event("a", type="nope")])
        self.assertEqual(reply.status, 422)


if __name__ == "__main__":
    unittest.main()
