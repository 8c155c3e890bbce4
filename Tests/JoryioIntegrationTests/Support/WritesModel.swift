import Foundation

// The expected-profile model of the writes simulation (WritesSimulationTests.swift): the writes the
// SDK must deliver, in call order, and the sandbox's profile rules (protocol.md §5.2 … §5.8) applied
// to them to compute the profiles the sandbox must end up with.

/// An attribute value as the sandbox stores it (the wire type matters: `2` is not `2.0`).
enum ModelValue: Equatable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)

    var description: String {
        switch self {
        case .int(let value): "\(value)"
        case .double(let value): "\(value)d"
        case .string(let value): "\"\(value)\""
        case .bool(let value): "\(value)"
        }
    }

    /// The numeric value of an int or double.
    var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// A value parsed by `JSONSerialization` from a sandbox answer.
    static func from(_ any: Any) -> ModelValue? {
        if let string = any as? String { return .string(string) }
        if type(of: any) == Bool.self, let bool = any as? Bool { return .bool(bool) }
        guard let number = any as? NSNumber else { return nil }
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "d", "f": return .double(number.doubleValue)
        default: return .int(number.intValue)
        }
    }
}

/// One write the SDK accepted, with the ids it was made with.
struct ModelWrite: CustomStringConvertible {
    enum Kind {
        case set(String, ModelValue)
        case increment(String, Double)
        case unset(String)
        case identify
        case alias(label: String, name: String)
        case optOutRecord(Bool)
        case subscription(channel: String, status: String)
        case group(channel: String, groupId: String, join: Bool)

        var isAttribute: Bool {
            switch self {
            case .set, .increment, .unset: true
            default: false
            }
        }

        /// Unsubscribes, group leaves and the opt-out record (DURABLE-13).
        var isWithdrawal: Bool {
            switch self {
            case .optOutRecord: true
            case .subscription(_, let status): status == "unsubscribed"
            case .group(_, _, let join): !join
            default: false
            }
        }
    }

    /// Call order; also the timestamp order (every call gets its own millisecond).
    var seq: Int
    var kind: Kind
    var userId: String?
    var anonymousId: String
    /// Made while consent was pending and not released yet (CONSENT-3).
    var held: Bool

    var description: String {
        "#\(self.seq) \(self.kind) (\(self.userId ?? "-"), \(self.anonymousId))\(self.held ? " held" : "")"
    }
}

/// A profile as the model expects it.
struct ModelProfile: Equatable {
    var userId: String?
    var anonymousIds: Set<String> = []
    var attributes: [String: ModelValue] = [:]
    var aliases: [String: String] = [:]
    var subscriptions: [String: String] = [:]
    var groups: [String: [String]] = [:]
    /// Attributes whose value came from a fractional increment since their last set or unset: the SDK
    /// compacts waiting increments into one delta (0.5 + 1.5 → 2) and sends an integral delta as an
    /// integer, so the server may store `2` where applying them one by one gives `2.0` (see
    /// SandboxWritesSimulationFindingsTests.compactedFractionalIncrements). Compared by numeric value only.
    var looseNumbers: Set<String> = []

    /// Whether `sandbox` is this expected profile (numbers of ``looseNumbers`` compared by value).
    func matches(_ sandbox: ModelProfile) -> Bool {
        guard self.userId == sandbox.userId, self.anonymousIds == sandbox.anonymousIds, self.aliases == sandbox.aliases,
            self.subscriptions == sandbox.subscriptions, self.groups == sandbox.groups,
            Set(self.attributes.keys) == Set(sandbox.attributes.keys)
        else { return false }
        return self.attributes.allSatisfy { key, value in
            guard self.looseNumbers.contains(key) else { return sandbox.attributes[key] == value }
            return value.number != nil && value.number == sandbox.attributes[key]?.number
        }
    }

    /// The comparable form of a sandbox profile.
    init(sandbox profile: [String: Any]) {
        self.userId = profile["userId"] as? String
        self.anonymousIds = Set(profile["anonymousIds"] as? [String] ?? [])
        for (key, value) in profile["attributes"] as? [String: Any] ?? [:] {
            self.attributes[key] = ModelValue.from(value) ?? .string("<unreadable \(value)>")
        }
        self.aliases = profile["aliases"] as? [String: String] ?? [:]
        self.subscriptions = profile["subscriptions"] as? [String: String] ?? [:]
        self.groups = profile["groups"] as? [String: [String]] ?? [:]
    }

    init(userId: String?) {
        self.userId = userId
    }

    /// The profile's key in ``WritesModel/expectedProfiles()``.
    var key: String {
        self.userId.map { "user \($0)" } ?? "anonymous \(self.anonymousIds.sorted().joined(separator: ","))"
    }
}

