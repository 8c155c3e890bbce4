import Foundation
import JoryioCore
import JoryioFuzzSupport

/// Fuzzes the `Retry-After` header parser: never crashes; a delay is finite and never negative.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let value = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let delay = RetryAfter.parse(value, now: Date(timeIntervalSince1970: 1_767_225_600)) {
        fuzzRequire(delay.isFinite && delay >= 0, "delay \(delay) for \(value.debugDescription)")
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
