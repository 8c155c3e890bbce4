internal import Foundation

/// The sound of a notification the extension delivers, from the standard `aps.sound` (SOUND-5,
/// GAP-78).
///
/// The same rule as the app-side `PushSound` in `JoryioPush`, duplicated because this product
/// depends on nothing (PKG-13); a test target checks that both decide every name of one table alike.
/// A custom name is kept only when it ends in `.aif`, `.caf` or `.wav` (any case), is at most 255
/// bytes and names a file, not a path. Any other name plays the default sound.
package enum RichPushSound: Sendable, Equatable {
    /// No `aps.sound`: silent.
    case none
    /// The system's default sound (`"default"`, or a name that was ignored).
    case defaultSound
    /// A custom sound file in the app.
    case named(String)

    /// The extensions a custom sound may have, lowercased.
    package static let allowedExtensions = [".aif", ".caf", ".wav"]
    /// The longest name kept, in bytes.
    package static let maxNameLength = 255

    /// Reads the value of `aps.sound` as it appears in `userInfo`: a string, or the critical-alert
    /// dictionary whose `name` is read the same way.
    package init(apsSound value: Any?) {
        switch value {
        case nil:
            self = .none
        case let text as String:
            self = Self.decide(text)
        case let members as [String: Any]:
            if let text = members["name"] as? String {
                self = Self.decide(text)
            } else {
                self = .defaultSound
            }
        case is NSNull:
            self = .none
        default:
            self = .defaultSound
        }
    }

    /// The sound for a name: `.named` for a valid file name, else the default sound.
    package static func decide(_ name: String) -> RichPushSound {
        if name.isEmpty || name == "default" { return .defaultSound }
        return Self.isValidName(name) ? .named(name) : .defaultSound
    }

    /// Whether `name` is a custom sound the extension applies (SOUND-5).
    package static func isValidName(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return name.utf8.count <= Self.maxNameLength && !name.contains("/")
            && Self.allowedExtensions.contains(where: { lowered.hasSuffix($0) && lowered.count > $0.count })
    }
}
