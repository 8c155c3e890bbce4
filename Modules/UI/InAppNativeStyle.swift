/// An ``InAppNativeLayout`` resolved under an ``InAppAppearance`` (INAPP-19, GAP-44): every colour
/// role as RGBA, every text style as a point size and weight, and the large-text rules.
///
/// The UIKit views keep resolving roles and text styles themselves (dynamic system colours,
/// `UIFont.preferredFont(forTextStyle:)`); this table approximates what they get, is what the HTML
/// preview draws with, and is what the tests pin. The values follow UIKit's system colours and
/// Dynamic Type tables (iOS 13 and later); docs/decisions.md ("Native message appearance (issue 17)").
package struct InAppNativeStyle: Sendable, Equatable {
    /// A font weight (`UIFont.Weight`), with its CSS number.
    package enum Weight: Int, Sendable, Equatable {
        /// `.regular`.
        case regular = 400
        /// `.semibold`.
        case semibold = 600
    }

    /// A resolved Dynamic Type font.
    package struct Font: Sendable, Equatable {
        /// Size in points.
        package var pointSize: Double
        /// Line height in points (the style's leading at this size).
        package var lineHeight: Double
        /// Weight.
        package var weight: Weight
    }

    /// How the image is placed.
    package enum ImageStyle: Sendable, Equatable {
        /// A square beside the text, at the leading edge (banners and slide-ups at non-accessibility sizes).
        case thumbnail(side: Double)
        /// Edge to edge across the top of the card, `width / aspectRatio` tall. VoiceOver still reads
        /// it after the text (``InAppNativeLayout/elements``).
        case hero(aspectRatio: Double)
    }

    /// A drop shadow under the card.
    package struct Shadow: Sendable, Equatable {
        /// Vertical offset in points.
        package var offsetY: Double
        /// Blur radius in points.
        package var radius: Double
        /// Its colour.
        package var color: InAppRGBA
    }

    /// The layout this style resolves.
    package var layout: InAppNativeLayout
    /// The appearance it resolves under.
    package var appearance: InAppAppearance
    /// Whether the card is at the elevated level (`UIUserInterfaceLevel.elevated`: lighter backgrounds
    /// in dark mode): every card floating over the app; not full-screen messages.
    package var isElevated: Bool
    /// How the buttons are laid out: the layout's axis, except vertical at accessibility sizes and
    /// with more than two buttons.
    package var buttonAxis: InAppNativeLayout.ButtonAxis
    /// In a horizontal row the filled (first) button sits at the trailing end, as in `UIAlertController`.
    package var primaryButtonTrailing: Bool
    /// Fraction of the safe area's height the card may take before its content scrolls: the layout's,
    /// raised at accessibility sizes (banners and slide-ups 0.6, cards 0.9).
    package var maxHeightFraction: Double
    /// Fraction of the screen's width the card may take: the layout's, except that centred cards
    /// (modal, custom) widen to the whole width at accessibility sizes.
    package var maxWidthFraction: Double
    /// Space between the card and the safe area's edges: the layout's, 16 pt for widened cards.
    package var margin: Double
    /// Whether a hairline separates the pinned buttons from the scrolling text above them: at
    /// accessibility sizes, where the text is likely to scroll.
    package var separatesButtons: Bool
    /// Space between the card's edge and its content.
    package var contentPadding: Double
    /// Space between elements, scaled with Dynamic Type (`UIFontMetrics`, body).
    package var spacing: Double
    /// Space between buttons.
    package var buttonSpacing: Double
    /// A button's minimum height: the label's line height plus 12 pt above and below, at least 50 pt
    /// for full-width buttons and 44 pt (the minimum touch target) otherwise.
    package var buttonHeight: Double
    /// A button's corner radius.
    package var buttonCornerRadius: Double
    /// The close control's visible diameter (`UIButton(type: .close)`); its touch area is 44 pt.
    package var closeSize: Double
    /// Where the image goes.
    package var image: ImageStyle
    /// The card's shadow, `nil` for a full-screen message.
    package var shadow: Shadow?
    /// The image placeholder's fill: `.secondarySystemBackground`.
    package var placeholder: InAppRGBA
    /// The close control's circle: `.tertiarySystemFill`.
    package var closeFill: InAppRGBA
    /// The hairline above pinned buttons: `.separator`.
    package var separator: InAppRGBA

    /// `layout` under `appearance`.
    package init(layout: InAppNativeLayout, appearance: InAppAppearance) {
        self.layout = layout
        self.appearance = appearance
        let dark = appearance.colorScheme == .dark
        let large = appearance.contentSize.isAccessibilityCategory
        let strip = layout.placement == .top || layout.placement == .bottom
        self.isElevated = layout.placement != .full
        let buttonCount = layout.elements.filter { if case .button = $0 { true } else { false } }.count
        self.buttonAxis = large || buttonCount > 2 ? .vertical : layout.buttonAxis
        self.primaryButtonTrailing = self.buttonAxis == .horizontal
        if large {
            self.maxHeightFraction = max(layout.size.maxHeightFraction, strip ? 0.6 : 0.9)
        } else {
            self.maxHeightFraction = layout.size.maxHeightFraction
        }
        self.contentPadding = strip ? 14 : (layout.placement == .full ? 24 : 20)
        let body = Self.font(.body, appearance.contentSize)
        self.spacing = (8 * body.pointSize / 17).rounded()
        self.buttonSpacing = 8
        let label = Self.font(.button, appearance.contentSize)
        self.buttonHeight = max(strip && self.buttonAxis == .horizontal ? 44 : 50, label.lineHeight + 24)
        self.buttonCornerRadius = 12
        self.closeSize = strip ? 24 : 30
        self.image = strip && !large ? .thumbnail(side: 56) : .hero(aspectRatio: large ? 3 : 16.0 / 9.0)
        self.shadow =
            layout.placement == .full
            ? nil
            : Shadow(offsetY: 8, radius: 24, color: InAppRGBA.black.withAlpha(dark ? 0.5 : 0.16))
        self.placeholder =
            dark ? (self.isElevated ? InAppRGBA(44, 44, 46) : InAppRGBA(28, 28, 30)) : InAppRGBA(242, 242, 247)
        self.closeFill = InAppRGBA(118, 118, 128, alpha: dark ? 0.24 : 0.12)
        self.separator = dark ? InAppRGBA(84, 84, 88, alpha: 0.6) : InAppRGBA(60, 60, 67, alpha: 0.29)
        let widened = large && !strip && layout.placement != .full
        self.maxWidthFraction = widened ? 1 : layout.size.maxWidthFraction
        self.margin = widened ? min(layout.size.margin, 16) : layout.size.margin
        self.separatesButtons = large
    }

    /// `role` as RGBA under this appearance.
    package func color(_ role: InAppNativeLayout.ColorRole) -> InAppRGBA {
        let dark = self.appearance.colorScheme == .dark
        switch role {
        case .background:
            // systemBackground: white; black in dark mode, #1C1C1E at the elevated level.
            return dark ? (self.isElevated ? InAppRGBA(28, 28, 30) : .black) : .white
        case .primaryText:
            return dark ? .white : .black
        case .secondaryText:
            return dark ? InAppRGBA(235, 235, 245, alpha: 0.6) : InAppRGBA(60, 60, 67, alpha: 0.6)
        case .closeControl:
            return dark ? InAppRGBA(235, 235, 245, alpha: 0.3) : InAppRGBA(60, 60, 67, alpha: 0.3)
        case .tint:
            return self.appearance.tint
        case .onTint:
            return Self.onTint(self.appearance.tint)
        case .dimming:
            if case .dimmed(let opacity) = self.layout.dimming {
                return InAppRGBA.black.withAlpha(opacity)
            }
            return InAppRGBA.black.withAlpha(0)
        }
    }

    /// `style` at this appearance's Dynamic Type size.
    package func font(_ style: InAppNativeLayout.TextStyle) -> Font {
        Self.font(style, self.appearance.contentSize)
    }

    /// White on the tint, as UIKit's filled buttons draw it, unless white falls below 3:1 contrast
    /// (WCAG's bar for large and bold text) on a light tint: then black.
    package static func onTint(_ tint: InAppRGBA) -> InAppRGBA {
        InAppRGBA.contrastRatio(.white, tint) >= 3 ? .white : .black
    }

    /// UIKit's Dynamic Type table (Apple's Human Interface Guidelines, "Typography"): `.headline`
    /// (semibold) and `.body` share sizes and leading; the button label is `.callout` in semibold.
    package static func font(
        _ style: InAppNativeLayout.TextStyle,
        _ size: InAppAppearance.ContentSizeCategory
    ) -> Font {
        let index = size.rawValue
        switch style {
        case .headline:
            return Font(pointSize: bodySizes[index], lineHeight: bodyLeading[index], weight: .semibold)
        case .body:
            return Font(pointSize: bodySizes[index], lineHeight: bodyLeading[index], weight: .regular)
        case .button:
            return Font(pointSize: calloutSizes[index], lineHeight: calloutLeading[index], weight: .semibold)
        }
    }

    // Indexed by ContentSizeCategory.rawValue: xS, S, M, L, xL, xxL, xxxL, AX1 … AX5.
    private static let bodySizes: [Double] = [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
    private static let bodyLeading: [Double] = [19, 20, 21, 22, 24, 27, 29, 34, 40, 48, 56, 62]
    private static let calloutSizes: [Double] = [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
    private static let calloutLeading: [Double] = [18, 19, 20, 21, 23, 25, 28, 32, 39, 46, 53, 60]
}
