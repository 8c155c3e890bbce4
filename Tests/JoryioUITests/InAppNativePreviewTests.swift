import Foundation
import JoryioKit
import JoryioUI
import Testing

/// The HTML picture of a native message (issue 17 previews; INAPP-43, INAPP-44, GAP-44): placement
/// per type, the bridge's ids and actions, escaped campaign text, nothing that the document's CSP
/// would block or that reaches the network, and a visible difference between light and dark.
@Suite struct InAppNativePreviewTests {
    static let content = InAppNativeLayoutTests.content
    static let variants: [InAppAppearance] = [
        InAppAppearance(colorScheme: .light),
        InAppAppearance(colorScheme: .dark),
        InAppAppearance(colorScheme: .light, contentSize: .accessibilityExtraExtraExtraLarge),
        InAppAppearance(colorScheme: .dark, contentSize: .accessibilityExtraExtraExtraLarge),
    ]

    static func markup(
        _ type: InAppMessage.MessageType,
        _ appearance: InAppAppearance,
        content: InAppMessage.NativeContent = content
    ) -> String {
        InAppNativePreview(layout: InAppNativeLayout(type: type, content: content), appearance: appearance).markup
    }

    @Test(arguments: InAppMessage.MessageType.allCases, variants)
    func markupCarriesTheBridgeIdsAndStaysOffline(type: InAppMessage.MessageType, appearance: InAppAppearance) {
        let markup = Self.markup(type, appearance)
        #expect(markup.hasPrefix("<style>\n"))
        #expect(markup.components(separatedBy: "<style>").count == 2)
        #expect(markup.contains("data-joryio-id=\"shop\""))
        #expect(markup.contains("data-joryio-id=\"later\""))
        #expect(markup.components(separatedBy: "data-joryio-action=\"close\"").count == 2)
        #expect(markup.contains("data-joryio-preview=\"\(type.rawValue)\""))
        #expect(markup.contains("data-joryio-appearance=\"\(appearance.colorScheme.rawValue)\""))
        #expect(markup.contains("Shop now") && markup.contains("Everything half price"))
        let lowered = markup.lowercased()
        #expect(!lowered.contains("<script"))
        #expect(!lowered.contains("http:") && !lowered.contains("https:"))
        #expect(!lowered.contains("url(") && !lowered.contains("@import") && !lowered.contains("<img"))
        #expect(markup.contains("-apple-system"))
        let tint = InAppNativeStyle(
            layout: InAppNativeLayout(type: type, content: Self.content),
            appearance: appearance
        ).color(.tint)
        #expect(markup.contains(".jry-primary{background:\(tint.css)"))
    }

    @Test(arguments: InAppMessage.MessageType.allCases)
    func lightAndDarkDiffer(type: InAppMessage.MessageType) {
        let light = Self.markup(type, InAppAppearance(colorScheme: .light))
        let dark = Self.markup(type, InAppAppearance(colorScheme: .dark))
        #expect(light != dark)
        #expect(light.contains("color-scheme:light") && dark.contains("color-scheme:dark"))
        #expect(light.contains("rgb(0, 0, 0)") && dark.contains("rgb(255, 255, 255)"))
    }

