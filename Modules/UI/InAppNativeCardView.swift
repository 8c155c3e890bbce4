#if canImport(UIKit) && !os(watchOS)
internal import Foundation
internal import JoryioKit
internal import UIKit

/// A native message's card: draws an ``InAppNativeLayout`` and decides nothing (GAP-44). Text in
/// Dynamic Type styles that follow the person's setting, colours from the layout's roles (system
/// colours follow light and dark, buttons the app's tint), elements in VoiceOver's order. A tap hands
/// ``InAppPresenterEffects``' answer to `onEffects`. The image is drawn from the bytes the platform
/// loaded before presenting (`InAppImageLoader`, GAP-44), at its aspect ratio across the card and
/// hidden from VoiceOver (the wire carries no alternative text); without them it is left out.
@MainActor
final class InAppNativeCardView: UIView {
    private let layout: InAppNativeLayout
    private let image: UIImage?
    private let onEffects: @MainActor ([InAppPresenterEffect]) -> Void
    private var buttons: [UIButton: [InAppPresenterEffect]] = [:]
    private var filledButtons: [UIButton] = []

    /// A card drawing `layout`.
    init(layout: InAppNativeLayout, image: Data?, onEffects: @escaping @MainActor ([InAppPresenterEffect]) -> Void) {
        self.layout = layout
        self.image = image.flatMap { UIImage(data: $0) }
        self.onEffects = onEffects
        super.init(frame: .zero)
        self.backgroundColor = self.color(layout.background)
        self.build()
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        nil
    }

