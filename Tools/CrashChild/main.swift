// The child process of the issue-12 crash test (Tests/JoryioIntegrationTests/SandboxCrashTests.swift).
//
// The test kills this process with SIGKILL at random instants and restarts it on the same storage;
// it learns exactly which `track()` calls returned from the lines written here, straight to fd 1
// with write(2) (no buffering, so a line is in the pipe before the next call starts):
//
//   I              the process started (before initialize)
//   T              initialize() returned
//   R <n>          track() of event n returned
//   Q <size>       (drain) the queue size changed to size
//   D              (drain) the queue is empty: everything was delivered
//   E <message>    something went wrong; the process exits with status 1
//
// Modes:
//
//   joryio-crash-child track <apiHost> <sdkKey> <storageDir> <firstIndex> <run> <batchSize> <sendImmediately 0|1> [<count>]
//       Tracks "Crash Test" {"n": index, "run": run} from firstIndex on, one every millisecond, forever
//       (or `count` events, then drains as below).
//   joryio-crash-child drain <apiHost> <sdkKey> <storageDir>
//       Sends what the storage holds and exits 0 once the queue is empty.
//   joryio-crash-child store <apiHost> <sdkKey> <storageDir> <firstIndex> <run> <count>
//       Tracks `count` events and exits 0 once they are all stored (the sandbox is expected to refuse
//       them, so they stay queued).
//
// A real process may wait on real time, so this one polls; the test itself never sleeps.

import Foundation
import Joryio

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `line` and a newline to fd 1 with write(2), retrying short writes.
func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    var offset = 0
    while offset < bytes.count {
        let written = bytes.withUnsafeBufferPointer { buffer in
            write(1, buffer.baseAddress! + offset, buffer.count - offset)
        }
        if written < 0 {
            if errno == EINTR { continue }
            exit(2)
        }
        offset += written
    }
}

/// Reports `message` and exits with status 1.
func fail(_ message: String) -> Never {
    emit("E \(message)")
    exit(1)
}

/// Sleeps `milliseconds` of real time.
func pause(milliseconds: Int) {
    usleep(UInt32(milliseconds * 1_000))
}

/// A new SDK instance initialized over `storageDir` (its start job may still be running).
func start(
    apiHost: String,
    sdkKey: String,
    storageDir: String,
    batchSize: Int = 20,
    sendImmediately: Bool = false
) -> Joryio {
    let config = JoryioConfig(
        batchSize: batchSize,
        flushInterval: 1,
        sendImmediately: sendImmediately,
        maxQueueSize: 1_000_000,
        trackSessionStart: false,
        retryBackoffMs: 50,
        requestTimeout: 5,
        // `JORYIO_CRASH_LOG=verbose` (any value) logs everything to standard error, for diagnosis.
        logLevel: ProcessInfo.processInfo.environment["JORYIO_CRASH_LOG"] == nil ? .error : .verbose,
        storage: .sqlite(directory: URL(fileURLWithPath: storageDir, isDirectory: true))
    )
    let joryio = Joryio()
    joryio.initialize(sdkKey: sdkKey, apiHost: apiHost, config: config)
    emit("T")
    return joryio
}

/// Flushes until the queue is empty (reporting each size seen), then exits 0; exits 1 after `limit` seconds.
///
/// The size must read 0 for `quiet` seconds in a row: it counts stored events only, so it reads 0
/// while tracked events wait in memory for their group commit, and the start job publishes a
/// snapshot (endpoint set, stored count not yet read) before it counts the stored queue.
func drain(_ joryio: Joryio, quiet: TimeInterval = 1.5, limit: TimeInterval = 60) -> Never {
    let deadline = Date().addingTimeInterval(limit)
    // The endpoint is published by the start job (not every snapshot of which counts the stored queue).
    while joryio.currentApiEndpoint.isEmpty {
        guard Date() < deadline else { fail("the SDK did not start within \(limit) s") }
        pause(milliseconds: 5)
    }
    var lastSize = -1
    var lastFlush = Date.distantPast
    var emptySince: Date?
    while true {
        let size = joryio.getQueueSize()
        if size != lastSize {
            emit("Q \(size)")
            lastSize = size
        }
        emptySince = size == 0 ? (emptySince ?? Date()) : nil
        if let emptySince, Date().timeIntervalSince(emptySince) >= quiet {
            emit("D")
            exit(0)
        }
        guard Date() < deadline else {
            fail(
                "\(size) events still queued after \(limit) s; last error: \(String(describing: joryio.lastTransportError))"
            )
        }
        if Date().timeIntervalSince(lastFlush) > 0.5 {
            joryio.flush()
            lastFlush = Date()
        }
        pause(milliseconds: 5)
    }
}

/// Tracks events `first`, `first + 1`, … (`count` of them, or forever), one per millisecond.
func trackEvents(_ joryio: Joryio, first: Int, run: Int, count: Int?) {
    var index = first
    let deadline = Date().addingTimeInterval(120)  // a safety net: the test kills this process long before
    while count.map({ index < first + $0 }) ?? true {
        joryio.track("Crash Test", properties: ["n": index, "run": run])
        emit("R \(index)")
        index += 1
        if index % 64 == 0, Date() > deadline { fail("tracked for 120 s without being killed") }
        pause(milliseconds: 1)
    }
}

func integer(_ text: String, _ what: String) -> Int {
    guard let value = Int(text) else { fail("\(what) must be an integer, not \(text)") }
    return value
}

emit("I")
let arguments = Array(CommandLine.arguments.dropFirst())
switch (arguments.first, arguments.count) {
case ("track", 8), ("track", 9):
    let joryio = start(
        apiHost: arguments[1],
        sdkKey: arguments[2],
        storageDir: arguments[3],
        batchSize: integer(arguments[6], "batchSize"),
        sendImmediately: arguments[7] == "1"
    )
    let count = arguments.count == 9 ? integer(arguments[8], "count") : nil
    trackEvents(joryio, first: integer(arguments[4], "firstIndex"), run: integer(arguments[5], "run"), count: count)
    joryio.flush()
    drain(joryio)
case ("drain", 4):
    drain(start(apiHost: arguments[1], sdkKey: arguments[2], storageDir: arguments[3]))
case ("store", 7):
    let joryio = start(apiHost: arguments[1], sdkKey: arguments[2], storageDir: arguments[3])
    let count = integer(arguments[6], "count")
    trackEvents(joryio, first: integer(arguments[4], "firstIndex"), run: integer(arguments[5], "run"), count: count)
    let deadline = Date().addingTimeInterval(60)
    while joryio.getQueueSize() < count {
        guard Date() < deadline else { fail("only \(joryio.getQueueSize()) of \(count) events stored after 60 s") }
        pause(milliseconds: 5)
    }
    emit("Q \(joryio.getQueueSize())")
    exit(0)
default:
    fail(
        "usage: joryio-crash-child track <apiHost> <sdkKey> <storageDir> <firstIndex> <run> <batchSize> <0|1> [<count>]"
            + " | drain <apiHost> <sdkKey> <storageDir> | store <apiHost> <sdkKey> <storageDir> <firstIndex> <run> <count>"
    )
}
