import Foundation
import Joryio
import JoryioCore
import JoryioFeature
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// Hostile and odd APNs payloads through every entry point of the SDK (issue 14, part 5): none
/// crashes, foreign ones are left untouched, every completion is called exactly once, and only
/// what the payload format allows is acted on (GAP-14).
@Suite struct PushPayloadTableTests {
    /// One payload and what the SDK must make of it.
    struct Case: CustomStringConvertible, Sendable {
        let name: String
        /// Makes the `userInfo` (it is not `Sendable`), as UIKit would hand it over.
        private let makeUserInfo: @Sendable () -> [AnyHashable: Any]
        /// Whether it is Joryio's (the top-level key `joryio`, PUSH-21).
        let ours: Bool
        let trackingId: String?
        let link: String?
        let sync: Bool

        init(
            name: String,
            userInfo: @escaping @autoclosure @Sendable () -> [AnyHashable: Any],
            ours: Bool,
            trackingId: String? = nil,
            link: String? = nil,
            sync: Bool = false
        ) {
            self.name = name
            self.makeUserInfo = userInfo
            self.ours = ours
            self.trackingId = trackingId
            self.link = link
            self.sync = sync
        }

        var userInfo: [AnyHashable: Any] { self.makeUserInfo() }
        var description: String { self.name }
    }

    /// The payload files of the push tests (also the fuzz seeds).
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JoryioPushTests/Payloads")

    static func fixture(_ name: String) -> [AnyHashable: Any] {
        let data = (try? Data(contentsOf: Self.fixtures.appendingPathComponent(name + ".json"))) ?? Data()
        return APNs.userInfo(String(decoding: data, as: UTF8.self))
    }

    static let huge = String(repeating: "a", count: 1 << 20)

