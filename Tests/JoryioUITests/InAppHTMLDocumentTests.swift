import Foundation
import JoryioUI
import Testing

/// The HTML message document (INAPP-20, INAPP-24 … INAPP-26, INAPP-52, GAP-43): its CSP, where it
/// sits, the bridge script's hash, and hostile author markup that leaves all of it unchanged. Browser
/// behaviour itself is the browser lane's (Tests/JoryioBrowserTests, Fixtures/README.md).
@Suite struct InAppHTMLDocumentTests {
    static let requiredDirectives = [
        "default-src 'none'", "style-src 'unsafe-inline'", "img-src data:", "font-src data:",
        "connect-src 'none'", "object-src 'none'", "frame-src 'none'", "child-src 'none'", "worker-src 'none'",
        "form-action 'none'", "base-uri 'none'",
    ]

    /// The text between the first `<script>` and the next `</script>` of `html`.
    static func firstScript(_ html: String) -> String? {
        guard let open = html.range(of: "<script>"),
            let close = html.range(of: "</script>", range: open.upperBound..<html.endIndex)
        else { return nil }
        return String(html[open.upperBound..<close.lowerBound])
    }

    /// The `content` of the first `Content-Security-Policy` meta, and where it starts.
    static func firstPolicy(_ html: String) -> (policy: String, offset: Int)? {
        guard let meta = html.range(of: "http-equiv=\"Content-Security-Policy\"", options: .caseInsensitive),
            let content = html.range(of: "content=\"", range: meta.upperBound..<html.endIndex),
            let end = html.range(of: "\"", range: content.upperBound..<html.endIndex)
        else { return nil }
        return (
            String(html[content.upperBound..<end.lowerBound]), html.distance(from: html.startIndex, to: meta.lowerBound)
        )
    }

