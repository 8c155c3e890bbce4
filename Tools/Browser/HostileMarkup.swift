internal import Foundation
internal import JoryioUI

/// Random author markup for the document-builder fuzz (issue 17): fragments an attacker would try
/// (scripts in every disguise, pragmas, `<base>`, frames, named elements that shadow DOM properties,
/// constructs that swallow the rest of the document, copies of the SDK's own head), mixed with
/// ordinary markup and random characters, in random letter case.
package enum HostileMarkup {
    /// The fragments the generator draws from.
    package static let fragments: [String] = [
        "<script>document.title='ran'</script>", "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
        "<img src=x onerror=\"document.title='ran'\">", "<svg onload=\"document.title='ran'\">",
        "<svg><script>document.title='ran'</script></svg>", "<a href=\"javascript:document.title='ran'\">j</a>",
        "<iframe src=\"javascript:parent.document.title='ran'\"></iframe>",
        "<iframe srcdoc=\"<script>parent.document.title='ran'</script>\"></iframe>",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"script-src * 'unsafe-inline'\">",
        "<META HTTP-EQUIV=refresh CONTENT=\"0;url=https://evil.example/\">",
        "<meta http-equiv=\"refresh\" content=\"0\">", "<base href=\"https://evil.example/\">",
        "</body></html><html><head><script>document.title='ran'</script></head>", "</head><head>", "<body onload=x()>",
        "<!--", "-->", "<![CDATA[", "<plaintext>", "<xmp>", "<textarea>", "<noscript>", "<template>", "<title>",
        "<style>", "</style>", "<object data=https://evil.example/o></object>", "<embed src=https://evil.example/e>",
        "<link rel=stylesheet href=https://evil.example/s.css>", "<link rel=prefetch href=https://evil.example/p>",
        "<img name=querySelector>", "<img name=body>", "<form name=addEventListener></form>", "<img name=webkit>",
        "<a id=joryioBridge href=myapp://x>b</a>", "<form id=f data-jry-form=f><input name=getAttribute value=1>",
        "<input name=hasAttribute><input name=elements><input name=id></form>", "<form action=https://evil.example/>",
        "<button data-joryio-action=close>x</button>", "<a href=myapp://deep>d</a>", "<p>Sale!</p>", "<h1>Hi</h1>",
        "<div style=\"background:url(https://evil.example/bg.png)\">", "</div>", "\"", "'", "<", ">", "&", "=",
        "<math><mtext><table><mglyph><style><img src=x onerror=\"document.title='ran'\">",
        "<details open ontoggle=\"document.title='ran'\">", "<marquee onstart=\"document.title='ran'\">",
        "<script>" + "JORYIO_BRIDGE_SOURCE" + "</script>",
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src *\">", "</script>", "<script>",
    ]

    /// `markup` with the `JORYIO_BRIDGE_SOURCE` placeholder (of the fragments and of the hostile
    /// fixtures' `bridge-copy.html`) replaced by the bridge's exact text, whose hash the policy allows.
    package static func withBridge(_ markup: String) -> String {
        markup.replacingOccurrences(of: "JORYIO_BRIDGE_SOURCE", with: InAppBridgeScript.source)
    }

    /// Markup of up to `maxFragments` fragments drawn with `generator`, the bridge placeholder filled
    /// (``withBridge(_:)``: a copy of the bridge matches its hash).
    package static func random(
        using generator: inout some RandomNumberGenerator,
        maxFragments: Int = 24
    ) -> String {
        var markup = ""
        for _ in 0..<Int.random(in: 1...maxFragments, using: &generator) {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0:
                let scalars = (0..<Int.random(in: 1...8, using: &generator)).compactMap { _ in
                    Unicode.Scalar(UInt32.random(in: 0x20...0x7E, using: &generator))
                }
                markup += String(String.UnicodeScalarView(scalars))
            case 1:
                let fragment = self.fragments.randomElement(using: &generator) ?? ""
                markup += Bool.random(using: &generator) ? fragment.uppercased() : fragment.lowercased()
            default:
                markup += self.fragments.randomElement(using: &generator) ?? ""
            }
        }
        return Self.withBridge(markup)
    }
}
