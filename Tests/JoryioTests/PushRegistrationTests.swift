import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTesting
import Testing

/// Push token registration through the SDK on virtual time (issue 14): the token machine carried
/// out by `PushFeature`, its requests on the wire, the answers `registerPushToken` gives, and what
/// survives a relaunch.
@Suite struct PushRegistrationTests {
    static let token = String(repeating: "ab", count: 32)
    static let otherToken = String(repeating: "cd", count: 32)
    static let tokenBytes = Data(repeating: 0xab, count: 32)

    /// Push requests (`/v1/push/…`) the transport saw, as `(endpoint, body)`.
    static func pushRequests(_ requests: [HTTPRequest]) -> [(path: String, body: JSONValue)] {
        requests.compactMap { request in
            guard let range = request.url.path.range(of: "/v1/push/") else { return nil }
            return (String(request.url.path[range.upperBound...]), request.json ?? .null)
        }
    }

    /// `"register <token-prefix>"` / `"unregister <token-prefix>"` lines, in order.
    static func summary(_ requests: [HTTPRequest]) -> [String] {
        self.pushRequests(requests).map { "\($0.path) \($0.body["token"]?.stringValue?.prefix(4) ?? "-")" }
    }

    private func sdk(
        _ transport: any Transport,
        platform: FakePushPlatform = FakePushPlatform(authorization: .authorized),
        storage: JoryioConfig.Storage = .inMemory,
        firstId: UInt64 = 1
    ) -> TestSDK {
        TestSDK(
            transport: transport,
            storage: storage,
            identifiers: SequentialIdentifierGenerator(first: firstId),
            features: .joryio(push: platform, environment: .sandbox, bundleId: "com.example.app")
        )
    }

