import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// The hostile-input table's `initialize()` rows (INIT-3, GAP-6): each bad key, host or
/// configuration is refused with one error line naming its reason, nothing is sent, the SDK key
/// never reaches the log; configuration values out of range are adjusted with a warning.
@Suite struct HostileInitializeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        var value: String
        var sdkKey = TestSDK.sdkKey
        var apiHost = TestSDK.apiHost
        var config = JoryioConfig()
        /// Refused: the error line's reason; `nil` for a started SDK with a `config:` warning.
        var refusal: String?
        /// The warning a started SDK logs.
        var warning: String?

        var testDescription: String { "initialize: \(self.value)" }
    }

    static let longKey = "jry_sdk_ios_" + String(repeating: "k", count: 300)

    static let rows: [Row] = [
        Row(value: "empty key", sdkKey: "", refusal: "the SDK key is empty"),
        Row(value: "key without prefix", sdkKey: "sk_live_abcdef", refusal: "does not start with jry_sdk_"),
        Row(value: "bare prefix", sdkKey: "jry_sdk_", refusal: "has nothing after jry_sdk_"),
        Row(value: "key with a newline", sdkKey: TestSDK.sdkKey + "\n", refusal: "a line break (U+000A)"),
        Row(value: "key with NUL", sdkKey: "jry_sdk_ios_a\0b", refusal: "a control character (U+0000)"),
        Row(value: "key with a zero-width space", sdkKey: "jry_sdk_\u{200B}ios_x", refusal: "invisible formatting"),
        Row(value: "key with a dash", sdkKey: "jry_sdk_ios-x", refusal: "'-' at position 12"),
        Row(value: "312-character key", sdkKey: Self.longKey, refusal: "more than any real key"),
        Row(value: "10 MB key", sdkKey: HostileTable.tenMegabytes, refusal: "more than any real key"),
        Row(value: "empty host", apiHost: "", refusal: "apiHost is empty"),
        Row(value: "host with a space", apiHost: "https://api.joryio.com /api", refusal: "a space"),
        Row(value: "host with a newline", apiHost: "https://api.joryio.com\n/api", refusal: "a line break"),
        Row(value: "host without scheme", apiHost: "api.joryio.com/api", refusal: "has no scheme"),
        Row(value: "ftp host", apiHost: "ftp://api.joryio.com", refusal: "uses the scheme ftp"),
        Row(value: "plain http", apiHost: "http://api.joryio.com", refusal: "uses plain http"),
        Row(value: "user info", apiHost: "https://me:secret@api.joryio.com", refusal: "contains user info"),
        Row(value: "query", apiHost: "https://api.joryio.com/api?x=1", refusal: "has a query"),
        Row(value: "fragment", apiHost: "https://api.joryio.com/api#x", refusal: "has a fragment"),
        Row(value: "port 0", apiHost: "https://api.joryio.com:0/api", refusal: "port 0"),
        Row(value: "no host name", apiHost: "https:///api", refusal: "has no host name"),
        Row(
            value: "NaN flush interval",
            config: JoryioConfig(flushInterval: .nan),
            warning: "flushInterval is not a finite number"
        ),
        Row(value: "batch size 0", config: JoryioConfig(batchSize: 0), warning: "batchSize 0 is out of range"),
        Row(
            value: "config token with a line break",
            config: JoryioConfig(sdkAuthenticationToken: HostileTable.goodToken + "\nX: 1"),
            warning: "sdkAuthenticationToken contains a line break"
        ),
    ]

    @Test(arguments: Self.rows)
    func row(_ row: Row) {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start(apiHost: row.apiHost, sdkKey: row.sdkKey, config: row.config)
        sdk.joryio.track("e")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        sdk.advance(to: 30)

        let complaints = sdk.messages(atLeast: .warning)
        if let refusal = row.refusal {
            #expect(transport.requests.isEmpty)
            #expect(complaints.count == 1, "\(complaints.map { $0.prefix(300) })")
            #expect(sdk.messages(at: .error).count == 1)
            #expect(
                complaints.first.map {
                    $0.hasPrefix("initialize: ") && $0.contains(refusal) && $0.hasSuffix("the SDK is not started")
                } == true,
                "\(complaints.map { $0.prefix(300) })"
            )
        } else {
            #expect(transport.requests.flatMap(\.eventNames) == ["e"])
            #expect(transport.requests.allSatisfy { $0.header("Authorization") == nil })
            #expect(complaints.count == 1, "\(complaints.map { $0.prefix(300) })")
            #expect(complaints.first.map { $0.contains("config: ") && $0.contains(row.warning ?? "?") } == true)
        }
        let everything = sdk.logs.records.map(\.message).joined(separator: "\n")
        #expect(everything.utf8.count < 10_000)
        if row.sdkKey.count > "jry_sdk_".count + 4 {
            #expect(!everything.contains(row.sdkKey), "the SDK key reached the log")
        }
        #expect(!everything.contains("secret"), "user info reached the log")
        #expect(!everything.contains(HostileTable.goodToken), "the token reached the log")
    }

    @Test("initialize called again with hostile arguments after a start is ignored with a warning")
    func repeated() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.start()
        sdk.joryio.initialize(sdkKey: "", apiHost: "", config: JoryioConfig())
        sdk.scheduler.runUntilIdle()
        #expect(sdk.messages(at: .warning) == ["initialize: already initialized; this call is ignored"])
    }
}
