import Foundation
import JoryioCore
import JoryioFuzzSupport

/// Fuzzes `JSONValue.parse` (every server response body and stored JSON record goes through it):
/// never crashes, and the first encoding is a fixed point: what `encode` writes parses back to the
/// same value and encodes to the same bytes. (With `JSONSerialization` this failed: it dropped some
/// numbers and rounded others to another double; found here, issue 12, fixed by `JSONParser`.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let value = JSONValue.parse(Data(bytes: start, count: count)) else { return 0 }
    let encoded = value.encoded()
    let again = JSONValue.parse(encoded)
    fuzzRequire(again != nil, "the encoding of a parsed value does not parse")
    fuzzRequire(again == value, "parse(encode(value)) != value")
    fuzzRequire(again?.encoded() == encoded, "encode(parse(encode(value))) != encode(value)")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
