import Foundation
import JoryioCore
import JoryioTesting

// The in-process backend of the writes simulation (WritesSimulationTests.swift): the sandbox's
// profile rules and write endpoints, as far as the simulation's model needs them, in Swift.

/// The sandbox's profile model and write endpoints (`Tools/sandbox/joryio_sandbox/profiles.py`,
/// `attributes.py`, `writes.py`, `events.py`), in process: `POST /v1/attributes` (answers remembered
/// per `Idempotency-Key`, each operation id applied once), `/v1/identify` (creates the user's profile,
/// merges an unlinked anonymous profile into it), `/v1/alias` (409 on a conflict), `/v1/subscriptions`
/// (404 without a profile; the newest change per channel and group wins), `/v1/opt-out` (the
/// `tracking_opted_out` operation), each durable write applied once per `writeId`, and `/v1/events`
/// (creates the profile its identity resolves to). Faults are scripted per path, as with the sandbox.
///
/// Request validation is left out: the SDK's requests are valid (the sandbox lane checks that).
/// Timestamps compare as strings: the SDK writes them all in one fixed-width UTC format.
final class WritesServer: Sendable {
    private struct Operation {
        var id: String
        var op: String
        var key: String
        var value: JSONValue?
        var timestamp: String
        var arrival: Int
    }

    /// The newest subscription or group change: a status, or `join` / `leave`.
    private struct Change {
        var value: String
        var timestamp: String
    }

    private struct GroupKey: Hashable {
        var channel: String
        var groupId: String
    }

    private struct Profile {
        var id: Int
        var userId: String?
        var anonymousIds: [String] = []
        var operations: [Operation] = []
        var aliases: [String: String] = [:]
        var subscriptions: [String: Change] = [:]
        var groups: [GroupKey: Change] = [:]

        /// Merges `other` (an anonymous profile) into this one: operations (union by id), aliases (ours kept
        /// on a label clash), subscriptions and groups (the later change wins; ours on a tie), anonymous ids.
        mutating func absorb(_ other: Self) {
            let known = Set(self.operations.map(\.id))
            self.operations += other.operations.filter { !known.contains($0.id) }
            self.operations.sort { $0.arrival < $1.arrival }
            self.aliases.merge(other.aliases) { ours, _ in ours }
            for (channel, change) in other.subscriptions
            where self.subscriptions[channel].map({ change.timestamp > $0.timestamp }) ?? true {
                self.subscriptions[channel] = change
            }
            for (group, change) in other.groups
            where self.groups[group].map({ change.timestamp > $0.timestamp }) ?? true {
                self.groups[group] = change
            }
            self.anonymousIds += other.anonymousIds.filter { !self.anonymousIds.contains($0) }
        }
    }

    private struct Rule {
        var path: String
        var count: Int
        var fault: WritesFault
    }

    private struct State {
        var profiles: [Int: Profile] = [:]
        var order: [Int] = []
        var byUser: [String: Int] = [:]
        var byAnonymousId: [String: Int] = [:]
        var nextID = 1
        var arrival = 0
        var appliedOperations: Set<String> = []
        var appliedWrites: Set<String> = []
        var answers: [String: HTTPResponse] = [:]
        var seenMessageIDs: Set<String> = []
        var rules: [Rule] = []
    }

    private let state = Locked(State())

    /// Applies `fault` to the next `count` requests whose path matches `path` (a trailing `*` matches a
    /// prefix), after the rules added before it.
    func addFault(path: String, count: Int, _ fault: WritesFault) {
        self.state.withLock { $0.rules.append(Rule(path: path, count: count, fault: fault)) }
    }

    func clearFaults() {
        self.state.withLock { $0.rules = [] }
    }

    /// The profile a request naming user `userId` resolves to, if any.
    func profile(userId: String) -> ModelProfile? {
        self.state.withLock { state in state.byUser[userId].flatMap { state.profiles[$0] }.map(Self.model) }
    }

