import Foundation
import JoryioConsent
import JoryioCore
import JoryioDelivery
import JoryioFeature
import JoryioKit
import JoryioTesting
import Testing

/// A feature declared entirely in this test module: it is what a Push or E-commerce module does,
/// with no edit to the engine or to Delivery. It records every hook it hears, declares its own
/// durable-write kind, and records an event through the engine's pipeline.
private final class ScoreFeature: EngineFeature {
    static let kind = DurableWrite.Kind(
        name: "score",
        path: "v1/score",
        fields: ["level": .int(1)],
        replacement: .init(key: "score", scope: .person),
        isWithdrawal: false
    )

    let context: FeatureContext
    let heard = Locked<[String]>([])

    init(context: FeatureContext) {
        self.context = context
    }

    private func note(_ hook: String) {
        self.heard.withLock { $0.append(hook) }
    }

    func start() { self.note("start") }

    func privacyChanged(_ change: PrivacyChange) {
        switch change {
        case .applied(let state): self.note("privacy \(state.allowsCollection ? "allowed" : "held")")
        case .collectionStopped: self.note("stopped")
        case .collectionResumed: self.note("resumed")
        }
    }

    func identityChanged(_ change: IdentityChange) {
        switch change {
        case .identified(_, let current):
            self.note("identified \(current)")
            let now = self.context.clock.now()
            self.context.enqueueDurable(Self.kind, now)
            self.context.recordEvent("Score Started", ["user": .string(current)], now)
            self.context.recordAttributes([(key: "score_level", operation: .set(.int(1)))], now)
        case .reset: self.note("reset")
        case .wiped: self.note("wiped")
        }
    }

    func authorizationChanged() { self.note("auth") }

    func lifecycle(_ event: LifecycleEvent) {
        switch event {
        case .foreground: self.note("foreground")
        case .background: self.note("background")
        case .terminate: self.note("terminate")
        case .active(let active): self.note(active ? "active" : "inactive")
        }
    }

    func wipe() { self.note("wipe") }

    /// The published best score, read by the facade's getter from any thread.
    static let bestSlot = InstanceSlot<Int>("score.best")

    /// The member's command, on the executor: a new best is published and recorded as an event.
    func score(_ points: Int, at timestamp: Date) {
        self.note("score \(points)")
        guard points > (self.context.slots[Self.bestSlot] ?? 0) else { return }
        self.context.publish(Self.bestSlot, points)
        self.context.recordEvent("Best Score", ["points": .int(Int64(points))], timestamp)
    }
}

/// The feature's public members, written the way a product module writes them: through the
/// facade seam only (`self.facade`), validating on the caller's thread.
extension Joryio {
    fileprivate func recordScore(_ points: Int) {
        guard (0...1_000).contains(points) else {
            self.facade.warn("recordScore: \(points) is not 0 … 1000; ignored")
            return
        }
        let timestamp = self.facade.now
        self.facade.submit(.event, to: ScoreFeature.self) { $0.score(points, at: timestamp) }
    }

    fileprivate var bestScore: Int? {
        self.facade[ScoreFeature.bestSlot]
    }
}

/// The feature seam (engine v2): a feature is a module plus one registration line; its public
/// members reach it through the facade seam.
@Suite struct FeatureSeamTests {
    private func sdk(_ transport: RecordingTransport) -> (TestSDK, Locked<ScoreFeature?>) {
        let made = Locked<ScoreFeature?>(nil)
        let catalog = FeatureCatalog.analytics.adding { _ in
            [
                FeatureRegistration { context in
                    let feature = ScoreFeature(context: context)
                    made.withLock { $0 = feature }
                    return feature
                }
            ]
        }
        return (TestSDK(transport: transport, features: catalog), made)
    }

