public import JoryioCore

/// A device before its first unlock, for tests: storage is unreadable until ``unlock()``.
public final class ManualStorageAvailability: StorageAvailability {
    private struct State {
        var available: Bool
        var waiting: [@Sendable () -> Void] = []
    }

    private let state: Locked<State>

    /// Locked since power-on unless `available`.
    public init(available: Bool = false) {
        self.state = Locked(State(available: available))
    }

    /// Whether the stores can be read now.
    public var isAvailable: Bool {
        self.state.withLock { $0.available }
    }

    /// Calls `body` once the stores are readable: at once, or at the unlock.
    public func whenAvailable(_ body: @escaping @Sendable () -> Void) {
        let now = self.state.withLock { state -> Bool in
            if !state.available { state.waiting.append(body) }
            return state.available
        }
        if now { body() }
    }

    /// The first unlock: storage becomes readable and everything waiting runs, in order.
    public func unlock() {
        let waiting = self.state.withLock { state -> [@Sendable () -> Void] in
            state.available = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for body in waiting { body() }
    }
}