    /// Every profile, oldest first, with the ids of the operations applied to it.
    func profiles() -> [(profile: ModelProfile, operationIDs: [String])] {
        self.state.withLock { state in
            state.order.compactMap { state.profiles[$0] }.map { (Self.model($0), $0.operations.map(\.id)) }
        }
    }

    /// What the client sees for `request`: the scripted fault for its path, if any, applied around the
    /// request's processing.
    func receive(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        let path = request.url.path
        let fault = self.state.withLock { state -> WritesFault? in
            guard let index = state.rules.firstIndex(where: { $0.count != 0 && Self.matches($0.path, path) }) else {
                return nil
            }
            if state.rules[index].count > 0 { state.rules[index].count -= 1 }
            return state.rules[index].fault
        }
        switch fault {
        case nil:
            return .success(self.handle(request))
        case .status(let status, let retryAfter)?:
            let headers = retryAfter.map { ["Retry-After": String($0)] } ?? [:]
            return .success(.simJSON(status, #"{"success":false,"error":"injected_fault"}"#, headers: headers))
        case .successFalse?:
            return .success(.simJSON(200, #"{"success":false,"error":"busy"}"#))
        case .drop?:
            return .failure(TransportError(.connectionLost, "dropped (simulated)"))
        case .dropAfterProcessing?:
            _ = self.handle(request)
            return .failure(TransportError(.connectionLost, "processed, then dropped (simulated)"))
        case .delayBeyondTimeout?:
            _ = self.handle(request)
            return .failure(TransportError(.timeout, "processed after the timeout (simulated)"))
        }
    }

    // MARK: - Endpoints

    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        guard let body = SimServer.decodedBody(of: request).flatMap(JSONValue.parse)?.objectValue else {
            return .simJSON(400, #"{"success":false,"error":"invalid_json"}"#)
        }
        let route = request.url.path.hasPrefix("/api/") ? String(request.url.path.dropFirst(4)) : request.url.path
        return self.state.withLock { state -> HTTPResponse in
            switch route {
            case "/v1/attributes":
                return Self.attributes(body, key: request.header("Idempotency-Key") ?? "", in: &state)
            case "/v1/events":
                return Self.events(body, in: &state)
            case "/v1/identify", "/v1/alias", "/v1/subscriptions", "/v1/opt-out", "/v1/push/unregister":
                return Self.write(body, route: route, in: &state)
            default:
                return .simJSON(404, #"{"success":false,"error":"not_found"}"#)
            }
        }
    }

    private static func attributes(_ body: [String: JSONValue], key: String, in state: inout State) -> HTTPResponse {
        guard !key.isEmpty else {
            return .simJSON(400, #"{"success":false,"error":"missing_idempotency_key"}"#)
        }
        if let remembered = state.answers[key] {
            return remembered  // the sandbox adds "replayed": true, which the SDK does not read
        }
        let id = Self.resolve(body["userId"]?.stringValue, body["anonymousId"]?.stringValue, in: &state)
        var applied = 0
        var duplicates = 0
        for operation in body["operations"]?.arrayValue ?? [] {
            guard let opID = operation["id"]?.stringValue, let op = operation["op"]?.stringValue,
                let name = operation["key"]?.stringValue, let timestamp = operation["timestamp"]?.stringValue
            else { continue }
            guard state.appliedOperations.insert(opID).inserted else {
                duplicates += 1
                continue
            }
            let value = op == "set" ? operation["value"] : op == "increment" ? operation["by"] : nil
            Self.append(
                Operation(id: opID, op: op, key: name, value: value, timestamp: timestamp, arrival: 0),
                to: id,
                in: &state
            )
            applied += 1
        }
        let answer = HTTPResponse.simJSON(200, #"{"success":true,"applied":\#(applied),"duplicates":\#(duplicates)}"#)
        state.answers[key] = answer
        return answer
    }

    private static func events(_ body: [String: JSONValue], in state: inout State) -> HTTPResponse {
        var accepted = 0
        var duplicates = 0
        for event in body["batch"]?.arrayValue ?? [] {
            guard let messageID = event["messageId"]?.stringValue else { continue }
            guard state.seenMessageIDs.insert(messageID).inserted else {
                duplicates += 1
                continue
            }
            _ = Self.resolve(event["userId"]?.stringValue, event["anonymousId"]?.stringValue, in: &state)
            accepted += 1
        }
        return .simJSON(
            200,
            #"{"success":true,"accepted":\#(accepted),"duplicates":\#(duplicates),"rejectedIndices":[],"failedIndices":[]}"#
        )
    }

    /// A durable write: applied once per `writeId`; a refused change (404, 409) applies nothing.
    private static func write(_ body: [String: JSONValue], route: String, in state: inout State) -> HTTPResponse {
        guard let writeID = body["writeId"]?.stringValue, let timestamp = body["timestamp"]?.stringValue else {
            return .simJSON(400, #"{"success":false,"error":"invalid_body"}"#)
        }
        if state.appliedWrites.contains(writeID) {
            return .simJSON(200, #"{"success":true,"duplicate":true}"#)
        }
        let (userId, anonymousId) = (body["userId"]?.stringValue, body["anonymousId"]?.stringValue)
        switch route {
        case "/v1/identify":
            guard let userId else { return .simJSON(422, #"{"success":false,"error":"missing_user_id"}"#) }
            Self.identify(userId, anonymousId, in: &state)
        case "/v1/alias":
            guard let label = body["label"]?.stringValue, let name = body["name"]?.stringValue else {
                return .simJSON(422, #"{"success":false,"error":"invalid_label"}"#)
            }
            let target = Self.find(userId, anonymousId, in: state)
            if state.profiles.values.contains(where: { $0.id != target && $0.aliases[label] == name }) {
                return .simJSON(409, #"{"success":false,"error":"alias_conflict"}"#)
            }
            let id = Self.resolve(userId, anonymousId, in: &state)
            state.profiles[id]?.aliases[label] = name
        case "/v1/subscriptions":
            guard let id = Self.find(userId, anonymousId, in: state), let channel = body["channel"]?.stringValue else {
                return .simJSON(404, #"{"success":false,"error":"profile_not_found"}"#)
            }
            // A change replaces the stored one unless that one is newer.
            if let groupId = body["groupId"]?.stringValue, let action = body["action"]?.stringValue {
                let group = GroupKey(channel: channel, groupId: groupId)
                if (state.profiles[id]?.groups[group]).map({ timestamp >= $0.timestamp }) ?? true {
                    state.profiles[id]?.groups[group] = Change(value: action, timestamp: timestamp)
                }
            } else if let status = body["status"]?.stringValue {
                if (state.profiles[id]?.subscriptions[channel]).map({ timestamp >= $0.timestamp }) ?? true {
                    state.profiles[id]?.subscriptions[channel] = Change(value: status, timestamp: timestamp)
                }
            }
        case "/v1/opt-out":
            guard let optedOut = body["optedOut"]?.boolValue else {
                return .simJSON(400, #"{"success":false,"error":"invalid_body"}"#)
            }
            let id = Self.resolve(userId, anonymousId, in: &state)
            let operation = Operation(
                id: writeID,
                op: "set",
                key: "tracking_opted_out",
                value: .bool(optedOut),
                timestamp: timestamp,
                arrival: 0
            )
            Self.append(operation, to: id, in: &state)
        default:
            break  // push/unregister: nothing the simulation reads
        }
        state.appliedWrites.insert(writeID)
        return .simJSON(200, #"{"success":true}"#)
    }

    // MARK: - Profiles

    /// The profile the identity resolves to: a non-empty user id names the user's; otherwise the
    /// anonymous id names its own, or, once linked, the user's.
    private static func find(_ userId: String?, _ anonymousId: String?, in state: State) -> Int? {
        if let userId, !userId.isEmpty { return state.byUser[userId] }
        if let anonymousId, !anonymousId.isEmpty { return state.byAnonymousId[anonymousId] }
        return nil
    }

    /// ``find(_:_:in:)``, creating the profile when missing.
    private static func resolve(_ userId: String?, _ anonymousId: String?, in state: inout State) -> Int {
        if let id = Self.find(userId, anonymousId, in: state) { return id }
        let id = state.nextID
        state.nextID += 1
        if let userId, !userId.isEmpty {
            state.profiles[id] = Profile(id: id, userId: userId)
            state.byUser[userId] = id
        } else {
            let anonymousId = anonymousId ?? ""
            state.profiles[id] = Profile(id: id, userId: nil, anonymousIds: [anonymousId])
            state.byAnonymousId[anonymousId] = id
        }
        state.order.append(id)
        return id
    }

    private static func append(_ operation: Operation, to id: Int, in state: inout State) {
        state.arrival += 1
        var operation = operation
        operation.arrival = state.arrival
        state.profiles[id]?.operations.append(operation)
    }

    /// Creates the user's profile if needed; merges an anonymous profile linked to nobody into it and
    /// links its id. An id linked to another user stays where it is; one never seen is linked.
    private static func identify(_ userId: String, _ anonymousId: String?, in state: inout State) {
        let user = Self.resolve(userId, nil, in: &state)
        guard let anonymousId, !anonymousId.isEmpty else { return }
        guard let current = state.byAnonymousId[anonymousId] else {
            state.profiles[user]?.anonymousIds.append(anonymousId)
            state.byAnonymousId[anonymousId] = user
            return
        }
        guard current != user, let other = state.profiles[current], other.userId == nil else { return }
        state.profiles[user]?.absorb(other)
        for linked in other.anonymousIds { state.byAnonymousId[linked] = user }
        state.profiles[current] = nil
        state.order.removeAll { $0 == current }
    }

    /// The comparable form of a profile: attributes replayed in (timestamp, arrival) order.
    private static func model(_ profile: Profile) -> ModelProfile {
        var model = ModelProfile(userId: profile.userId)
        model.anonymousIds = Set(profile.anonymousIds)
        var attributes: [String: JSONValue] = [:]
        for operation in profile.operations.sorted(by: { ($0.timestamp, $0.arrival) < ($1.timestamp, $1.arrival) }) {
            switch operation.op {
            case "set": attributes[operation.key] = operation.value
            case "unset": attributes[operation.key] = nil
            default: attributes[operation.key] = Self.sum(attributes[operation.key], operation.value)
            }
        }
        model.attributes = attributes.mapValues(Self.modelValue)
        model.aliases = profile.aliases
        model.subscriptions = profile.subscriptions.mapValues(\.value)
        for (group, change) in profile.groups where change.value == "join" {
            model.groups[group.channel, default: []].append(group.groupId)
        }
        model.groups = model.groups.mapValues { $0.sorted() }
        return model
    }

    /// `current + by` as the sandbox computes it: a non-number counts as 0; int + int stays an int.
    private static func sum(_ current: JSONValue?, _ by: JSONValue?) -> JSONValue {
        switch (current, by) {
        case (.int(let a)?, .int(let b)?): .int(a + b)
        case (.int(let a)?, .double(let b)?): .double(Double(a) + b)
        case (.double(let a)?, .int(let b)?): .double(a + Double(b))
        case (.double(let a)?, .double(let b)?): .double(a + b)
        case (_, let by?): by
        case (_, nil): .int(0)
        }
    }

    private static func modelValue(_ value: JSONValue) -> ModelValue {
        switch value {
        case .int(let value): .int(Int(value))
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .bool(let value): .bool(value)
        default: .string("<unreadable \(value)>")
        }
    }

    private static func matches(_ pattern: String, _ path: String) -> Bool {
        pattern.hasSuffix("*") ? path.hasPrefix(String(pattern.dropLast())) : path == pattern
    }
}
