/// Whether the SDK's storage can be read yet (INIT-14, INIT-15).
///
/// Only a launch before the device's first unlock since power-on finds it unreadable (a background
/// push or a location wake right after a reboot): the Keychain items, UserDefaults and protected
/// files the SDK uses are all `…AfterFirstUnlock`. A merely locked device reads them, so it starts
/// at once. Linux storage is always readable.
public protocol StorageAvailability: Sendable {
    /// Whether the stores can be read now.
    var isAvailable: Bool { get }

    /// Calls `body` once, on any thread, when the stores become readable.
    func whenAvailable(_ body: @escaping @Sendable () -> Void)
}

/// Storage that is always readable (Linux, macOS, tests).
public struct AlwaysAvailableStorage: StorageAvailability {
    /// Creates it.
    public init() {}

    /// Always `true`.
    public var isAvailable: Bool { true }

    /// Calls `body` at once.
    public func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        body()
    }
}
