import Foundation
import JoryioAuth
import JoryioFuzzSupport

/// Fuzzes the stored SDK-auth token book (`AuthTokenBook(data:)`): never crashes, and a decoded
/// book encodes to bytes that decode to the same book and encode to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let book = AuthTokenBook(data: Data(bytes: start, count: count)) else { return 0 }
    let encoded = book.encoded()
    let again = AuthTokenBook(data: encoded)
    fuzzRequire(again == book, "AuthTokenBook(data: book.encoded()) != book")
    fuzzRequire(again?.encoded() == encoded, "encoded() is not stable")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
