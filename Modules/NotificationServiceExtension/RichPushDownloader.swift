package import Foundation

/// Downloads one attachment into a file: the seam between ``RichPushSession`` and the network, so
/// the session's rules are tested with a double and the download with the real URLSession.
///
/// A conformer calls `completion` exactly once, on any thread, and returns a closure that cancels
/// the download (after which `completion` reports ``RichPushFailure/cancelled`` or whatever came
/// first). It must stream the body to disk (``RichPushMediaReceiver``), refuse URLs and redirects
/// ``RichPushURLPolicy`` does not allow, and stop at the limits it is given.
package protocol RichPushDownloader: Sendable {
    /// Starts downloading `url` into a new file under `directory`.
    func download(
        _ url: URL,
        limits: RichPushLimits,
        into directory: URL,
        completion: @escaping @Sendable (Result<RichPushMediaFile, RichPushFailure>) -> Void
    ) -> @Sendable () -> Void
}

/// Runs an action later, on any thread: the session's deadline (virtual in tests).
package protocol RichPushTimer: Sendable {
    /// Runs `action` once, `seconds` from now.
    func after(_ seconds: TimeInterval, _ action: @escaping @Sendable () -> Void)
}

/// ``RichPushTimer`` on its own serial dispatch queue: a queue made with a label gets a thread even
/// when the global pool is busy, so the deadline fires on time whatever else the process does.
package struct DispatchRichPushTimer: RichPushTimer {
    private let queue = DispatchQueue(label: "io.joryio.rich-push.deadline", qos: .userInitiated)

    /// The live timer.
    package init() {}

    package func after(_ seconds: TimeInterval, _ action: @escaping @Sendable () -> Void) {
        self.queue.asyncAfter(deadline: .now() + seconds, execute: action)
    }
}
