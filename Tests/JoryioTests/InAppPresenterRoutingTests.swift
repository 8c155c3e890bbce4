import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioPush
import JoryioTesting
import JoryioUI
import Testing

/// The built-in presenter's clicks, forms and links reach the SDK instance that presented the
/// message through the delegate it was handed, never another instance (issue 26, bug 1; issue 27:
/// the renderer names no instance at all). A delegate that is not the SDK's gets them itself.
@Suite struct InAppPresenterRoutingTests {
    /// One instance with the `Joryio` product's features over fake platforms.
    struct Instance {
        let sdk: TestSDK
        let transport: RespondingTransport
        let push: FakePushPlatform
        let inApp: FakeInAppPlatform

        init() {
            self.transport = InAppFeatureTests.transport()
            self.push = FakePushPlatform(authorization: .authorized)
            self.inApp = FakeInAppPlatform()
            self.sdk = TestSDK(transport: self.transport, features: .joryio(push: self.push, inApp: self.inApp))
            self.sdk.joryio.inAppPresenter = StubInAppPresenter()
            self.sdk.start()
        }

        /// The form submissions this instance sent.
        var forms: [JSONValue] {
            self.transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/forms") }.compactMap(\.json)
        }

        /// The in-app reports this instance sent, as `"<action> <campaign>"`.
        var reports: [String] {
            self.transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/track") }.compactMap { request in
                guard let json = request.json else { return nil }
                return "\(json["action"]?.stringValue ?? "?") \(json["campaignId"]?.stringValue ?? "?")"
            }
        }

        /// The synced message `id`.
        func message(_ id: String) -> InAppMessage? {
            self.sdk.joryio.feature(InAppFeature.self)?.campaigns.first { $0.id == id }?.message
        }
    }

    /// A delegate an app passes when it presents with the built-in presenter itself.
    @MainActor
    final class AppDelegate: InAppMessageViewDelegate {
        var clicks: [String] = []
        var forms: [[String: String]] = []
        var links: [URL] = []
        func messageViewClicked(_ message: InAppMessage, action: String, url: URL?) { self.clicks.append(action) }
        func messageViewDidDismiss(_ message: InAppMessage) {}
        func messageViewSubmittedForm(_ message: InAppMessage, values: [String: String]) {
            self.forms.append(values)
        }
        func messageViewFollowsLink(_ message: InAppMessage, url: URL, asUniversalLink: Bool) {
            self.links.append(url)
        }
    }

    /// A delegate that implements only the two required reports: forms and links do nothing.
    @MainActor
    final class MinimalDelegate: InAppMessageViewDelegate {
        var clicks: [String] = []
        func messageViewClicked(_ message: InAppMessage, action: String, url: URL?) { self.clicks.append(action) }
        func messageViewDidDismiss(_ message: InAppMessage) {}
    }

    static let link = URL(string: "myshop://sale")

    /// A tap on a form's submit button that also opens a link, then closes: every effect kind.
    static func effects(_ url: URL) -> [InAppPresenterEffect] {
        [
            .reportClick(elementId: "shop", url: url),
            .submitForm(formId: "signup", values: ["email": "a@example.com"]),
            .follow(InAppLinkToFollow(url: url, asUniversalLink: false)),
            .dismiss,
        ]
    }

    @Test(
        "INAPP-51 / DEEPLINK-5: a message's form and link go to the instance that presented it, not to another (issue 26)"
    )
    @MainActor
    func formAndLinkReachThePresentingInstance() throws {
        let other = Instance()
        let presenting = Instance()
        presenting.sdk.track(["Product Viewed"])
        #expect(presenting.inApp.calls == ["present sale"])
        let delegate = try #require(presenting.inApp.delegate(for: "sale"))
        let message = try #require(presenting.message("sale"))
        let url = try #require(Self.link)

        let dismissed = InAppPresenterPerforming.perform(
            Self.effects(url),
            for: message,
            delegate: delegate
        )
        presenting.sdk.scheduler.runUntilIdle()
        other.sdk.scheduler.runUntilIdle()

        #expect(dismissed, "the dismissal is left to the presenter's window")
        #expect(presenting.forms.count == 1)
        #expect(presenting.forms.first?["values"] == .object(["email": .string("a@example.com")]))
        #expect(presenting.forms.first?["deliveryToken"]?.stringValue == "tok-sale")
        #expect(presenting.push.actions == [.open(url)])
        #expect(presenting.reports == ["displayed sale", "clicked sale"], "the click, through the same delegate")
        #expect(other.forms.isEmpty, "nothing reaches another instance")
        #expect(other.push.actions.isEmpty)
        #expect(other.reports.isEmpty)
    }

    @Test("issue 26: the presenter's effects stop at the dismissal; a refused link is not followed")
    @MainActor
    func stopsAtTheDismissal() throws {
        let presenting = Instance()
        presenting.sdk.track(["Product Viewed"])
        let delegate = try #require(presenting.inApp.delegate(for: "sale"))
        let message = try #require(presenting.message("sale"))
        let url = try #require(Self.link)
        let dismissed = InAppPresenterPerforming.perform(
            [
                .refuseLink(reason: "javascript: is never opened"), .dismiss,
                .follow(InAppLinkToFollow(url: url, asUniversalLink: false)),
            ],
            for: message,
            delegate: delegate
        )
        presenting.sdk.scheduler.runUntilIdle()
        #expect(dismissed)
        #expect(presenting.push.actions.isEmpty, "nothing after the dismissal, nothing for a refused link")
    }

    @Test(
        "issue 27: with a delegate that is not the SDK's, its clicks, forms and links go to that delegate, never to an instance"
    )
    @MainActor
    func foreignDelegateGetsFormsAndLinks() throws {
        let bystander = Instance()
        let presenting = Instance()
        presenting.sdk.track(["Product Viewed"])
        let message = try #require(presenting.message("sale"))
        let url = try #require(Self.link)
        let delegate = AppDelegate()
        _ = InAppPresenterPerforming.perform(Self.effects(url), for: message, delegate: delegate)
        let minimal = MinimalDelegate()
        _ = InAppPresenterPerforming.perform(Self.effects(url), for: message, delegate: minimal)
        bystander.sdk.scheduler.runUntilIdle()
        presenting.sdk.scheduler.runUntilIdle()
        #expect(delegate.clicks == ["shop"], "the click goes to the app's delegate")
        #expect(delegate.forms == [["email": "a@example.com"]])
        #expect(delegate.links == [url])
        #expect(minimal.clicks == ["shop"], "the default form and link handling does nothing")
        for instance in [bystander, presenting] {
            #expect(instance.forms.isEmpty)
            #expect(instance.push.actions.isEmpty)
        }
        #expect(bystander.reports.isEmpty)
        #expect(!presenting.reports.contains("clicked sale"), "the click went to the app's delegate only")
    }
}

