import Foundation
import Joryio
import JoryioCore
import JoryioInApp
import JoryioKit
import JoryioPush
import JoryioStorage
import JoryioTesting
import Testing

/// `evaluateInAppCampaigns()` returns once the evaluation ran (issue 26, bug 4; INAPP-16).
///
/// The tests run on the main actor, and so does the runner that drives the engine's scheduler:
/// the facade's call runs on the caller's actor (`NonisolatedNonsendingByDefault`), so the engine
/// can run only while the call is suspended. A call that returns without waiting (the old one)
/// returns before the engine ran anything, and its message is not decided yet.
@Suite struct InAppEvaluateTests {
    private func sdk(_ platform: FakeInAppPlatform) -> TestSDK {
        let sdk = TestSDK(
            transport: InAppFeatureTests.transport(),
            features: .joryio(push: NoPushPlatform(), inApp: platform)
        )
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        return sdk
    }

    /// Runs the scheduler on the main actor whenever the test is suspended.
    @MainActor
    private func runner(_ sdk: TestSDK) -> Task<Void, Never> {
        Task { @MainActor in
            while !Task.isCancelled {
                sdk.scheduler.runUntilIdle()
                await Task.yield()
            }
        }
    }

    @Test("INAPP-16 / issue 26: when evaluateInAppCampaigns() returns, the message it makes eligible is presented")
    @MainActor
    func decidedOnReturn() async {
        let platform = FakeInAppPlatform()
        let sdk = self.sdk(platform)
        sdk.start(config: JoryioConfig(enableDebug: true))
        #expect(platform.calls.isEmpty, "synced; nothing triggered yet")
        let runner = self.runner(sdk)
        await sdk.joryio.evaluateInAppCampaigns()
        let decided = platform.calls
        let offered = sdk.joryio.feature(InAppFeature.self)?.offered
        runner.cancel()
        #expect(decided == ["present sale"], "one at a time (INAPP-48): vip waits behind it")
        #expect(offered == ["sale", "vip"])
    }

    @Test("INAPP-7 / issue 26: a campaign whose delivery token is about to expire is decided after the refreshing sync")
    @MainActor
    func decidedAfterTheTokenRefresh() async {
        let expiring = #"""
            {"success":true,"campaigns":[
              {"id":"late","type":"modal","deliveryToken":"tok-late","deliveryTokenExpiresAt":"2026-01-01T00:00:30Z",
               "content":{"native":{"headline":"Late"}},"triggers":[{"type":"event","name":"Never"}]}]}
            """#
        let transport = RespondingTransport { request in
            request.url.path.hasSuffix("/v1/in-app/sync") ? .success(.json(200, expiring)) : .success(.ok)
        }
        let platform = FakeInAppPlatform()
        let sdk = TestSDK(transport: transport, features: .joryio(push: NoPushPlatform(), inApp: platform))
        sdk.joryio.inAppPresenter = StubInAppPresenter()
        sdk.start(config: JoryioConfig(enableDebug: true))
        let syncs = { transport.requests.filter { $0.url.path.hasSuffix("/v1/in-app/sync") }.count }
        #expect(syncs() == 1)
        let runner = self.runner(sdk)
        await sdk.joryio.evaluateInAppCampaigns()
        let decided = platform.calls
        let syncsOnReturn = syncs()
        runner.cancel()
        #expect(syncsOnReturn == 2, "the refreshing sync went first")
        #expect(decided == ["present late"])
    }

    @Test("INAPP-16: ignored without enableDebug, evaluateInAppCampaigns() returns after its warning")
    @MainActor
    func ignoredReturns() async {
        let platform = FakeInAppPlatform()
        let sdk = self.sdk(platform)
        sdk.start()
        let runner = self.runner(sdk)
        await sdk.joryio.evaluateInAppCampaigns()
        let warnings = sdk.messages(at: .warning)
        runner.cancel()
        #expect(warnings.contains { $0.contains("evaluateInAppCampaigns() is ignored unless") })
        #expect(platform.calls.isEmpty)
    }

    @Test("issue 26: before initialize() evaluateInAppCampaigns() returns at once and says nothing was evaluated")
    func beforeInitialize() async {
        let platform = FakeInAppPlatform()
        let sdk = self.sdk(platform)
        await sdk.joryio.evaluateInAppCampaigns()
        sdk.start(config: JoryioConfig(enableDebug: true))
        #expect(sdk.messages(at: .warning).contains { $0.contains("evaluateInAppCampaigns() before initialize()") })
        #expect(platform.calls.isEmpty)
    }
}

/// The first-unlock wait needs the SDK's directory; when it cannot be made the wait is off, and a
/// warning says so with the path and the error (issue 26, bug 4; INIT-14). It used to be skipped
/// without a word.
@Suite struct FirstUnlockDirectoryTests {
    struct Unwritable: Error, CustomStringConvertible {
        var description: String { "You don't have permission to save the file \"joryio\"" }
    }

    static let location = "/var/mobile/Containers/Data/Application/X/Library/Application Support/joryio"

    @Test(
        "INIT-14 / issue 26: a directory that cannot be made turns the wait off with a warning naming it and the error"
    )
    func unmadeDirectoryIsLogged() {
        let wait = JoryioEnvironment.firstUnlockWait(at: Self.location, directory: { throw Unwritable() }) { _ in
            ManualStorageAvailability()
        }
        #expect(wait.availability == nil)

        let scheduler = ManualScheduler()
        var environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: SequentialIdentifierGenerator(),
            jitter: DeterministicJitter.none,
            makeTransport: { _ in RecordingTransport() },
            openStores: { config, _, _ in
                JoryioStores(
                    events: InMemoryQueueStore(capacity: config.maxQueueSize),
                    keyValue: InMemoryKeyValueStore()
                )
            },
            gzip: { _ in nil },
            userAgent: "joryio-swift/test"
        )
        environment.setupWarnings = wait.warnings
        let joryio = Joryio(environment: environment)
        let logs = InMemoryLogSink()
        joryio.initialize(
            sdkKey: TestSDK.sdkKey,
            apiHost: TestSDK.apiHost,
            config: JoryioConfig(logLevel: .verbose, storage: .inMemory, logSink: logs)
        )
        scheduler.runUntilIdle()
        #expect(!joryio.isInitializationPending, "nothing to wait on: started")
        let warnings = logs.records(at: .warning).map(\.message).filter {
            $0.contains("cannot make the SDK's directory")
        }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(Self.location) == true)
        #expect(warnings.first?.contains("You don't have permission") == true)
        #expect(warnings.first?.contains("does not wait for the device's first unlock") == true)
    }

    @Test("INIT-14: a directory that can be made gives the probe's availability and no warning")
    func madeDirectoryWaits() {
        let directory = URL(fileURLWithPath: "/tmp/joryio-probe")
        let seen = Locked<URL?>(nil)
        let wait = JoryioEnvironment.firstUnlockWait(at: directory.path, directory: { directory }) { url in
            seen.withLock { $0 = url }
            return ManualStorageAvailability()
        }
        #expect(wait.availability?.isAvailable == false, "the probe's: locked since power-on")
        #expect(wait.warnings.isEmpty)
        #expect(seen.withLock { $0 } == directory)
    }
}
