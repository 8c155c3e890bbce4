package import Foundation
package import JoryioCore
package import JoryioKit

extension InAppDisplayMachine {
    /// What the feature must do after an input, in the order given.
    package enum Action: Sendable, Equatable {
        /// Ask the presenter (custom or discovered) to show `campaign`, on the main thread, and answer
        /// with ``Input/presentResult(campaignId:shown:at:)``. Only while the app is active
        /// (INAPP-57).
        case present(InAppCampaign)
        /// Hand `campaign` to the app's callback (INAPP-32); the app reports with
        /// `trackInAppImpression` (INAPP-34).
        case deliverToCallback(InAppCampaign)
        /// Remove `campaign` from the screen (a user change or privacy change while it shows).
        case takeDown(InAppCampaign)
        /// Send the report `action` about `campaign` with its delivery token (INAPP-63). Never
        /// emitted while privacy forbids it (INAPP-53).
        case report(InAppReportAction, InAppCampaign, elementId: String?)
        /// Run `InAppConfig.onMessageDisplay` on the main thread: the message counted as displayed
        /// (after the dwell second, GAP-42). SDK renderer and presenter paths only.
        case onMessageDisplay(InAppMessage)
        /// Run `InAppConfig.onMessageClick` with the clicked element's id (`""` when the click named
        /// none, GAP-42). SDK renderer and presenter paths only.
        case onMessageClick(InAppMessage, String)
        /// Run `InAppConfig.onMessageDismiss`. SDK renderer and presenter paths only.
        case onMessageDismiss(InAppMessage)
        /// Store the displayed history (INAPP-47). Emitted once per input, after it changed.
        case persistHistory(InAppFrequency)
        /// Feed ``Input/tick(at:)`` at `at` (engine time), or later, never earlier. Not emitted
        /// again while an earlier wake-up is pending, except after a tick (which re-arms the next
        /// one); extra ticks are harmless.
        case wakeUp(at: Date)
        /// Log `message` at `level`.
        case log(LogLevel, String)
    }
}