/// How the SDK gets its built-in presenter (issue 26, bug 2; INAPP-40 … INAPP-42): installed by
/// the UI product's `useDefaultInAppPresenter()`, which needs no class-name lookup the linker can
/// defeat; discovery stays the fallback, and with nothing at all one warning is logged.
@Suite struct InAppBuiltInPresenterTests {
    private func sdk(_ platform: FakeInAppPlatform) -> (TestSDK, RespondingTransport) {
        let transport = InAppFeatureTests.transport()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        return (sdk, transport)
    }

    @Test("INAPP-40 / issue 26: the built-in presenter installed before initialize() draws, and nothing is looked for")
    func installedPresenterDraws() {
        let platform = FakeInAppPlatform()
        let (sdk, _) = self.sdk(platform)
        // What `Joryio.shared.useDefaultInAppPresenter()` does with `DefaultInAppMessagePresenter()`.
        sdk.joryio.useBuiltInInAppPresenter(StubInAppPresenter())
        sdk.start()
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        #expect(platform.calls == ["present sale"], "not \"(no presenter)\": discovery alone found nothing")
        #expect(platform.discoveries == 0)
        #expect(!sdk.messages(at: .warning).contains { $0.contains("No in-app presenter found") })
    }

    @Test("INAPP-42 / issue 26: the app's own presenter takes precedence over the installed built-in one")
    @MainActor
    func appPresenterFirst() {
        let platform = FakeInAppPlatform()
        let (sdk, _) = self.sdk(platform)
        let builtIn = StubInAppPresenter()
        let own = StubInAppPresenter()
        sdk.joryio.inAppPresenter = own
        sdk.start()
        sdk.joryio.useBuiltInInAppPresenter(builtIn)
        sdk.track(["Product Viewed"])
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        platform.performTakeDowns()
        #expect(own.takenDown == ["sale"], "the presenter the message was shown with is asked to take it down")
        #expect(builtIn.takenDown.isEmpty)
        #expect(platform.discoveries == 0)
    }

    @Test(
        "INAPP-41 / issue 26: with no presenter set, installed or found, the warning is logged once, at the first message"
    )
    func warnsOnce() {
        let platform = FakeInAppPlatform()
        let (sdk, _) = self.sdk(platform)
        sdk.start()
        #expect(!sdk.messages(at: .warning).contains { $0.contains("No in-app presenter found") }, "no message yet")
        sdk.track(["Product Viewed"])
        sdk.advance(to: 5)
        sdk.track(["Product Viewed"])
        sdk.advance(to: 10)
        #expect(platform.calls == ["present sale (no presenter)", "present sale (no presenter)"])
        let warnings = sdk.messages(at: .warning).filter { $0.contains("No in-app presenter found") }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("useDefaultInAppPresenter()") == true)
        #expect(platform.discoveries == 1, "discovery stays the fallback, tried once")
    }
}
