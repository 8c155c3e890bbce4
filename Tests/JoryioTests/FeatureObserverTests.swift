import Foundation
import Joryio
import JoryioCore
import JoryioDelivery
import JoryioFeature
import JoryioKit
import JoryioStorage
import JoryioTesting
import Testing

/// The seam's event and attribute observers (issue 16: in-app triggers): which events and
/// attribute changes a feature hears of, through every path the engine has.
@Suite struct FeatureObserverTests {
    /// A feature that records what it hears.
    final class Listener: EngineFeature, @unchecked Sendable {
        let listens: Bool
        private let heard = Locked<[String]>([])
        init(listens: Bool = true) { self.listens = listens }
        var all: [String] { self.heard.value }
        var observesEvents: Bool { self.listens }
        func eventTracked(_ name: String) { self.heard.withLock { $0.append("event \(name)") } }
        func attributesRecorded(_ changes: [(key: String, operation: AttributeWrite.Operation)]) {
            self.heard.withLock { $0 += changes.map { "attribute \($0.key)" } }
        }
    }

    struct Rename: JoryioEventPlugin {
        func process(_ event: JoryioEvent) -> JoryioEvent? {
            var event = event
            event.name = "Renamed " + event.name
            return event
        }
    }

    private func sdk(_ listener: Listener, storage: JoryioConfig.Storage = .inMemory, firstId: UInt64 = 1) -> TestSDK {
        TestSDK(
            transport: RecordingTransport(),
            storage: storage,
            identifiers: SequentialIdentifierGenerator(first: firstId),
            features: FeatureCatalog.analytics.adding { _ in [FeatureRegistration { _ in listener }] }
        )
    }

    @Test("events through the journal, the job path and plugins are announced once each, by their stored name")
    func eventsAnnounced() throws {
        try withTemporaryDirectory { directory in
            let listener = Listener()
            let sdk = self.sdk(listener, storage: .sqlite(directory: directory))
            sdk.start(sessionStart: true)
            sdk.track(["journaled"])
            sdk.joryio.trackScreen("Home")
            sdk.scheduler.runUntilIdle()
            sdk.joryio.add(plugin: Rename())
            sdk.track(["through a plugin"])
            #expect(
                listener.all == [
                    "event Session Start", "event journaled", "event Screen Viewed", "event Renamed through a plugin",
                ]
            )
        }
    }

    @Test("events the consent gate or validation drops are not announced; nor are events replayed from a killed launch")
    func droppedAndReplayedNotAnnounced() throws {
        try withTemporaryDirectory { directory in
            let first = Listener()
            let sdk = self.sdk(first, storage: .sqlite(directory: directory))
            sdk.start()
            sdk.joryio.optOut()
            sdk.track(["while opted out"])
            sdk.joryio.optIn()
            sdk.track([""])
            #expect(first.all.isEmpty)
            sdk.joryio.track("journaled, then killed")
            sdk.joryio.eventJournal?.relinquish()

            let second = Listener()
            let relaunched = self.sdk(second, storage: .sqlite(directory: directory), firstId: 1000)
            relaunched.start()
            relaunched.track(["after the relaunch"])
            #expect(second.all == ["event after the relaunch"])
        }
    }

    @Test("attribute changes are announced once accepted; not while opted out")
    func attributesAnnounced() {
        let listener = Listener(listens: false)
        let sdk = self.sdk(listener)
        sdk.start()
        sdk.joryio.setAttributes(["plan": "pro", "seats": 3])
        sdk.joryio.incrementAttribute("logins")
        sdk.track(["not heard: this listener does not observe events"])
        sdk.joryio.optOut()
        sdk.joryio.setAttribute("ignored", value: 1)
        sdk.scheduler.runUntilIdle()
        let heard = listener.all
        #expect(Set(heard.prefix(2)) == ["attribute plan", "attribute seats"])
        #expect(heard.dropFirst(2).first == "attribute logins")
        #expect(!heard.contains("attribute ignored"))
        #expect(!heard.contains { $0.hasPrefix("event") })
    }
}