    /// A fresh directory for SQLite storage (the caller removes it).
    static func temporaryDirectory() throws -> (url: URL, Void) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return (url, ())
    }

    /// Collects `registerPushToken` answers.
    final class Answers: Sendable {
        private let results = Locked<[PushRegistrationResult]>([])
        var all: [PushRegistrationResult] { self.results.value }
        var record: @Sendable (PushRegistrationResult) -> Void {
            { [results] result in results.withLock { $0.append(result) } }
        }
    }

    @Test("PUSH-7 / GAP-15: the iOS token is stored, read back and registered with the documented body")
    func registersTheIOSToken() throws {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        sdk.start(config: JoryioConfig(userId: "u1"))
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.scheduler.runUntilIdle()

        #expect(sdk.joryio.getDeviceToken() == Self.token)
        let pushes = Self.pushRequests(transport.requests)
        try #require(pushes.count == 1)
        let body = pushes[0].body
        #expect(pushes[0].path == "register")
        #expect(body["token"]?.stringValue == Self.token)
        #expect(body["environment"]?.stringValue == "sandbox")
        #expect(body["bundleId"]?.stringValue == "com.example.app")
        #expect(body["permission"]?.stringValue == "granted")
        #expect(body["userId"]?.stringValue == "u1")
        #expect(body["anonymousId"]?.stringValue?.isEmpty == false)
        #expect(body["writeId"]?.stringValue?.isEmpty == false)
        #expect(body["timestamp"]?.stringValue != nil && body["sentAt"]?.stringValue != nil)
    }

    @Test("PUSH-8: a token that arrives before initialize() is kept and registered at start")
    func tokenBeforeInitialize() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        #expect(sdk.joryio.getDeviceToken() == nil, "INIT-7: nothing to read before initialize()")
        sdk.start()
        #expect(Self.summary(transport.requests) == ["register abab"])
        #expect(sdk.joryio.getDeviceToken() == Self.token)
    }

    @Test("PUSH-12: onResult is called exactly once, with success only when the server confirmed")
    func answeredOnce() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.advance(to: 600)
        #expect(answers.all == [.succeeded])
        #expect(Self.summary(transport.requests) == ["register abab"])
    }

    @Test("PUSH-12: a 200 with success: false is a retryable failure; the retry keeps its writeId and succeeds later")
    func successFalseIsAFailure() throws {
        let transport = RespondingTransport { _ in .success(.json(200, #"{"success":false}"#)) }
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.scheduler.runUntilIdle()
        try #require(answers.all.count == 1)
        #expect(answers.all[0].success == false)
        #expect(answers.all[0].isRetryable)
        #expect(answers.all[0].isUnauthorized == false)
        #expect(answers.all[0].message?.contains("push register") == true)

        transport.answer { _ in .success(.ok) }
        sdk.advance(to: 600)
        let registers = Self.pushRequests(transport.requests)
        #expect(registers.count == 2, "one retry after the backoff, then confirmed")
        #expect(Set(registers.map { $0.body["writeId"] }).count == 1, "a retry is the same write")
        #expect(answers.all.count == 1, "exactly once")
    }

    @Test("DURABLE-6: a 422 is refused for good: answered, logged, not retried until something changes")
    func refusedForGood() {
        let transport = RespondingTransport { _ in .success(.json(422, #"{"success":false,"error":"invalid_token"}"#)) }
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.advance(to: 3600)
        #expect(answers.all.map(\.success) == [false])
        #expect(answers.all.first?.isRetryable == false)
        #expect(Self.summary(transport.requests) == ["register abab"])
        #expect(sdk.messages(at: .error).contains { $0.contains("push token registration refused by the server") })
    }

    @Test("DURABLE-8: success: false answers are retried at most 10 times, then the registration is dropped")
    func countedRetriesAreBounded() {
        let transport = RespondingTransport { _ in .success(.json(200, #"{"success":false}"#)) }
        let sdk = self.sdk(transport)
        sdk.start(config: JoryioConfig(maxRetries: 100))
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.advance(to: 24 * 3600)
        #expect(Self.pushRequests(transport.requests).count == 11)
        #expect(sdk.messages(at: .error).contains { $0.contains("dropped after 11 failed attempts") })
    }

    @Test("GAP-60: a server's Retry-After holds the retry, an explicit call's (registerPushToken without onResult) too")
    func retryAfterIsHonoured() {
        let transport = RespondingTransport { _ in
            .success(.json(503, #"{"success":false}"#, headers: ["Retry-After": "120"]))
        }
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.scheduler.runUntilIdle()
        transport.answer { _ in .success(.ok) }
        sdk.joryio.registerPushToken(Self.token)
        sdk.advance(to: 119)
        #expect(Self.pushRequests(transport.requests).count == 1, "nothing before Retry-After")
        sdk.advance(to: 121)
        #expect(Self.pushRequests(transport.requests).count == 2)
    }

    @Test(
        "AUTH-9: a current user's registration refused with 401 is answered isUnauthorized, and a new token sends it again at once"
    )
    func unauthorizedThenNewToken() throws {
        let unauthorized = Locked(true)
        let transport = RespondingTransport { [unauthorized] request in
            guard request.url.path.contains("/v1/push/"), unauthorized.value else { return .success(.ok) }
            return .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
        }
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start(config: JoryioConfig(enableSdkAuthentication: true))
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.scheduler.runUntilIdle()
        try #require(answers.all.count == 1)
        #expect(answers.all[0].success == false)
        #expect(answers.all[0].isUnauthorized)
        #expect(answers.all[0].isRetryable)

        unauthorized.withLock { $0 = false }
        let fresh = testJWT(sub: "alice", tag: "fresh")
        sdk.joryio.setSdkAuthenticationToken(fresh)
        sdk.scheduler.runUntilIdle()
        let registers = transport.requests.filter { $0.url.path.hasSuffix("/v1/push/register") }
        #expect(registers.count == 2, "sent again with the new token, without waiting for the backoff")
        #expect(registers.last?.header("Authorization") == "Bearer " + fresh)
        #expect(registers.first?.json?["writeId"] == registers.last?.json?["writeId"])
    }

    @Test("DURABLE-15: a departed user's registration refused with 401 is dropped; the current user's goes")
    func departedUsersRegistrationDropped() {
        let transport = RespondingTransport { request in
            guard request.url.path.contains("/v1/push/") else { return .success(.ok) }
            return request.json?["userId"]?.stringValue == "alice"
                ? .success(.json(401, #"{"success":false,"error":"unauthorized","reason":"expired"}"#))
                : .success(.ok)
        }
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start(config: JoryioConfig(enableSdkAuthentication: true))
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "alice"))
        sdk.joryio.identify("alice")
        sdk.scheduler.runUntilIdle()
        // Alice's registration is on the wire when the app switches to bob.
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.joryio.identify("bob")
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "bob"))
        sdk.advance(to: 600)
        let users = transport.requests.filter { $0.url.path.hasSuffix("/v1/push/register") }
            .compactMap { $0.json?["userId"]?.stringValue }
        #expect(users == ["alice", "bob"], "alice's is not retried; bob's goes")
        #expect(sdk.messages(at: .error).contains { $0.contains("no longer current dropped") })
        #expect(answers.all.count == 1)
    }

    @Test("PUSH-10: a malformed token is answered at once, before initialize() too, with the reason logged")
    func malformedTokens() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.joryio.registerPushToken("fcm:APA91bHun4MxP5egoKMwt2KZFBaFUH", onResult: answers.record)
        #expect(answers.all.map(\.success) == [false], "answered before initialize()")
        #expect(answers.all.first?.message?.contains("Firebase") == true)
        sdk.start()
        sdk.joryio.registerPushToken(String(repeating: "é", count: 10_000), onResult: answers.record)
        sdk.joryio.registerPushToken("", onResult: answers.record)
        sdk.scheduler.runUntilIdle()
        #expect(answers.all.count == 3)
        #expect(answers.all.allSatisfy { !$0.success && !$0.isRetryable })
        #expect(Self.pushRequests(transport.requests).isEmpty)
        #expect(sdk.messages(at: .warning).filter { $0.hasPrefix("registerPushToken:") }.count == 3)
        #expect(sdk.joryio.getDeviceToken() == nil)
    }

    @Test("PUSH-7: device tokens iOS never gives (empty, 1 MB, 31 bytes) are logged and ignored; the stored one stays")
    func hostileDeviceTokens() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        for data in [Data(), Data(repeating: 0xff, count: 1 << 20), Data(repeating: 1, count: 31)] {
            sdk.joryio.didRegisterForRemoteNotifications(deviceToken: data)
        }
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getDeviceToken() == Self.token)
        #expect(Self.summary(transport.requests) == ["register abab"])
        let errors = sdk.messages(at: .error).filter { $0.hasPrefix("didRegisterForRemoteNotifications:") }
        #expect(errors.count == 3)
        #expect(errors.allSatisfy { $0.count < 300 }, "a reason, never the token")
    }

    @Test("PUSH-14 / INIT-13: a refused SDK key answers registerPushToken at once, also for calls made before")
    func refusedInitializeAnswers() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        #expect(answers.all.isEmpty, "waits for initialize()")
        sdk.start(sdkKey: "not a key")
        #expect(answers.all.map(\.success) == [false])
        sdk.joryio.registerPushToken(Self.otherToken, onResult: answers.record)
        #expect(answers.all.map(\.success) == [false, false], "answered at once while refused")
        #expect(answers.all.allSatisfy { $0.message?.contains("refused the SDK key") == true })

        // A correct initialize() later still registers the kept token; nobody is answered twice.
        sdk.start()
        sdk.advance(to: 60)
        #expect(answers.all.count == 2)
        #expect(Self.summary(transport.requests).last == "register cdcd")
    }

    @Test(
        "PUSH-6 / CONSENT-16: registered only while opted in with consent granted; kept and registered when that changes"
    )
    func privacyGatesRegistration() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        let answers = Answers()
        sdk.start(config: JoryioConfig(trackingConsent: .pending))
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        sdk.advance(to: 60)
        #expect(Self.pushRequests(transport.requests).isEmpty, "consent pending")
        #expect(answers.all.map(\.success) == [false])
        #expect(answers.all.first?.message?.contains("suspended") == true)
        #expect(sdk.joryio.getDeviceToken() == Self.token, "kept on the device")

        sdk.joryio.updateConsent(.granted)
        sdk.advance(to: 120)
        #expect(Self.summary(transport.requests) == ["register abab"])

        sdk.joryio.optOut()
        sdk.joryio.registerPushToken(Self.otherToken)
        sdk.advance(to: 180)
        // GAP-38: opting out does not unregister; the replaced token's unregister is a withdrawal.
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab"])

        sdk.joryio.optIn()
        sdk.advance(to: 240)
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab", "register cdcd"])
    }

    @Test(
        "PUSH-15 / DURABLE-13: unregisterPush() is sent while opted out, unregisters with iOS, and is remembered across launches"
    )
    func unregisterIsRemembered() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        let platform = FakePushPlatform(authorization: .authorized)
        let first = self.sdk(transport, platform: platform, storage: .sqlite(directory: directory.url))
        first.start()
        first.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        first.scheduler.runUntilIdle()
        first.joryio.optOut()
        first.joryio.unregisterPush()
        first.scheduler.runUntilIdle()
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab"])
        #expect(platform.calls.contains(.unregisterForRemoteNotifications))
        #expect(first.joryio.getDeviceToken() == Self.token, "kept on the device")
        first.joryio.optIn()
        first.scheduler.runUntilIdle()
        first.joryio.relinquishStorage()

        // The next launch: iOS hands the token again; it is kept, not registered (PUSH-15).
        let platform2 = FakePushPlatform(authorization: .authorized)
        let second = self.sdk(
            transport,
            platform: platform2,
            storage: .sqlite(directory: directory.url),
            firstId: 1000
        )
        second.start()
        second.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        second.advance(to: 600)
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab"])
        #expect(!platform2.calls.contains(.registerForRemoteNotifications), "push stays off: iOS is not asked")
        #expect(
            second.messages(atLeast: LogLevel.info).contains { $0.contains("kept on the device but not registered") }
        )

        // requestPushPermission() cancels it (PUSH-3, PUSH-13).
        #expect(await second.joryio.requestPushPermission())
        second.scheduler.runUntilIdle()
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab", "register abab"])
    }

    @Test("PUSH-16: an unregister the server has not confirmed survives a relaunch and goes first")
    func pendingUnregisterSurvives() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        let first = self.sdk(transport, storage: .sqlite(directory: directory.url))
        first.start()
        first.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        first.scheduler.runUntilIdle()
        transport.answer { _ in .failure(TransportError(.cannotConnect, "offline")) }
        first.joryio.unregisterPush()
        first.scheduler.runUntilIdle()
        first.joryio.relinquishStorage()

        transport.answer { _ in .success(.ok) }
        let second = self.sdk(transport, storage: .sqlite(directory: directory.url), firstId: 1000)
        second.start()
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab", "unregister abab"])
        second.advance(to: 3600)
        #expect(Self.pushRequests(transport.requests).count == 3, "confirmed: not sent again")
    }

    @Test("DURABLE-14: an unconfirmed unregister carries the token, so it is kept in the secure store, nowhere else")
    func pendingUnregisterLivesInTheSecureStore() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        let sdk = self.sdk(transport, storage: .sqlite(directory: directory.url))
        sdk.start()
        transport.answer { _ in .failure(TransportError(.cannotConnect, "offline")) }
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.unregisterPush()
        sdk.scheduler.runUntilIdle()
        sdk.joryio.relinquishStorage()

        let token = String(repeating: "ab", count: 32)
        let secure = directory.url.appendingPathComponent("secure")
        let state = try Data(contentsOf: secure.appendingPathComponent(PushFeature.storedStateKey))
        #expect(JSONValue.parse(state)?["pendingUnregisters"] == [.string(token)])
        // Never registered: the token is nowhere on disk outside the secure store (not in SQLite).
        let files = try #require(FileManager.default.enumerator(at: directory.url, includingPropertiesForKeys: nil))
        for case let url as URL in files where !url.path.hasPrefix(secure.path) && !url.hasDirectoryPath {
            let data = try Data(contentsOf: url)
            #expect(data.range(of: Data(token.utf8)) == nil, "\(url.lastPathComponent)")
        }
    }

    @Test("PUSH-18: identify re-registers under the user, reset() under the new anonymous id")
    func followsTheIdentity() throws {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.identify("u7")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.identify("u7")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.reset()
        sdk.scheduler.runUntilIdle()
        let registers = Self.pushRequests(transport.requests).filter { $0.path == "register" }
        try #require(registers.count == 3, "the same user again sends nothing")
        #expect(registers[0].body["userId"] == nil)
        #expect(registers[1].body["userId"]?.stringValue == "u7")
        #expect(registers[1].body["anonymousId"] == registers[0].body["anonymousId"])
        #expect(registers[2].body["userId"] == nil)
        #expect(registers[2].body["anonymousId"] != registers[0].body["anonymousId"])
    }

    @Test(
        "PUSH-32 / WIPE-5: wipeData() unregisters, deletes the token and leaves push off; the unregister survives the wipe"
    )
    func wipeUnregisters() {
        let transport = RespondingTransport()
        let sdk = self.sdk(transport)
        sdk.start()
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.scheduler.runUntilIdle()
        transport.answer { _ in .failure(TransportError(.cannotConnect, "offline")) }
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        #expect(sdk.joryio.getDeviceToken() == nil)
        transport.answer { _ in .success(.ok) }
        sdk.advance(to: 600)
        #expect(Self.summary(transport.requests) == ["register abab", "unregister abab", "unregister abab"])

        // A later token from iOS is kept but not registered until an explicit call (WIPE-5).
        sdk.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        sdk.advance(to: 1200)
        #expect(Self.pushRequests(transport.requests).count == 3)
        sdk.joryio.registerPushToken(Self.token)
        sdk.scheduler.runUntilIdle()
        #expect(Self.summary(transport.requests).last == "register abab")
    }

    @Test("WIPE-6: a second wipeData() keeps the first one's unconfirmed unregister, across a relaunch")
    func secondWipeKeepsTheWithdrawal() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory.url) }
        let transport = RespondingTransport()
        let first = self.sdk(transport, storage: .sqlite(directory: directory.url))
        first.start()
        first.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        first.scheduler.runUntilIdle()
        transport.answer { _ in .failure(TransportError(.cannotConnect, "offline")) }
        first.joryio.wipeData()
        first.scheduler.runUntilIdle()
        first.joryio.wipeData()
        first.scheduler.runUntilIdle()
        first.joryio.relinquishStorage()

        transport.answer { _ in .success(.ok) }
        let before = transport.requests.count
        let second = self.sdk(transport, storage: .sqlite(directory: directory.url), firstId: 1000)
        second.start()
        #expect(Self.summary(Array(transport.requests.dropFirst(before))) == ["unregister abab"])
        #expect(second.joryio.getDeviceToken() == nil)
    }

    @Test("PROV-5 / PROV-8 / PROV-9: with provisional authorization the first request is quiet; the next one prompts")
    func provisionalThenProminent() async {
        let platform = FakePushPlatform(authorization: .notDetermined)
        let sdk = self.sdk(RespondingTransport(), platform: platform)
        sdk.start(config: JoryioConfig(requestProvisionalAuthorization: true))
        #expect(await sdk.joryio.requestPushPermission())
        #expect(await sdk.joryio.getPushPermissionStatus() == "granted", "PROV-7: provisional counts as granted")
        #expect(await sdk.joryio.requestPushPermission())
        let requests = platform.calls.filter {
            if case .requestAuthorization = $0 { true } else { false }
        }
        #expect(requests == [.requestAuthorization(provisional: true), .requestAuthorization(provisional: false)])
    }

    @Test("PROV-5 / PROV-6: configured before the launch request, provisional authorization replaces its prompt")
    func provisionalAtLaunch() async {
        let platform = FakePushPlatform(authorization: .notDetermined)
        let sdk = self.sdk(RespondingTransport(), platform: platform)
        sdk.start(config: JoryioConfig(requestPushPermissionAtLaunch: true, requestProvisionalAuthorization: true))
        let push = sdk.joryio.feature(PushFeature.self)
        #expect(await push?.permissionRequestAtLaunch?.value == true)
        let requests = platform.calls.filter {
            if case .requestAuthorization = $0 { true } else { false }
        }
        #expect(requests == [.requestAuthorization(provisional: true)], "quiet: no prompt at launch")
        #expect(await sdk.joryio.getPushPermissionStatus() == "granted")
    }

    @Test("PUSH-1 / GAP-58: the prompt is shown at launch only with requestPushPermissionAtLaunch")
    func promptAtLaunch() async {
        let quiet = FakePushPlatform(authorization: .notDetermined)
        let sdk = self.sdk(RespondingTransport(), platform: quiet)
        sdk.start()
        #expect(!quiet.calls.contains(.requestAuthorization(provisional: false)))

        let asking = FakePushPlatform(authorization: .notDetermined)
        let other = self.sdk(RespondingTransport(), platform: asking)
        other.start(config: JoryioConfig(requestPushPermissionAtLaunch: true))
        let push = other.joryio.feature(PushFeature.self)
        #expect(await push?.permissionRequestAtLaunch?.value == true)
        #expect(asking.calls.contains(.requestAuthorization(provisional: false)))
    }

    @Test("requestPushPermission() before initialize() asks nothing and says so")
    func permissionBeforeInitialize() async {
        let platform = FakePushPlatform(authorization: .notDetermined)
        let sdk = self.sdk(RespondingTransport(), platform: platform)
        #expect(await sdk.joryio.requestPushPermission() == false)
        sdk.start()
        #expect(platform.calls.allSatisfy { $0 != .requestAuthorization(provisional: false) })
        #expect(sdk.messages(at: .warning).contains { $0.contains("requestPushPermission() before initialize()") })
    }

    @Test("PUSH-9: a registration failure from iOS is logged")
    func iosFailureIsLogged() {
        struct Failure: Error, CustomStringConvertible { var description: String { "no aps-environment entitlement" } }
        let sdk = self.sdk(RespondingTransport())
        sdk.start()
        sdk.joryio.didFailToRegisterForRemoteNotifications(error: Failure())
        sdk.scheduler.runUntilIdle()
        #expect(sdk.messages(at: .warning).contains { $0.contains("no aps-environment entitlement") })
    }

    @Test("GAP-15: the APNs environment from the provisioning profile")
    func environmentFromProfile() {
        func profile(_ value: String) -> Data {
            Data("junk<plist><dict><key>aps-environment</key>\n\t<string>\(value)</string></dict>".utf8)
        }
        #expect(APNsEnvironment.fromProvisioningProfile(nil) == .production)
        #expect(APNsEnvironment.fromProvisioningProfile(profile("development")) == .sandbox)
        #expect(APNsEnvironment.fromProvisioningProfile(profile("production")) == .production)
        #expect(APNsEnvironment.fromProvisioningProfile(Data("<key>other</key>".utf8)) == .production)
        #expect(APNsEnvironment.fromProvisioningProfile(Data([0xff, 0xfe, 0x00])) == .production)
    }
}
