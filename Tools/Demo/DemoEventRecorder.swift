import Foundation
import JoryioCore

/// Builds stored event payloads the way the SDK's `track()` will: properties converted from
/// `[String: Any]`, a messageId, a timestamp and the ids the event was recorded with.
struct DemoEventRecorder {
    let anonymousId: String
    let sessionId: String
    let ids = UUIDGenerator()
    let clock = SystemClock()
    let logger: Logger

    func event(_ name: String, properties: [String: Any]) -> Data {
        let conversion = JSONValue.convert(properties)
        for dropped in conversion.dropped {
            self.logger.warning("dropped property \(dropped.path) of \(name): \(dropped.reason)")
        }
        let event: JSONValue = .object([
            "messageId": .string(self.ids.next()),
            "type": "track",
            "event": .string(name),
            "properties": .object(conversion.value),
            "timestamp": .string(JSONTimestamp.string(from: self.clock.now())),
            "anonymousId": .string(self.anonymousId),
            "sessionId": .string(self.sessionId),
        ])
        return event.encoded()
    }

    func sampleEvents(count: Int) -> [Data] {
        let names = ["Screen Viewed", "Product Viewed", "Added to Cart", "Feature Used"]
        return (0..<count).map { index in
            self.event(
                names[index % names.count],
                properties: [
                    "index": index, "price": 9.99 + Double(index), "product_id": "sku-\(index % 7)",
                    "viewed_at": Date(), "tags": ["demo", "foundation"], "discount": Double.nan,
                ]
            )
        }
    }
}
