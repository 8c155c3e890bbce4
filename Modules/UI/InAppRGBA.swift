import Foundation

/// A concrete colour: 8-bit sRGB channels and an opacity from 0 to 1.
package struct InAppRGBA: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    package var red: UInt8
    /// Green, 0…255.
    package var green: UInt8
    /// Blue, 0…255.
    package var blue: UInt8
    /// Opacity, 0…1.
    package var alpha: Double

    /// A colour from its channels.
    package init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = min(max(alpha, 0), 1)
    }

    /// The same colour at another opacity.
    package func withAlpha(_ alpha: Double) -> InAppRGBA {
        InAppRGBA(self.red, self.green, self.blue, alpha: alpha)
    }

    /// CSS: `rgb(r, g, b)` when opaque, else `rgba(r, g, b, a)` with at most three decimals.
    package var css: String {
        if self.alpha >= 1 {
            return "rgb(\(self.red), \(self.green), \(self.blue))"
        }
        let thousandths = Int((self.alpha * 1000).rounded())
        let fraction = String(thousandths % 1000)
        let padded = String(repeating: "0", count: 3 - fraction.count) + fraction
        var decimals = Substring(padded)
        while decimals.last == "0" {
            decimals = decimals.dropLast()
        }
        let number = decimals.isEmpty ? "\(thousandths / 1000)" : "\(thousandths / 1000).\(decimals)"
        return "rgba(\(self.red), \(self.green), \(self.blue), \(number))"
    }

    /// The CSS form, for test output.
    package var description: String { self.css }

    /// WCAG 2 relative luminance of the opaque colour.
    package var relativeLuminance: Double {
        func linear(_ channel: UInt8) -> Double {
            let value = Double(channel) / 255
            return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(self.red) + 0.7152 * linear(self.green) + 0.0722 * linear(self.blue)
    }

    /// WCAG 2 contrast ratio between two opaque colours, 1…21.
    package static func contrastRatio(_ first: InAppRGBA, _ second: InAppRGBA) -> Double {
        let lighter = max(first.relativeLuminance, second.relativeLuminance)
        let darker = min(first.relativeLuminance, second.relativeLuminance)
        return (lighter + 0.05) / (darker + 0.05)
    }

    /// Opaque white.
    package static let white = InAppRGBA(255, 255, 255)
    /// Opaque black.
    package static let black = InAppRGBA(0, 0, 0)

    /// UIKit's `.systemBlue`: the default tint.
    package static func systemBlue(_ scheme: InAppAppearance.ColorScheme) -> InAppRGBA {
        scheme == .light ? InAppRGBA(0, 122, 255) : InAppRGBA(10, 132, 255)
    }
}
