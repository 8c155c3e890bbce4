package import Foundation
package import JoryioCore
internal import JoryioKit

/// What a sync answer held once read (protocol.md, "In-app messages"): the campaigns this SDK can
/// use, the workspace's contact rules, and why anything was left out.
package struct InAppSyncAnswer: Sendable, Equatable {
    /// The usable campaigns, in the server's order.
    package var campaigns: [InAppCampaign]
    /// The contact rules; `nil` when the answer's `contactRules` was malformed (the caller keeps the
    /// rules it had, so a server bug never lifts them). Absent or `null` on the wire: ``InAppContactRules/none``.
    package var contactRules: InAppContactRules?
    /// The person's numeric profile attributes as the server holds them (ATTR-17), for attribute
    /// triggers; `nil` when the answer has none (an older server) or they were malformed, and the
    /// SDK keeps the values it knows.
    package var attributes: [String: Double]?
    /// One line per campaign (or rule set) left out, for the caller to log.
    package var problems: [InAppWireProblem]

    /// Creates an answer.
    package init(
        campaigns: [InAppCampaign],
        contactRules: InAppContactRules?,
        attributes: [String: Double]? = nil,
        problems: [InAppWireProblem] = []
    ) {
        self.campaigns = campaigns
        self.contactRules = contactRules
        self.attributes = attributes
        self.problems = problems
    }
}

/// Why a sync answer, a campaign or the contact rules were left out: the campaign's id when it had
/// a readable one, and a reason for the log.
package struct InAppWireProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The campaign's id, when it could be read.
    package var campaignId: String?
    /// What was wrong.
    package var reason: String

    /// Creates a problem.
    package init(campaignId: String? = nil, _ reason: String) {
        self.campaignId = campaignId
        self.reason = reason
    }

    /// `campaign <id>: <reason>`, or the reason alone.
    package var description: String {
        self.campaignId.map { "campaign \($0): \(self.reason)" } ?? self.reason
    }
}

