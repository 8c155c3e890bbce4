import Foundation
import JoryioCore
import JoryioDelivery
import JoryioInApp
import JoryioKit
import Testing

@Suite struct InAppTriggerTests {
    static func campaign(_ id: String, _ triggers: [InAppTrigger], priority: Int = 0) -> InAppCampaign {
        InAppCampaign(
            message: InAppMessage(id: id, type: .modal, content: .native(.init(headline: id))),
            triggers: triggers,
            priority: priority
        )
    }

    let campaigns = [
        campaign("sync", [.onSync]),
        campaign("cart", [.event(name: "Added to Cart")]),
        campaign("any-push", [.pushTap(trackingId: nil)]),
        campaign("one-push", [.pushTap(trackingId: "trk_1")]),
        campaign("vip", [.attribute(key: "spend", comparison: .greaterThanOrEqual, value: 100)]),
        campaign("both", [.event(name: "Added to Cart"), .onSync], priority: 5),
    ]

    private func ids(_ occurrence: InAppOccurrence, _ attributes: InAppAttributes = InAppAttributes()) -> [String] {
        InAppTriggerMatcher.triggered(by: occurrence, in: self.campaigns, attributes: attributes).map(\.id)
    }

    @Test("INAPP-13: event, push-tap and sync triggers, higher priority first, then the server's order")
    func matching() {
        #expect(self.ids(.synced) == ["both", "sync"])
        #expect(self.ids(.event("Added to Cart")) == ["both", "cart"])
        #expect(self.ids(.event("added to cart")).isEmpty, "names are exact")
        #expect(self.ids(.pushTap(trackingId: "trk_1")) == ["any-push", "one-push"])
        #expect(self.ids(.pushTap(trackingId: nil)) == ["any-push"])
    }

    @Test("INAPP-13: an attribute threshold fires when its key changes to a value that satisfies it")
    func attributeThresholds() {
        var attributes = InAppAttributes()
        var changed = attributes.apply([(key: "spend", operation: .set(.int(60)))])
        #expect(self.ids(.attributes(changed), attributes).isEmpty)
        changed = attributes.apply([(key: "spend", operation: .increment(40))])
        #expect(attributes.values["spend"] == 100)
        #expect(self.ids(.attributes(changed), attributes) == ["vip"])
        changed = attributes.apply([(key: "other", operation: .set(.int(1)))])
        #expect(self.ids(.attributes(changed), attributes).isEmpty, "only a change of the watched key fires")
        #expect(InAppTriggerMatcher.watchedAttributes(self.campaigns) == ["spend"])
    }

    /// The feature's hot-path filter: the names event triggers name, and nothing else (an event with
    /// another name is answered by one set lookup, with the same result as the full match).
    @Test func eventNamesAreTheEventTriggersNames() {
        #expect(InAppTriggerMatcher.eventNames(self.campaigns) == ["Added to Cart"])
        #expect(InAppTriggerMatcher.eventNames([]).isEmpty)
        for name in ["Added to Cart", "added to cart", "Purchase", ""] {
            let filtered = InAppTriggerMatcher.eventNames(self.campaigns).contains(name)
            #expect(filtered == !self.ids(.event(name)).isEmpty, "\(name)")
        }
    }

    @Test("attribute values: increments need a known base; strings, NaN and unset forget; clear empties")
    func attributeValues() {
        var attributes = InAppAttributes()
        #expect(attributes.apply([(key: "a", operation: .increment(5))]).isEmpty)
        #expect(attributes.values["a"] == nil)
        _ = attributes.apply([(key: "a", operation: .set(.double(1.5)))])
        #expect(attributes.apply([(key: "a", operation: .set(.string("x")))]) == ["a"])
        #expect(attributes.values["a"] == nil)
        _ = attributes.apply([(key: "b", operation: .set(.int(2)))])
        #expect(attributes.apply([(key: "b", operation: .unset)]) == ["b"])
        _ = attributes.apply([(key: "c", operation: .set(.int(2)))])
        attributes.clear()
        #expect(attributes.values.isEmpty)
    }

    @Test("INAPP-7: a token expiring within the margin is refreshed before display; none or no expiry is not")
    func tokenFreshness() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        func message(token: String?, expires: TimeInterval?) -> InAppMessage {
            InAppMessage(
                id: "m",
                type: .banner,
                content: .html("<p>x</p>"),
                deliveryToken: token,
                deliveryTokenExpiresAt: expires.map { now.addingTimeInterval($0) }
            )
        }
        #expect(InAppTokenFreshness.needsRefresh(message(token: "t", expires: 59.999), now: now))
        #expect(!InAppTokenFreshness.needsRefresh(message(token: "t", expires: 60), now: now))
        #expect(InAppTokenFreshness.needsRefresh(message(token: "t", expires: -1), now: now))
        #expect(!InAppTokenFreshness.needsRefresh(message(token: "t", expires: nil), now: now))
        #expect(!InAppTokenFreshness.needsRefresh(message(token: nil, expires: 1), now: now))
    }
}
