internal import Foundation
internal import JoryioCore

/// Runs `body` on a new thread with `stackSize` bytes of stack (the platform's default when `nil`)
/// and returns its result once the thread is done.
///
/// iOS gives secondary threads 512 KiB and the main thread 1 MiB, so code that runs on the caller's
/// thread must hold there: a stack overflow here ends the whole test process.
package func onThread<Result>(stackSize: Int?, _ body: @escaping @Sendable () -> Result) -> Result {
    let result = Locked<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        let value = body()
        result.withLock { $0 = value }
        done.signal()
    }
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
    done.wait()
    return result.withLock { $0.take()! }
}

/// `levels` containers nested in each other (`{"k":{"k":…{"k":1}}}`, or `[[…[1]…]]`), for input
/// no real app would build but a bug or a hostile payload can.
///
/// Every level is kept, so ``release()`` can drop the chain outermost first: releasing it from the
/// top alone would free one level inside the other, recursing once per level, and overflow the
/// stack of whichever thread did it.
package final class DeepNesting: Sendable {
    package let levels: Int
    private let chain: Locked<[Any]>

    /// Dictionaries (key `k`) or arrays nested `levels` deep around the integer 1.
    package init(levels: Int, arrays: Bool = false) {
        var chain: [Any] = []
        chain.reserveCapacity(levels)
        var current: Any = 1
        for _ in 0..<levels {
            current = arrays ? [current] as [Any] : ["k": current] as [String: Any]
            chain.append(current)
        }
        self.levels = levels
        self.chain = Locked(chain)
    }

    /// The outermost container.
    package var value: Any {
        self.chain.withLock { $0.last ?? 1 }
    }

    /// Frees the chain one level at a time, outermost first.
    package func release() {
        self.chain.withLock { chain in
            while !chain.isEmpty { chain.removeLast() }
        }
    }

    deinit {
        self.release()
    }
}
