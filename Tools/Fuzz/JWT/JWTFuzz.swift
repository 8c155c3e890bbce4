import Foundation
import JoryioAuth
import JoryioFuzzSupport

/// Fuzzes the JWT claims decoding (`JWT.decode`: `sub` and `exp` of a server-issued token).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let token = String(decoding: UnsafeBufferPointer(start: start, count: count), as: UTF8.self)
    if let claims = JWT.decode(token) {
        fuzzRequire(claims.expiresAt.map { $0.timeIntervalSince1970.isFinite } ?? true, "exp is not finite")
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
