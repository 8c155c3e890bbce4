import Foundation
import JoryioKit
import JoryioUI
import Testing

/// Native appearance as values (INAPP-19, INAPP-43, INAPP-44, GAP-44): the view-model table of the
/// 5 types × light/dark × default and largest text, UIKit's colours and Dynamic Type sizes, and the
/// large-text rules.
@Suite struct InAppNativeStyleTests {
    static let content = InAppNativeLayoutTests.content

    /// What one type resolves to; `large`/`ax5` columns are `.large` and `.accessibilityExtraExtraExtraLarge`.
    struct TypeRow: Sendable, CustomTestStringConvertible {
        var type: InAppMessage.MessageType
        var placement: InAppNativeLayout.Placement
        var touches: InAppNativeLayout.Touches
        var dimming: InAppRGBA
        var elevated: Bool
        var axis: (large: InAppNativeLayout.ButtonAxis, ax5: InAppNativeLayout.ButtonAxis)
        var maxHeight: (large: Double, ax5: Double)
        var image: (large: InAppNativeStyle.ImageStyle, ax5: InAppNativeStyle.ImageStyle)
        var buttonHeight: (large: Double, ax5: Double)
        var testDescription: String { self.type.rawValue }
    }

    static let clear = InAppRGBA(0, 0, 0, alpha: 0)
    static let hero = InAppNativeStyle.ImageStyle.hero(aspectRatio: 16.0 / 9.0)
    static let shortHero = InAppNativeStyle.ImageStyle.hero(aspectRatio: 3)

    static let typeRows: [TypeRow] = [
        TypeRow(
            type: .modal,
            placement: .center,
            touches: .blockEverything,
            dimming: InAppRGBA(0, 0, 0, alpha: 0.4),
            elevated: true,
            axis: (.vertical, .vertical),
            maxHeight: (0.8, 0.9),
            image: (hero, shortHero),
            buttonHeight: (50, 84)
        ),
        TypeRow(
            type: .banner,
            placement: .top,
            touches: .insideMessageOnly,
            dimming: clear,
            elevated: true,
            axis: (.horizontal, .vertical),
            maxHeight: (0.35, 0.6),
            image: (.thumbnail(side: 56), shortHero),
            buttonHeight: (45, 84)
        ),
        TypeRow(
            type: .slideUp,
            placement: .bottom,
            touches: .insideMessageOnly,
            dimming: clear,
            elevated: true,
            axis: (.horizontal, .vertical),
            maxHeight: (0.35, 0.6),
            image: (.thumbnail(side: 56), shortHero),
            buttonHeight: (45, 84)
        ),
        TypeRow(
            type: .fullScreen,
            placement: .full,
            touches: .blockEverything,
            dimming: clear,
            elevated: false,
            axis: (.vertical, .vertical),
            maxHeight: (1, 1),
            image: (hero, shortHero),
            buttonHeight: (50, 84)
        ),
        TypeRow(
            type: .custom,
            placement: .custom,
            touches: .insideMessageOnly,
            dimming: clear,
            elevated: true,
            axis: (.vertical, .vertical),
            maxHeight: (0.8, 0.9),
            image: (hero, shortHero),
            buttonHeight: (50, 84)
        ),
    ]

    /// UIKit's system colours per scheme (systemBackground base/elevated, label, secondaryLabel,
    /// tertiaryLabel, systemBlue).
    struct SchemeRow: Sendable {
        var scheme: InAppAppearance.ColorScheme
        var baseBackground: InAppRGBA
        var elevatedBackground: InAppRGBA
        var label: InAppRGBA
        var secondaryLabel: InAppRGBA
        var tertiaryLabel: InAppRGBA
        var tint: InAppRGBA
    }

    static let schemes: [SchemeRow] = [
        SchemeRow(
            scheme: .light,
            baseBackground: InAppRGBA(255, 255, 255),
            elevatedBackground: InAppRGBA(255, 255, 255),
            label: InAppRGBA(0, 0, 0),
            secondaryLabel: InAppRGBA(60, 60, 67, alpha: 0.6),
            tertiaryLabel: InAppRGBA(60, 60, 67, alpha: 0.3),
            tint: InAppRGBA(0, 122, 255)
        ),
        SchemeRow(
            scheme: .dark,
            baseBackground: InAppRGBA(0, 0, 0),
            elevatedBackground: InAppRGBA(28, 28, 30),
            label: InAppRGBA(255, 255, 255),
            secondaryLabel: InAppRGBA(235, 235, 245, alpha: 0.6),
            tertiaryLabel: InAppRGBA(235, 235, 245, alpha: 0.3),
            tint: InAppRGBA(10, 132, 255)
        ),
    ]

    /// (headline, body, button) point sizes: `.large` and `.accessibilityExtraExtraExtraLarge`.
    static let sizes: [(InAppAppearance.ContentSizeCategory, [Double])] = [
        (.large, [17, 17, 16]),
        (.accessibilityExtraExtraExtraLarge, [53, 53, 51]),
    ]

    @Test func everyTypeHasARow() {
        #expect(Set(Self.typeRows.map(\.type)) == Set(InAppMessage.MessageType.allCases))
    }

