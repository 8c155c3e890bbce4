import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import JoryioTransport
import Testing

/// Found by a review of engine v2: storage of pre-init decisions, what may leave before the pre-init
/// token, the launch token after a later wipe, getters between `initialize()` and the start job.
@Suite struct EngineStartTests {
    private func bearer(_ request: HTTPRequest) -> String? {
        request.header("Authorization").map { String($0.dropFirst("Bearer ".count)) }
    }

    /// An SDK whose default (platform) settings store lives in `defaultDirectory`, while the
    /// configuration's stores live in `storage`.
    private func sdk(
        transport: any Transport,
        defaultDirectory: URL,
        storage: JoryioConfig.Storage
    ) -> (Joryio, ManualScheduler, JoryioConfig) {
        let scheduler = ManualScheduler()
        let settings = SettingsCache()
        let environment = JoryioEnvironment(
            scheduler: scheduler,
            clock: scheduler,
            identifiers: SequentialIdentifierGenerator(),
            jitter: DeterministicJitter(value: 0),
            makeTransport: { _ in transport },
            openStores: { config, sdkKey, logger in
                JoryioEnvironment.openStores(
                    config: config,
                    sdkKey: sdkKey,
                    clock: scheduler,
                    logger: logger,
                    settings: settings
                )
            },
            gzip: { try? Gzip.compress($0) },
            userAgent: "t",
            defaultKeyValue: { settings.store(in: defaultDirectory, clock: scheduler, logger: .disabled) }
        )
        var config = JoryioConfig()
        config.storage = storage
        config.trackSessionStart = false
        return (Joryio(environment: environment), scheduler, config)
    }

    @Test("killed launch's pre-init optOut() survives when the config names its own directory")
    func killedLaunchDecisionCustomDirectory() throws {
        try withTemporaryDirectory { root in
            let platform = root.appendingPathComponent("platform")
            let custom = root.appendingPathComponent("custom")
            try FileManager.default.createDirectory(at: platform, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: custom, withIntermediateDirectories: true)
            let (killed, _, _) = self.sdk(
                transport: RecordingTransport(),
                defaultDirectory: platform,
                storage: .sqlite(directory: custom)
            )
            killed.optOut()
            #expect(killed.isUserOptedOut())

            let transport = RecordingTransport()
            let (next, scheduler, config) = self.sdk(
                transport: transport,
                defaultDirectory: platform,
                storage: .sqlite(directory: custom)
            )
            next.initialize(sdkKey: TestSDK.sdkKey, apiHost: TestSDK.apiHost, config: config)
            scheduler.runUntilIdle()
            #expect(next.isUserOptedOut(), "the killed launch's optOut() is applied")
            next.track("x")
            next.flush()
            scheduler.runUntilIdle()
            #expect(transport.requests.eventNames.isEmpty)
            next.optIn()
            scheduler.runUntilIdle()
            #expect(!next.isUserOptedOut())

            let (third, scheduler3, config3) = self.sdk(
                transport: RecordingTransport(),
                defaultDirectory: platform,
                storage: .sqlite(directory: custom)
            )
            third.initialize(sdkKey: TestSDK.sdkKey, apiHost: TestSDK.apiHost, config: config3)
            scheduler3.runUntilIdle()
            #expect(!third.isUserOptedOut(), "a stale decision from launch 1 is not resurrected")
        }
    }

    @Test("a stored withdrawal is not sent before the pre-init token is applied")
    func storedWithdrawalWaitsForPreInitToken() throws {
        try withTemporaryDirectory { directory in
            let offline = RecordingTransport(outcome: .failure(TransportError(.cannotConnect, "offline")))
            let first = TestSDK(transport: offline, storage: .sqlite(directory: directory))
            first.start()
            first.joryio.identify("alice")
            first.joryio.setSubscription(channel: "email", status: "unsubscribed")
            first.scheduler.runUntilIdle()

            let transport = RecordingTransport()
            let next = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            let token = testJWT(sub: "alice")
            next.joryio.setSdkAuthenticationToken(token)
            next.start()
            let writes = transport.requests.filter { !$0.url.path.hasSuffix("/v1/events") }
            #expect(!writes.isEmpty)
            #expect(writes.allSatisfy { self.bearer($0) == token })
        }
    }

