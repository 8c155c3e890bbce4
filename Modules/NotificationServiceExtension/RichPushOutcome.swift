/// What the extension hands to the system for one notification: exactly one of these, exactly once.
package enum RichPushOutcome: Sendable, Equatable {
    /// The original content, unmodified (NSE-7), and why.
    case original(Reason)
    /// The original content with these changes.
    case modified(RichPushChanges)

    /// Why the original content is delivered.
    package enum Reason: Sendable, Equatable {
        /// The payload asks for nothing (no media key, no sound to replace).
        case nothingToChange
        /// The download failed.
        case failed(RichPushFailure)
        /// The extension's own deadline passed first (``RichPushLimits/deadline``).
        case deadline
        /// The system called `serviceExtensionTimeWillExpire` first.
        case timeWillExpire
    }
}

/// The changes made to a notification's content.
package struct RichPushChanges: Sendable, Equatable {
    /// The file to attach, or `nil` when only the sound changes.
    package var attachment: RichPushMediaFile?
    /// The sound to set (SOUND-5): `.named` for a valid custom name, `.defaultSound` in place of an
    /// ignored one, `.none` to leave it as it is.
    package var sound: RichPushSound

    /// Describes the changes.
    package init(attachment: RichPushMediaFile?, sound: RichPushSound) {
        self.attachment = attachment
        self.sound = sound
    }
}
