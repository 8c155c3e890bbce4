package import Foundation
package import JoryioCore

extension InAppReportAction: Codable {}

/// The ids a request names: the person's, taken when the report was recorded (or the sync sent),
/// and this installation's device id.
package struct InAppIdentity: Sendable, Equatable, Hashable, Codable {
    /// The user id.
    package var userId: String?
    /// The anonymous id.
    package var anonymousId: String?
    /// This installation's device id.
    package var deviceId: String?

    /// Creates ids.
    package init(userId: String?, anonymousId: String?, deviceId: String?) {
        self.userId = userId
        self.anonymousId = anonymousId
        self.deviceId = deviceId
    }

    /// Adds the ids that are set to `body`.
    func add(to body: inout [String: JSONValue]) {
        body["userId"] = self.userId.map(JSONValue.string)
        body["anonymousId"] = self.anonymousId.map(JSONValue.string)
        body["deviceId"] = self.deviceId.map(JSONValue.string)
    }
}

/// One sync request (`POST /v1/in-app/sync`, protocol.md "In-app messages"): who asks, from which
/// app version.
package struct InAppSyncRequest: Sendable, Equatable {
    /// The person and the device.
    package var identity: InAppIdentity
    /// The app's version (`CFBundleShortVersionString`), when known.
    package var appVersion: String?
    /// Always `ios` for this SDK.
    package var platform: String

    /// Creates a sync request.
    package init(identity: InAppIdentity, appVersion: String? = nil, platform: String = "ios") {
        self.identity = identity
        self.appVersion = appVersion
        self.platform = platform
    }

    /// The request body, sent at `sentAt`; absent ids and app version are left out.
    package func body(sentAt: Date) -> [UInt8] {
        var body: [String: JSONValue] = [
            "sentAt": .string(JSONTimestamp.string(from: sentAt)),
            "platform": .string(self.platform),
        ]
        body["appVersion"] = self.appVersion.map(JSONValue.string)
        self.identity.add(to: &body)
        return Array(JSONValue.object(body).encoded())
    }
}

/// One in-app report waiting for the server (`POST /v1/in-app/track`, one per request): what
/// happened to which campaign, the campaign's delivery token (INAPP-63, every action, `converted`
/// too), when, and who saw it. Its `messageId` is made once and sent on every retry.
package struct InAppTrackReport: Sendable, Equatable, Codable {
    /// Made once, kept on every retry (the server's deduplication key).
    package var messageId: String
    /// The campaign's id.
    package var campaignId: String
    /// What happened.
    package var action: InAppReportAction
    /// The button or link of a click, if named.
    package var elementId: String?
    /// The campaign's delivery token, when the campaign had one (INAPP-2, INAPP-63).
    package var deliveryToken: String?
    /// When it happened.
    package var timestamp: Date
    /// The ids when it was recorded.
    package var identity: InAppIdentity

    /// Creates a report.
    package init(
        messageId: String,
        campaignId: String,
        action: InAppReportAction,
        elementId: String? = nil,
        deliveryToken: String?,
        timestamp: Date,
        identity: InAppIdentity
    ) {
        self.messageId = messageId
        self.campaignId = campaignId
        self.action = action
        self.elementId = elementId
        self.deliveryToken = deliveryToken
        self.timestamp = timestamp
        self.identity = identity
    }

    /// The request body, sent at `sentAt`; absent fields are left out.
    package func body(sentAt: Date) -> [UInt8] {
        var body: [String: JSONValue] = [
            "messageId": .string(self.messageId),
            "campaignId": .string(self.campaignId),
            "action": .string(self.action.rawValue),
            "timestamp": .string(JSONTimestamp.string(from: self.timestamp)),
            "sentAt": .string(JSONTimestamp.string(from: sentAt)),
        ]
        body["elementId"] = self.elementId.map(JSONValue.string)
        body["deliveryToken"] = self.deliveryToken.map(JSONValue.string)
        self.identity.add(to: &body)
        return Array(JSONValue.object(body).encoded())
    }
}

