import Foundation
import JoryioBrowser
import JoryioUI
import Testing

/// The hostile fixtures in a real browser (INAPP-24, INAPP-26, GAP-43): the author's scripts, inline
/// handlers, `javascript:` URLs, iframes, remote loads, pragmas, `<base>` and native form posts are all
/// blocked, the browser reports each as a CSP violation, nothing navigates, and the bridge still works.
@Suite(.enabled(if: BrowserLane.available, BrowserLane.skipReason))
struct HostileDocumentBrowserTests {
    /// One fixture: the taps played on it, what each must post, and violations the browser must report
    /// for what the author wrote (besides the attacks every document gets).
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var steps: [BrowserProbe.Step] = []
        var posts: [[InAppBridgeMessage]] = []
        var violations: [BrowserProbe.Violation] = []
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "attribute-handlers.html",
            steps: [.click("#tap")],
            posts: [[]],
            violations: [.init(directive: "script-src-attr", blocked: "inline")]
        ),
        Case(
            name: "base-tag.html",
            steps: [.click("#relative")],
            posts: [[.click(elementId: "relative", url: "/path")]],
            violations: [.init(directive: "base-uri", blocked: "https://evil.example/")]
        ),
        Case(name: "bridge-copy.html"),
        Case(name: "head-tricks.html", violations: [.init(directive: "script-src-elem", blocked: "inline")]),
        Case(
            name: "javascript-urls.html",
            steps: [.click("#js-link"), .click("#js-link-case"), .click("#js-form")],
            posts: [
                [.click(elementId: "js-link", url: "javascript:document.title='ran'")],
                [.click(elementId: "js-link-case", url: " JaVaScRiPt:document.title='ran'")],
                [.click(elementId: "js-form", url: nil)],
            ],
            violations: [.init(directive: "script-src-elem", blocked: "inline")]
        ),
        Case(name: "meta-override.html", violations: [.init(directive: "script-src-elem", blocked: "inline")]),
        Case(
            name: "navigation.html",
            steps: [
                .click("#area-link"), .click("#svg-xlink"), .click("#blank"), .click("#no-href"),
                .nativeSubmit("#get-form"),
            ],
            posts: [
                [.click(elementId: "area-link", url: "https://evil.example/area")],
                [.click(elementId: "svg-xlink", url: "https://evil.example/svg")],
                [.click(elementId: "blank", url: "https://evil.example/blank")],
                [],
                [],
            ],
            violations: [.init(directive: "form-action", blocked: "https://evil.example/get?q=1")]
        ),
        Case(
            name: "network.html",
            steps: [.click("#plain-form"), .nativeSubmit("form")],
            posts: [[.click(elementId: "plain-form", url: nil)], []],
            violations: [
                .init(directive: "style-src-elem", blocked: "https://evil.example/style.css"),
                .init(directive: "style-src-elem", blocked: "https://evil.example/import.css"),
                .init(directive: "img-src", blocked: "https://evil.example/pixel.png"),
                .init(directive: "img-src", blocked: "https://evil.example/bg.png"),
                .init(directive: "frame-src", blocked: "https://evil.example"),
                .init(directive: "object-src", blocked: "https://evil.example"),
                .init(directive: "form-action", blocked: "https://evil.example/collect"),
            ]
        ),
        Case(
            name: "script-tags.html",
            violations: [
                .init(directive: "script-src-elem", blocked: "inline"),
                .init(directive: "script-src-elem", blocked: "https://evil.example/x.js"),
            ]
        ),
        Case(
            name: "svg-script.html",
            steps: [.click("svg a")],
            posts: [[.click(elementId: "", url: "javascript:document.title='ran'")]],
            violations: [
                .init(directive: "script-src-elem", blocked: "inline"),
                .init(directive: "script-src-attr", blocked: "inline"),
            ]
        ),
        Case(name: "unclosed.html"),
    ]

    @Test func everyFixtureHasACase() {
        #expect(Set(BrowserLane.fixtureNames("hostile")) == Set(Self.cases.map(\.name)))
    }

    @Test(arguments: cases)
    func theFixtureIsContained(_ fixture: Case) throws {
        let result = try BrowserLane.probe().run(
            try BrowserLane.fixture("hostile", fixture.name),
            steps: fixture.steps + [.probeButton(id: "probe")]
        )
        BrowserLane.expectContained(result, fixture.name, probeStep: fixture.steps.count)
        for (index, expected) in fixture.posts.enumerated() {
            #expect(
                result.steps[index].compactMap { $0 } == expected,
                "\(fixture.name) step \(index): \(result.steps[index])"
            )
            #expect(!result.steps[index].contains(nil), "\(fixture.name): a post of no known shape")
        }
        for violation in fixture.violations {
            #expect(
                result.violations.contains(violation),
                "\(fixture.name): no report of \(violation): \(result.violations)"
            )
        }
    }
}
