"""The dashboard's live in-app previews (issue 17): the SDK's own document and
policy around each served campaign (preview.py)."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from joryio_sandbox import dashboard, preview

from .support import SandboxTestCase


class DocumentTests(unittest.TestCase):
    def test_the_document_parts_are_the_generated_ones(self):
        parts = json.loads((Path(preview.__file__).parent / "inapp_document.json").read_text("utf-8"))
        self.assertEqual(set(parts), {"prefix", "suffix", "contentSecurityPolicy", "neutralizedPragma"})
        # The policy <meta> is the head's first element and carries exactly the policy.
        self.assertTrue(parts["prefix"].startswith(
            '<!DOCTYPE html>\n<html>\n<head>\n<meta http-equiv="Content-Security-Policy" content="'
            + parts["contentSecurityPolicy"] + '">'))
        self.assertIn("default-src 'none'", parts["contentSecurityPolicy"])
        self.assertIn("form-action 'none'", parts["contentSecurityPolicy"])
        self.assertEqual(parts["prefix"].count("<script>"), 1)

    def test_author_markup_goes_in_the_body_with_pragmas_renamed(self):
        markup = '<META HTTP-EQUIV="refresh" content="0;url=https://evil.example/"><p>Hi</p>'
        page = preview.document(markup)
        self.assertEqual(page, preview.DOCUMENT["prefix"]
                         + '<META data-jry-http-equiv="refresh" content="0;url=https://evil.example/"><p>Hi</p>'
                         + preview.DOCUMENT["suffix"])

    def test_native_text_is_escaped_and_buttons_carry_their_ids(self):
        page = preview.preview({"id": "n", "type": "modal", "content": {"native": {
            "headline": "<script>alert(1)</script>", "text": "Tom & \"Jerry\"",
            "buttons": [{"id": "go\"x", "label": "<b>Go</b>", "url": "myapp://go"}, {"id": "no", "label": "No"}]}}})
        body = page[len(preview.DOCUMENT["prefix"]):]
        self.assertNotIn("<script>alert", body)
        self.assertIn("&lt;script&gt;alert(1)&lt;/script&gt;", body)
        self.assertIn("Tom &amp; &quot;Jerry&quot;", body)
        self.assertIn('data-joryio-id="go&quot;x" data-joryio-url="myapp://go">&lt;b&gt;Go&lt;/b&gt;', body)
        self.assertIn('data-joryio-action="close"', body)

    def test_the_dashboard_may_frame_its_own_previews_only(self):
        self.assertIn("frame-src 'self'", dashboard.CONTENT_SECURITY_POLICY)
        page = dashboard.render([]).decode("utf-8")
        self.assertIn('setAttribute("sandbox", "allow-scripts")', page)
        self.assertIn("/_sandbox/in-app/preview?id=", page)


class PreviewRouteTests(SandboxTestCase):
    def put(self, campaign):
        self.client.control("POST", "in-app/campaigns", {"campaign": campaign})

    def test_an_html_campaign_is_served_in_the_sdk_document_under_the_same_policy(self):
        self.put({"id": "h1", "type": "modal", "content": {"html": "<h1>Sale</h1><script>x()</script>"}})
        reply = self.client.request("GET", "/_sandbox/in-app/preview?id=h1")
        self.assertEqual(reply.status, 200)
        self.assertEqual(reply.headers["content-type"], "text/html; charset=utf-8")
        self.assertEqual(reply.headers["content-security-policy"], preview.DOCUMENT["contentSecurityPolicy"])
        self.assertEqual(reply.raw.decode("utf-8"), preview.document("<h1>Sale</h1><script>x()</script>"))

    def test_a_native_campaign_is_a_card_in_the_same_document(self):
        self.put({"id": "n1", "type": "banner", "content": {"native": {"headline": "Shipped"}}})
        reply = self.client.request("GET", "/_sandbox/in-app/preview?id=n1")
        self.assertEqual(reply.status, 200)
        page = reply.raw.decode("utf-8")
        self.assertTrue(page.startswith(preview.DOCUMENT["prefix"]))
        self.assertIn("<h1>Shipped</h1>", page)

    def test_unknown_and_missing_ids_are_refused(self):
        self.assertEqual(self.client.request("GET", "/_sandbox/in-app/preview?id=nope").status, 404)
        self.assertEqual(self.client.request("GET", "/_sandbox/in-app/preview").status, 400)


if __name__ == "__main__":
    unittest.main()
