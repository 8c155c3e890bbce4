#if canImport(UIKit) && !os(watchOS)
internal import UIKit

/// The window a message is shown in, above the app's (INAPP-44): a pass-through window gives the
/// touches outside the message's card to the app (returning `nil` from `hitTest` sends them to the
/// windows below), a blocking one keeps them all. The rule is
/// ``InAppMessageWindowing/touchTarget(x:y:messageFrame:window:)``.
@MainActor
final class InAppMessageWindow: UIWindow {
    private let kind: InAppMessageWindowing.WindowKind
    private let card: UIView

    /// A hidden window in `windowScene` holding `card`, placed and sized by `layout`; `onClose` runs
    /// when the dimmed background of a blocking message is tapped.
    init(
        windowScene: UIWindowScene,
        kind: InAppMessageWindowing.WindowKind,
        layout: InAppNativeLayout,
        card: UIView,
        onClose: @escaping @MainActor () -> Void
    ) {
        self.kind = kind
        self.card = card
        super.init(windowScene: windowScene)
        self.windowLevel = .alert
        self.backgroundColor = .clear
        self.rootViewController = InAppMessageContainerController(layout: layout, card: card, onClose: onClose)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        nil
    }

    /// The pure rule decides; inside the card (or in a blocking window) UIKit's own hit-testing
    /// finds the view.
    override func hitTest(_ point: CGPoint, with event: UIEvent?) -> UIView? {
        let frame = self.card.convert(self.card.bounds, to: self)
        let rect = InAppRect(
            x: Double(frame.origin.x),
            y: Double(frame.origin.y),
            width: Double(frame.size.width),
            height: Double(frame.size.height)
        )
        switch InAppMessageWindowing.touchTarget(
            x: Double(point.x),
            y: Double(point.y),
            messageFrame: rect,
            window: self.kind
        )
        {
        case .message: return super.hitTest(point, with: event)
        case .app: return nil
        }
    }

    /// Shows the window with a fade.
    func show() {
        self.alpha = 0
        self.isHidden = false
        UIView.animate(withDuration: 0.2) { self.alpha = 1 }
        UIAccessibility.post(notification: .screenChanged, argument: self.card)
    }

    /// Fades the window out, hides it, and calls `completion` once it has left the screen.
    func hide(completion: @escaping @MainActor @Sendable () -> Void) {
        UIView.animate(
            withDuration: 0.2,
            animations: { self.alpha = 0 },
            completion: { _ in
                self.isHidden = true
                self.rootViewController = nil
                UIAccessibility.post(notification: .screenChanged, argument: nil)
                completion()
            }
        )
    }
}

/// Places the card as the layout says: placement, size rules and dimming (GAP-44).
@MainActor
final class InAppMessageContainerController: UIViewController {
    private let layout: InAppNativeLayout
    private let card: UIView
    private let onClose: @MainActor () -> Void

    init(layout: InAppNativeLayout, card: UIView, onClose: @escaping @MainActor () -> Void) {
        self.layout = layout
        self.card = card
        self.onClose = onClose
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        nil
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        self.view.backgroundColor = .clear
        // The background is the card's sibling, not its parent, so its tap recognizer never sees
        // (or cancels) a touch meant for the card's buttons or web view.
        let background = UIView()
        background.frame = self.view.bounds
        background.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        switch self.layout.dimming {
        case .none: background.backgroundColor = .clear
        case .dimmed(let opacity):
            background.backgroundColor = UIColor.black.withAlphaComponent(CGFloat(opacity))
            background.addGestureRecognizer(
                UITapGestureRecognizer(target: self, action: #selector(self.backgroundTapped))
            )
        case .opaque: background.backgroundColor = .systemBackground
        }
        self.view.addSubview(background)
        self.card.translatesAutoresizingMaskIntoConstraints = false
        self.card.layer.cornerRadius = CGFloat(self.layout.size.cornerRadius)
        self.card.clipsToBounds = true
        self.view.addSubview(self.card)
        NSLayoutConstraint.activate(self.constraints())
    }

    /// A tap on a modal's dimmed background closes the message (a dismissal, not a click).
    @objc private func backgroundTapped() {
        self.onClose()
    }

    private func constraints() -> [NSLayoutConstraint] {
        let size = self.layout.size
        let guide = self.view.safeAreaLayoutGuide
        let margin = CGFloat(size.margin)
        if self.layout.placement == .full {
            return [
                self.card.leadingAnchor.constraint(equalTo: self.view.leadingAnchor),
                self.card.trailingAnchor.constraint(equalTo: self.view.trailingAnchor),
                self.card.topAnchor.constraint(equalTo: self.view.topAnchor),
                self.card.bottomAnchor.constraint(equalTo: self.view.bottomAnchor),
            ]
        }
        let preferredWidth = self.card.widthAnchor.constraint(
            equalTo: self.view.widthAnchor,
            multiplier: CGFloat(size.maxWidthFraction),
            constant: -2 * margin
        )
        preferredWidth.priority = .defaultHigh
        // A card without a height of its own (a web view) takes the largest height allowed; a native
        // card's fit to its content (priority 250) wins over this one.
        let fallbackHeight = self.card.heightAnchor.constraint(
            equalTo: guide.heightAnchor,
            multiplier: CGFloat(size.maxHeightFraction)
        )
        fallbackHeight.priority = UILayoutPriority(rawValue: UILayoutPriority.defaultLow.rawValue - 1)
        var constraints = [
            self.card.centerXAnchor.constraint(equalTo: guide.centerXAnchor),
            self.card.widthAnchor.constraint(lessThanOrEqualTo: guide.widthAnchor, constant: -2 * margin),
            preferredWidth,
            fallbackHeight,
            self.card.heightAnchor.constraint(
                lessThanOrEqualTo: guide.heightAnchor,
                multiplier: CGFloat(size.maxHeightFraction)
            ),
        ]
        if let maxWidth = size.maxWidth {
            constraints.append(self.card.widthAnchor.constraint(lessThanOrEqualToConstant: CGFloat(maxWidth)))
        }
        switch self.layout.placement {
        case .top: constraints.append(self.card.topAnchor.constraint(equalTo: guide.topAnchor, constant: margin))
        case .bottom:
            constraints.append(self.card.bottomAnchor.constraint(equalTo: guide.bottomAnchor, constant: -margin))
        case .center, .custom, .full:
            constraints.append(self.card.centerYAnchor.constraint(equalTo: guide.centerYAnchor))
        }
        return constraints
    }
}
#endif
