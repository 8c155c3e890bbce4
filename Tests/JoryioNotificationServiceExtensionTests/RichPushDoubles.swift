import Foundation
import JoryioNotificationServiceExtension

/// A downloader the test finishes by hand: it keeps each request's completion and counts cancels.
final class ScriptedDownloader: RichPushDownloader, Sendable {
    struct Call: Sendable {
        var url: URL
        var limits: RichPushLimits
        var completion: @Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void
    }

    private let state = RichPushLock<(calls: [Call], cancels: Int)>(([], 0))

    var calls: [Call] { self.state.value.calls }
    var cancels: Int { self.state.value.cancels }

    func download(
        _ url: URL,
        limits: RichPushLimits,
        into directory: URL,
        completion: @escaping @Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void
    ) -> @Sendable () -> Void {
        self.state.withLock { $0.calls.append(Call(url: url, limits: limits, completion: completion)) }
        return { [state] in state.withLock { $0.cancels += 1 } }
    }

    /// Finishes the first download with `result`.
    func complete(_ result: Result<RichPushMediaFile, RichPushFailure>) {
        self.calls.first?.completion(result)
    }
}

/// A timer on virtual time: actions run only when the test calls ``fire()``.
final class ManualRichPushTimer: RichPushTimer, Sendable {
    private let pending = RichPushLock<[(seconds: TimeInterval, action: @Sendable () -> Void)]>([])

    var scheduled: [TimeInterval] { self.pending.value.map(\.seconds) }

    func after(_ seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        self.pending.withLock { $0.append((seconds, action)) }
    }

    /// Runs every scheduled action (the deadline passing).
    func fire() {
        let actions = self.pending.withLock { pending in
            defer { pending.removeAll() }
            return pending.map(\.action)
        }
        for action in actions { action() }
    }
}

/// Collects what a session delivers.
final class Deliveries: Sendable {
    private let outcomes = RichPushLock<[RichPushOutcome]>([])

    var all: [RichPushOutcome] { self.outcomes.value }

    var record: @Sendable (RichPushOutcome) -> Void {
        { [outcomes] outcome in outcomes.withLock { $0.append(outcome) } }
    }
}

/// A fresh directory for downloaded files, removed by ``remove()``.
struct ScratchDirectory {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-nse-tests-\(UUID().uuidString)", isDirectory: true)

    /// The files in it (none when it does not exist).
    var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: self.url.path)) ?? []).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: self.url)
    }
}
