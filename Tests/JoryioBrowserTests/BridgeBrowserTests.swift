import Foundation
import JoryioBrowser
import JoryioUI
import Testing

/// The bridge in a real browser (INAPP-25, INAPP-52, GAP-43): every tap on a link, a button, a
/// `data-joryio-action` element, every `data-jry-form` submission and every bridge call arrives at the
/// message handler with the right element id, URL and values, and nothing else does.
@Suite(.enabled(if: BrowserLane.available, BrowserLane.skipReason))
struct BridgeBrowserTests {
    @Test func everyWiredElementPostsItsMessage() throws {
        let steps: [BrowserProbe.Step] = [
            .click("#deep"), .click("#web"), .click("#plain"), .click("[data-joryio-id=named]"), .click("#closer"),
            .click("#opener"), .click("#headline"), .click("#submit"), .requestSubmit("#signup"),
        ]
        let result = try BrowserLane.probe().run(
            try BrowserLane.fixture("wired", "actions.html"),
            steps: steps + [.probeButton(id: "probe")]
        )
        let signup = InAppBridgeMessage.form(formId: "signup", values: ["email": "a@example.com", "news": "yes"])
        let expected: [[InAppBridgeMessage?]] = [
            [.click(elementId: "deep", url: "myapp://offer/42")],
            [.click(elementId: "web", url: "https://shop.example/offer")],
            [.click(elementId: "plain", url: nil)],
            [.click(elementId: "named", url: "myapp://named")],
            [.dismiss],
            [.click(elementId: "opener", url: "https://shop.example/open")],
            [],
            [signup],
            [signup],
        ]
        for (index, posts) in expected.enumerated() {
            #expect(result.steps[index] == posts, "step \(index) (\(steps[index])): \(result.steps[index])")
        }
        BrowserLane.expectContained(result, "actions.html", probeStep: steps.count)
        // Submitting through the bridge is not a form post: form-action never reports.
        #expect(!result.directives.contains("form-action"))
    }

    @Test func theBridgesCallsPostTheirMessages() throws {
        let result = try BrowserLane.probe().run(
            InAppHTMLDocument(authorHTML: "<p>Calls</p>"),
            steps: [
                .bridgeClick(id: "cta", url: "myapp://cta"), .bridgeClick(id: "bare", url: nil), .bridgeClose,
                .bridgeSubmit(formId: "survey", values: ["score": "9", "comment": "ünï <b>"]),
            ]
        )
        #expect(
            result.steps == [
                [.click(elementId: "cta", url: "myapp://cta")], [.click(elementId: "bare", url: nil)], [.dismiss],
                [.form(formId: "survey", values: ["score": "9", "comment": "ünï <b>"])],
            ]
        )
    }

    /// Named elements shadow DOM properties (`<input name="getAttribute">` is `form.getAttribute`):
    /// the bridge took what it uses from the prototypes before they existed, so it posts exactly what
    /// it would without them.
    @Test func namedElementsShadowNothingTheBridgeUses() throws {
        let steps: [BrowserProbe.Step] = [.click("#clobbered-submit"), .click("a[href]")]
        let result = try BrowserLane.probe().run(
            try BrowserLane.fixture("wired", "clobbering.html"),
            steps: steps + [.probeButton(id: "probe")]
        )
        let values = [
            "getAttribute": "g", "hasAttribute": "h", "elements": "e", "tagName": "t", "closest": "c", "localName": "l",
            "id": "i", "type": "y",
        ]
        #expect(result.steps.first == [.form(formId: "clobbered", values: values)])
        #expect(result.steps.dropFirst().first == [.click(elementId: "joryioBridge", url: "myapp://clobber")])
        BrowserLane.expectContained(result, "clobbering.html", probeStep: steps.count)
    }

    /// A copy of the bridge's exact text in the author's markup matches its hash and runs, and
    /// installs nothing: one tap is still one message.
    @Test func aCopyOfTheBridgeDoesNotDoubleTaps() throws {
        let result = try BrowserLane.probe().run(
            try BrowserLane.fixture("hostile", "bridge-copy.html"),
            steps: [.probeButton(id: "probe"), .bridgeClose]
        )
        #expect(result.steps == [[.click(elementId: "probe", url: nil)], [.dismiss]])
    }
}
