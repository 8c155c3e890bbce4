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

/// ATTR-17: the server profile's snapshot is authoritative; only the writes it has not confirmed
/// are laid over it.
@Suite struct InAppAttributeSnapshotTests {
    @Test("ATTR-17: the snapshot replaces what this SDK knew; an increment then counts from the server's value")
    func snapshotIsTheBase() {
        var attributes = InAppAttributes()
        #expect(attributes.apply([(key: "purchases", operation: .increment(1))]).isEmpty, "no base yet")
        _ = attributes.apply([(key: "spend", operation: .set(.int(10)))])
        let reached = attributes.replace(
            with: ["purchases": 4, "spend": 250, "tier": 2, "bad": .infinity],
            unconfirmed: []
        )
        #expect(reached.isEmpty, "a snapshot alone is no write")
        #expect(attributes.values == ["purchases": 4, "spend": 250, "tier": 2], "another device's writes win")
        #expect(attributes.apply([(key: "purchases", operation: .increment(1))]) == ["purchases"])
        #expect(attributes.values["purchases"] == 5)
    }

    @Test("ATTR-17: unconfirmed writes override the snapshot, in order; the keys they move are returned")
    func unconfirmedOverride() {
        var attributes = InAppAttributes()
        _ = attributes.apply([(key: "visits", operation: .increment(1))])  // unknown here: no base
        let reached = attributes.replace(
            with: ["visits": 4, "plan": 1, "seats": 2],
            unconfirmed: [
                (key: "visits", operation: .increment(1)), (key: "plan", operation: .set(.int(3))),
                (key: "plan", operation: .increment(1)), (key: "seats", operation: .unset),
                (key: "new", operation: .increment(2)),
            ]
        )
        #expect(attributes.values == ["visits": 5, "plan": 4])
        #expect(reached == ["visits", "plan"], "seats was unknown here before, new stays unknown")
    }

    @Test("ATTR-17: clear() forgets the values; a snapshot after it holds only the server's values")
    func clearForgets() {
        var attributes = InAppAttributes()
        _ = attributes.apply([(key: "a", operation: .set(.int(1)))])
        attributes.clear()
        #expect(attributes.values.isEmpty)
        _ = attributes.replace(with: ["b": 2], unconfirmed: [])
        #expect(attributes.values == ["b": 2])
    }
}
