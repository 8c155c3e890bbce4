import JoryioCore

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Sends queued events when the app moves to the background (BATCH: flush on background) inside a
/// background task, retries unconfirmed writes when it returns (ATTR-8), publishes whether the app
/// is active (INAPP-57, INAPP-59), and stores pending events when it terminates. Thin: what each
/// notification means is decided by the calls it forwards to, tested on Linux.
enum LifecycleObserver {
    /// Forwards the app's lifecycle to `joryio`'s public calls, so they run in call order with
    /// every other call and the getters' snapshot follows. The application's state at this moment
    /// is read on the main thread (at once when `initialize()` runs there, else at the main
    /// queue's next turn), never waited for.
    static func observe(_ joryio: Joryio) {
        let center = NotificationCenter.default
        _ = center.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) {
            [weak joryio] _ in
            guard let joryio else { return }
            let lease = Self.beginBackgroundTask()
            joryio.applicationDidEnterBackground(whenSent: { lease.finish() })
        }
        _ = center.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: nil) {
            [weak joryio] _ in
            joryio?.applicationWillEnterForeground()
        }
        _ = center.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: nil) {
            [weak joryio] _ in
            joryio?.applicationDidBecomeActive()
        }
        _ = center.addObserver(forName: UIApplication.willResignActiveNotification, object: nil, queue: nil) {
            [weak joryio] _ in
            joryio?.applicationWillResignActive()
        }
        _ = center.addObserver(forName: UIApplication.willTerminateNotification, object: nil, queue: nil) {
            [weak joryio] _ in
            joryio?.applicationWillTerminate(waitingAtMost: 2)
        }
        let readState: @Sendable () -> Void = { [weak joryio] in
            let active = MainActor.assumeIsolated { UIApplication.shared.applicationState == .active }
            if active { joryio?.applicationDidBecomeActive() }
        }
        if Thread.isMainThread {
            readState()
        } else {
            DispatchQueue.main.async(execute: readState)
        }
    }

    /// A background task for the send `didEnterBackground` starts, ended once: when the send
    /// settles or when the system's expiration handler fires, whichever comes first. The
    /// expiration handler runs on the main thread and the task must be ended before it returns, so
    /// there it is ended at once; a settled send (on the engine's queue) ends it on the main queue.
    private static func beginBackgroundTask() -> BackgroundTaskLease {
        let identifier = Locked(UIBackgroundTaskIdentifier.invalid)
        let end: @Sendable () -> Void = {
            let task = identifier.withLock { value in
                defer { value = .invalid }
                return value
            }
            if task != .invalid { MainActor.assumeIsolated { UIApplication.shared.endBackgroundTask(task) } }
        }
        let lease = BackgroundTaskLease {
            if Thread.isMainThread {
                end()
            } else {
                DispatchQueue.main.async(execute: end)
            }
        }
        let task = MainActor.assumeIsolated {
            UIApplication.shared.beginBackgroundTask(withName: "Joryio: send queued events") { lease.finish() }
        }
        identifier.withLock { $0 = task }
        return lease
    }
}
#else
/// On Linux there is no app lifecycle to observe: tools call `applicationDidEnterBackground()` or
/// `flush()` before they exit.
enum LifecycleObserver {
    static func observe(_ joryio: Joryio) {}
}
#endif
