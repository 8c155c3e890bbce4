import JoryioCore

#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Sends queued events when the app moves to the background (BATCH: flush on background), and
/// retries unconfirmed writes when it returns (ATTR-8).
enum LifecycleObserver {
    static func observe(engine: JoryioEngine, scheduler: any Scheduler, clock: any Clock) {
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.didEnterBackgroundNotification,
            object: nil,
            queue: nil
        ) { _ in
            scheduler.enqueue { engine.enteredBackground() }
        }
        _ = NotificationCenter.default.addObserver(
            forName: UIApplication.willEnterForegroundNotification,
            object: nil,
            queue: nil
        ) { _ in
            let now = clock.now()
            scheduler.enqueue { engine.enteredForeground(at: now) }
        }
    }
}
#else
/// On Linux there is no app lifecycle to observe: tools call `applicationDidEnterBackground()` or
/// `flush()` before they exit.
enum LifecycleObserver {
    static func observe(engine: JoryioEngine, scheduler: any Scheduler, clock: any Clock) {}
}
#endif