/// The in-app wire format (protocol.md, "In-app messages"; decisions.md, "In-app wire format
/// (issue 16)"): the endpoints' paths, the bounds a hostile answer meets, and the sync answer's
/// decoder. Decoding never traps: a malformed campaign is left out with a reason, unknown fields are
/// ignored.
package enum InAppWire {
    /// `POST {apiHost}/v1/in-app/sync`.
    package static let syncPath = "v1/in-app/sync"
    /// `POST {apiHost}/v1/in-app/track`.
    package static let trackPath = "v1/in-app/track"
    /// `POST {apiHost}/v1/in-app/forms`.
    package static let formsPath = "v1/in-app/forms"

    /// The `error` of a token-less report refused in required-token mode (INAPP-4), whatever the status.
    package static let deliveryTokenRequired = "A delivery token is required"

    /// A token that expires within this many seconds is refreshed by a sync before its message is
    /// displayed (INAPP-7): the dwell second, a few interactions and a retry or two fit in a minute.
    package static let tokenRefreshMargin: TimeInterval = 60

    // MARK: Bounds (a campaign beyond one is left out)

    /// Campaigns read from one answer; the rest are left out.
    package static let maxCampaigns = 200
    /// Campaign ids, button ids: 1 … 128 characters, no control characters.
    package static let maxIdLength = 128
    /// An HTML document, in UTF-8 bytes.
    package static let maxHTMLBytes = 256 * 1024
    /// A native headline, in Unicode code points.
    package static let maxHeadlineLength = 1_000
    /// A native body text, in Unicode code points.
    package static let maxTextLength = 10_000
    /// Buttons of a native message.
    package static let maxButtons = 10
    /// A button label, in Unicode code points.
    package static let maxLabelLength = 256
    /// A URL (image or link), in bytes (ASCII only).
    package static let maxURLBytes = 2_048
    /// A delivery token, in bytes.
    package static let maxTokenBytes = 4_096
    /// Triggers of a campaign.
    package static let maxTriggers = 50
    /// An event name or attribute key, in Unicode code points.
    package static let maxNameLength = 255
    /// A push-tap trigger's tracking id, in characters.
    package static let maxTrackingIdLength = 128
    /// The longest display delay, in seconds (one day).
    package static let maxDisplayDelay: TimeInterval = 86_400
    /// The longest cap window or interval, in seconds (ten years of 365 days).
    package static let maxDuration: TimeInterval = 315_360_000
    /// The largest impression count of a cap or contact rule.
    package static let maxImpressions = 1_000_000
    /// The largest priority magnitude.
    package static let maxPriority = 1_000_000

    /// Link schemes never followed from a message (the same list as push links, protocol.md 7.1).
    package static let refusedLinkSchemes: Set<String> = [
        "javascript", "vbscript", "data", "file", "about", "blob", "filesystem", "http", "ftp",
    ]

    // MARK: Sync answer

    /// Reads the body of a successful sync answer, received at `receivedAt` (device clock).
    ///
    /// Fails only when the body has no `campaigns` array: the caller then keeps the campaigns it
    /// has. Times the server sends are moved onto the device clock with the answer's `serverTime`
    /// (when present and a timestamp): a campaign whose `expiresAt` has passed is left out.
    package static func decodeSyncAnswer(
        _ body: JSONValue,
        receivedAt: Date
    ) -> Result<InAppSyncAnswer, InAppWireProblem> {
        guard let list = body["campaigns"]?.arrayValue else {
            return .failure(InAppWireProblem(#"the answer has no "campaigns" array"#))
        }
        let offset = body["serverTime"].flatMap(Self.date).map { receivedAt.timeIntervalSince($0) } ?? 0
        var problems: [InAppWireProblem] = []
        var campaigns: [InAppCampaign] = []
        var seen: Set<String> = []
        for (index, value) in list.enumerated() {
            guard index < Self.maxCampaigns else {
                problems.append(
                    InAppWireProblem("\(list.count - index) campaigns beyond the first \(Self.maxCampaigns) left out")
                )
                break
            }
            switch Self.decodeCampaign(value, clockOffset: offset) {
            case .failure(let problem):
                problems.append(problem)
            case .success(let campaign):
                if let expiresAt = campaign.expiresAt, expiresAt <= receivedAt {
                    problems.append(InAppWireProblem(campaignId: campaign.id, "expired"))
                } else if !seen.insert(campaign.id).inserted {
                    problems.append(InAppWireProblem(campaignId: campaign.id, "a second campaign with this id"))
                } else {
                    campaigns.append(campaign)
                }
            }
        }
        var rules: InAppContactRules?
        switch Self.decodeContactRules(body["contactRules"]) {
        case .success(let value): rules = value
        case .failure(let problem): problems.append(problem)
        }
        var attributes: [String: Double]?
        switch Self.decodeAttributes(body["attributes"], watched: InAppTriggerMatcher.watchedAttributes(campaigns)) {
        case .success(let value): attributes = value
        case .failure(let problem): problems.append(problem)
        }
        return .success(
            InAppSyncAnswer(campaigns: campaigns, contactRules: rules, attributes: attributes, problems: problems)
        )
    }

    /// The profile snapshot (ATTR-17): absent or `null` is `nil` (keep what the SDK knows). Only the
    /// keys the campaigns' attribute triggers name (`watched`) with finite numbers are kept: only
    /// they can meet a threshold, and the rest of a hostile answer costs nothing.
    package static func decodeAttributes(
        _ value: JSONValue?,
        watched: Set<String>
    ) -> Result<[String: Double]?, InAppWireProblem> {
        guard let value, !value.isNull else { return .success(nil) }
        guard let object = value.objectValue else {
            return .failure(InAppWireProblem("attributes is not an object; the attribute values the SDK knows stay"))
        }
        var attributes: [String: Double] = [:]
        for key in watched {
            if let number = object[key]?.doubleValue, number.isFinite { attributes[key] = number }
        }
        return .success(attributes)
    }

    /// The workspace contact rules: absent or `null` is ``InAppContactRules/none``.
    package static func decodeContactRules(_ value: JSONValue?) -> Result<InAppContactRules, InAppWireProblem> {
        guard let value, !value.isNull else { return .success(.none) }
        guard let object = value.objectValue else {
            return .failure(InAppWireProblem("contactRules is not an object; the previous rules stay"))
        }
        do throws(FieldError) {
            return .success(
                InAppContactRules(
                    maxImpressions: try Self.count(object["maxImpressions"], "contactRules.maxImpressions"),
                    window: try Self.duration(object["window"], "contactRules.window", positive: true),
                    minDelayBetweenMessages: try Self.duration(
                        object["minDelayBetweenMessages"],
                        "contactRules.minDelayBetweenMessages",
                        positive: false
                    )
                )
            )
        } catch {
            return .failure(InAppWireProblem("\(error.reason); the previous rules stay"))
        }
    }

    /// One campaign of a sync answer; `clockOffset` (device clock minus server clock, seconds) moves
    /// its times onto the device clock.
    package static func decodeCampaign(
        _ value: JSONValue,
        clockOffset: TimeInterval = 0
    ) -> Result<InAppCampaign, InAppWireProblem> {
        guard let object = value.objectValue else {
            return .failure(InAppWireProblem("a campaign that is not an object"))
        }
        guard let id = Self.identifier(object["id"]) else {
            return .failure(InAppWireProblem("a campaign without a valid id (1 … \(Self.maxIdLength) characters)"))
        }
        do throws(FieldError) {
            let message = InAppMessage(
                id: id,
                type: try Self.messageType(object["type"]),
                content: try Self.content(object["content"]),
                deliveryToken: try Self.token(object["deliveryToken"]),
                deliveryTokenExpiresAt: try Self.optionalDate(
                    object["deliveryTokenExpiresAt"],
                    "deliveryTokenExpiresAt"
                )
                .map { $0.addingTimeInterval(clockOffset) },
                displayDelay: try Self.duration(
                    object["displayDelay"],
                    "displayDelay",
                    positive: false,
                    max: Self.maxDisplayDelay
                ) ?? 0
            )
            return .success(
                InAppCampaign(
                    message: message,
                    triggers: try Self.triggers(object["triggers"]),
                    caps: try Self.caps(object["caps"]),
                    priority: try Self.priority(object["priority"]),
                    expiresAt: try Self.optionalDate(object["expiresAt"], "expiresAt").map {
                        $0.addingTimeInterval(clockOffset)
                    }
                )
            )
        } catch {
            return .failure(InAppWireProblem(campaignId: id, error.reason))
        }
    }

    // MARK: Fields

    /// Why one field was refused.
    struct FieldError: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func isAbsent(_ value: JSONValue?) -> Bool {
        value == nil || value == .null
    }

    /// 1 … ``maxIdLength`` characters without control characters.
    static func identifier(_ value: JSONValue?, max: Int = Self.maxIdLength) -> String? {
        guard let text = value?.stringValue, !text.isEmpty, text.unicodeScalars.count <= max,
            !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { return nil }
        return text
    }

    private static func messageType(_ value: JSONValue?) throws(FieldError) -> InAppMessage.MessageType {
        guard let text = value?.stringValue else { throw FieldError("type is missing or not a string") }
        guard let type = InAppMessage.MessageType(rawValue: text) else {
            throw FieldError("unknown type \"\(text.prefix(32))\"")
        }
        return type
    }

    private static func content(_ value: JSONValue?) throws(FieldError) -> InAppMessage.Content {
        guard let object = value?.objectValue else { throw FieldError("content is missing or not an object") }
        let native = Self.isAbsent(object["native"]) ? nil : object["native"]
        let html = Self.isAbsent(object["html"]) ? nil : object["html"]
        switch (native, html) {
        case (nil, nil): throw FieldError(#"content has neither "native" nor "html""#)
        case (.some, .some): throw FieldError(#"content has both "native" and "html""#)
        case (nil, let html?):
            guard let text = html.stringValue, !text.isEmpty, text.utf8.count <= Self.maxHTMLBytes else {
                throw FieldError("content.html is not a string of 1 … \(Self.maxHTMLBytes) bytes")
            }
            return .html(text)
        case (let native?, nil):
            return .native(try Self.nativeContent(native))
        }
    }

    private static func nativeContent(_ value: JSONValue) throws(FieldError) -> InAppMessage.NativeContent {
        guard let object = value.objectValue else { throw FieldError("content.native is not an object") }
        let headline = try Self.text(object["headline"], "content.native.headline", max: Self.maxHeadlineLength)
        let text = try Self.text(object["text"], "content.native.text", max: Self.maxTextLength)
        var imageURL: URL?
        if let image = object["imageUrl"], !image.isNull {
            guard let url = image.stringValue.flatMap(Self.imageURL) else {
                throw FieldError("content.native.imageUrl is not an http or https URL")
            }
            imageURL = url
        }
        var buttons: [InAppMessage.Button] = []
        if let list = object["buttons"], !list.isNull {
            guard let items = list.arrayValue, items.count <= Self.maxButtons else {
                throw FieldError("content.native.buttons is not an array of at most \(Self.maxButtons)")
            }
            var ids: Set<String> = []
            for item in items {
                let button = try Self.button(item)
                guard ids.insert(button.id).inserted else { throw FieldError("two buttons with the id \(button.id)") }
                buttons.append(button)
            }
        }
        guard headline != nil || text != nil || imageURL != nil || !buttons.isEmpty else {
            throw FieldError("content.native is empty")
        }
        return InAppMessage.NativeContent(headline: headline, text: text, imageURL: imageURL, buttons: buttons)
    }

    private static func button(_ value: JSONValue) throws(FieldError) -> InAppMessage.Button {
        guard let object = value.objectValue else { throw FieldError("a button that is not an object") }
        guard let id = Self.identifier(object["id"]) else {
            throw FieldError("a button without a valid id (1 … \(Self.maxIdLength) characters)")
        }
        guard let label = try Self.text(object["label"], "button \(id) label", max: Self.maxLabelLength) else {
            throw FieldError("button \(id) has no label")
        }
        var url: URL?
        if let link = object["url"], !link.isNull {
            guard let text = link.stringValue else { throw FieldError("button \(id) url is not a string") }
            switch Self.link(text) {
            case .success(let value): url = value
            case .failure(let error): throw FieldError("button \(id) url: \(error.reason)")
            }
        }
        return InAppMessage.Button(id: id, label: label, url: url)
    }

    /// An optional plain text of at most `max` code points (absent or `null`: `nil`; empty is kept).
    private static func text(_ value: JSONValue?, _ field: String, max: Int) throws(FieldError) -> String? {
        guard !Self.isAbsent(value) else { return nil }
        guard let text = value?.stringValue, text.unicodeScalars.count <= max else {
            throw FieldError("\(field) is not a string of at most \(max) characters")
        }
        return text
    }

    private static func token(_ value: JSONValue?) throws(FieldError) -> String? {
        guard !Self.isAbsent(value) else { return nil }
        guard let text = value?.stringValue, !text.isEmpty, text.utf8.count <= Self.maxTokenBytes,
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw FieldError("deliveryToken is not 1 … \(Self.maxTokenBytes) printable ASCII characters")
        }
        return text
    }

    private static func triggers(_ value: JSONValue?) throws(FieldError) -> [InAppTrigger] {
        guard !Self.isAbsent(value) else { return [] }
        guard let items = value?.arrayValue, items.count <= Self.maxTriggers else {
            throw FieldError("triggers is not an array of at most \(Self.maxTriggers)")
        }
        var triggers: [InAppTrigger] = []
        for item in items {
            if let trigger = try Self.trigger(item), !triggers.contains(trigger) {
                triggers.append(trigger)
            }
        }
        guard triggers.isEmpty == items.isEmpty else {
            throw FieldError("no trigger this SDK knows")
        }
        return triggers
    }

    /// One trigger; `nil` for a type this SDK does not know (a newer server's), which is skipped.
    private static func trigger(_ value: JSONValue) throws(FieldError) -> InAppTrigger? {
        guard let object = value.objectValue, let type = object["type"]?.stringValue else {
            throw FieldError("a trigger without a type")
        }
        switch type {
        case "onSync":
            return .onSync
        case "event":
            guard let name = Self.name(object["name"]) else {
                throw FieldError("an event trigger without a valid name (1 … \(Self.maxNameLength) characters)")
            }
            return .event(name: name)
        case "pushTap":
            guard let trackingId = object["trackingId"], !trackingId.isNull else { return .pushTap(trackingId: nil) }
            guard let text = Self.identifier(trackingId, max: Self.maxTrackingIdLength) else {
                throw FieldError("a pushTap trigger whose trackingId is not 1 … \(Self.maxTrackingIdLength) characters")
            }
            return .pushTap(trackingId: text)
        case "attribute":
            guard let key = Self.name(object["key"]) else {
                throw FieldError("an attribute trigger without a valid key (1 … \(Self.maxNameLength) characters)")
            }
            guard let text = object["comparison"]?.stringValue, let comparison = InAppTrigger.Comparison(rawValue: text)
            else {
                throw FieldError("attribute trigger \(key): comparison is not gt, gte, lt, lte or eq")
            }
            guard let threshold = object["value"]?.doubleValue, threshold.isFinite else {
                throw FieldError("attribute trigger \(key): value is not a number")
            }
            return .attribute(key: key, comparison: comparison, value: threshold)
        default:
            return nil
        }
    }

    private static func name(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue, !text.isEmpty, text.unicodeScalars.count <= Self.maxNameLength else {
            return nil
        }
        return text
    }

    private static func caps(_ value: JSONValue?) throws(FieldError) -> InAppCaps {
        guard !Self.isAbsent(value) else { return InAppCaps() }
        guard let object = value?.objectValue else { throw FieldError("caps is not an object") }
        return InAppCaps(
            maxImpressions: try Self.count(object["maxImpressions"], "caps.maxImpressions"),
            window: try Self.duration(object["window"], "caps.window", positive: true),
            minInterval: try Self.duration(object["minInterval"], "caps.minInterval", positive: false)
        )
    }

    /// An optional impression count: an integer of 1 … ``maxImpressions``.
    private static func count(_ value: JSONValue?, _ field: String) throws(FieldError) -> Int? {
        guard !Self.isAbsent(value) else { return nil }
        guard let number = value?.intValue, number >= 1, number <= Self.maxImpressions else {
            throw FieldError("\(field) is not an integer of 1 … \(Self.maxImpressions)")
        }
        return Int(number)
    }

    /// An optional number of seconds: finite, not negative (`positive`: above zero), at most `max`.
    private static func duration(
        _ value: JSONValue?,
        _ field: String,
        positive: Bool,
        max: TimeInterval = Self.maxDuration
    ) throws(FieldError) -> TimeInterval? {
        guard !Self.isAbsent(value) else { return nil }
        guard let seconds = value?.doubleValue, seconds.isFinite, positive ? seconds > 0 : seconds >= 0, seconds <= max
        else {
            throw FieldError("\(field) is not a number of seconds \(positive ? "above" : "from") 0 to \(Int(max))")
        }
        return seconds
    }

    private static func priority(_ value: JSONValue?) throws(FieldError) -> Int {
        guard !Self.isAbsent(value) else { return 0 }
        guard let number = value?.intValue, (-Int64(Self.maxPriority)...Int64(Self.maxPriority)).contains(number) else {
            throw FieldError("priority is not an integer of -\(Self.maxPriority) … \(Self.maxPriority)")
        }
        return Int(number)
    }

    private static func optionalDate(_ value: JSONValue?, _ field: String) throws(FieldError) -> Date? {
        guard !Self.isAbsent(value) else { return nil }
        guard let date = value.flatMap(Self.date) else { throw FieldError("\(field) is not a timestamp") }
        return date
    }
}