/// The sandbox's profile rules applied to the writes that must arrive.
///
/// Why call order is enough, although the attribute and durable channels race each other: identify,
/// alias and subscription writes travel in one queue, in order; attribute operations and opt-out
/// records end up on the profile their ids resolve to *at the end* (a write that reached an anonymous
/// profile first is merged with it), and their values are replayed by timestamp; subscriptions keep the
/// newest change. The simulation settles before identity changes and purges, so every write it expects
/// here either arrived or was still held and is dropped (``WritesModel/purgeHeld(attributesOnly:)``).
struct WritesModel {
    private(set) var writes: [ModelWrite] = []

    mutating func add(_ write: ModelWrite) {
        self.writes.append(write)
    }

    /// Drops what is held on the device: everything collected while pending (an opt-out or denial
    /// purges all of it; `reset()` only the attribute writes, ATTR-15). Withdrawals are never held.
    mutating func purgeHeld(attributesOnly: Bool) {
        self.writes.removeAll { $0.held && (!attributesOnly || $0.kind.isAttribute) }
    }

    /// Consent granted: what was held is sent.
    mutating func releaseHeld() {
        for index in self.writes.indices { self.writes[index].held = false }
    }

    /// The profiles the sandbox must hold once everything was delivered, by ``ModelProfile/key``.
    func expectedProfiles() -> [String: ModelProfile] {
        var users: [String: ModelProfile] = [:]
        var anonymous: [String: ModelProfile] = [:]
        var links: [String: String] = [:]

        func resolve(_ write: ModelWrite) -> (user: String?, anonymous: String) {
            if let userId = write.userId { return (userId, write.anonymousId) }
            return (links[write.anonymousId], write.anonymousId)
        }
        func touch(_ resolved: (user: String?, anonymous: String), _ change: (inout ModelProfile) -> Void) {
            if let user = resolved.user {
                change(&users[user, default: ModelProfile(userId: user)])
            } else {
                var profile = anonymous[resolved.anonymous] ?? ModelProfile(userId: nil)
                profile.anonymousIds = [resolved.anonymous]
                change(&profile)
                anonymous[resolved.anonymous] = profile
            }
        }

        // Durable writes in queue order (identify links and merges, aliases, subscriptions).
        for write in self.writes where !write.kind.isAttribute {
            switch write.kind {
            case .identify:
                guard let user = write.userId else { continue }
                touch((user, write.anonymousId)) { _ in }
                let anonymousId = write.anonymousId
                guard links[anonymousId] == nil else { continue }  // linked already: nothing moves
                if let merged = anonymous.removeValue(forKey: anonymousId) {
                    users[user]?.aliases.merge(merged.aliases) { kept, _ in kept }
                }
                links[anonymousId] = user
                users[user]?.anonymousIds.insert(anonymousId)
            case .alias(let label, let name):
                touch(resolve(write)) { $0.aliases[label] = name }
            case .optOutRecord:
                touch(resolve(write)) { _ in }
            case .subscription(let channel, let status):
                touch(resolve(write)) { $0.subscriptions[channel] = status }
            case .group(let channel, let groupId, let join):
                touch(resolve(write)) { profile in
                    var joined = Set(profile.groups[channel] ?? [])
                    if join { joined.insert(groupId) } else { joined.remove(groupId) }
                    profile.groups[channel] = joined.isEmpty ? nil : joined.sorted()
                }
            case .set, .increment, .unset:
                continue
            }
        }
        // Attribute operations (and the opt-out records) on the profile their ids resolve to now,
        // replayed in timestamp order.
        for write in self.writes {
            let apply: (inout ModelProfile) -> Void
            switch write.kind {
            case .set(let name, let value):
                apply = {
                    $0.attributes[name] = value
                    $0.looseNumbers.remove(name)
                }
            case .unset(let name):
                apply = {
                    $0.attributes[name] = nil
                    $0.looseNumbers.remove(name)
                }
            case .increment(let name, let delta):
                apply = { profile in
                    let integral = delta == delta.rounded() && abs(delta) < 1e15
                    if !integral { profile.looseNumbers.insert(name) }
                    switch (profile.attributes[name], integral) {
                    case (.int(let current)?, true): profile.attributes[name] = .int(current + Int(delta))
                    case (.int(let current)?, false): profile.attributes[name] = .double(Double(current) + delta)
                    case (.double(let current)?, _): profile.attributes[name] = .double(current + delta)
                    default: profile.attributes[name] = integral ? .int(Int(delta)) : .double(delta)
                    }
                }
            case .optOutRecord(let optedOut):
                apply = { $0.attributes["tracking_opted_out"] = .bool(optedOut) }
            default:
                continue
            }
            touch(resolve(write)) { apply(&$0) }
        }
        var result: [String: ModelProfile] = [:]
        for profile in Array(users.values) + Array(anonymous.values) {
            result[profile.key] = profile
        }
        return result
    }
}
