package import Foundation
package import JoryioKit

/// What opening a message's URL means (DEEPLINK-5, ULINK-9, GAP-44).
package enum InAppURLRoute: Sendable, Equatable {
    /// A custom scheme (`myapp://…`): opened, so it reaches the app's own URL handlers (DEEPLINK-5).
    case openURL(URL)
    /// `https`: offered to the app as a universal link first (an `NSUserActivity` of type
    /// browsing-web), opened when the app does not take it, as for push (ULINK-7, ULINK-9).
    case universalLink(URL)
    /// `http`: opened as is (no universal link exists for `http`).
    case openWebURL(URL)
    /// Never opened: `javascript:`, `data:`, `file:`, `blob:`, `about:`, `vbscript:`, or no scheme.
    case refused(String)
}

/// One step of what a tap does, in order (INAPP-58: the click is reported first, DEEPLINK-5: before
/// opening).
package enum InAppActionStep: Sendable, Equatable {
    /// Report the click with the element's name (INAPP-49's `onMessageClick`, the `clicked` report).
    case reportClick(elementId: String)
    /// Hand a `data-jry-form` form's values to the SDK (INAPP-52).
    case submitForm(formId: String, values: [String: String])
    /// Open a URL as routed.
    case open(InAppURLRoute)
    /// Close the message (the dismissal is reported when it leaves the screen).
    case close
}

/// Pure routing of taps and bridge messages to steps (GAP-43, GAP-44). A tap always ends the message:
/// report, open when there is something to open, close. A refused URL is still reported and closes.
package enum InAppActionRouting {
    /// Schemes that never leave the message, whatever the campaign says.
    package static let refusedSchemes: Set<String> = ["javascript", "data", "file", "blob", "about", "vbscript"]

    /// How `url` is opened.
    package static func route(_ url: URL) -> InAppURLRoute {
        guard let scheme = url.scheme?.lowercased(), !scheme.isEmpty else {
            return .refused("a URL without a scheme")
        }
        if self.refusedSchemes.contains(scheme) {
            return .refused("the \(scheme): scheme")
        }
        switch scheme {
        case "https": return .universalLink(url)
        case "http": return .openWebURL(url)
        default: return .openURL(url)
        }
    }

    /// How a URL string from HTML is opened: refused when it is not a URL at all.
    package static func route(_ string: String) -> InAppURLRoute {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let url = URL(string: trimmed) else { return .refused("not a URL") }
        return self.route(url)
    }

    /// A native button's tap: reported with its id, its URL opened if it has one, then closed (a
    /// button without a URL closes).
    package static func steps(for button: InAppMessage.Button) -> [InAppActionStep] {
        [.reportClick(elementId: button.id)] + (button.url.map { [.open(self.route($0))] } ?? []) + [.close]
    }

    /// The close control: closes, nothing else.
    package static let closeSteps: [InAppActionStep] = [.close]

    /// What a bridge message does.
    package static func steps(for message: InAppBridgeMessage) -> [InAppActionStep] {
        switch message {
        case .click(let elementId, let url):
            let open = url.flatMap { $0.isEmpty ? nil : $0 }.map { [InAppActionStep.open(self.route($0))] } ?? []
            return [.reportClick(elementId: elementId)] + open + [.close]
        case .dismiss:
            return [.close]
        case .form(let formId, let values):
            return [.reportClick(elementId: formId), .submitForm(formId: formId, values: values), .close]
        }
    }
}
