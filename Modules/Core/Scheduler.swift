public import Foundation

/// A handle to scheduled work that can be cancelled before it runs.
public protocol Cancellable: Sendable {
    /// Prevents the work from running if it has not started yet. Calling it twice is harmless.
    func cancel()
}

/// A serial executor for SDK work: FIFO for immediate work, deadline order for delayed work.
///
/// Everything the SDK engine does runs on one scheduler, which is what makes ordering trivially
/// correct. Production uses ``SerialQueueScheduler``; tests use a manual scheduler with virtual time.
public protocol Scheduler: Sendable {
    /// Runs `work` after all previously enqueued work, in submission order.
    func enqueue(_ work: @escaping @Sendable () -> Void)

    /// Runs `work` once `delay` seconds have passed (a negative delay counts as zero).
    @discardableResult
    func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable

    /// Whether the calling code is running as one of this scheduler's jobs. Confinement checks
    /// (``ExecutorBound``) assert it in debug builds; a scheduler that cannot tell answers `true`.
    var isRunningJob: Bool { get }
}

extension Scheduler {
    /// A scheduler that cannot tell answers `true`.
    public var isRunningJob: Bool { true }
}

/// A ``Scheduler`` backed by a serial `DispatchQueue`.
public struct SerialQueueScheduler: Scheduler {
    private let queue: DispatchQueue
    private let marker = DispatchSpecificKey<Bool>()

    /// Creates a scheduler with its own serial queue.
    public init(label: String) {
        self.init(queue: DispatchQueue(label: label))
    }

    /// A scheduler over `queue`, a serial queue (the main queue, for work that must run on the main
    /// thread).
    package init(queue: DispatchQueue) {
        self.queue = queue
        self.queue.setSpecific(key: self.marker, value: true)
    }

    /// Whether the caller runs on this scheduler's queue.
    public var isRunningJob: Bool {
        DispatchQueue.getSpecific(key: self.marker) == true
    }

    /// Runs `work` on the queue after everything enqueued before it.
    public func enqueue(_ work: @escaping @Sendable () -> Void) {
        self.queue.async(execute: work)
    }

    /// Runs `work` on the queue after `delay` seconds.
    @discardableResult
    public func schedule(after delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> any Cancellable {
        let token = CancellationFlag()
        self.queue.asyncAfter(deadline: .now() + max(0, delay)) {
            if !token.isCancelled { work() }
        }
        return token
    }

    /// Runs `body` on the queue and waits for its result. Never call it from the queue itself.
    public func sync<Result: Sendable>(_ body: @Sendable () -> Result) -> Result {
        self.queue.sync(execute: body)
    }
}

/// A ``Cancellable`` that work checks before it runs.
package final class CancellationFlag: Cancellable {
    private let cancelled = Locked(false)

    /// Creates a flag that is not cancelled.
    package init() {}

    /// Whether ``cancel()`` has been called.
    package var isCancelled: Bool {
        self.cancelled.value
    }

    /// Marks the work as cancelled.
    package func cancel() {
        self.cancelled.withLock { $0 = true }
    }
}
