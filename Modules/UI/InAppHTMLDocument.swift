internal import Foundation

/// The document an HTML in-app message is shown as (INAPP-20, INAPP-24 … INAPP-26, GAP-43): the
/// SDK's head (the Content-Security-Policy first, then `joryioBridge`), and the author's markup
/// verbatim in the body.
///
/// Nothing in the author's markup is escaped or rewritten: the CSP is what stops it. It is the first
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
/// CSP does not govern top-level navigation (`<a href>` without the bridge, `<meta http-equiv="refresh">`):
/// the web view's navigation delegate must refuse every navigation after the initial load (issue 17).
package struct InAppHTMLDocument: Sendable, Equatable {
    /// The author's markup, as the campaign carries it.
    package var authorHTML: String

    /// A document around `authorHTML`.
    package init(authorHTML: String) {
        self.authorHTML = authorHTML
    }

    /// `sha256-<base64>` of the bridge script's UTF-8 bytes: its CSP source.
    package static let scriptHash: String =
        "sha256-" + Data(InAppSHA256.digest(Array(InAppBridgeScript.source.utf8))).base64EncodedString()

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
    package static let policyMeta: String =
        "<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">"

    /// Everything before the author's markup: doctype, the head (policy first), and `<body>`.
    package static let prefix: String =
        "<!DOCTYPE html>\n<html>\n<head>\n" + policyMeta + "\n<meta charset=\"utf-8\">\n"
        + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        + "<script>" + InAppBridgeScript.source + "</script>\n</head>\n<body>\n"

    /// Everything after the author's markup.
    package static let suffix = "\n</body>\n</html>\n"

    /// The document to load: ``prefix``, the author's markup unchanged, ``suffix``.
    package var html: String {
        Self.prefix + self.authorHTML + Self.suffix
    }
}
