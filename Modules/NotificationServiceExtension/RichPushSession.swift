package import Foundation

/// The work of the extension for one notification, platform-neutral: read the payload, download the
/// media within the limits, and deliver exactly one ``RichPushOutcome`` (NSE-4 … NSE-7, VIDEO-8,
/// SOUND-5).
///
/// Whatever happens first wins, and delivers: the download finishing (the changes, or the original
/// content when it failed), the extension's own deadline, or the system's
/// `serviceExtensionTimeWillExpire` (``timeWillExpire()``), both of which deliver the original
/// content unmodified and cancel the download. Anything later is ignored; a file downloaded too
/// late is removed. `deliver` runs outside the session's lock, on whichever thread won.
package final class RichPushSession: Sendable {
    private enum Phase {
        case idle
        case running(cancel: (@Sendable () -> Void)?)
        case delivered
    }

    private let payload: RichPushPayload
    private let limits: RichPushLimits
    private let directory: URL
    private let downloader: any RichPushDownloader
    private let timer: any RichPushTimer
    private let deliver: @Sendable (RichPushOutcome) -> Void
    private let phase = RichPushLock(Phase.idle)

    /// A session for one notification.
    ///
    /// - Parameters:
    ///   - payload: What the notification asks for.
    ///   - limits: The deadline, the size caps and the redirect count.
    ///   - directory: Where downloaded files go (a temporary directory).
    ///   - downloader: The network seam.
    ///   - timer: Runs the deadline.
    ///   - deliver: Called exactly once with the outcome.
    package init(
        payload: RichPushPayload,
        limits: RichPushLimits = .standard,
        directory: URL,
        downloader: any RichPushDownloader,
        timer: any RichPushTimer,
        deliver: @escaping @Sendable (RichPushOutcome) -> Void
    ) {
        self.payload = payload
        self.limits = limits
        self.directory = directory
        self.downloader = downloader
        self.timer = timer
        self.deliver = deliver
    }

    /// The directory the live extension downloads into.
    package static var defaultDirectory: URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("JoryioRichPush", isDirectory: true)
    }

    /// Whether the outcome has been delivered.
    package var isDelivered: Bool {
        if case .delivered = self.phase.value { return true }
        return false
    }

    /// Starts the work; delivers at once when there is nothing to download. Call once.
    package func start() {
        let started = self.phase.withLock { phase in
            guard case .idle = phase else { return false }
            phase = .running(cancel: nil)
            return true
        }
        guard started else { return }
        guard self.payload.needsWork else {
            self.finish(.original(.nothingToChange))
            return
        }
        guard let url = self.payload.mediaURL else {
            self.finish(.modified(RichPushChanges(attachment: nil, sound: self.payload.sound)))
            return
        }
        // Strong captures: the session lives until it has delivered, whoever holds it.
        self.timer.after(self.limits.deadline) { self.expire(.deadline) }
        let cancel = self.downloader.download(url, limits: self.limits, into: self.directory) { result in
            self.downloaded(result)
        }
        let cancelNow = self.phase.withLock { phase in
            guard case .running = phase else { return true }
            phase = .running(cancel: cancel)
            return false
        }
        if cancelNow { cancel() }
    }

    /// The system's time is up: the original content, unless something was delivered already.
    package func timeWillExpire() {
        self.expire(.timeWillExpire)
    }

    private func expire(_ reason: RichPushOutcome.Reason) {
        guard let cancel = self.claim() else { return }
        self.deliver(.original(reason))
        cancel?()
    }

    private func downloaded(_ result: Result<RichPushMediaFile, RichPushFailure>) {
        switch result {
        case .success(let file):
            guard self.claim() != nil else {
                try? FileManager.default.removeItem(at: file.url)
                return
            }
            self.deliver(.modified(RichPushChanges(attachment: file, sound: self.payload.sound)))
        case .failure(let failure):
            guard self.claim() != nil else { return }
            self.deliver(.original(.failed(failure)))
        }
    }

    private func finish(_ outcome: RichPushOutcome) {
        guard self.claim() != nil else { return }
        self.deliver(outcome)
    }

    /// Marks the session delivered; `nil` when it already was, else the download's cancel (if any).
    private func claim() -> (@Sendable () -> Void)?? {
        self.phase.withLock { phase in
            switch phase {
            case .delivered:
                return nil
            case .idle:
                phase = .delivered
                return .some(nil)
            case .running(let cancel):
                phase = .delivered
                return .some(cancel)
            }
        }
    }
}
