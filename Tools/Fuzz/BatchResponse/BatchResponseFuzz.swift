import Foundation
import JoryioCore
import JoryioDelivery
import JoryioFuzzSupport

/// Fuzzes the event channel's batch response classifier (`BatchOutcome`, `ResponseTable`).
/// The input is read by `FuzzInput.response()`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let (response, items) = input.response()
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    _ = BatchOutcome.classify(.success(response), count: items, now: now)
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
