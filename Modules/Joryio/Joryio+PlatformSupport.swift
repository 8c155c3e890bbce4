internal import JoryioFeature
internal import JoryioInApp
internal import JoryioKit
internal import JoryioPush

/// What the platform an instance runs on cannot do, said once at `initialize()` (issue 26): on
/// macOS in-app messages have no display, on Linux neither push nor in-app display exists. Before,
/// those calls were accepted and silently did nothing.
package enum PlatformSupport {
    /// The lines to log for a platform with (or without) push and in-app display.
    package static func notes(hasPush: Bool, displaysInApp: Bool) -> [String] {
        var notes: [String] = []
        if !hasPush {
            notes.append(
                "this platform has no push notifications: push calls are accepted and do nothing "
                    + "(no token, no permission prompt, no push_permission attribute)"
            )
        }
        if !displaysInApp {
            notes.append(
                "this platform displays no in-app messages: campaigns are synced and an in-app callback "
                    + "(setInAppMessageCallback) still receives them, but no presenter draws them"
            )
        }
        return notes
    }
}

extension Joryio {
    /// Logs, once at start, what this instance's platforms do not support (``PlatformSupport``).
    package func logPlatformSupport() {
        let facade = self.facade
        facade.submitToFeatures { features in
            let push = features.first(PushNotificationHandler.self)?.platform.hasPush ?? false
            let inApp = features.first(InAppFeature.self)?.platform.displaysMessages ?? false
            for note in PlatformSupport.notes(hasPush: push, displaysInApp: inApp) { facade.inform(note) }
        }
    }
}