    @Test("a feature added by one catalog line hears every hook in order, and sends its own durable kind")
    func featureFromAnotherModule() throws {
        let transport = RecordingTransport()
        let (sdk, made) = self.sdk(transport)
        sdk.joryio.identify("before-init")
        sdk.start()
        let feature = try #require(made.value)
        #expect(
            feature.heard.value == ["start", "auth", "identified before-init", "privacy allowed"],
            "held until the launch's privacy is applied; tokens follow the user before features do"
        )

        sdk.joryio.applicationWillEnterForeground()
        sdk.joryio.applicationDidEnterBackground()
        sdk.joryio.updateConsent(.denied)
        sdk.joryio.updateConsent(.granted)
        sdk.joryio.reset()
        sdk.joryio.wipeData()
        sdk.scheduler.runUntilIdle()
        #expect(
            Array(feature.heard.value.dropFirst(4)) == [
                "foreground", "background", "stopped", "privacy held", "privacy allowed", "resumed",
                "auth", "reset", "wipe", "auth", "wiped", "privacy allowed",
            ]
        )

        sdk.joryio.applicationWillTerminate()
        sdk.scheduler.runUntilIdle()
        #expect(feature.heard.value.last == "terminate")

        let score = transport.requests.filter { $0.url.path.hasSuffix("/v1/score") }
        #expect(score.count == 1)
        #expect(score.first?.json?["level"] == .int(1))
        #expect(score.first?.json?["userId"] == .string("before-init"))
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames.contains("Score Started"))
        let attributes = transport.requests.filter { $0.url.path.hasSuffix("/v1/attributes") }
        #expect(
            attributes.contains { String(decoding: $0.decodedBody ?? Data(), as: UTF8.self).contains("score_level") }
        )
    }

    @Test(
        "a feature's public member reaches it through the facade seam: in call order, kept before initialize(), its getter reads what the feature published"
    )
    func publicMemberThroughTheFacade() throws {
        let transport = RecordingTransport()
        let (sdk, made) = self.sdk(transport)
        let (other, _) = self.sdk(RecordingTransport())
        sdk.joryio.recordScore(5)
        sdk.joryio.recordScore(-1)
        #expect(sdk.joryio.bestScore == nil, "nothing published before the engine ran the call")
        sdk.start()
        other.start()
        sdk.joryio.recordScore(3)
        sdk.joryio.recordScore(9)
        sdk.scheduler.runUntilIdle()
        #expect(
            try #require(made.value).heard.value.filter { $0.hasPrefix("score") } == ["score 5", "score 3", "score 9"]
        )
        #expect(sdk.joryio.bestScore == 9)
        #expect(other.joryio.bestScore == nil, "a slot belongs to its instance")
        #expect(sdk.messages(at: .warning).contains { $0.contains("recordScore: -1 is not 0 … 1000") })
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(transport.requests.eventNames.filter { $0 == "Best Score" }.count == 2, "5 and 9; 3 was no best")
    }

    @Test("a feature's event goes through the consent gate like any other")
    func featureEventsAreGated() throws {
        let transport = RecordingTransport()
        let (sdk, made) = self.sdk(transport)
        sdk.start()
        sdk.joryio.optOut()
        sdk.joryio.identify("u")
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        #expect(try #require(made.value).heard.value.contains("identified u"))
        #expect(!transport.requests.eventNames.contains("Score Started"), "dropped while opted out (INIT-8)")
        #expect(!transport.requests.contains { $0.url.path.hasSuffix("/v1/attributes") }, "its attribute too (ATTR-20)")
        #expect(!transport.requests.contains { $0.url.path.hasSuffix("/v1/score") }, "held: collection is not allowed")
    }

    @Test("JoryioAnalytics and Joryio run the same three channels today; the slim catalog has no other feature")
    func catalogs() {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        sdk.start()
        sdk.joryio.setAttribute("plan", value: "pro")
        sdk.scheduler.runUntilIdle()
        #expect(
            transport.requests.contains { $0.url.path.hasSuffix("/v1/attributes") },
            "attributes live behind the seam"
        )
    }
}
