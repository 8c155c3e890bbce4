import JoryioCore

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Sends queued events when the app moves to the background (BATCH: flush on background), retries
/// unconfirmed writes when it returns (ATTR-8), and stores pending events when it terminates.
enum LifecycleObserver {
    /// Forwards the app's lifecycle to `joryio`'s public calls, so they run in call order with
    /// every other call and the getters' snapshot follows.
    static func observe(_ joryio: Joryio) {
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification,
            object: nil,
            queue: nil
        ) { [weak joryio] _ in
            joryio?.applicationDidEnterBackground()
        }
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification,
            object: nil,
            queue: nil
        ) { [weak joryio] _ in
            joryio?.applicationWillEnterForeground()
        }
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.willTerminateNotification,
            object: nil,
            queue: nil
        ) { [weak joryio] _ in
            joryio?.applicationWillTerminate(waitingAtMost: 2)
        }
    }
}
#else
/// On Linux there is no app lifecycle to observe: tools call `applicationDidEnterBackground()` or
/// `flush()` before they exit.
enum LifecycleObserver {
    static func observe(_ joryio: Joryio) {}
}
#endif
