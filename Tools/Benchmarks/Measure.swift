import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The monotonic clock every figure is taken with (`CLOCK_MONOTONIC`, a vDSO call on Linux).
enum Monotonic {
    /// Nanoseconds since an arbitrary fixed point.
    @inline(__always)
    static func nanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Seconds between two readings.
    static func seconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e9
    }

    /// Milliseconds between two readings.
    static func milliseconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1e6
    }

    /// Busy-waits for `nanoseconds` without giving up the core (keeps the caller thread hot).
    static func spin(nanoseconds: UInt64) {
        let end = Self.nanoseconds() &+ nanoseconds
        while Self.nanoseconds() < end {}
    }
}

/// CPU time this process has used (user + system, every thread), in microseconds.
///
/// Unlike wall time it barely moves when other processes compete for the cores, so it is the
/// figure to compare two builds with on a busy machine.
func processCPUMicroseconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    func micros(_ time: timeval) -> Double { Double(time.tv_sec) * 1e6 + Double(time.tv_usec) }
    return micros(usage.ru_utime) + micros(usage.ru_stime)
}

/// Order statistics of a sample.
struct Percentiles {
    private let sorted: [Double]

    init(_ samples: [Double]) {
        self.sorted = samples.sorted()
    }

    /// Nearest-rank percentile, `p` in 0...100.
    func value(_ p: Double) -> Double {
        guard !self.sorted.isEmpty else { return .nan }
        let rank = Int((p / 100 * Double(self.sorted.count)).rounded(.up))
        return self.sorted[min(max(rank, 1), self.sorted.count) - 1]
    }

    var median: Double { self.value(50) }
    var maximum: Double { self.sorted.last ?? .nan }
}

/// The median of a few repetitions.
func median(_ values: [Double]) -> Double {
    Percentiles(values).median
}

/// Polls `condition` every `interval` seconds until it holds or `timeout` passes; true when it held.
///
/// Sleeping (not spinning) matters on a 2-core machine: the engine needs the other core. Each
/// wake-up costs a few µs of CPU, so long waits poll less often; the interval bounds the error.
@discardableResult
func waitUntil(timeout: TimeInterval, interval: TimeInterval = 50e-6, _ condition: () -> Bool) -> Bool {
    let deadline = Monotonic.nanoseconds() &+ UInt64(timeout * 1e9)
    let sleep = useconds_t(max(1, interval * 1e6))
    while !condition() {
        if Monotonic.nanoseconds() > deadline { return false }
        usleep(sleep)
    }
    return true
}

/// Resident-set figures from `/proc/self/status` (Linux).
enum ProcessMemory {
    /// `VmRSS` in bytes: resident now.
    static func residentBytes() -> Int? { Self.statusField("VmRSS:") }

    /// `VmHWM` in bytes: the peak resident size since start or the last ``resetPeak()``.
    static func peakResidentBytes() -> Int? { Self.statusField("VmHWM:") }

    /// Resets `VmHWM` to the current RSS (`echo 5 > /proc/self/clear_refs`, Linux ≥ 4.0).
    @discardableResult
    static func resetPeak() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    private static func statusField(_ name: String) -> Int? {
        guard let text = readProcFile("/proc/self/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let number = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Int($0)
            }
            return number.map { $0 * 1024 }  // the kernel reports kB
        }
        return nil
    }
}

/// The text of a `/proc` file (they report size 0, so read until end of file).
func readProcFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
