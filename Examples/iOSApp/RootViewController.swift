#if canImport(UIKit)
import Joryio
import UIKit

/// The example's only screen: a few buttons for the calls the README and the DocC articles show
/// (push permission, a purchase, geozones).
final class RootViewController: UIViewController {
    /// Lays out one button per action.
    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = .systemBackground
        let stack = UIStackView(arrangedSubviews: [
            Self.button("Allow notifications") {
                Task { _ = await Joryio.shared.requestPushPermission() }
            },
            Self.button("Buy the premium plan") {
                Task { await Purchases.buy(productId: "com.example.premium") }
            },
            Self.button("Start geozones") { Geozones.start() },
            Self.button("Stop geozones") { Geozones.stop() },
        ])
        stack.axis = .vertical
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        self.view.addSubview(stack)
        NSLayoutConstraint.activate([
            stack.centerXAnchor.constraint(equalTo: self.view.centerXAnchor),
            stack.centerYAnchor.constraint(equalTo: self.view.centerYAnchor),
        ])
    }

    /// Records the screen view (README "Using it").
    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Joryio.shared.trackScreen("Home")
    }

    /// A system button titled `title` that runs `action`.
    private static func button(_ title: String, action: @escaping @MainActor () -> Void) -> UIButton {
        UIButton(type: .system, primaryAction: UIAction(title: title) { _ in action() })
    }
}
#endif
