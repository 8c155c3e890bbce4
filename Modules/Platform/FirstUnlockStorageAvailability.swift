#if canImport(UIKit) && !os(watchOS)
public import Foundation
public import JoryioCore
import UIKit

/// INIT-14 on iOS: the probe file, re-checked at every `protectedDataDidBecomeAvailable`
/// notification (an unlock) and every `didBecomeActive` (in case the unlock's notification came
/// while the app was suspended) until it reads.
public final class FirstUnlockStorageAvailability: StorageAvailability {
    private let probe: FirstUnlockProbe
    private let observers = Locked<[any NSObjectProtocol]>([])
    private let waiting = Locked<[@Sendable () -> Void]>([])

    /// Availability from the probe file at `url` (in the SDK's directory).
    public init(probeFile url: URL) {
        self.probe = FirstUnlockProbe(
            read: { _ = try Data(contentsOf: url) },
            create: { try Data().write(to: url, options: [.completeFileProtectionUntilFirstUserAuthentication]) }
        )
    }

    /// Whether the probe file reads (or can be created) now.
    public var isAvailable: Bool { self.probe.isReadable() }

    /// Calls `body` once the stores are readable: at once, or at the unlock.
    public func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        self.waiting.withLock { $0.append(body) }
        self.observers.withLock { observers in
            guard observers.isEmpty else { return }
            let names = [
                UIApplication.protectedDataDidBecomeAvailableNotification,
                UIApplication.didBecomeActiveNotification,
            ]
            observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                    self?.check()
                }
            }
        }
        self.check()
    }

    private func check() {
        guard self.probe.isReadable() else { return }
        let ready = self.waiting.withLock { waiting -> [@Sendable () -> Void] in
            defer { waiting = [] }
            return waiting
        }
        guard !ready.isEmpty else { return }
        let observers = self.observers.withLock { observers in
            defer { observers = [] }
            return observers
        }
        observers.forEach { NotificationCenter.default.removeObserver($0) }
        for body in ready { body() }
    }
}
#endif
