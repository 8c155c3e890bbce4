import Foundation
import Joryio
import JoryioCore
import JoryioTesting
import Testing

/// Event plugins: order, modification, dropping, re-validation.
@Suite struct PluginTests {
    /// Appends `mark` to the `trail` string property.
    struct Marker: JoryioEventPlugin {
        var mark: String
        func process(_ event: JoryioEvent) -> JoryioEvent? {
            var event = event
            event.properties["trail"] = .string((event.properties["trail"]?.stringValue ?? "") + self.mark)
            return event
        }
    }

    /// Drops events with this name.
    struct Dropper: JoryioEventPlugin {
        var name: String
        func process(_ event: JoryioEvent) -> JoryioEvent? {
            event.name == self.name ? nil : event
        }
    }

    /// Applies `change` to every event.
    struct Changer: JoryioEventPlugin {
        var change: @Sendable (inout JoryioEvent) -> Void
        func process(_ event: JoryioEvent) -> JoryioEvent? {
            var event = event
            self.change(&event)
            return event
        }
    }

    private func run(_ plugins: [any JoryioEventPlugin], track: (Joryio) -> Void) -> (events: [JSONValue], sdk: TestSDK)
    {
        let transport = RecordingTransport()
        let sdk = TestSDK(transport: transport)
        for plugin in plugins {
            sdk.joryio.add(plugin: plugin)
        }
        sdk.start()
        track(sdk.joryio)
        sdk.scheduler.runUntilIdle()
        sdk.joryio.flush()
        sdk.scheduler.runUntilIdle()
        return (transport.requests.flatMap(\.events), sdk)
    }

    @Test("plugins run in registration order and can change properties and the name")
    func orderAndModification() {
        let rename = Changer { event in
            if event.name == "old" { event.name = "new" }
            event.properties["email"] = nil
        }
        let (events, sdk) = self.run([Marker(mark: "1"), Marker(mark: "2"), rename, Marker(mark: "3")]) { joryio in
            joryio.track("old", properties: ["email": "a@b.c", "kept": true])
            joryio.track("other")
        }
        #expect(events.map { $0["event"] } == ["new", "other"])
        #expect(events.first?["properties"] == ["trail": "123", "kept": true])
        #expect(events.last?["properties"] == ["trail": "123"])
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("a plugin can drop an event; later plugins never see it")
    func drop() {
        let seen = Locked<[String]>([])
        let spy = Changer { event in seen.withLock { $0.append(event.name) } }
        let (events, sdk) = self.run([Dropper(name: "secret"), spy]) { joryio in
            joryio.track("a")
            joryio.track("secret")
            joryio.track("b")
        }
        #expect(events.map { $0["event"] } == ["a", "b"])
        #expect(seen.value == ["a", "b"])
        #expect(sdk.joryio.getQueueSize() == 0)
        #expect(sdk.messages(atLeast: .warning).isEmpty)
    }

    @Test("an event a plugin makes invalid is dropped with a warning")
    func invalidAfterPlugin() {
        let breaker = Changer { event in
            switch event.name {
            case "empty": event.name = ""
            case "keys": for index in 0..<201 { event.properties["k\(index)"] = .int(Int64(index)) }
            case "deep": event.properties["d"] = ["a": ["b": ["c": ["d": [:]]]]]
            case "nan-free": event.properties["x"] = .double(1.5)
            default: break
            }
        }
        let (events, sdk) = self.run([breaker]) { joryio in
            for name in ["empty", "ok", "keys", "deep", "nan-free"] {
                joryio.track(name)
            }
        }
        #expect(events.map { $0["event"] } == ["ok", "nan-free"])
        #expect(events.last?["properties"] == ["x": 1.5])
        let warnings = sdk.messages(at: .warning)
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0.contains("after plugins") })
    }

    @Test("plugins never see events that failed validation")
    func invalidEventsNeverReachPlugins() {
        let seen = Locked<[String]>([])
        let spy = Changer { event in seen.withLock { $0.append(event.name) } }
        let (events, _) = self.run([spy]) { joryio in
            joryio.track("")
            joryio.track(String(repeating: "n", count: 300))
            joryio.track("fine")
        }
        #expect(seen.value == ["fine"])
        #expect(events.count == 1)
    }
}
