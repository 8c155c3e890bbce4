#if canImport(UIKit) && !os(watchOS)
public import Foundation
public import JoryioCore
import UIKit

/// INIT-14 on iOS: the probe file, re-checked at every `protectedDataDidBecomeAvailable`
/// notification (an unlock) until it reads.
public final class FirstUnlockStorageAvailability: StorageAvailability {
    private let probe: FirstUnlockProbe
    private let observer = Locked<(any NSObjectProtocol)?>(nil)
    private let waiting = Locked<[@Sendable () -> Void]>([])

    /// Availability from the probe file at `url` (in the SDK's directory).
    public init(probeFile url: URL) {
        self.probe = FirstUnlockProbe(
            read: { _ = try Data(contentsOf: url) },
            create: { try Data().write(to: url, options: [.completeFileProtectionUntilFirstUserAuthentication]) }
        )
    }

    /// Whether the stores can be read now.
    /// Whether the probe file reads (or can be created) now.
    public var isAvailable: Bool { self.probe.isReadable() }

    /// Calls `body` once the stores are readable: at once, or at the unlock.
    public func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        self.waiting.withLock { $0.append(body) }
        self.observer.withLock { observer in
            guard observer == nil else { return }
            observer = NotificationCenter.default.addObserver(
                forName: UIApplication.protectedDataDidBecomeAvailableNotification,
                object: nil,
                queue: nil
            ) { [weak self] _ in self?.check() }
        }
        self.check()
    }

    private func check() {
        guard self.probe.isReadable() else { return }
        let ready = self.waiting.withLock { waiting -> [@Sendable () -> Void] in
            defer { waiting = [] }
            return waiting
        }
        if !ready.isEmpty,
            let observer = self.observer.withLock({ observer in
                defer { observer = nil }
                return observer
            })
        {
            NotificationCenter.default.removeObserver(observer)
        }
        for body in ready { body() }
    }
}
#endif
