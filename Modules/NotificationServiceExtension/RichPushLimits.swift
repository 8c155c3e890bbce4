package import Foundation

/// The bounds of one attachment download: a deadline well inside the extension's time budget, a
/// size cap per media family, and how many redirects are followed (NSE-7, VIDEO-8).
///
/// The system gives a Notification Service Extension about 30 seconds before it calls
/// `serviceExtensionTimeWillExpire`, and 24 MB of memory. The download streams to a file, so memory
/// does not grow with the size; the caps are `UNNotificationAttachment`'s own limits (larger files
/// are refused by iOS anyway, after the time was spent).
package struct RichPushLimits: Sendable, Equatable {
    /// Seconds from the start until the download is abandoned and the original content delivered.
    package var deadline: TimeInterval
    /// The largest image (JPEG, PNG, GIF), in bytes.
    package var maxImageBytes: Int
    /// The largest video (MP4, MOV, M4V), in bytes.
    package var maxVideoBytes: Int
    /// The largest audio file, in bytes.
    package var maxAudioBytes: Int
    /// Redirects followed (each to an allowed URL, ``RichPushURLPolicy``).
    package var maxRedirects: Int

    /// The defaults: 25 s (5 s before the system's 30 s), 10 MB images, 50 MB video, 5 MB audio,
    /// 3 redirects.
    package static let standard = RichPushLimits(
        deadline: 25,
        maxImageBytes: 10_000_000,
        maxVideoBytes: 50_000_000,
        maxAudioBytes: 5_000_000,
        maxRedirects: 3
    )

    /// Builds limits; see ``standard`` for the defaults.
    package init(deadline: TimeInterval, maxImageBytes: Int, maxVideoBytes: Int, maxAudioBytes: Int, maxRedirects: Int)
    {
        self.deadline = deadline
        self.maxImageBytes = maxImageBytes
        self.maxVideoBytes = maxVideoBytes
        self.maxAudioBytes = maxAudioBytes
        self.maxRedirects = maxRedirects
    }

    /// The cap for a type, or the largest cap while the type is not known yet.
    package func maxBytes(for type: RichPushMediaType?) -> Int {
        switch type?.family {
        case .image?: self.maxImageBytes
        case .video?: self.maxVideoBytes
        case .audio?: self.maxAudioBytes
        case nil: max(self.maxImageBytes, self.maxVideoBytes, self.maxAudioBytes)
        }
    }
}
