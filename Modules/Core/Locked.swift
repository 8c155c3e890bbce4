internal import Foundation

/// A value guarded by a lock: the one `@unchecked Sendable` primitive of the SDK.
///
/// Every access goes through ``withLock(_:)``, so the wrapped value is never touched by two threads
/// at once.
package final class Locked<Value>: @unchecked Sendable {
    // Confined: `protected` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var protected: Value

    /// Wraps `value`.
    package init(_ value: Value) {
        self.protected = value
    }

    /// Runs `body` with exclusive access to the value.
    @discardableResult
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        self.lock.lock()
        defer { self.lock.unlock() }
        return try body(&self.protected)
    }

    /// A copy of the current value.
    package var value: Value {
        self.withLock { $0 }
    }
}
