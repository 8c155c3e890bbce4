/// The appearance a native message is drawn under (INAPP-19, GAP-44): light or dark, the app's tint,
/// and the person's Dynamic Type size. The UIKit views read it from their trait collection; the HTML
/// preview and the tests pass it in.
package struct InAppAppearance: Sendable, Equatable {
    /// Light or dark mode (`UIUserInterfaceStyle`).
    package enum ColorScheme: String, Sendable, Equatable, CaseIterable {
        /// `.light`.
        case light
        /// `.dark`.
        case dark
    }

    /// The Dynamic Type size (`UIContentSizeCategory`), smallest first. `.large` is the default.
    package enum ContentSizeCategory: Int, Sendable, Equatable, Comparable, CaseIterable {
        /// `.extraSmall`.
        case extraSmall
        /// `.small`.
        case small
        /// `.medium`.
        case medium
        /// `.large`: the system default.
        case large
        /// `.extraLarge`.
        case extraLarge
        /// `.extraExtraLarge`.
        case extraExtraLarge
        /// `.extraExtraExtraLarge`: the largest size without "Larger Accessibility Sizes".
        case extraExtraExtraLarge
        /// `.accessibilityMedium`.
        case accessibilityMedium
        /// `.accessibilityLarge`.
        case accessibilityLarge
        /// `.accessibilityExtraLarge`.
        case accessibilityExtraLarge
        /// `.accessibilityExtraExtraLarge`.
        case accessibilityExtraExtraLarge
        /// `.accessibilityExtraExtraExtraLarge`: the largest size.
        case accessibilityExtraExtraExtraLarge

        /// `UIContentSizeCategory.isAccessibilityCategory`: one of the five accessibility sizes.
        package var isAccessibilityCategory: Bool {
            self >= .accessibilityMedium
        }

        package static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.rawValue < rhs.rawValue
        }
    }

    /// Light or dark.
    package var colorScheme: ColorScheme
    /// The app's tint colour (`UIView.tintColor` of the presenting window), resolved for ``colorScheme``.
    package var tint: InAppRGBA
    /// The Dynamic Type size.
    package var contentSize: ContentSizeCategory

    /// An appearance; without a tint, UIKit's default tint (`.systemBlue`) for `colorScheme`.
    package init(colorScheme: ColorScheme, tint: InAppRGBA? = nil, contentSize: ContentSizeCategory = .large) {
        self.colorScheme = colorScheme
        self.tint = tint ?? .systemBlue(colorScheme)
        self.contentSize = contentSize
    }
}
