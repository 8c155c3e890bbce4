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

    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

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
        var changed = attributes.apply([(key: "spend", operation: .set(.int(60)))], at: self.t0)
        #expect(self.ids(.attributes(changed), attributes).isEmpty)
        changed = attributes.apply([(key: "spend", operation: .increment(40))], at: self.t0)
        #expect(attributes.values["spend"] == 100)
        #expect(self.ids(.attributes(changed), attributes) == ["vip"])
        changed = attributes.apply([(key: "other", operation: .set(.int(1)))], at: self.t0)
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
        #expect(attributes.apply([(key: "a", operation: .increment(5))], at: self.t0).isEmpty)
        #expect(attributes.values["a"] == nil)
        _ = attributes.apply([(key: "a", operation: .set(.double(1.5)))], at: self.t0)
        #expect(attributes.apply([(key: "a", operation: .set(.string("x")))], at: self.t0) == ["a"])
        #expect(attributes.values["a"] == nil)
        _ = attributes.apply([(key: "b", operation: .set(.int(2)))], at: self.t0)
        #expect(attributes.apply([(key: "b", operation: .unset)], at: self.t0) == ["b"])
        _ = attributes.apply([(key: "c", operation: .set(.int(2)))], at: self.t0)
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

/// ATTR-17: the server profile's snapshot is authoritative; only what it may not hold yet is laid
/// over it.
@Suite struct InAppAttributeSnapshotTests {
    let t0 = Date(timeIntervalSince1970: 1_767_225_600)

    private func write(
        _ attributes: inout InAppAttributes,
        _ key: String,
        _ operation: AttributeWrite.Operation,
        at seconds: TimeInterval
    ) -> Set<String> {
        attributes.apply([(key: key, operation: operation)], at: self.t0 + seconds)
    }

    @Test("ATTR-17: the snapshot replaces what this SDK knew; an increment then counts from the server's value")
    func snapshotIsTheBase() {
        var attributes = InAppAttributes()
        #expect(self.write(&attributes, "purchases", .increment(1), at: 0).isEmpty, "no base yet")
        _ = self.write(&attributes, "spend", .set(.int(10)), at: 0)
        attributes.syncRequested(at: self.t0 + 60)
        attributes.replace(with: ["purchases": 4, "spend": 250, "tier": 2, "bad": .infinity])
        #expect(attributes.values == ["purchases": 4, "spend": 250, "tier": 2], "another device's writes win")
        #expect(self.write(&attributes, "purchases", .increment(1), at: 61) == ["purchases"])
        #expect(attributes.values["purchases"] == 5)
    }

    @Test("ATTR-17: writes after the request are laid over the snapshot; an increment before it never counts twice")
    func overlay() {
        var attributes = InAppAttributes()
        attributes.replace(with: ["visits": 1])
        _ = self.write(&attributes, "visits", .increment(1), at: 0)  // the increment that syncs (INAPP-11)
        _ = self.write(&attributes, "plan", .set(.int(3)), at: 0)
        attributes.syncRequested(at: self.t0)
        _ = self.write(&attributes, "visits", .increment(5), at: 1)  // while the sync is on the wire
        _ = self.write(&attributes, "seats", .set(.int(9)), at: 1)

        // The server had the first increment but not the set of plan (its request came second).
        attributes.replace(with: ["visits": 2])
        #expect(attributes.values == ["visits": 7, "plan": 3, "seats": 9])

        // Had the server not had that increment yet, the value lags by it until the next sync.
        var lagging = InAppAttributes()
        _ = self.write(&lagging, "visits", .increment(1), at: 0)
        lagging.syncRequested(at: self.t0)
        lagging.replace(with: ["visits": 1])
        #expect(lagging.values == ["visits": 1])
    }

    @Test("ATTR-17: a set or unset older than the window before the request is taken as held by the snapshot")
    func window() {
        var attributes = InAppAttributes()
        _ = self.write(&attributes, "plan", .set(.int(1)), at: 0)
        _ = self.write(&attributes, "gone", .set(.int(1)), at: 0)
        _ = self.write(&attributes, "gone", .unset, at: 95)
        attributes.syncRequested(at: self.t0 + 100)
        attributes.replace(with: ["plan": 2, "gone": 5])
        // The set 100 s before is the server's to answer; the unset 5 s before holds.
        #expect(attributes.values == ["plan": 2])
    }

    @Test("ATTR-17: clear() forgets the writes too; a snapshot after it holds only the server's values")
    func clearForgets() {
        var attributes = InAppAttributes()
        _ = self.write(&attributes, "a", .set(.int(1)), at: 0)
        attributes.clear()
        attributes.syncRequested(at: self.t0 + 1)
        attributes.replace(with: ["b": 2])
        #expect(attributes.values == ["b": 2])
    }
}
