import Foundation
import JoryioCore
import JoryioFuzzSupport

/// Fuzzes `JSONValue.parse` (every server response body and stored JSON record goes through it):
/// never crashes, and the encoding of a parsed value parses back to a value with the same encoding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let value = JSONValue.parse(Data(bytes: start, count: count)) else { return 0 }
    let encoded = value.encoded()
    let again = JSONValue.parse(encoded)
    fuzzRequire(again != nil, "the encoding of a parsed value does not parse")
    fuzzRequire(again?.encoded() == encoded, "encode(parse(encode(value))) != encode(value)")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
