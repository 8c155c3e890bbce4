internal import JoryioCore

/// Whether the app is active, as the lifecycle observer last heard it on the main thread (issue 26).
///
/// Published rather than asked: the in-app platform reads it on the engine's queue, which must
/// never wait on the main thread (a main thread waiting on the SDK, as `willTerminate` does, would
/// deadlock). `false` until the first `didBecomeActive`, or the launch-time read of the
/// application's state, says otherwise.
package enum AppActivity {
    private static let state = Locked(false)

    /// The app's activity as last published.
    package static var isActive: Bool { self.state.withLock { $0 } }

    /// Publishes the app's activity (the lifecycle observer, on the main thread).
    package static func publish(_ active: Bool) {
        self.state.withLock { $0 = active }
    }
}