    @Test(arguments: typeRows, [0, 1, 2, 3])
    func viewModelTable(row: TypeRow, variant: Int) {
        let scheme = Self.schemes[variant % 2]
        let (contentSize, points) = Self.sizes[variant / 2]
        let largest = variant / 2 == 1
        let appearance = InAppAppearance(colorScheme: scheme.scheme, contentSize: contentSize)
        let layout = InAppNativeLayout(type: row.type, content: Self.content)
        let style = InAppNativeStyle(layout: layout, appearance: appearance)

        #expect(layout.placement == row.placement)
        #expect(layout.touches == row.touches)
        #expect(style.isElevated == row.elevated)
        #expect(
            style.color(.background) == (row.elevated ? scheme.elevatedBackground : scheme.baseBackground)
        )
        #expect(style.color(.primaryText) == scheme.label)
        #expect(style.color(.secondaryText) == scheme.secondaryLabel)
        #expect(style.color(.closeControl) == scheme.tertiaryLabel)
        #expect(style.color(.tint) == scheme.tint)
        #expect(style.color(.onTint) == InAppRGBA(255, 255, 255))
        #expect(style.color(.dimming) == row.dimming)
        #expect(
            [style.font(.headline), style.font(.body), style.font(.button)].map(\.pointSize) == points
        )
        #expect(
            [style.font(.headline), style.font(.body), style.font(.button)].map(\.weight) == [
                .semibold, .regular, .semibold,
            ]
        )
        #expect(style.buttonAxis == (largest ? row.axis.ax5 : row.axis.large))
        #expect(style.maxHeightFraction == (largest ? row.maxHeight.ax5 : row.maxHeight.large))
        #expect(style.image == (largest ? row.image.ax5 : row.image.large))
        #expect(style.buttonHeight == (largest ? row.buttonHeight.ax5 : row.buttonHeight.large))
        #expect((style.shadow == nil) == (row.type == .fullScreen))
    }

    @Test(arguments: InAppMessage.MessageType.allCases)
    func everyRoleResolvesDifferentlyInLightAndDark(type: InAppMessage.MessageType) {
        let layout = InAppNativeLayout(type: type, content: Self.content)
        let light = InAppNativeStyle(layout: layout, appearance: InAppAppearance(colorScheme: .light))
        let dark = InAppNativeStyle(layout: layout, appearance: InAppAppearance(colorScheme: .dark))
        for role in InAppNativeLayout.ColorRole.allCases where role != .onTint && role != .dimming {
            #expect(light.color(role) != dark.color(role), "\(type) \(role)")
        }
    }

    /// UIKit's Dynamic Type table, all twelve sizes (headline and body share sizes; the button is callout).
    @Test func dynamicTypeTable() {
        let body: [Double] = [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        let callout: [Double] = [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        let categories = InAppAppearance.ContentSizeCategory.allCases
        #expect(categories.count == 12)
        #expect(categories.map { InAppNativeStyle.font(.headline, $0).pointSize } == body)
        #expect(categories.map { InAppNativeStyle.font(.body, $0).pointSize } == body)
        #expect(categories.map { InAppNativeStyle.font(.button, $0).pointSize } == callout)
        #expect(InAppNativeStyle.font(.body, .large).lineHeight == 22)
        #expect(InAppNativeStyle.font(.button, .large).lineHeight == 21)
        for category in categories {
            #expect(
                InAppNativeStyle.font(.body, category).lineHeight > InAppNativeStyle.font(.body, category).pointSize
            )
        }
        #expect(categories.filter(\.isAccessibilityCategory).count == 5)
        #expect(!InAppAppearance.ContentSizeCategory.extraExtraExtraLarge.isAccessibilityCategory)
    }

    @Test func bannerButtonsStackFromTheFirstAccessibilitySize() {
        let layout = InAppNativeLayout(type: .banner, content: Self.content)
        for category in InAppAppearance.ContentSizeCategory.allCases {
            let style = InAppNativeStyle(
                layout: layout,
                appearance: InAppAppearance(colorScheme: .light, contentSize: category)
            )
            #expect(style.buttonAxis == (category.isAccessibilityCategory ? .vertical : .horizontal), "\(category)")
            #expect(style.primaryButtonTrailing == (style.buttonAxis == .horizontal))
        }
    }

    @Test func moreThanTwoButtonsNeverSitSideBySide() {
        var content = Self.content
        content.buttons.append(.init(id: "third", label: "Maybe"))
        let style = InAppNativeStyle(
            layout: InAppNativeLayout(type: .slideUp, content: content),
            appearance: InAppAppearance(colorScheme: .light)
        )
        #expect(style.buttonAxis == .vertical)
    }

    @Test func appTintIsUsedAndLightTintsGetBlackText() {
        let layout = InAppNativeLayout(type: .modal, content: Self.content)
        let purple = InAppRGBA(88, 86, 214)
        let yellow = InAppRGBA(255, 204, 0)
        let purpleStyle = InAppNativeStyle(
            layout: layout,
            appearance: InAppAppearance(colorScheme: .dark, tint: purple)
        )
        #expect(purpleStyle.color(.tint) == purple)
        #expect(purpleStyle.color(.onTint) == .white)
        let yellowStyle = InAppNativeStyle(
            layout: layout,
            appearance: InAppAppearance(colorScheme: .light, tint: yellow)
        )
        #expect(yellowStyle.color(.onTint) == .black)
        #expect(InAppRGBA.contrastRatio(.white, .black) > 20.9)
        #expect(InAppRGBA.contrastRatio(.white, .systemBlue(.light)) > 3)
    }

    @Test func cssColours() {
        #expect(InAppRGBA(0, 122, 255).css == "rgb(0, 122, 255)")
        #expect(InAppRGBA(60, 60, 67, alpha: 0.6).css == "rgba(60, 60, 67, 0.6)")
        #expect(InAppRGBA(0, 0, 0, alpha: 0).css == "rgba(0, 0, 0, 0)")
        #expect(InAppRGBA(1, 2, 3, alpha: 0.125).css == "rgba(1, 2, 3, 0.125)")
        #expect(InAppRGBA(1, 2, 3, alpha: 7).alpha == 1)
    }
}