    @Test func thePolicyIsTheHeadsFirstElement() throws {
        let html = InAppHTMLDocument(authorHTML: "<p>Hi</p>").html
        let head = try #require(html.range(of: "<head>"))
        let afterHead = html[head.upperBound...].drop { $0 == "\n" }
        #expect(afterHead.hasPrefix(InAppHTMLDocument.policyMeta))
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html>\n<head>\n<meta http-equiv=\"Content-Security-Policy\""))
    }

    // GAP-65: images and fonts from data: URIs only (`img-src data:`); https images are blocked.
    @Test func thePolicyBlocksScriptsFramesNetworkAndForms() {
        let policy = InAppHTMLDocument.contentSecurityPolicy
        for directive in Self.requiredDirectives {
            #expect(InAppHTMLDocument.directives.contains(directive), "missing \(directive)")
        }
        let scriptSource = InAppHTMLDocument.directives.filter { $0.hasPrefix("script-src ") }
        #expect(scriptSource == ["script-src '\(InAppHTMLDocument.scriptHash)'"])
        for loosening in ["'unsafe-eval'", "'unsafe-hashes'", "'strict-dynamic'", "*", "http:", "https:", "blob:"] {
            #expect(!policy.contains(loosening), "the policy must not contain \(loosening)")
        }
        // Only styles may be inline: the single 'unsafe-inline' is style-src's.
        #expect(policy.components(separatedBy: "'unsafe-inline'").count == 2)
        #expect(!policy.contains("\""))
    }

    @Test func theHashIsTheBridgeScriptsBytes() throws {
        let html = InAppHTMLDocument(authorHTML: "").html
        let script = try #require(Self.firstScript(html))
        #expect(script == InAppBridgeScript.source)
        let digest = Data(InAppSHA256.digest(Array(script.utf8))).base64EncodedString()
        #expect(InAppHTMLDocument.scriptHash == "sha256-" + digest)
        #expect(digest.count == 44)
        #expect(!InAppBridgeScript.source.lowercased().contains("</script"))
        #expect(!InAppBridgeScript.source.contains("\r"))
        // The SDK's head holds exactly one script: the bridge, the only one that runs (INAPP-25).
        #expect(InAppHTMLDocument.prefix.components(separatedBy: "<script").count == 2)
    }

    /// The hash as an independent tool computes it over the script's text (`sha256sum`, Python's
    /// hashlib): if the bridge changed on purpose, put the new value here after checking it elsewhere.
    @Test func theHashMatchesAnIndependentComputation() {
        #expect(InAppHTMLDocument.scriptHash == "sha256-QvcO/FCMYp3WG8V7gqNUjV2SrdXoOT8zK6zReTMj5fs=")
    }

    @Test func theAuthorsMarkupIsInTheBodyUnchanged() {
        let markup = "<h1>Sale</h1><a href=\"myapp://x\">Go</a>"
        let html = InAppHTMLDocument(authorHTML: markup).html
        #expect(html == InAppHTMLDocument.prefix + markup + InAppHTMLDocument.suffix)
        #expect(InAppHTMLDocument.prefix.hasSuffix("</head>\n<body>\n"))
    }

    @Test func theBridgePostsTheDocumentedShapes() {
        let source = InAppBridgeScript.source
        for shape in [
            "post({ type: \"click\", elementId: text(id), url:",
            "post({ type: \"dismiss\" })",
            "post({ type: \"form\", formId: text(formId), values: strings })",
            "post({ type: \"form\", formId: getAttribute(form, \"data-jry-form\"), values: formValues(form) })",
            "handler.postMessage(message)",
            "[data-joryio-action], a, area, button",
            "Object.defineProperty(window, \"joryioBridge\"",
            "if (window.joryioBridge) { return; }",
        ] {
            #expect(source.contains(shape), "bridge lacks \(shape)")
        }
    }

    @Test func hostileMarkupLeavesThePolicyUnchanged() throws {
        let fixtures = try Fixtures.html(in: "hostile")
        #expect(fixtures.count >= 9)
        for (name, markup) in fixtures {
            let html = InAppHTMLDocument(authorHTML: markup).html
            #expect(html.hasPrefix(InAppHTMLDocument.prefix), "\(name): the SDK's head is not first")
            let first = try #require(Self.firstPolicy(html), "\(name)")
            #expect(first.policy == InAppHTMLDocument.contentSecurityPolicy, "\(name): the first policy changed")
            #expect(first.offset < InAppHTMLDocument.prefix.count, "\(name): the first policy is the author's")
            // Every policy the author wrote comes after the SDK's `<body>`, as an inert attribute.
            #expect(html == InAppHTMLDocument.prefix + Self.neutralized(markup) + InAppHTMLDocument.suffix, "\(name)")
            let body = html.dropFirst(InAppHTMLDocument.prefix.count).lowercased()
            #expect(
                body.components(separatedBy: "http-equiv").count
                    == body.components(separatedBy: "data-jry-http-equiv").count
            )
        }
    }

    @Test func aCopyOfTheBridgeMatchesOnlyTheBridgesHash() throws {
        let copy = try #require(try Fixtures.html(in: "hostile").first { $0.name == "bridge-copy.html" })
        let html = InAppHTMLDocument(authorHTML: copy.markup).html
        // The copy would run (its hash matches), so the bridge guards itself against a second install.
        #expect(html.components(separatedBy: InAppBridgeScript.source).count == 3)
        #expect(InAppBridgeScript.source.contains("if (window.joryioBridge) { return; }"))
        #expect(InAppBridgeScript.source.contains("writable: false, configurable: false"))
    }

    @Test func wiredMarkupUsesTheBridgesAttributes() throws {
        let wired = try Fixtures.html(in: "wired")
        let actions = try #require(wired.first { $0.name == "actions.html" })
        for attribute in [
            "data-joryio-action=\"close\"", "data-joryio-action=\"open\"", "data-jry-form=", "data-joryio-id=",
        ] {
            #expect(actions.markup.contains(attribute))
            let name = attribute.prefix { $0 != "=" }
            #expect(InAppBridgeScript.source.contains(name), "the bridge ignores \(name)")
        }
    }

    /// `markup` with every `http-equiv` renamed, computed independently of the builder.
    static func neutralized(_ markup: String) -> String {
        markup.replacingOccurrences(of: "http-equiv", with: "data-jry-http-equiv", options: .caseInsensitive)
    }

    /// A refresh pragma would navigate away with no script and no tap (CSP does not govern it): the
    /// builder renames `http-equiv` in any letter case, and nothing else (GAP-43).
    @Test(arguments: [
        (
            "<meta http-equiv=\"refresh\" content=\"0; url=https://evil.example/\">",
            "<meta data-jry-http-equiv=\"refresh\" content=\"0; url=https://evil.example/\">"
        ),
        ("<META HTTP-EQUIV=refresh content=0>", "<META data-jry-http-equiv=refresh content=0>"),
        ("<meta Http-Equiv='Content-Security-Policy'>", "<meta data-jry-http-equiv='Content-Security-Policy'>"),
        ("x http-equivhttp-equiv y", "x data-jry-http-equivdata-jry-http-equiv y"),
        ("http-equi", "http-equi"),
        ("Ünïcödé http-EQUIV ✓", "Ünïcödé data-jry-http-equiv ✓"),
        ("", ""),
    ])
    func pragmasAreRenamed(markup: String, expected: String) {
        #expect(InAppHTMLDocument(authorHTML: markup).bodyMarkup == expected)
        #expect(
            InAppHTMLDocument(authorHTML: markup).html == InAppHTMLDocument.prefix + expected + InAppHTMLDocument.suffix
        )
    }

    /// The browser lane's document differs from the shipped one by its extra script, first, and that
    /// script's hash in `script-src`: nothing else.
    @Test func theInstrumentedDocumentAddsOneHashedScript() throws {
        let shim = "window.shim = 1;"
        let document = InAppHTMLDocument(authorHTML: "<p>x</p>")
        let instrumented = document.html(instrumentedWith: shim)
        let shimHash = "sha256-" + Data(InAppSHA256.digest(Array(shim.utf8))).base64EncodedString()
        let policy = try #require(Self.firstPolicy(instrumented)).policy
        #expect(
            policy
                == InAppHTMLDocument.contentSecurityPolicy.replacingOccurrences(
                    of: "script-src '\(InAppHTMLDocument.scriptHash)'",
                    with: "script-src '\(InAppHTMLDocument.scriptHash)' '\(shimHash)'"
                )
        )
        #expect(Self.firstScript(instrumented) == shim)
        let restored = instrumented.replacingOccurrences(of: "<script>\(shim)</script>\n", with: "")
            .replacingOccurrences(of: " '\(shimHash)'", with: "")
        #expect(restored == document.html)
    }
}
