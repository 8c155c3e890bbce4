import Foundation
import JoryioCore
import JoryioDelivery
import JoryioFuzzSupport

/// Fuzzes the durable-write channel's response classifier (`DurableOutcome`).
/// Byte 1 picks the status, byte 2 the request's item count, byte 3 whether a `Retry-After`
/// header (bytes up to the first newline of the rest) comes with the body (the remaining bytes).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let statuses = [200, 200, 200, 201, 204, 400, 401, 402, 403, 404, 409, 413, 422, 429, 500, 503]
    let selector = Int(input.byte())
    let status = selector < 240 ? statuses[selector % statuses.count] : 100 + selector
    let items = Int(input.byte())
    let withRetryAfter = input.byte() % 2 == 1
    var headers: [String: String] = [:]
    var body = input.rest
    if withRetryAfter {
        let line = body.prefix { $0 != 0x0A }
        headers["Retry-After"] = String(decoding: line, as: UTF8.self)
        body = body.dropFirst(line.count + 1)
    }
    let response = HTTPResponse(status: status, headers: headers, body: Data(body))
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    _ = items
    _ = DurableOutcome.table.classify(.success(response), now: now)
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
