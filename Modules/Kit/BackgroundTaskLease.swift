internal import JoryioCore

/// The end of a background task (issue 26): `finish()` ends it once, whoever calls first, the
/// send settling or the system's expiration handler; later calls do nothing.
///
/// Platform-neutral so the rule is tested on Linux; the UIKit lifecycle observer only begins the
/// task and hands its end to the lease.
package final class BackgroundTaskLease: Sendable {
    private let end: Locked<(@Sendable () -> Void)?>

    /// A lease that calls `end` at its first ``finish()``.
    package init(end: @escaping @Sendable () -> Void) {
        self.end = Locked(end)
    }

    /// Whether ``finish()`` was called.
    package var isFinished: Bool { self.end.withLock { $0 == nil } }

    /// Ends the task, the first time only.
    package func finish() {
        let end = self.end.withLock { end in
            defer { end = nil }
            return end
        }
        end?()
    }
}