    static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    static let cases: [Case] = [
        // The payload files.
        Case(
            name: "deep-link.json",
            userInfo: fixture("deep-link"),
            ours: true,
            trackingId: "trk_01HF8ZQ4V7",
            link: "myshop://promotion?id=42"
        ),
        Case(
            name: "universal-link.json",
            userInfo: fixture("universal-link"),
            ours: true,
            trackingId: "trk_ulink_7",
            link: "https://shop.example.com/orders/981?ref=push"
        ),
        Case(
            name: "silent-sync.json",
            userInfo: fixture("silent-sync"),
            ours: true,
            trackingId: "trk_sync_1",
            sync: true
        ),
        Case(name: "plain.json", userInfo: fixture("plain"), ours: true, trackingId: "trk_plain"),
        Case(name: "bad-sound.json", userInfo: fixture("bad-sound"), ours: true, trackingId: "trk_sound"),
        Case(name: "foreign.json", userInfo: fixture("foreign"), ours: false),
        Case(name: "hostile-file.json", userInfo: fixture("hostile-file"), ours: true, trackingId: "trk_file"),
        Case(
            name: "hostile-javascript.json",
            userInfo: fixture("hostile-javascript"),
            ours: true,
            trackingId: "trk_js"
        ),
        Case(name: "hostile-joryio-not-object.json", userInfo: fixture("hostile-joryio-not-object"), ours: true),
        Case(name: "hostile-missing.json", userInfo: fixture("hostile-missing"), ours: true),
        Case(name: "hostile-nested.json", userInfo: fixture("hostile-nested"), ours: true, trackingId: "trk_nested"),
        Case(name: "hostile-types.json", userInfo: fixture("hostile-types"), ours: true),
        Case(name: "huge.json", userInfo: fixture("huge"), ours: true, sync: true),
        Case(name: "hostile-data-url.json", userInfo: fixture("hostile-data-url"), ours: true, trackingId: "trk_data"),
        // Inline.
        Case(name: "empty userInfo", userInfo: [:], ours: false),
        Case(name: "top level is an array", userInfo: APNs.userInfo("[1,2,3]"), ours: false),
        Case(name: "joryio is null", userInfo: APNs.userInfo(#"{"aps":{"alert":"x"},"joryio":null}"#), ours: true),
        Case(name: "joryio is an array", userInfo: APNs.userInfo(#"{"joryio":["trk"]}"#), ours: true),
        Case(
            name: "joryio key in another case",
            userInfo: APNs.userInfo(#"{"Joryio":{"trackingId":"t"}}"#),
            ours: false
        ),
        Case(
            name: "joryio only nested",
            userInfo: APNs.userInfo(#"{"aps":{"joryio":{"trackingId":"t"}}}"#),
            ours: false
        ),
        Case(
            name: "1 MB tracking id and link",
            userInfo: APNs.userInfo(#"{"joryio":{"trackingId":"\#(huge)","url":"myshop://\#(huge)"}}"#),
            ours: true
        ),
        Case(
            name: "tracking id of 128 characters is kept, 129 is not",
            userInfo: APNs.userInfo(#"{"joryio":{"trackingId":"\#(String(repeating: "t", count: 128))"}}"#),
            ours: true,
            trackingId: String(repeating: "t", count: 128)
        ),
        Case(
            name: "tracking id of 129 characters",
            userInfo: APNs.userInfo(#"{"joryio":{"trackingId":"\#(String(repeating: "t", count: 129))"}}"#),
            ours: true
        ),
        Case(
            name: "control character in tracking id",
            userInfo: APNs.userInfo(#"{"joryio":{"trackingId":"a\u0007b"}}"#),
            ours: true
        ),
        Case(
            name: "deeply nested joryio value",
            userInfo: APNs.userInfo(#"{"joryio":{"x":\#(nested(300))}}"#),
            ours: true
        ),
        Case(
            name: "sync as a number",
            userInfo: APNs.userInfo(#"{"joryio":{"trackingId":"t1","sync":1}}"#),
            ours: true,
            trackingId: "t1"
        ),
        Case(
            name: "http link refused",
            userInfo: APNs.userInfo(#"{"joryio":{"url":"http://example.com"}}"#),
            ours: true
        ),
        Case(
            name: "https link without host",
            userInfo: APNs.userInfo(#"{"joryio":{"url":"https:///path"}}"#),
            ours: true
        ),
        Case(name: "link with a space", userInfo: APNs.userInfo(#"{"joryio":{"url":"myshop://a b"}}"#), ours: true),
        Case(
            name: "non-string keys and non-JSON values",
            userInfo: [
                1: "one", "aps": ["alert": "x"],
                "joryio": ["trackingId": "trk_odd", "when": Date(), "blob": Data([1])],
                "other": NSObject(),
            ],
            ours: true,
            trackingId: "trk_odd"
        ),
        Case(name: "non-JSON values, not ours", userInfo: [2: Date(), "x": NSObject()], ours: false),
    ]

    private func sdk(_ platform: FakePushPlatform) -> (TestSDK, PushRecorder) {
        let scheduler = ManualScheduler()
        let recorder = PushRecorder(origin: scheduler.now(), platform: platform)
        let catalog = FeatureCatalog.joryio(push: platform).adding { _ in [FeatureRegistration { _ in recorder }] }
        let sdk = TestSDK(transport: RecordingTransport(), scheduler: scheduler, features: catalog)
        sdk.start()
        return (sdk, recorder)
    }

    @Test(
        "every payload, in the foreground: ours get a presentation, a receipt only with a valid id; foreign ones are left alone",
        arguments: Self.cases
    )
    func willPresent(_ testCase: Case) {
        let platform = FakePushPlatform()
        let (sdk, recorder) = self.sdk(platform)
        let presentation = sdk.joryio.notificationWillPresent(PushPayload(userInfo: testCase.userInfo))
        sdk.scheduler.runUntilIdle()
        #expect((presentation != nil) == testCase.ours)
        var expected: [PushRecorder.Call] = testCase.trackingId.map { [.delivered($0, at: 0)] } ?? []
        if testCase.sync { expected.append(.sync) }
        #expect(recorder.calls == (testCase.ours ? expected : []))
        #expect(platform.actions.isEmpty)
    }

    @Test(
        "every payload, in the background: completed exactly once, .noData; foreign ones at once and untouched",
        arguments: Self.cases
    )
    func background(_ testCase: Case) {
        let platform = FakePushPlatform()
        let (sdk, recorder) = self.sdk(platform)
        let completions = Completions()
        sdk.joryio.didReceiveRemoteNotification(testCase.userInfo, completionHandler: completions.handler)
        if !testCase.ours { #expect(completions.all == [.noData]) }
        sdk.advance(to: 60)
        #expect(completions.all == [.noData])
        let receipts: [PushRecorder.Call] = testCase.trackingId.map { [.delivered($0, at: 0)] } ?? []
        #expect(recorder.calls == (testCase.ours ? receipts + (testCase.sync ? [.sync] : []) : []))
        #expect(platform.actions.isEmpty)
    }

    @Test(
        "every payload, tapped: foreign ones forwarded; ours click first, follow only allowed links, then sync",
        arguments: Self.cases
    )
    func tap(_ testCase: Case) throws {
        let platform = FakePushPlatform()
        let (sdk, recorder) = self.sdk(platform)
        let ours = sdk.joryio.notificationResponse(
            PushPayload(userInfo: testCase.userInfo),
            action: .open,
            appIsActive: true
        )
        sdk.scheduler.runUntilIdle()
        #expect(ours == testCase.ours)
        guard testCase.ours else {
            #expect(recorder.calls.isEmpty)
            #expect(platform.actions.isEmpty)
            return
        }
        let click: [PushRecorder.Call] = testCase.trackingId.map { [.clicked($0, platformCallsBefore: 0)] } ?? []
        #expect(recorder.calls == click + [.sync])
        let expectedCalls: [FakePushPlatform.Call] =
            switch testCase.link.flatMap(URL.init(string:)) {
            case let url? where url.scheme == "https": [.continueUserActivity(url)]
            case let url?: [.open(url)]
            case nil: []
            }
        #expect(platform.actions == expectedCalls)
        for call in platform.actions {
            if case .open(let url) = call {
                #expect(!PushLink.refusedSchemes.contains(url.scheme?.lowercased() ?? ""))
            }
        }
    }
}
