package import Foundation
package import JoryioKit

/// How a native message is drawn (INAPP-19, INAPP-43, INAPP-44, GAP-44), as a value computed from the
/// message alone: the UIKit views of issue 17 only follow it. Sizes are in points; colours are roles
/// the views resolve against the app's tint and the current light or dark appearance, never RGB;
/// text styles are Dynamic Type styles.
package struct InAppNativeLayout: Sendable, Equatable {
    /// Where the message sits.
    package enum Placement: Sendable, Equatable {
        /// Banner: the top edge, inside the safe area.
        case top
        /// Slide-up: the bottom edge, inside the safe area.
        case bottom
        /// Modal: the centre of the screen.
        case center
        /// Full-screen: the whole screen.
        case full
        /// Custom: the app decides (through its presenter); the built-in presenter centres it.
        case custom
    }

    /// Size rules: the message's width is `min(maxWidthFraction × screen width − 2 × margin,
    /// maxWidth)`; its height follows its content up to `maxHeightFraction` of the safe area, then
    /// scrolls.
    package struct Size: Sendable, Equatable {
        /// Fraction of the screen's width the message may take.
        package var maxWidthFraction: Double
        /// An absolute cap on the width (readable line length on iPad), `nil` for none.
        package var maxWidth: Double?
        /// Fraction of the safe area's height the message may take before it scrolls.
        package var maxHeightFraction: Double
        /// Space kept between the message and the safe area's edges.
        package var margin: Double
        /// Corner radius of the message's card.
        package var cornerRadius: Double
    }

    /// What lies behind the message.
    package enum Dimming: Sendable, Equatable {
        /// Nothing: the app stays visible as it is.
        case none
        /// The ``ColorRole/dimming`` role over the app, at this opacity.
        case dimmed(opacity: Double)
        /// The message's own background covers the app.
        case opaque
    }

    /// Which touches the message's window takes (INAPP-44).
    package enum Touches: Sendable, Equatable {
        /// Only touches inside the message; the rest reach the app (a pass-through window).
        case insideMessageOnly
        /// Every touch: the app behind cannot be used while the message shows.
        case blockEverything
    }

    /// Dynamic Type styles (`UIFont.TextStyle`), scaled with the person's setting.
    package enum TextStyle: String, Sendable, Equatable, CaseIterable {
        /// `.headline`.
        case headline
        /// `.body`.
        case body
        /// The buttons' labels: `.callout` weighted semibold.
        case button
    }

    /// Colour roles, resolved by the views: system colours that follow light and dark, and the app's tint.
    package enum ColorRole: String, Sendable, Equatable, CaseIterable {
        /// The card: `.systemBackground` (elevated in dark mode).
        case background
        /// Headline text: `.label`.
        case primaryText
        /// Body text: `.secondaryLabel`.
        case secondaryText
        /// The first button's fill and the other buttons' text: the app's `tintColor`.
        case tint
        /// Text on a tint fill: `.white` in light and dark (tinted buttons as UIKit draws them), black
        /// when white would fall below 3:1 contrast on a light tint (``InAppNativeStyle``).
        case onTint
        /// The close control: `.tertiaryLabel`.
        case closeControl
        /// Behind modal messages: `.black` at the ``Dimming/dimmed(opacity:)`` opacity.
        case dimming
    }

    /// How a button looks.
    package enum ButtonProminence: Sendable, Equatable {
        /// Filled with ``ColorRole/tint``, text ``ColorRole/onTint``: the first button.
        case primary
        /// Text in ``ColorRole/tint``, no fill: every further button.
        case secondary
    }

    /// One element of the message, in VoiceOver's reading order.
    package enum Element: Sendable, Equatable {
        /// The headline: ``TextStyle/headline``, ``ColorRole/primaryText``, a header for VoiceOver.
        case headline(String)
        /// The text: ``TextStyle/body``, ``ColorRole/secondaryText``.
        case text(String)
        /// The image. The wire carries no alternative text yet (GAP-44), so with a `nil` label the
        /// image is decorative and hidden from VoiceOver.
        case image(URL, accessibilityLabel: String?)
        /// A button with the campaign's id; without a URL it only closes (``InAppActionRouting``).
        case button(id: String, label: String, url: URL?, prominence: ButtonProminence)
        /// The close control, last: a button labelled ``InAppNativeLayout/closeLabel``.
        case close

        /// The style its text is drawn in, `nil` for the image.
        package var textStyle: TextStyle? {
            switch self {
            case .headline: .headline
            case .text: .body
            case .image: nil
            case .button, .close: .button
            }
        }

        /// Its foreground colour role.
        package var colorRole: ColorRole {
            switch self {
            case .headline: .primaryText
            case .text, .image: .secondaryText
            case .button(_, _, _, .primary): .onTint
            case .button(_, _, _, .secondary): .tint
            case .close: .closeControl
            }
        }

        /// What VoiceOver reads; `nil` when the element is hidden from it.
        package var accessibilityLabel: String? {
            switch self {
            case .headline(let text), .text(let text): text
            case .image(_, let label): label
            case .button(_, let label, _, _): label
            case .close: InAppNativeLayout.closeLabel
            }
        }
    }

    /// The close control's VoiceOver label (localised by issue 17's views).
    package static let closeLabel = "Close"

    /// How the buttons are laid out.
    package enum ButtonAxis: Sendable, Equatable {
        /// One above the other, full width.
        case vertical
        /// Side by side (banners and slide-ups).
        case horizontal
    }

    /// The message's type, for reference.
    package var type: InAppMessage.MessageType
    /// Where it sits.
    package var placement: Placement
    /// How large it may be.
    package var size: Size
    /// What lies behind it.
    package var dimming: Dimming
    /// Which touches it takes (INAPP-44).
    package var touches: Touches
    /// The card's background role.
    package var background: ColorRole
    /// How the buttons are laid out.
    package var buttonAxis: ButtonAxis
    /// The elements in VoiceOver's order: headline, text, image, buttons in the campaign's order, close.
    package var elements: [Element]

    /// The layout of `message`; `nil` for HTML content, which ``InAppHTMLDocument`` draws.
    package init?(message: InAppMessage) {
        guard case .native(let content) = message.content else { return nil }
        self.init(type: message.type, content: content)
    }

    /// The rules of `type` alone (placement, size, dimming, touches), for what is not native
    /// content: an HTML message's frame, the window a message of that type gets.
    package init(type: InAppMessage.MessageType) {
        self.init(type: type, content: InAppMessage.NativeContent())
    }

    /// The layout of native `content` shown as `type`.
    package init(type: InAppMessage.MessageType, content: InAppMessage.NativeContent) {
        self.type = type
        self.elements = Self.elements(of: content)
        self.background = .background
        switch type {
        case .modal:
            self.placement = .center
            self.size = Size(maxWidthFraction: 0.9, maxWidth: 420, maxHeightFraction: 0.8, margin: 24, cornerRadius: 16)
            self.dimming = .dimmed(opacity: 0.4)
            self.touches = .blockEverything
            self.buttonAxis = .vertical
        case .banner, .slideUp:
            self.placement = type == .banner ? .top : .bottom
            self.size = Size(maxWidthFraction: 1, maxWidth: 560, maxHeightFraction: 0.35, margin: 8, cornerRadius: 12)
            self.dimming = .none
            self.touches = .insideMessageOnly
            self.buttonAxis = .horizontal
        case .fullScreen:
            self.placement = .full
            self.size = Size(maxWidthFraction: 1, maxWidth: nil, maxHeightFraction: 1, margin: 0, cornerRadius: 0)
            self.dimming = .opaque
            self.touches = .blockEverything
            self.buttonAxis = .vertical
        case .custom:
            self.placement = .custom
            self.size = Size(maxWidthFraction: 0.9, maxWidth: 420, maxHeightFraction: 0.8, margin: 24, cornerRadius: 16)
            self.dimming = .none
            self.touches = .insideMessageOnly
            self.buttonAxis = .vertical
        }
    }

    private static func elements(of content: InAppMessage.NativeContent) -> [Element] {
        var elements: [Element] = []
        if let headline = content.headline, !headline.isEmpty {
            elements.append(.headline(headline))
        }
        if let text = content.text, !text.isEmpty {
            elements.append(.text(text))
        }
        if let imageURL = content.imageURL {
            elements.append(.image(imageURL, accessibilityLabel: nil))
        }
        for (index, button) in content.buttons.enumerated() {
            elements.append(
                .button(
                    id: button.id,
                    label: button.label,
                    url: button.url,
                    prominence: index == 0 ? .primary : .secondary
                )
            )
        }
        elements.append(.close)
        return elements
    }
}
