import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// One hostile call to a public entry point and what must come of it (issue 12, "hostile-input
/// table"): no crash, exactly what is sent (``sent``), and, unless accepted as-is, one warning or
/// error line naming the call and the reason.
struct HostileRow: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        /// Sent as given; no warning.
        case accepted
        /// Sent without the named part; one log line with this reason.
        case partDropped(String)
        /// Nothing of it sent; one log line with this reason.
        case refused(String)
    }

    /// The call's name as the log line must give it.
    var call: String
    /// The hostile value, for the test's name.
    var value: String
    var outcome: Outcome
    /// A secret the call carries that no log line may contain.
    var secret: String?
    /// The call(s), on a started SDK.
    var act: @Sendable (Joryio) -> Void
    /// Whether the requests made are exactly what the row expects.
    var sent: @Sendable ([HTTPRequest]) -> Bool

    init(
        _ call: String,
        _ value: String,
        _ outcome: Outcome,
        secret: String? = nil,
        sent: @escaping @Sendable ([HTTPRequest]) -> Bool = \.isEmpty,
        _ act: @escaping @Sendable (Joryio) -> Void
    ) {
        self.call = call
        self.value = value
        self.outcome = outcome
        self.secret = secret
        self.act = act
        self.sent = sent
    }

    var testDescription: String { "\(self.call): \(self.value)" }
}

/// Checks on what reached the transport.
enum Sent {
    /// Exactly one event, named `name`, whose properties satisfy `properties`.
    static func event(
        _ name: String,
        _ properties: @escaping @Sendable ([String: JSONValue]) -> Bool = { _ in true }
    ) -> @Sendable ([HTTPRequest]) -> Bool {
        { requests in
            let events = requests.flatMap(\.events)
            guard events.count == 1, let event = events.first, event["event"]?.stringValue == name else { return false }
            return properties(event["properties"]?.objectValue ?? [:])
        }
    }

    /// The attribute operations sent, by key.
    static func operations(_ requests: [HTTPRequest]) -> [String: JSONValue] {
        let operations = requests.filter { $0.url.path.hasSuffix("/v1/attributes") }
            .flatMap { $0.json?["operations"]?.arrayValue ?? [] }
        return Dictionary(operations.map { ($0["key"]?.stringValue ?? "", $0) }) { _, last in last }
    }

    /// Exactly these attribute operations (by key), checked by `check`.
    static func attributes(
        _ keys: Set<String>,
        _ check: @escaping @Sendable ([String: JSONValue]) -> Bool = { _ in true }
    ) -> @Sendable ([HTTPRequest]) -> Bool {
        { requests in
            let byKey = Self.operations(requests)
            return Set(byKey.keys) == keys && check(byKey)
        }
    }

    /// Exactly one request, to `/v1/<path>`, whose body satisfies `body`.
    static func one(
        _ path: String,
        _ body: @escaping @Sendable (JSONValue) -> Bool = { _ in true }
    ) -> @Sendable ([HTTPRequest]) -> Bool {
        { requests in
            requests.count == 1 && requests[0].url.path.hasSuffix("/v1/" + path) && body(requests[0].json ?? .null)
        }
    }

    /// One event request whose `Authorization` header is `expected` (`nil`: no header).
    static func authorization(_ expected: String?) -> @Sendable ([HTTPRequest]) -> Bool {
        { requests in
            requests.count == 1 && requests[0].header("Authorization") == expected && requests[0].events.count == 1
        }
    }
}

/// The hostile-input table over every public entry point (issue 12): events (EVT-3, EVT-4,
/// EVT-5), identify (IDENT-2), attributes (ATTR-5, ATTR-6, GAP-31), aliases (IDENT-13, GAP-24),
/// subscriptions (SUB-10), SDK-auth tokens (AUTH-3, GAP-5) and consent calls. `initialize()`'s
/// refusals are in ``HostileInitializeTests``.
@Suite struct HostileInputTests {
    @Test(arguments: HostileTable.rows)
    func row(_ row: HostileRow) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        row.act(sdk.joryio)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 5)

        let requests = transport.requests
        let complaints = sdk.messages(atLeast: .warning)
        #expect(
            row.sent(requests),
            "sent: \(requests.map { "\($0.url.path) \($0.json.map(String.init(describing:)) ?? "")".prefix(600) })"
        )
        switch row.outcome {
        case .accepted:
            #expect(complaints.isEmpty, "\(complaints)")
        case .partDropped(let reason), .refused(let reason):
            #expect(complaints.count == 1, "\(complaints.map { $0.prefix(300) })")
            #expect(
                complaints.first.map { $0.contains(row.call) && $0.contains(reason) } == true,
                "expected \(row.call) and \"\(reason)\" in \(complaints.map { $0.prefix(300) })"
            )
            // A refusal's log line is one readable line, whatever the input held.
            #expect(complaints.allSatisfy { $0.utf8.count < 2_000 && !$0.contains("\n") && !$0.contains("\0") })
        }
        let everything = sdk.logs.records.map(\.message).joined(separator: "\n")
        #expect(!everything.contains(TestSDK.sdkKey), "the SDK key reached the log")
        if let secret = row.secret {
            #expect(!everything.contains(secret), "a secret reached the log")
        }
    }
}
