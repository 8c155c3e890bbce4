import Foundation
import JoryioKit
import JoryioUI
import Testing

/// `string` as a URL (the test tables' URLs are all valid).
private func link(_ string: String) -> URL {
    URL(string: string) ?? URL(fileURLWithPath: "/invalid")
}

/// What a tap does (DEEPLINK-5, ULINK-9, INAPP-49, INAPP-52, INAPP-58, GAP-43, GAP-44): the click is
/// reported first, then the URL opened as routed, then the message closes.
@Suite struct InAppActionRoutingTests {
    @Test(arguments: [
        ("myapp://offer/42", InAppURLRoute.openURL(link("myapp://offer/42"))),
        ("MyApp://Offer", .openURL(link("MyApp://Offer"))),
        ("https://shop.example/offer?id=1", .universalLink(link("https://shop.example/offer?id=1"))),
        ("HTTPS://shop.example/", .universalLink(link("HTTPS://shop.example/"))),
        ("http://shop.example/", .openWebURL(link("http://shop.example/"))),
        ("mailto:help@shop.example", .openURL(link("mailto:help@shop.example"))),
        ("javascript:alert(1)", .refused("the javascript: scheme")),
        ("JavaScript:alert(1)", .refused("the javascript: scheme")),
        ("  javascript:alert(1)", .refused("the javascript: scheme")),
        ("data:text/html,<b>x</b>", .refused("the data: scheme")),
        ("file:///etc/passwd", .refused("the file: scheme")),
        ("blob:https://shop.example/1", .refused("the blob: scheme")),
        ("about:blank", .refused("the about: scheme")),
        ("vbscript:x", .refused("the vbscript: scheme")),
        ("/relative/path", .refused("a URL without a scheme")),
    ])
    func urlsRoute(string: String, expected: InAppURLRoute) {
        #expect(InAppActionRouting.route(string) == expected)
    }

    /// Browsers drop tabs, newlines and leading control characters from URLs, so these are
    /// `javascript:` to a browser; here they are refused too (not a URL, or no scheme).
    @Test(arguments: ["java\tscript:alert(1)", "java\nscript:alert(1)", "\u{1}javascript:alert(1)", "", " "])
    func obfuscatedSchemesAreRefused(string: String) {
        guard case .refused = InAppActionRouting.route(string) else {
            Issue.record("\(string.debugDescription) was not refused")
            return
        }
    }

    @Test func aButtonReportsThenOpensThenCloses() {
        let button = InAppMessage.Button(id: "buy", label: "Buy", url: link("myapp://buy"))
        #expect(
            InAppActionRouting.steps(for: button) == [
                .reportClick(elementId: "buy"), .open(.openURL(link("myapp://buy"))), .close,
            ]
        )
    }

    @Test func aButtonWithoutURLCloses() {
        let button = InAppMessage.Button(id: "later", label: "Later")
        #expect(InAppActionRouting.steps(for: button) == [.reportClick(elementId: "later"), .close])
        #expect(InAppActionRouting.closeSteps == [.close])
    }

    @Test func aHTTPSButtonIsAUniversalLink() {
        let button = InAppMessage.Button(id: "web", label: "Web", url: link("https://shop.example/a"))
        #expect(InAppActionRouting.steps(for: button)[1] == .open(.universalLink(link("https://shop.example/a"))))
    }

    @Test(arguments: [
        (
            InAppBridgeMessage.click(elementId: "deep", url: "myapp://offer/42"),
            [InAppActionStep.reportClick(elementId: "deep"), .open(.openURL(link("myapp://offer/42"))), .close]
        ),
        (
            .click(elementId: "evil", url: "javascript:alert(1)"),
            [.reportClick(elementId: "evil"), .open(.refused("the javascript: scheme")), .close]
        ),
        (.click(elementId: "plain", url: nil), [.reportClick(elementId: "plain"), .close]),
        (.click(elementId: "", url: ""), [.reportClick(elementId: ""), .close]),
        (.dismiss, [.close]),
        (
            .form(formId: "signup", values: ["email": "a@example.com"]),
            [
                .reportClick(elementId: "signup"), .submitForm(formId: "signup", values: ["email": "a@example.com"]),
                .close,
            ]
        ),
    ])
    func bridgeMessagesRoute(message: InAppBridgeMessage, expected: [InAppActionStep]) {
        #expect(InAppActionRouting.steps(for: message) == expected)
    }

    @Test func bridgeBodiesParse() {
        #expect(
            InAppBridgeMessage(body: ["type": "click", "elementId": "a", "url": "myapp://x"])
                == .click(elementId: "a", url: "myapp://x")
        )
        #expect(
            InAppBridgeMessage(body: ["type": "click", "elementId": "a", "url": NSNull()])
                == .click(elementId: "a", url: nil)
        )
        #expect(InAppBridgeMessage(body: ["type": "dismiss"]) == .dismiss)
        #expect(
            InAppBridgeMessage(body: ["type": "form", "formId": "f", "values": ["a": "1", "b": 2]])
                == .form(formId: "f", values: ["a": "1"])
        )
        #expect(InAppBridgeMessage(body: ["type": "click"]) == nil)
        #expect(InAppBridgeMessage(body: ["type": "form", "formId": "f"]) == nil)
        #expect(InAppBridgeMessage(body: ["type": "eval", "code": "x"]) == nil)
        #expect(InAppBridgeMessage(body: "click") == nil)
        #expect(InAppBridgeMessage(body: [1, 2]) == nil)
    }
}
