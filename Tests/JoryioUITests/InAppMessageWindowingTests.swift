import JoryioKit
import JoryioUI
import Testing

/// Which window a message gets and who receives a touch (INAPP-43, INAPP-44), with frames as plain
/// values.
@Suite struct InAppMessageWindowingTests {
    @Test(
        "INAPP-43, INAPP-44: banners, slide-ups and custom pass touches through; modal and full-screen block",
        arguments: [
            (InAppMessage.MessageType.banner, InAppMessageWindowing.WindowKind.passThrough),
            (.slideUp, .passThrough),
            (.custom, .passThrough),
            (.modal, .blocking),
            (.fullScreen, .blocking),
        ]
    )
    func windowKinds(type: InAppMessage.MessageType, expected: InAppMessageWindowing.WindowKind) {
        #expect(InAppMessageWindowing.windowKind(for: type) == expected)
    }

    @Test("INAPP-44: every type has a window kind that agrees with its native layout")
    func agreesWithLayout() {
        for type in InAppMessage.MessageType.allCases {
            let layout = InAppNativeLayout(type: type, content: .init(headline: "Hi"))
            let kind = InAppMessageWindowing.windowKind(for: type)
            #expect((layout.touches == .insideMessageOnly) == (kind == .passThrough), "\(type)")
        }
    }

    /// A banner 8 pt from the edges of a 390 × 844 screen, 100 pt tall, under a 47 pt status bar.
    private static let banner = InAppRect(x: 8, y: 55, width: 374, height: 100)

    @Test(
        "INAPP-44: in a pass-through window a touch outside the message's frame goes to the app",
        arguments: [
            (195.0, 100.0, InAppMessageWindowing.TouchTarget.message),
            (8, 55, .message),
            (381.9, 154.9, .message),
            (382, 100, .app),
            (195, 155, .app),
            (7.9, 100, .app),
            (195, 54.9, .app),
            (195, 600, .app),
            (-1, -1, .app),
        ]
    )
    func passThrough(x: Double, y: Double, expected: InAppMessageWindowing.TouchTarget) {
        let target = InAppMessageWindowing.touchTarget(x: x, y: y, messageFrame: Self.banner, window: .passThrough)
        #expect(target == expected)
    }

    @Test("INAPP-44: a blocking window takes every touch, inside the card or not")
    func blocking() {
        let card = InAppRect(x: 24, y: 300, width: 342, height: 200)
        for (x, y) in [(195.0, 400.0), (0, 0), (389, 843), (195, 100)] {
            #expect(InAppMessageWindowing.touchTarget(x: x, y: y, messageFrame: card, window: .blocking) == .message)
        }
    }

    @Test("INAPP-44: an empty frame (not laid out yet) takes no touch in a pass-through window")
    func emptyFrame() {
        let empty = InAppRect(x: 0, y: 0, width: 0, height: 0)
        #expect(!empty.contains(x: 0, y: 0))
        #expect(InAppMessageWindowing.touchTarget(x: 0, y: 0, messageFrame: empty, window: .passThrough) == .app)
    }
}
