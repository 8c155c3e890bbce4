import Foundation
import Joryio
import JoryioCore
import JoryioKit
import JoryioPush
import JoryioTestLanes
import JoryioTesting
import Testing

/// Push token registration against the sandbox over libcurl (issue 14): what the server holds for
/// each person after register, identify, unregister, relaunch, faults and privacy changes
/// (protocol.md 5.9, 5.10).
@Suite("Push registration against the sandbox", .tags(.sandbox))
struct SandboxPushTests {
    static let token = String(repeating: "9f", count: 32)
    static let tokenBytes = Data(repeating: 0x9f, count: 32)
    static let features = FeatureCatalog.joryio(
        push: FakePushPlatform(authorization: .authorized),
        environment: .sandbox,
        bundleId: "com.example.app"
    )

    /// The tokens a profile holds, as the sandbox reports them.
    static func tokens(_ profile: [String: Any]?) -> [String] {
        ((profile?["pushTokens"] as? [[String: Any]]) ?? []).compactMap { $0["token"] as? String }
    }

    /// Collects `registerPushToken` answers.
    final class Answers: Sendable {
        private let results = Locked<[PushRegistrationResult]>([])
        var all: [PushRegistrationResult] { self.results.value }
        var record: @Sendable (PushRegistrationResult) -> Void {
            { [results] result in results.withLock { $0.append(result) } }
        }
    }

    @Test("PUSH-12 / PUSH-18: registered with its details, answered once, moved to the user on identify")
    func registerAndIdentify() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch(features: Self.features)
        let answers = Answers()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        #expect(await rig.drive(sdk) { answers.all.count == 1 })
        #expect(answers.all == [.succeeded])
        let anonymousId = sdk.joryio.getAnonymousId()
        let anonymous = try await rig.sandbox.profile(anonymousId: anonymousId)
        let registration = try #require((anonymous?["pushTokens"] as? [[String: Any]])?.first)
        #expect(registration["token"] as? String == Self.token)
        #expect(registration["environment"] as? String == "sandbox")
        #expect(registration["bundleId"] as? String == "com.example.app")

        sdk.joryio.identify("push-user")
        await rig.settle(sdk)
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "push-user")) == [Self.token])
        #expect(answers.all.count == 1, "exactly once")
    }

    @Test("PUSH-15: unregisterPush() reaches the server while opted out and survives a relaunch")
    func unregisterSurvivesRelaunch() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let first = rig.launch(JoryioConfig(userId: "u-push"), features: Self.features)
        first.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        await rig.settle(first)
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "u-push")) == [Self.token])

        first.joryio.optOut()
        first.joryio.unregisterPush()
        await rig.settle(first)
        #expect(try await rig.sandbox.pushUnregistered() == [Self.token])
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "u-push")).isEmpty)
        first.joryio.optIn()
        await rig.settle(first)
        first.crash()

        let second = rig.launch(JoryioConfig(userId: "u-push"), features: Self.features)
        second.joryio.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        await rig.settle(second)
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "u-push")).isEmpty, "kept, not registered")
        #expect(second.joryio.getDeviceToken() == Self.token)

        second.joryio.registerPushToken(Self.token)
        await rig.settle(second)
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "u-push")) == [Self.token])
    }

    @Test("PUSH-12: success: false is answered as a retryable failure; the SDK retries by itself")
    func successFalseThenRecovery() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(path: "/api/v1/push/register", status: 200, body: ["success": false])
        try await rig.sandbox.addFault(path: "/api/v1/push/register", status: 503)
        let sdk = rig.launch(features: Self.features)
        let answers = Answers()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        #expect(await rig.drive(sdk) { answers.all.count == 1 })
        #expect(answers.all.first?.success == false)
        #expect(answers.all.first?.isRetryable == true)
        #expect(
            try await rig.drive(sdk) {
                Self.tokens(try await rig.sandbox.profile(anonymousId: sdk.joryio.getAnonymousId())) == [Self.token]
            }
        )
        let registers = try await rig.sandbox.requests(path: "/api/v1/push/register")
        #expect(registers.count == 3)
        let writeIds = Set(registers.compactMap { ($0.body as? [String: Any])?["writeId"] as? String })
        #expect(writeIds.count == 1, "every retry is the same write")
        #expect(answers.all.count == 1)
    }

    @Test("DURABLE-6: a token the server refuses (422) is answered, logged and not retried")
    func refusedToken() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        try await rig.sandbox.addFault(
            path: "/api/v1/push/register",
            status: 422,
            body: ["success": false, "error": "invalid_token"]
        )
        let sdk = rig.launch(features: Self.features)
        let answers = Answers()
        sdk.joryio.registerPushToken(Self.token, onResult: answers.record)
        #expect(await rig.drive(sdk) { answers.all.count == 1 })
        await rig.settle(sdk)
        #expect(answers.all.first?.success == false)
        #expect(answers.all.first?.isRetryable == false)
        #expect(try await rig.sandbox.requests(path: "/api/v1/push/register").count == 1)
        #expect(sdk.messages(atLeast: .error).contains { $0.contains("refused by the server") })
    }

    @Test("PUSH-6 / CONSENT-16: nothing is registered while consent is denied; registered once granted")
    func consentGatesRegistration() async throws {
        let rig = try await SandboxRig()
        defer { rig.tearDown() }
        let sdk = rig.launch(JoryioConfig(userId: "u-consent", trackingConsent: .denied), features: Self.features) {
            $0.didRegisterForRemoteNotifications(deviceToken: Self.tokenBytes)
        }
        await rig.settle(sdk)
        #expect(try await rig.sandbox.requests(path: "/api/v1/push/register").isEmpty)
        sdk.joryio.updateConsent(.granted)
        await rig.settle(sdk)
        #expect(Self.tokens(try await rig.sandbox.profile(userId: "u-consent")) == [Self.token])
    }
}
