import Foundation
import JoryioKit
import JoryioUI
import Testing

/// `string` as a URL (the tables' URLs are all valid).
private func link(_ string: String) -> URL {
    URL(string: string) ?? URL(fileURLWithPath: "/invalid")
}

/// What the built-in presenter does after a tap (INAPP-49, INAPP-58, DEEPLINK-5, ULINK-9): the
/// delegate hears the click with the element's name and URL first, then the link is followed by
/// push's link handling, then the message is dismissed.
@Suite struct InAppPresenterEffectsTests {
    @Test("INAPP-49, DEEPLINK-5: a button with a deep link: click (with its URL), follow, dismiss")
    func deepLinkButton() {
        let button = InAppMessage.Button(id: "cta", label: "Shop", url: link("myapp://offer/42"))
        #expect(
            InAppPresenterEffects.effects(for: button) == [
                .reportClick(elementId: "cta", url: link("myapp://offer/42")),
                .follow(InAppLinkToFollow(url: link("myapp://offer/42"), asUniversalLink: false)),
                .dismiss,
            ]
        )
    }

    @Test("ULINK-9: an https button is followed as a universal link")
    func universalLinkButton() {
        let button = InAppMessage.Button(id: "cta", label: "Shop", url: link("https://shop.example/sale"))
        #expect(
            InAppPresenterEffects.effects(for: button) == [
                .reportClick(elementId: "cta", url: link("https://shop.example/sale")),
                .follow(InAppLinkToFollow(url: link("https://shop.example/sale"), asUniversalLink: true)),
                .dismiss,
            ]
        )
    }

    @Test("INAPP-49: a button without a URL reports its click and dismisses")
    func buttonWithoutURL() {
        let button = InAppMessage.Button(id: "later", label: "Later")
        #expect(InAppPresenterEffects.effects(for: button) == [.reportClick(elementId: "later", url: nil), .dismiss])
    }

    @Test("INAPP-49: the close control dismisses and reports no click")
    func close() {
        #expect(InAppPresenterEffects.close == [.dismiss])
        #expect(InAppPresenterEffects.effects(for: InAppBridgeMessage.dismiss) == [.dismiss])
    }

    @Test(
        "INAPP-49, DEEPLINK-5, ULINK-9: bridge clicks: the URL the delegate hears is the one followed; refused ones are not",
        arguments: [
            (
                InAppBridgeMessage.click(elementId: "a1", url: "http://shop.example/"),
                [
                    InAppPresenterEffect.reportClick(elementId: "a1", url: link("http://shop.example/")),
                    .follow(InAppLinkToFollow(url: link("http://shop.example/"), asUniversalLink: false)),
                    .dismiss,
                ]
            ),
            (
                .click(elementId: "a2", url: "data:text/html,x"),
                [.reportClick(elementId: "a2", url: nil), .refuseLink(reason: "the data: scheme"), .dismiss]
            ),
            (.click(elementId: "a3", url: nil), [.reportClick(elementId: "a3", url: nil), .dismiss]),
            (.click(elementId: "a4", url: ""), [.reportClick(elementId: "a4", url: nil), .dismiss]),
        ]
    )
    func bridgeClicks(message: InAppBridgeMessage, expected: [InAppPresenterEffect]) {
        #expect(InAppPresenterEffects.effects(for: message) == expected)
    }

    @Test("INAPP-52: a bridge form: click named by the form, its values submitted, dismiss")
    func form() {
        let message = InAppBridgeMessage.form(formId: "signup", values: ["email": "a@b.c"])
        #expect(
            InAppPresenterEffects.effects(for: message) == [
                .reportClick(elementId: "signup", url: nil),
                .submitForm(formId: "signup", values: ["email": "a@b.c"]),
                .dismiss,
            ]
        )
    }

    @Test("INAPP-58, DEEPLINK-5: whatever the steps, the click comes before the link and the dismissal last")
    func order() {
        let steps: [InAppActionStep] = [
            .reportClick(elementId: "x"), .open(.openURL(link("myapp://a"))), .close,
        ]
        let effects = InAppPresenterEffects.effects(for: steps)
        #expect(effects.first == .reportClick(elementId: "x", url: link("myapp://a")))
        #expect(effects.last == .dismiss)
        #expect(InAppLinkToFollow(.refused("no")) == nil)
    }

    @Test("INAPP-40, INAPP-41: without UIKit there is no DefaultInAppMessagePresenter to discover")
    func noPresenterClassWithoutUIKit() {
        #if canImport(UIKit)
        #expect(NSClassFromString("JoryioUI.DefaultInAppMessagePresenter") != nil)
        #else
        #expect(NSClassFromString("JoryioUI.DefaultInAppMessagePresenter") == nil)
        #expect(NSClassFromString("Joryio.DefaultInAppMessagePresenter") == nil)
        #endif
    }
}
