package import Foundation
internal import JoryioInApp
package import JoryioKit
internal import JoryioPush

/// Where in-app messages' forms and links go in the `Joryio` product: links are followed by push's
/// link handling, so in-app and push links reach the app the same way (DEEPLINK-5, ULINK-9) and
/// there is one router. The two modules do not know each other; the product that links both joins
/// them here.
extension Joryio {
    /// Follows `url` from an in-app message on the engine, after what was submitted before it (the
    /// click the presenter reported first, DEEPLINK-5): the app's link handler first, then opened
    /// (a custom scheme, `http`) or offered as a universal link and opened when not handled
    /// (`asUniversalLink`, for `https`). Before `initialize()` it is kept and followed at start.
    package func followInAppLink(_ url: URL, asUniversalLink: Bool) {
        self.facade.submit(to: PushNotificationHandler.self) { handler in
            handler.followMessageLink(url, route: asUniversalLink ? .universalLink : .openURL)
        }
    }

    /// At `initialize()`: the in-app feature sends the forms and links of the messages this
    /// instance presents back to this instance (issue 26), held weakly (the instance owns the
    /// feature); and the built-in presenter installed before is in place, whatever the pre-init
    /// list kept.
    func connectInAppMessages() {
        let builtIn = self.facade[Joryio.builtInPresenterSlot]
        let actions = InAppMessageActions(
            submitForm: { [weak self] campaignId, values in
                self?.queueInAppForm(campaignId: campaignId, values: values)
            },
            followLink: { [weak self] url, asUniversalLink in
                self?.followInAppLink(url, asUniversalLink: asUniversalLink)
            }
        )
        self.facade.submit(to: InAppFeature.self) { feature in
            feature.setMessageActions(actions)
            if let builtIn { feature.setBuiltInPresenter(builtIn) }
        }
    }
}