    @Test(arguments: InAppMessage.MessageType.allCases)
    func hostileCampaignTextStaysText(type: InAppMessage.MessageType) {
        let hostile = "</style><script>alert(1)</script><img src=x onerror='alert(2)'> & \"quoted\""
        let content = InAppMessage.NativeContent(
            headline: hostile,
            text: "<b>bold</b> & <a href=\"javascript:alert(3)\">link</a>",
            imageURL: URL(string: "https://tracker.example/pixel.png"),
            buttons: [
                .init(
                    id: "x\" onclick=\"alert(4)",
                    label: "<svg onload=alert(5)>",
                    url: URL(string: "https://evil.example")
                )
            ]
        )
        let markup = Self.markup(type, InAppAppearance(colorScheme: .dark), content: content)
        let lowered = markup.lowercased()
        #expect(!lowered.contains("<script"))
        #expect(!lowered.contains("<img"))
        #expect(!lowered.contains("<b>"))
        #expect(!lowered.contains("<a "))
        #expect(!lowered.contains("<svg onload"))
        #expect(!lowered.contains("https:"))
        #expect(!markup.contains("onclick=\"alert"))
        #expect(markup.components(separatedBy: "</style>").count == 2)
        #expect(
            markup.contains(
                "&lt;/style&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(2)&#39;&gt; "
                    + "&amp; &quot;quoted&quot;"
            )
        )
        #expect(markup.contains("data-joryio-id=\"x&quot; onclick=&quot;alert(4)\""))
        #expect(markup.contains("&lt;svg onload=alert(5)&gt;"))
    }

    @Test func escapeReplacesTheFiveCharacters() {
        #expect(InAppNativePreview.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(InAppNativePreview.escape("Café 🎉") == "Café 🎉")
    }

    struct PlaceRow: Sendable, CustomTestStringConvertible {
        var type: InAppMessage.MessageType
        var geometry: InAppNativePreview.Geometry
        var dimmed: Bool
        var passThrough: Bool
        var testDescription: String { self.type.rawValue }
    }

    /// On the 390 × 844 phone (safe area 47 / 34, so 763 tall) at the default text size.
    static let places: [PlaceRow] = [
        PlaceRow(
            type: .modal,
            geometry: .init(width: 303, maxHeight: 610.4, alignment: .center),
            dimmed: true,
            passThrough: false
        ),
        PlaceRow(
            type: .banner,
            geometry: .init(width: 374, maxHeight: 267.05, alignment: .top(inset: 55)),
            dimmed: false,
            passThrough: true
        ),
        PlaceRow(
            type: .slideUp,
            geometry: .init(width: 374, maxHeight: 267.05, alignment: .bottom(inset: 42)),
            dimmed: false,
            passThrough: true
        ),
        PlaceRow(
            type: .fullScreen,
            geometry: .init(width: 390, maxHeight: 844, alignment: .fill),
            dimmed: false,
            passThrough: false
        ),
        PlaceRow(
            type: .custom,
            geometry: .init(width: 303, maxHeight: 610.4, alignment: .center),
            dimmed: false,
            passThrough: true
        ),
    ]

    @Test(arguments: places)
    func placementDimmingAndTouches(row: PlaceRow) {
        let layout = InAppNativeLayout(type: row.type, content: Self.content)
        let preview = InAppNativePreview(layout: layout, appearance: InAppAppearance(colorScheme: .light))
        let geometry = preview.geometry
        #expect(geometry.width == row.geometry.width)
        #expect(abs(geometry.maxHeight - row.geometry.maxHeight) < 0.001)
        #expect(geometry.alignment == row.geometry.alignment)
        let markup = preview.markup
        #expect(markup.contains("<div class=\"jry-dim\"></div>") == row.dimmed)
        #expect(
            markup.contains(
                ".jry-slot{position:absolute;left:0;right:0;display:flex;justify-content:center;pointer-events:none;"
            ) == row.passThrough
        )
        #expect(markup.contains("aria-modal=\"true\"") == !row.passThrough)
        #expect(markup.contains("width:\(Int(row.geometry.width))px;max-height:"))
    }

    @Test func largestTextLetsABannerGrowAndStacksItsButtons() {
        let layout = InAppNativeLayout(type: .banner, content: Self.content)
        let preview = InAppNativePreview(
            layout: layout,
            appearance: InAppAppearance(colorScheme: .light, contentSize: .accessibilityExtraExtraExtraLarge)
        )
        #expect(abs(preview.geometry.maxHeight - 457.8) < 0.001)
        #expect(preview.markup.contains("flex-direction:column;gap:8px"))
        #expect(preview.markup.contains("font-size:53px;line-height:62px;font-weight:600"))
        #expect(preview.markup.contains(".jry-scroll{flex:1 1 auto;min-height:0;overflow-y:auto}"))
        let regular = InAppNativePreview(layout: layout, appearance: InAppAppearance(colorScheme: .light)).markup
        #expect(regular.contains("flex-direction:row-reverse"))
        #expect(regular.contains("font-size:17px;line-height:22px;font-weight:600"))
    }

    @Test func centredCardsWidenAndButtonsGetASeparatorAtAccessibilitySizes() {
        let expected: [InAppMessage.MessageType: Double] = [
            .modal: 358, .custom: 358, .banner: 374, .slideUp: 374, .fullScreen: 390,
        ]
        for type in InAppMessage.MessageType.allCases {
            let layout = InAppNativeLayout(type: type, content: Self.content)
            let largest = InAppNativePreview(
                layout: layout,
                appearance: InAppAppearance(colorScheme: .dark, contentSize: .accessibilityMedium)
            )
            #expect(largest.geometry.width == expected[type], "\(type)")
            #expect(largest.style.separatesButtons)
            #expect(largest.markup.contains("border-top:0.5px solid rgba(84, 84, 88, 0.6)"))
            let regular = InAppNativePreview(layout: layout, appearance: InAppAppearance(colorScheme: .dark))
            #expect(!regular.style.separatesButtons)
            #expect(!regular.markup.contains("border-top:0.5px solid"))
        }
    }

    @Test func landscapeKeepsCardsInsideTheSafeAreaAndUnderTheirWidthCaps() {
        let landscape = InAppNativePreview.Screen(
            width: 844,
            height: 390,
            safeTop: 0,
            safeLeft: 47,
            safeBottom: 21,
            safeRight: 47
        )
        let light = InAppAppearance(colorScheme: .light)
        func width(_ type: InAppMessage.MessageType) -> Double {
            InAppNativePreview(
                layout: InAppNativeLayout(type: type, content: Self.content),
                appearance: light,
                screen: landscape
            )
            .geometry.width
        }
        #expect(width(.modal) == 420)
        #expect(width(.banner) == 560)
        #expect(width(.fullScreen) == 844)
        let banner = InAppNativePreview(
            layout: InAppNativeLayout(type: .banner, content: Self.content),
            appearance: light,
            screen: landscape
        )
        #expect(abs(banner.geometry.maxHeight - 0.35 * 369) < 0.001)
        #expect(banner.geometry.alignment == .top(inset: 8))
    }

    @Test func messagesOfEitherForm() throws {
        let native = InAppMessage(id: "m", type: .slideUp, content: .native(Self.content))
        let preview = try #require(InAppNativePreview(message: native, appearance: InAppAppearance(colorScheme: .dark)))
        #expect(preview.layout.placement == .bottom)
        #expect(preview.screen == .phone)
        let html = InAppMessage(id: "h", type: .modal, content: .html("<p>Hi</p>"))
        #expect(InAppNativePreview(message: html, appearance: InAppAppearance(colorScheme: .light)) == nil)
        #expect(preview.markup.components(separatedBy: "class=\"jry-row-app\"").count - 1 == 13)
    }

    @Test func remoteImageIsAPlaceholderWithItsLabel() {
        let markup = Self.markup(.modal, InAppAppearance(colorScheme: .light))
        #expect(markup.contains("<div class=\"jry-image\" role=\"img\" aria-label=\"Image\">"))
        #expect(!markup.contains("cdn.example"))
        let banner = Self.markup(.banner, InAppAppearance(colorScheme: .light))
        #expect(banner.contains("<div class=\"jry-thumb\">"))
        let none = Self.markup(.modal, InAppAppearance(colorScheme: .light), content: .init(headline: "Hi"))
        #expect(!none.contains("jry-image\""))
        #expect(!none.contains("class=\"jry-buttons\""))
        #expect(none.contains("data-joryio-action=\"close\""))
    }

    @Test func wrappedInTheDocumentOnlyTheBridgeScriptRuns() {
        let markup = Self.markup(.modal, InAppAppearance(colorScheme: .dark))
        let html = InAppHTMLDocument(authorHTML: markup).html
        #expect(html.contains(markup))
        #expect(html.lowercased().components(separatedBy: "<script").count == 2)
        #expect(InAppHTMLDocument.contentSecurityPolicy.contains("style-src 'unsafe-inline'"))
    }

    @Test func markupIsDeterministic() {
        let appearance = InAppAppearance(colorScheme: .dark, contentSize: .extraLarge)
        #expect(Self.markup(.slideUp, appearance) == Self.markup(.slideUp, appearance))
    }
}
