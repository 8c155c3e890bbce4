package import Foundation

/// Why an attachment was not made; the original content is then delivered unmodified (NSE-7).
package enum RichPushFailure: Error, Sendable, Equatable {
    /// The URL is not `https` (or `http` to a loopback host).
    case urlNotAllowed
    /// A redirect led to a URL that is not allowed.
    case redirectRefused
    /// More redirects than ``RichPushLimits/maxRedirects``.
    case tooManyRedirects
    /// The server answered with a status outside 200 … 299.
    case httpStatus(Int)
    /// The file is, or announced to be, larger than its type's cap (bytes seen or announced).
    case tooLarge(Int)
    /// Neither the `Content-Type` nor the first bytes show a type the extension attaches.
    case unsupportedType
    /// The response had no body.
    case empty
    /// The download stopped: connection, TLS or timeout (the system's description).
    case network(String)
    /// The download was cancelled (the deadline passed, or the system's time is up).
    case cancelled
    /// The file could not be written or moved.
    case file(String)
}

/// A downloaded attachment file, ready for `UNNotificationAttachment`.
package struct RichPushMediaFile: Sendable, Equatable {
    /// The file, in a temporary directory, named with ``RichPushMediaType/fileExtension``.
    package var url: URL
    /// Its type.
    package var type: RichPushMediaType
    /// Its size in bytes.
    package var byteCount: Int
    /// The most body bytes held in memory at once while it was downloaded (one network chunk; the
    /// rest went straight to the file).
    package var peakBufferedBytes: Int

    /// Describes a file.
    package init(url: URL, type: RichPushMediaType, byteCount: Int, peakBufferedBytes: Int) {
        self.url = url
        self.type = type
        self.byteCount = byteCount
        self.peakBufferedBytes = peakBufferedBytes
    }
}
