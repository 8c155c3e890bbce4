#if canImport(UIKit)
import Foundation
import Joryio
import UIKit

/// The app's own in-app presenter, assigned to `Joryio.shared.inAppPresenter` (DocC "In-app
/// messages"; the `InAppMessagePresenter` and `InAppMessageTakingDown` documentation): it draws
/// native messages as alerts and reports taps and closing through the delegate, never with
/// `trackInAppImpression` (the SDK reports `displayed` itself).
@MainActor
final class MyPresenter: InAppMessagePresenter, InAppMessageTakingDown {
    /// The alert on screen and its message, while one shows.
    private var shown: (message: InAppMessage, alert: UIAlertController)?

    /// Shows a native `campaign` over `viewController`; `false` (not shown) for HTML.
    func present(
        campaign: InAppMessage,
        in viewController: InAppPresentationContext,
        delegate: any InAppMessageViewDelegate
    ) -> Bool {
        guard case .native(let content) = campaign.content, self.shown == nil else { return false }
        let alert = UIAlertController(title: content.headline, message: content.text, preferredStyle: .alert)
        for button in content.buttons {
            alert.addAction(
                UIAlertAction(title: button.label, style: .default) { [weak self] _ in
                    delegate.messageViewClicked(campaign, action: button.id, url: button.url)
                    if let url = button.url { UIApplication.shared.open(url) }
                    self?.shown = nil
                    delegate.messageViewDidDismiss(campaign)
                }
            )
        }
        alert.addAction(
            UIAlertAction(title: "Close", style: .cancel) { [weak self] _ in
                self?.shown = nil
                delegate.messageViewDidDismiss(campaign)
            }
        )
        viewController.present(alert, animated: true)
        self.shown = (campaign, alert)
        return true
    }

    /// Removes `message` when the SDK takes it down (a reset, a user change, an opt-out), reporting
    /// nothing.
    func takeDown(_ message: InAppMessage) {
        guard let shown = self.shown, shown.message.id == message.id else { return }
        self.shown = nil
        shown.alert.dismiss(animated: true)
    }
}
#endif
