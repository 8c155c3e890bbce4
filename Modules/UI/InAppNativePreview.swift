package import JoryioKit

/// An HTML picture of a native message for previews (issue 17, item 5): the message's
/// ``InAppNativeLayout`` resolved by ``InAppNativeStyle`` and drawn over a fake app on a phone-sized
/// screen, as markup with one inline `<style>` and nothing else.
///
/// The markup goes into ``InAppHTMLDocument/init(authorHTML:)`` and is screenshotted in a browser, so
/// it works under that document's CSP: no scripts, no remote resources (a remote image is a neutral
/// placeholder box with its label), no `http:`/`https:` URL anywhere (a button's link is left out: the
/// preview is a picture). Buttons carry `data-joryio-id` (the button's id) and the close control
/// `data-joryio-action="close"`, so the bridge reports taps as the native views would. Every piece of
/// campaign text is HTML-escaped.
package struct InAppNativePreview: Sendable, Equatable {
    /// A screen in points (CSS pixels), with its safe-area insets.
    package struct Screen: Sendable, Equatable {
        /// Width.
        package var width: Double
        /// Height.
        package var height: Double
        /// Safe-area inset at the top (status bar, Dynamic Island).
        package var safeTop: Double
        /// Safe-area inset at the leading edge.
        package var safeLeft: Double
        /// Safe-area inset at the bottom (home indicator).
        package var safeBottom: Double
        /// Safe-area inset at the trailing edge.
        package var safeRight: Double

        /// A screen.
        package init(
            width: Double,
            height: Double,
            safeTop: Double = 0,
            safeLeft: Double = 0,
            safeBottom: Double = 0,
            safeRight: Double = 0
        ) {
            self.width = width
            self.height = height
            self.safeTop = safeTop
            self.safeLeft = safeLeft
            self.safeBottom = safeBottom
            self.safeRight = safeRight
        }

        /// A 6.1-inch iPhone in portrait: 390 × 844 points, 47 at the top, 34 at the bottom.
        package static let phone = Screen(width: 390, height: 844, safeTop: 47, safeBottom: 34)
    }

    /// Where the card lands on the screen, in points.
    package struct Geometry: Sendable, Equatable {
        /// How the card is aligned vertically.
        package enum Alignment: Sendable, Equatable {
            /// Against the safe area's top edge, `inset` below the screen's top.
            case top(inset: Double)
            /// Against the safe area's bottom edge, `inset` above the screen's bottom.
            case bottom(inset: Double)
            /// Centred in the safe area.
            case center
            /// The whole screen.
            case fill
        }

        /// The card's width.
        package var width: Double
        /// The card's maximum height; its content scrolls beyond it.
        package var maxHeight: Double
        /// Its vertical alignment.
        package var alignment: Alignment

        /// A place.
        package init(width: Double, maxHeight: Double, alignment: Alignment) {
            self.width = width
            self.maxHeight = maxHeight
            self.alignment = alignment
        }
    }

    /// The message's layout.
    package var layout: InAppNativeLayout
    /// The appearance it is drawn under.
    package var appearance: InAppAppearance
    /// The screen it is drawn on.
    package var screen: Screen

    /// A preview of `layout` under `appearance` on `screen`.
    package init(layout: InAppNativeLayout, appearance: InAppAppearance, screen: Screen = .phone) {
        self.layout = layout
        self.appearance = appearance
        self.screen = screen
    }

    /// A preview of a native `message`; `nil` for HTML content, which ``InAppHTMLDocument`` shows as is.
    package init?(message: InAppMessage, appearance: InAppAppearance, screen: Screen = .phone) {
        guard let layout = InAppNativeLayout(message: message) else { return nil }
        self.init(layout: layout, appearance: appearance, screen: screen)
    }

    /// The resolved style.
    package var style: InAppNativeStyle {
        InAppNativeStyle(layout: self.layout, appearance: self.appearance)
    }

    /// The card's place: width `min(maxWidthFraction × width − 2 × margin, maxWidth)` (within the safe
    /// area's width; fraction and margin from the style), height up to the style's fraction of the
    /// safe area's height.
    package var geometry: Geometry {
        let screen = self.screen
        let style = self.style
        if self.layout.placement == .full {
            return Geometry(width: screen.width, maxHeight: screen.height, alignment: .fill)
        }
        let safeWidth = screen.width - screen.safeLeft - screen.safeRight
        let safeHeight = screen.height - screen.safeTop - screen.safeBottom
        var width = min(style.maxWidthFraction * screen.width, safeWidth) - 2 * style.margin
        if let maxWidth = self.layout.size.maxWidth {
            width = min(width, maxWidth)
        }
        let maxHeight = min(style.maxHeightFraction * safeHeight, safeHeight - 2 * style.margin)
        let alignment: Geometry.Alignment
        switch self.layout.placement {
        case .top: alignment = .top(inset: screen.safeTop + style.margin)
        case .bottom: alignment = .bottom(inset: screen.safeBottom + style.margin)
        case .center, .custom, .full: alignment = .center
        }
        return Geometry(width: max(width, 0), maxHeight: max(maxHeight, 0), alignment: alignment)
    }

    /// The markup: an inline `<style>` and the screen's `<div>`.
    package var markup: String {
        let style = self.style
        return self.markup(style, card: self.card(style))
    }

    /// The same screen (the fake app, the dimming, the card's place and frame) with `card` where the
    /// native card would be: how a preview frames an HTML message, an element of class `jry-card`
    /// (an `<iframe>` with its document) placed where the presenter puts the message's type.
    package func markup(card: String) -> String {
        self.markup(self.style, card: card)
    }

    private func markup(_ style: InAppNativeStyle, card: String) -> String {
        var html = "<style>\n" + self.css(style) + "</style>\n"
        let type = self.layout.type.rawValue
        html += "<div class=\"jry-screen\" data-joryio-preview=\"\(type)\""
        html += " data-joryio-appearance=\"\(self.appearance.colorScheme.rawValue)\""
        html += " data-joryio-content-size=\"\(self.appearance.contentSize)\">\n"
        html += self.fakeApp
        if case .dimmed = self.layout.dimming {
            html += "<div class=\"jry-dim\"></div>\n"
        }
        html += "<div class=\"jry-slot\">\n" + card + "</div>\n</div>\n"
        return html
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references: safe as element text
    /// and inside a quoted attribute.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    // MARK: - The card

    private func card(_ style: InAppNativeStyle) -> String {
        var headline: String?
        var text: String?
        var image: String?
        var buttons: [String] = []
        for element in self.layout.elements {
            switch element {
            case .headline(let value):
                headline = "<h2 class=\"jry-headline\">\(Self.escape(value))</h2>"
            case .text(let value):
                text = "<p class=\"jry-text\">\(Self.escape(value))</p>"
            case .image(_, let label):
                image = Self.imagePlaceholder(label: label)
            case .button(let id, let label, _, let prominence):
                let kind = prominence == .primary ? "jry-primary" : "jry-secondary"
                buttons.append(
                    "<button type=\"button\" class=\"jry-button \(kind)\" data-joryio-id=\"\(Self.escape(id))\">"
                        + "\(Self.escape(label))</button>"
                )
            case .close:
                break
            }
        }
        let blocking = self.layout.touches == .blockEverything
        var html = "<div class=\"jry-card\" role=\"dialog\"\(blocking ? " aria-modal=\"true\"" : "")>\n"
        html += "<div class=\"jry-scroll\">\n"
        let texts = [headline, text].compactMap { $0 }.joined(separator: "\n")
        switch (style.image, image) {
        case (.hero, .some(let image)):
            html += "<div class=\"jry-hero\">\(image)</div>\n"
            html += "<div class=\"jry-content\">\n\(texts)\n</div>\n"
        case (.thumbnail, .some(let image)):
            html += "<div class=\"jry-content jry-row\">\n<div class=\"jry-thumb\">\(image)</div>\n"
            html += "<div class=\"jry-texts\">\n\(texts)\n</div>\n</div>\n"
        default:
            html += "<div class=\"jry-content jry-clear\">\n\(texts)\n</div>\n"
        }
        html += "</div>\n"
        if !buttons.isEmpty {
            html += "<div class=\"jry-buttons\">\n" + buttons.joined(separator: "\n") + "\n</div>\n"
        }
        let closeLabel = Self.escape(InAppNativeLayout.closeLabel)
        html += "<button type=\"button\" class=\"jry-close\" data-joryio-action=\"close\" aria-label=\"\(closeLabel)\">"
        html += "<svg viewBox=\"0 0 12 12\" aria-hidden=\"true\"><path d=\"M3 3L9 9M9 3L3 9\"/></svg></button>\n"
        html += "</div>\n"
        return html
    }

    private static func imagePlaceholder(label: String?) -> String {
        let text = Self.escape(label ?? "Image")
        return "<div class=\"jry-image\" role=\"img\" aria-label=\"\(text)\">"
            + "<svg viewBox=\"0 0 24 24\" aria-hidden=\"true\"><rect x=\"3\" y=\"5\" width=\"18\" height=\"14\" rx=\"2\"/>"
            + "<path d=\"M3 16l5-5 4 4 3-3 6 6\"/><circle cx=\"16\" cy=\"9\" r=\"1.5\"/></svg>"
            + "<span>\(text)</span></div>"
    }

    /// A plausible app behind the message: a status bar, a large title and a grouped list of rows down
    /// to the screen's bottom edge.
    private var fakeApp: String {
        var html = "<div class=\"jry-app\" aria-hidden=\"true\">\n<div class=\"jry-status\">9:41</div>\n"
        html += "<div class=\"jry-title\">Today</div>\n<div class=\"jry-list\">\n"
        // Title block: 8 + 41 + 12 points below the status bar; rows are 60 points.
        let rows = Int(((self.screen.height - self.screen.safeTop - 61) / 60).rounded(.up))
        let widths = [62, 48, 70, 55, 66, 44, 58]
        for index in 0..<max(rows, 1) {
            html += "<div class=\"jry-row-app\"><i></i><b style=\"width:\(widths[index % widths.count])%\"></b></div>\n"
        }
        return html + "</div>\n</div>\n"
    }
}