    private func build() {
        let stack = UIStackView()
        stack.axis = .vertical
        stack.spacing = 12
        stack.translatesAutoresizingMaskIntoConstraints = false
        let buttonRow = UIStackView()
        buttonRow.axis = self.layout.buttonAxis == .horizontal ? .horizontal : .vertical
        buttonRow.spacing = 8
        buttonRow.distribution = .fillEqually
        for element in self.layout.elements {
            switch element {
            case .headline(let text), .text(let text):
                stack.addArrangedSubview(self.label(text, element))
            case .image:
                if let image = self.image { stack.addArrangedSubview(self.imageView(image)) }
            case .button(let id, let label, let url, let prominence):
                let effects = InAppPresenterEffects.effects(for: InAppMessage.Button(id: id, label: label, url: url))
                buttonRow.addArrangedSubview(self.button(label, element, filled: prominence == .primary, effects))
            case .close:
                let close = self.button(
                    InAppCloseLabel.label(preferredLanguages: Locale.preferredLanguages),
                    element,
                    filled: false,
                    InAppPresenterEffects.close
                )
                buttonRow.addArrangedSubview(close)
            }
        }
        stack.addArrangedSubview(buttonRow)
        let scroll = UIScrollView()
        scroll.translatesAutoresizingMaskIntoConstraints = false
        scroll.addSubview(stack)
        self.addSubview(scroll)
        let fitContent = scroll.heightAnchor.constraint(equalTo: stack.heightAnchor, constant: 32)
        fitContent.priority = .defaultLow
        NSLayoutConstraint.activate([
            scroll.leadingAnchor.constraint(equalTo: self.leadingAnchor),
            scroll.trailingAnchor.constraint(equalTo: self.trailingAnchor),
            scroll.topAnchor.constraint(equalTo: self.safeAreaLayoutGuide.topAnchor),
            scroll.bottomAnchor.constraint(equalTo: self.safeAreaLayoutGuide.bottomAnchor),
            stack.leadingAnchor.constraint(equalTo: scroll.contentLayoutGuide.leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(equalTo: scroll.contentLayoutGuide.trailingAnchor, constant: -16),
            stack.topAnchor.constraint(equalTo: scroll.contentLayoutGuide.topAnchor, constant: 16),
            stack.bottomAnchor.constraint(equalTo: scroll.contentLayoutGuide.bottomAnchor, constant: -16),
            stack.widthAnchor.constraint(equalTo: scroll.frameLayoutGuide.widthAnchor, constant: -32),
            fitContent,
        ])
    }

    /// The image across the card at its aspect ratio; decorative (no alternative text on the wire).
    private func imageView(_ image: UIImage) -> UIImageView {
        let view = UIImageView(image: image)
        view.contentMode = .scaleAspectFit
        view.clipsToBounds = true
        view.isAccessibilityElement = false
        if image.size.width > 0, image.size.height > 0 {
            let ratio = view.heightAnchor.constraint(
                equalTo: view.widthAnchor,
                multiplier: image.size.height / image.size.width
            )
            ratio.priority = .defaultHigh
            ratio.isActive = true
        }
        return view
    }

    private func label(_ text: String, _ element: InAppNativeLayout.Element) -> UILabel {
        let label = UILabel()
        label.text = text
        label.numberOfLines = 0
        label.font = self.font(element.textStyle)
        label.adjustsFontForContentSizeCategory = true
        label.textColor = self.color(element.colorRole)
        label.accessibilityLabel = element.accessibilityLabel
        if case .headline = element { label.accessibilityTraits.insert(.header) }
        return label
    }

    private func button(
        _ title: String,
        _ element: InAppNativeLayout.Element,
        filled: Bool,
        _ effects: [InAppPresenterEffect]
    ) -> UIButton {
        let button = UIButton(type: .system)
        button.setTitle(title, for: .normal)
        button.titleLabel?.font = self.font(element.textStyle)
        button.titleLabel?.adjustsFontForContentSizeCategory = true
        button.titleLabel?.numberOfLines = 0
        // Text in the tint role is left to the system button, which draws its title in the tint.
        if element.colorRole != .tint {
            button.setTitleColor(self.color(element.colorRole), for: .normal)
        }
        if filled {
            button.backgroundColor = self.color(.tint)
            self.filledButtons.append(button)
        }
        button.layer.cornerRadius = 8
        button.contentEdgeInsets = UIEdgeInsets(top: 10, left: 12, bottom: 10, right: 12)
        // The close control reads its localised title; the layout's label is the English default.
        button.accessibilityLabel = element == .close ? title : element.accessibilityLabel
        button.addTarget(self, action: #selector(self.tapped(_:)), for: .touchUpInside)
        self.buttons[button] = effects
        return button
    }

    /// The filled button follows the app's tint, which is known once the card is in a window.
    override func tintColorDidChange() {
        super.tintColorDidChange()
        for button in self.filledButtons {
            button.backgroundColor = self.color(.tint)
            button.setTitleColor(self.color(.onTint), for: .normal)
        }
    }

    /// `color` in sRGB 0 … 255, when UIKit can express it so.
    private static func rgba(_ color: UIColor) -> InAppRGBA? {
        var (red, green, blue, alpha): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
        guard color.getRed(&red, green: &green, blue: &blue, alpha: &alpha) else { return nil }
        let byte = { (value: CGFloat) in UInt8(max(0, min(255, (value * 255).rounded()))) }
        return InAppRGBA(byte(red), byte(green), byte(blue), alpha: Double(alpha))
    }

    @objc private func tapped(_ sender: UIButton) {
        guard let effects = self.buttons[sender] else { return }
        self.onEffects(effects)
    }

    private func font(_ style: InAppNativeLayout.TextStyle?) -> UIFont {
        switch style {
        case .headline: UIFont.preferredFont(forTextStyle: .headline)
        case .button:
            // Callout's size at the default text size, semibold, scaled with the person's setting.
            UIFontMetrics(forTextStyle: .callout).scaledFont(for: .systemFont(ofSize: 16, weight: .semibold))
        case .body, nil: UIFont.preferredFont(forTextStyle: .body)
        }
    }

    private func color(_ role: InAppNativeLayout.ColorRole) -> UIColor {
        switch role {
        case .background: .systemBackground
        case .primaryText: .label
        case .secondaryText: .secondaryLabel
        case .tint: self.tintColor
        case .onTint:
            // White, or black on a light tint: the rule the previews and tables use (GAP-44).
            Self.rgba(self.tintColor).map { tint -> UIColor in
                InAppNativeStyle.onTint(tint) == InAppRGBA.black ? UIColor.black : UIColor.white
            } ?? UIColor.white
        case .closeControl: .tertiaryLabel
        case .dimming: .black
        }
    }
}
#endif
