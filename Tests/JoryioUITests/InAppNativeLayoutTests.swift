import Foundation
import JoryioKit
import JoryioUI
import Testing

/// Native layouts as values (INAPP-19, INAPP-43, INAPP-44, GAP-44): one row per message type, and the
/// VoiceOver order, styles and roles of the elements.
@Suite struct InAppNativeLayoutTests {
    static let image = URL(string: "https://cdn.example/banner.png")
    static let content = InAppMessage.NativeContent(
        headline: "Sale",
        text: "Everything half price",
        imageURL: image,
        buttons: [
            .init(id: "shop", label: "Shop now", url: URL(string: "myapp://shop")),
            .init(id: "later", label: "Later"),
        ]
    )

    struct Row: Sendable, CustomTestStringConvertible {
        var type: InAppMessage.MessageType
        var placement: InAppNativeLayout.Placement
        var dimming: InAppNativeLayout.Dimming
        var touches: InAppNativeLayout.Touches
        var maxWidthFraction: Double
        var margin: Double
        var buttonAxis: InAppNativeLayout.ButtonAxis
        var testDescription: String { self.type.rawValue }
    }

    static let rows: [Row] = [
        Row(
            type: .modal,
            placement: .center,
            dimming: .dimmed(opacity: 0.4),
            touches: .blockEverything,
            maxWidthFraction: 0.9,
            margin: 24,
            buttonAxis: .vertical
        ),
        Row(
            type: .banner,
            placement: .top,
            dimming: .none,
            touches: .insideMessageOnly,
            maxWidthFraction: 1,
            margin: 8,
            buttonAxis: .horizontal
        ),
        Row(
            type: .slideUp,
            placement: .bottom,
            dimming: .none,
            touches: .insideMessageOnly,
            maxWidthFraction: 1,
            margin: 8,
            buttonAxis: .horizontal
        ),
        Row(
            type: .fullScreen,
            placement: .full,
            dimming: .opaque,
            touches: .blockEverything,
            maxWidthFraction: 1,
            margin: 0,
            buttonAxis: .vertical
        ),
        Row(
            type: .custom,
            placement: .custom,
            dimming: .none,
            touches: .insideMessageOnly,
            maxWidthFraction: 0.9,
            margin: 24,
            buttonAxis: .vertical
        ),
    ]

    @Test func everyTypeHasARow() {
        #expect(Set(Self.rows.map(\.type)) == Set(InAppMessage.MessageType.allCases))
    }

    @Test(arguments: rows)
    func layoutPerType(row: Row) throws {
        let message = InAppMessage(id: "m", type: row.type, content: .native(Self.content))
        let layout = try #require(InAppNativeLayout(message: message))
        #expect(layout.type == row.type)
        #expect(layout.placement == row.placement)
        #expect(layout.dimming == row.dimming)
        #expect(layout.touches == row.touches)
        #expect(layout.size.maxWidthFraction == row.maxWidthFraction)
        #expect(layout.size.margin == row.margin)
        #expect(layout.buttonAxis == row.buttonAxis)
        #expect(layout.background == .background)
        #expect(layout.size.maxHeightFraction > 0 && layout.size.maxHeightFraction <= 1)
    }

    @Test func passThroughExactlyForBannersAndSlideUps() {
        for type in InAppMessage.MessageType.allCases where type != .custom {
            let layout = InAppNativeLayout(type: type, content: Self.content)
            let passesThrough = layout.touches == .insideMessageOnly
            #expect(passesThrough == (type == .banner || type == .slideUp), "\(type)")
            #expect((layout.dimming != .none) == (type == .modal || type == .fullScreen), "\(type)")
        }
    }

    @Test func voiceOverOrderLabelsStylesAndRoles() {
        let layout = InAppNativeLayout(type: .modal, content: Self.content)
        let expected: [InAppNativeLayout.Element] = [
            .headline("Sale"),
            .text("Everything half price"),
            .image(Self.image ?? URL(fileURLWithPath: "/"), accessibilityLabel: nil),
            .button(id: "shop", label: "Shop now", url: URL(string: "myapp://shop"), prominence: .primary),
            .button(id: "later", label: "Later", url: nil, prominence: .secondary),
            .close,
        ]
        #expect(layout.elements == expected)
        #expect(
            layout.elements.map(\.accessibilityLabel) == [
                "Sale", "Everything half price", nil, "Shop now", "Later", InAppNativeLayout.closeLabel,
            ]
        )
        #expect(layout.elements.map(\.textStyle) == [.headline, .body, nil, .button, .button, .button])
        #expect(
            layout.elements.map(\.colorRole) == [
                .primaryText, .secondaryText, .secondaryText, .onTint, .tint, .closeControl,
            ]
        )
    }

    @Test func emptyPartsAreLeftOutButCloseStays() {
        let layout = InAppNativeLayout(type: .banner, content: .init(headline: "", text: nil, buttons: []))
        #expect(layout.elements == [.close])
    }

    @Test func htmlHasNoNativeLayout() {
        let message = InAppMessage(id: "m", type: .modal, content: .html("<p>Hi</p>"))
        #expect(InAppNativeLayout(message: message) == nil)
    }
}
