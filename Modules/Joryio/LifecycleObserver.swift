import JoryioCore

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Sends queued events when the app moves to the background (BATCH: flush on background).
enum LifecycleObserver {
    static func observe(engine: JoryioEngine, scheduler: any Scheduler) {
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification,
            object: nil,
            queue: nil
        ) { _ in
            scheduler.enqueue { engine.enteredBackground() }
        }
    }
}
#else
/// On Linux there is no app lifecycle to observe: tools call `applicationDidEnterBackground()` or
/// `flush()` before they exit.
enum LifecycleObserver {
    static func observe(engine: JoryioEngine, scheduler: any Scheduler) {}
}
#endif
