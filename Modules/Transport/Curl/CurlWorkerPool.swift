#if canImport(CJoryioCurl)
internal import Foundation
import CJoryioCurl
internal import JoryioCore

/// A request waiting for a worker, with the callback that receives its outcome.
struct CurlJob: Sendable {
    /// The request to send.
    var request: HTTPRequest
    /// Receives the outcome; called exactly once, on a worker thread.
    var completion: @Sendable (Result<HTTPResponse, TransportError>) -> Void
}

/// A fixed set of worker threads, each with its own libcurl easy handle, draining one FIFO queue.
///
/// Each worker reuses its handle across requests (`curl_easy_reset` keeps the connection cache), so
/// consecutive requests to the same host share a keep-alive connection. Workers sleep on an
/// `NSCondition` while the queue is empty; no Dispatch is involved.
///
/// After ``close()``, workers abort the request in flight (through the progress callback), fail every
/// queued job with ``TransportError/Code/cancelled`` and exit. Each worker holds the pool, so the pool
/// and its handles outlive the threads that use them.
final class CurlWorkerPool: @unchecked Sendable {
    // Confined: `handles[i]` is used only by worker thread `i`, and by `deinit`, which can only run after
    // every worker returned (each worker's closure holds `self`). `queue`, `head` and `isClosedStorage`
    // are read and written only while `condition` is locked.
    private let condition = NSCondition()
    private var queue: [CurlJob] = []
    private var head = 0
    private var isClosedStorage = false
    private let handles: [UnsafeMutableRawPointer]
    private let maxResponseBytes: Int
    private let logger: Logger

    /// Creates `workerCount` handles and starts one thread per handle.
    init(workerCount: Int, maxResponseBytes: Int, logger: Logger) {
        CurlGlobal.ensureInitialized()
        self.handles = (0..<max(1, workerCount)).compactMap { _ in curl_easy_init() }
        self.maxResponseBytes = maxResponseBytes
        self.logger = logger
        if self.handles.isEmpty {
            self.logger.error("curl_easy_init failed; every request will fail")
        }
        for index in self.handles.indices {
            let thread = Thread { [self] in self.run(worker: index) }
            thread.name = "io.joryio.transport.curl.\(index)"
            thread.start()
        }
    }

    deinit {
        for handle in self.handles {
            curl_easy_cleanup(handle)
        }
    }

    /// Whether ``close()`` was called.
    var isClosed: Bool {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.isClosedStorage
    }

    /// Queues `job`; `false` (and the job is not queued) when the pool is closed or has no workers.
    func submit(_ job: CurlJob) -> Bool {
        self.condition.lock()
        defer { self.condition.unlock() }
        guard !self.isClosedStorage, !self.handles.isEmpty else { return false }
        self.queue.append(job)
        self.condition.signal()
        return true
    }

    /// Stops accepting work and wakes every worker so it cancels what is left and exits. Idempotent.
    func close() {
        self.condition.lock()
        defer { self.condition.unlock() }
        self.isClosedStorage = true
        self.condition.broadcast()
    }

    /// The next job in FIFO order and whether it must be cancelled, or `nil` once closed and drained.
    private func next() -> (job: CurlJob, cancelled: Bool)? {
        self.condition.lock()
        defer { self.condition.unlock() }
        while self.head == self.queue.count && !self.isClosedStorage {
            self.condition.wait()
        }
        guard self.head < self.queue.count else { return nil }
        let job = self.queue[self.head]
        self.head += 1
        if self.head == self.queue.count || self.head >= 64 {
            self.queue.removeFirst(self.head)
            self.head = 0
        }
        return (job, self.isClosedStorage)
    }

    /// A worker thread's loop.
    private func run(worker index: Int) {
        let handle = self.handles[index]
        while let (job, cancelled) = self.next() {
            let result: Result<HTTPResponse, TransportError>
            if cancelled {
                result = .failure(TransportError(.cancelled, "transport closed before the request started"))
            } else {
                let exchange = CurlExchange(maxResponseBytes: self.maxResponseBytes) { [self] in self.isClosed }
                result = exchange.perform(job.request, on: handle)
            }
            if case .failure(let error) = result {
                self.logger.debug("\(job.request.method) request failed: \(error)")
            }
            job.completion(result)
        }
    }
}
#endif
