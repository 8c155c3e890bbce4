internal import Foundation

/// The document an HTML in-app message is shown as (INAPP-20, INAPP-24 … INAPP-26, GAP-43): the
/// SDK's head (the Content-Security-Policy first, then `joryioBridge`), and the author's markup
/// verbatim in the body.
///
/// The author's markup is not escaped or sanitised: the CSP is what stops it. It is the first
/// element of the head, so it governs everything after it, and everything the author wrote comes after
/// it. What the author's markup can try, and why it fails (docs/decisions.md, "JoryioUI groundwork
/// (issue 17)"):
/// - `<script>`, SVG `<script>`, `on*` attributes, `javascript:` URLs: `script-src` allows only the
///   bridge's hash (no `'unsafe-inline'`, no `'unsafe-hashes'`, no `'strict-dynamic'`).
/// - `<meta http-equiv="Content-Security-Policy">`: it lands in the body (the parser is past the head),
///   where HTML ignores it; and a further policy could only tighten, never loosen.
/// - `</head><head>`, `<html>`, `<body>`: in the body the parser ignores a second `<head>` and merges
///   `<html>`/`<body>` attributes; nothing moves before the SDK's head.
/// - `<base href>`: `base-uri 'none'`. `<iframe>`, `<object>`, `<embed>`: `frame-src`/`object-src 'none'`.
/// - Remote images, fonts, CSS, `fetch`: `default-src 'none'`, with `img-src`/`font-src` `data:` only.
/// - `<form action>`: `form-action 'none'`; the bridge handles `data-jry-form` forms (INAPP-52).
///
/// CSP does not govern top-level navigation. Links are the bridge's (it cancels every `<a>` and `<area>`
/// navigation and reports the tap); `<meta http-equiv="refresh">` would navigate by itself, so the one
/// rewrite the builder makes is to rename every `http-equiv` in the author's markup (any case) to
/// ``neutralizedPragma``: a pragma in the body then is an inert attribute, whatever it says. Behind both,
/// the web view's navigation policy refuses every navigation after the initial load.
package struct InAppHTMLDocument: Sendable, Equatable {
    /// The author's markup, as the campaign carries it.
    package var authorHTML: String

    /// A document around `authorHTML`.
    package init(authorHTML: String) {
        self.authorHTML = authorHTML
    }

    /// What `http-equiv` becomes in the author's markup (GAP-43): an attribute no browser acts on.
    package static let neutralizedPragma = "data-jry-http-equiv"

    /// The author's markup as the document holds it: every `http-equiv`, in any letter case, renamed to
    /// ``neutralizedPragma``; nothing else changes.
    package var bodyMarkup: String {
        Self.neutralizingPragmas(in: self.authorHTML)
    }

    private static func neutralizingPragmas(in markup: String) -> String {
        let pattern = Array("http-equiv".utf8)
        let bytes = Array(markup.utf8)
        guard bytes.count >= pattern.count else { return markup }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var changed = false
        while index < bytes.count {
            if index + pattern.count <= bytes.count,
                zip(bytes[index..<(index + pattern.count)], pattern).allSatisfy({ lowercased($0) == $1 })
            {
                output.append(contentsOf: neutralizedPragma.utf8)
                index += pattern.count
                changed = true
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return changed ? String(decoding: output, as: UTF8.self) : markup
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    /// `sha256-<base64>` of the bridge script's UTF-8 bytes: its CSP source.
    package static let scriptHash: String = Self.hashSource(InAppBridgeScript.source)

    /// The CSP hash source of `script`: `sha256-` and the Base64 of its UTF-8 bytes' SHA-256.
    static func hashSource(_ script: String) -> String {
        "sha256-" + Data(InAppSHA256.digest(Array(script.utf8))).base64EncodedString()
    }

    /// The policy, one directive per entry (GAP-43).
    package static let directives: [String] = [
        "default-src 'none'",
        "script-src '\(scriptHash)'",
        "style-src 'unsafe-inline'",
        "img-src data:",
        "font-src data:",
        "media-src 'none'",
        "connect-src 'none'",
        "object-src 'none'",
        "frame-src 'none'",
        "child-src 'none'",
        "worker-src 'none'",
        "manifest-src 'none'",
        "form-action 'none'",
        "base-uri 'none'",
    ]

    /// The whole policy as the `content` of its `<meta>`.
    package static let contentSecurityPolicy: String = directives.joined(separator: "; ")

    /// The `<meta>` that carries the policy: the head's first element.
    package static let policyMeta: String = policyMeta(directives)

    private static func policyMeta(_ directives: [String]) -> String {
        "<meta http-equiv=\"Content-Security-Policy\" content=\"\(directives.joined(separator: "; "))\">"
    }

    /// Everything before the author's markup: doctype, the head (policy first), and `<body>`.
    package static let prefix: String = prefix(policy: policyMeta, scripts: [InAppBridgeScript.source])

    private static func prefix(policy: String, scripts: [String]) -> String {
        "<!DOCTYPE html>\n<html>\n<head>\n" + policy + "\n<meta charset=\"utf-8\">\n"
            + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            + scripts.map { "<script>" + $0 + "</script>\n" }.joined() + "</head>\n<body>\n"
    }

    /// Everything after the author's markup.
    package static let suffix = "\n</body>\n</html>\n"

    /// The document to load: ``prefix``, ``bodyMarkup``, ``suffix``.
    package var html: String {
        Self.prefix + self.bodyMarkup + Self.suffix
    }

    /// The same document with `script` run first, before the bridge, for tests in a real browser: a
    /// stand-in for WebKit's message handler and a recorder of CSP violations (JoryioBrowser). The
    /// policy gains that script's hash and nothing else; nothing in the SDK calls this.
    package func html(instrumentedWith script: String) -> String {
        let hash = Self.hashSource(script)
        let directives = Self.directives.map {
            $0.hasPrefix("script-src ") ? $0 + " '\(hash)'" : $0
        }
        return Self.prefix(policy: Self.policyMeta(directives), scripts: [script, InAppBridgeScript.source])
            + self.bodyMarkup + Self.suffix
    }
}
