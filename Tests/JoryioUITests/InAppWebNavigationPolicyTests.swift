import Foundation
import JoryioUI
import Testing

/// `string` as a URL (the tables' URLs are all valid).
private func link(_ string: String) -> URL {
    URL(string: string) ?? URL(fileURLWithPath: "/invalid")
}

/// What an HTML message's web view loads (GAP-43): the SDK's document once, nothing after it; a
/// tapped link the bridge did not catch is routed as a click with an empty element id.
@Suite struct InAppWebNavigationPolicyTests {
    typealias Policy = InAppWebNavigationPolicy

    private static let initial = Policy.Request(url: link("about:blank"), kind: .other, target: .mainFrame)

    @Test("GAP-43: the initial about:blank load is allowed once; loading it again is cancelled")
    func initialLoadOnce() {
        var policy = Policy()
        #expect(policy.decide(Self.initial) == .allow)
        #expect(policy.didAllowInitialLoad)
        #expect(policy.decide(Self.initial) == .cancel(routeAsClick: nil), "a second load (a reload by script)")
    }

    @Test("GAP-43: a load without a URL counts as the SDK's document (loadHTMLString, baseURL nil)")
    func initialLoadWithoutURL() {
        var policy = Policy()
        #expect(policy.decide(.init(url: nil, kind: .other, target: .mainFrame)) == .allow)
    }

    @Test(
        "GAP-43: before the initial load nothing else gets through either",
        arguments: [
            Policy.Request(url: link("https://evil.example/"), kind: .other, target: .mainFrame),
            Policy.Request(url: link("about:blank"), kind: .other, target: .subFrame),
            Policy.Request(url: link("about:blank"), kind: .reload, target: .mainFrame),
            Policy.Request(url: link("about:blank"), kind: .linkActivated, target: .mainFrame),
        ]
    )
    func onlyTheDocumentFirst(request: Policy.Request) {
        var policy = Policy()
        #expect(policy.decide(request) == .cancel(routeAsClick: nil))
        #expect(!policy.didAllowInitialLoad)
    }

    @Test(
        "GAP-43: meta refresh, script navigation, redirects, form posts, frames, history: cancelled, nothing routed",
        arguments: [
            Policy.Request(url: link("https://evil.example/refresh"), kind: .other, target: .mainFrame),
            Policy.Request(url: link("https://evil.example/redirect"), kind: .other, target: .mainFrame),
            Policy.Request(url: link("https://evil.example/post"), kind: .formSubmitted, target: .mainFrame),
            Policy.Request(url: link("https://evil.example/post"), kind: .formResubmitted, target: .mainFrame),
            Policy.Request(url: link("https://evil.example/frame"), kind: .other, target: .subFrame),
            Policy.Request(url: link("https://evil.example/frame"), kind: .linkActivated, target: .subFrame),
            Policy.Request(url: link("https://evil.example/popup"), kind: .other, target: .newWindow),
            Policy.Request(url: link("about:blank"), kind: .backForward, target: .mainFrame),
            Policy.Request(url: link("about:blank"), kind: .reload, target: .mainFrame),
            Policy.Request(url: link("about:blank#top"), kind: .linkActivated, target: .mainFrame),
            Policy.Request(url: nil, kind: .linkActivated, target: .mainFrame),
        ]
    )
    func laterNavigationsCancelled(request: Policy.Request) {
        var policy = Policy()
        _ = policy.decide(Self.initial)
        #expect(policy.decide(request) == .cancel(routeAsClick: nil))
    }

    @Test(
        "GAP-43, DEEPLINK-5, ULINK-9: a tapped link the bridge missed is cancelled and routed as a click with an empty id",
        arguments: [
            ("myapp://offer/1", Policy.Target.mainFrame),
            ("https://shop.example/sale", .mainFrame),
            ("https://shop.example/sale", .newWindow),
            ("javascript:alert(1)", .mainFrame),
        ]
    )
    func uncaughtLinkRoutedAsClick(url: String, target: Policy.Target) {
        var policy = Policy()
        _ = policy.decide(Self.initial)
        let decision = policy.decide(.init(url: link(url), kind: .linkActivated, target: target))
        #expect(decision == .cancel(routeAsClick: .click(elementId: "", url: url)))
    }

    @Test("GAP-43: a routed javascript: link is reported and closes, never opened")
    func routedRefusedLink() throws {
        var policy = Policy()
        _ = policy.decide(Self.initial)
        let decision = policy.decide(.init(url: link("javascript:alert(1)"), kind: .linkActivated, target: .mainFrame))
        guard case .cancel(let message?) = decision else {
            Issue.record("not routed: \(decision)")
            return
        }
        #expect(
            InAppPresenterEffects.effects(for: message) == [
                .reportClick(elementId: "", url: nil), .refuseLink(reason: "the javascript: scheme"), .dismiss,
            ]
        )
    }
}
