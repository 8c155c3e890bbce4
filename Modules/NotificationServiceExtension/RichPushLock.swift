internal import Foundation

/// A value guarded by a lock, for this product alone.
///
/// The extension product depends on nothing (PKG-13, NSE-3), so it cannot use `Locked` from
/// `JoryioCore`; this is the same ten lines under another name (the CocoaPods pod compiles every
/// subspec into one module, where two types called `Locked` would collide).
package final class RichPushLock<Value>: @unchecked Sendable {
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
