package import JoryioCore

/// The sound of a Joryio notification, from the standard `aps.sound` (SOUND-5, SOUND-6, GAP-78).
///
/// A custom name is kept only when it ends in `.aif`, `.caf` or `.wav` (any case) and names a file,
/// not a path; the file is looked up by iOS in the app bundle's root or `Library/Sounds`. Any other
/// name plays the default sound, with a warning. `aps.sound` may also be the critical-alert
/// dictionary, whose `name` is read the same way.
package enum PushSound: Sendable, Equatable {
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

    /// Reads `aps.sound`; an ignored name adds ``PushWarning/soundIgnored(_:)``.
    package init(_ value: JSONValue?, warnings: inout [PushWarning]) {
        let name: String
        switch value {
        case nil, .null?:
            self = .none
            return
        case .string(let text)?:
            name = text
        case .object(let members)?:
            guard let text = members["name"]?.stringValue else {
                self = .defaultSound
                return
            }
            name = text
        case _?:
            self = .defaultSound
            return
        }
        self = Self.decide(name, warnings: &warnings)
    }

    /// The sound for a name: `.named` for a valid file name, else the default sound.
    package static func decide(_ name: String, warnings: inout [PushWarning]) -> PushSound {
        if name.isEmpty || name == "default" { return .defaultSound }
        let lowered = name.lowercased()
        let valid =
            name.utf8.count <= Self.maxNameLength && !name.contains("/")
            && Self.allowedExtensions.contains(where: { lowered.hasSuffix($0) && lowered.count > $0.count })
        guard valid else {
            warnings.append(.soundIgnored(String(name.prefix(64))))
            return .defaultSound
        }
        return .named(name)
    }
}