/// One value of a submitted form: a string, a number or a boolean (protocol.md, "In-app messages").
package enum InAppFormValue: Sendable, Equatable, Hashable, Codable {
    /// A text.
    case string(String)
    /// A finite number.
    case number(Double)
    /// A switch.
    case bool(Bool)

    /// The value as JSON (a whole number as an integer).
    package var json: JSONValue {
        switch self {
        case .string(let text): .string(text)
        case .bool(let flag): .bool(flag)
        case .number(let number):
            if let whole = Int64(exactly: number) { .int(whole) } else { .double(number) }
        }
    }
}

/// One form submission waiting for the server (`POST /v1/in-app/forms`, one per request), with the
/// campaign's delivery token like every in-app report.
package struct InAppFormSubmission: Sendable, Equatable, Codable {
    /// The most fields a submission keeps.
    package static let maxFields = 100
    /// The longest field name, in Unicode code points.
    package static let maxFieldNameLength = 255
    /// The longest string value, in Unicode code points.
    package static let maxStringLength = 10_000

    /// Made once, kept on every retry.
    package var messageId: String
    /// The campaign whose form this is.
    package var campaignId: String
    /// The fields.
    package var values: [String: InAppFormValue]
    /// The campaign's delivery token, when it had one.
    package var deliveryToken: String?
    /// When it was submitted.
    package var timestamp: Date
    /// The ids when it was submitted.
    package var identity: InAppIdentity

    /// Creates a submission.
    package init(
        messageId: String,
        campaignId: String,
        values: [String: InAppFormValue],
        deliveryToken: String?,
        timestamp: Date,
        identity: InAppIdentity
    ) {
        self.messageId = messageId
        self.campaignId = campaignId
        self.values = values
        self.deliveryToken = deliveryToken
        self.timestamp = timestamp
        self.identity = identity
    }

    /// The fields of `values` the wire takes (strings, finite numbers, booleans; names of 1 …
    /// ``maxFieldNameLength`` code points; strings of at most ``maxStringLength``; at most
    /// ``maxFields``, by name order), and one reason per field left out, for the log.
    package static func values(
        from values: [String: JSONValue]
    ) -> (values: [String: InAppFormValue], dropped: [String]) {
        var kept: [String: InAppFormValue] = [:]
        var dropped: [String] = []
        for name in values.keys.sorted() {
            guard let value = values[name] else { continue }
            guard !name.isEmpty, name.unicodeScalars.count <= Self.maxFieldNameLength else {
                dropped.append("a field name that is empty or longer than \(Self.maxFieldNameLength) characters")
                continue
            }
            guard kept.count < Self.maxFields else {
                dropped.append("\(name): more than \(Self.maxFields) fields")
                continue
            }
            switch value {
            case .string(let text) where text.unicodeScalars.count <= Self.maxStringLength:
                kept[name] = .string(text)
            case .string:
                dropped.append("\(name): longer than \(Self.maxStringLength) characters")
            case .bool(let flag):
                kept[name] = .bool(flag)
            case .int(let number):
                kept[name] = .number(Double(number))
            case .double(let number) where number.isFinite:
                kept[name] = .number(number)
            default:
                dropped.append("\(name): not a string, a number or a boolean")
            }
        }
        return (kept, dropped)
    }

    /// The request body, sent at `sentAt`; absent fields are left out.
    package func body(sentAt: Date) -> [UInt8] {
        var body: [String: JSONValue] = [
            "messageId": .string(self.messageId),
            "campaignId": .string(self.campaignId),
            "values": .object(self.values.mapValues(\.json)),
            "timestamp": .string(JSONTimestamp.string(from: self.timestamp)),
            "sentAt": .string(JSONTimestamp.string(from: sentAt)),
        ]
        body["deliveryToken"] = self.deliveryToken.map(JSONValue.string)
        self.identity.add(to: &body)
        return Array(JSONValue.object(body).encoded())
    }
}