    @Test("INIT-5: a pre-init optOut()'s record is sent with the pre-init token")
    func optOutRecordWaitsForPreInitToken() throws {
        try withTemporaryDirectory { directory in
            let first = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            first.start()
            first.joryio.identify("alice")
            first.scheduler.runUntilIdle()

            let transport = RecordingTransport()
            let next = TestSDK(transport: transport, storage: .sqlite(directory: directory))
            let token = testJWT(sub: "alice")
            next.joryio.setSdkAuthenticationToken(token)
            next.joryio.optOut()
            next.start()
            let writes = transport.requests.filter { !$0.url.path.hasSuffix("/v1/events") }
            #expect(!writes.isEmpty)
            #expect(writes.allSatisfy { self.bearer($0) == token })
        }
    }

    @Test("a wipeData() after initialize() does not keep the launch token (AUTH-6 b is pre-init only)")
    func postInitWipeDropsLaunchToken() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        let alice = testJWT(sub: "alice")
        sdk.start(config: JoryioConfig(sdkAuthenticationToken: alice))
        sdk.joryio.identify("alice")
        sdk.joryio.reset()
        sdk.joryio.setSdkAuthenticationToken(testJWT(sub: "bob"))
        sdk.joryio.identify("bob")
        sdk.scheduler.runUntilIdle()
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        let before = transport.requests.count
        sdk.joryio.identify("alice")
        sdk.scheduler.runUntilIdle()
        let identify = transport.requests.dropFirst(before).filter { $0.url.path.hasSuffix("/v1/identify") }
        #expect(identify.allSatisfy { self.bearer($0) == nil }, "wipeData() deleted alice's kept token")
    }

    @Test("getUserId() right after initialize() never shows a user a pre-init wipeData() deleted")
    func gettersAfterInitializeBeforeStart() throws {
        try withTemporaryDirectory { directory in
            let first = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            first.start()
            first.joryio.identify("old")
            first.scheduler.runUntilIdle()

            let next = TestSDK(transport: RecordingTransport(), storage: .sqlite(directory: directory))
            next.joryio.wipeData()
            #expect(next.joryio.getUserId() == nil)
            var config = JoryioConfig()
            config.storage = .sqlite(directory: directory)
            next.joryio.initialize(sdkKey: TestSDK.sdkKey, apiHost: TestSDK.apiHost, config: config)
            let seen = next.joryio.getUserId()
            #expect(seen == nil)
            next.scheduler.runUntilIdle()
            #expect(next.joryio.getUserId() == nil)
        }
    }
}

/// Warnings about invalid input made before `initialize()` have their own bound (INIT-6).
@Suite struct PreInitWarningTests {
    @Test("invalid calls before initialize() never push valid calls out; their warnings are kept up to 100")
    func warningsDoNotUseTheCallBudget() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        for name in eventNames(1_000) {
            sdk.joryio.track(name)
        }
        for _ in 0..<150 {
            sdk.joryio.addAlias("Bad Label", name: "x")
        }
        sdk.start(config: JoryioConfig(batchSize: 500))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames == eventNames(1_000))
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.filter { $0.hasPrefix("addAlias:") }.count == 100)
        #expect(warnings.contains("50 more warnings about calls made before initialize() were not kept"))
    }
}

/// A token whose subject cannot be read, set while nobody is identified, is kept for the next user
/// with a warning (AUTH-6).
@Suite struct UnreadableTokenTests {
    @Test("a token without a readable sub, set before any identify, is kept for the next user with a warning")
    func heldForNextUserIsLogged() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.setSdkAuthenticationToken("not-a-jwt")
        sdk.joryio.identify("alice")
        sdk.scheduler.runUntilIdle()
        #expect(sdk.messages(at: .warning).contains { $0.contains("kept for the next identified user") })
        let identify = transport.requests.first { $0.url.path.hasSuffix("/v1/identify") }
        #expect(identify?.header("Authorization") == "Bearer not-a-jwt")
    }
}
