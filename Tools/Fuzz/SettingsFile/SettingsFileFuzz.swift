import Foundation
import JoryioFuzzSupport
import JoryioStorage

/// Fuzzes the key-value settings file (`FileKeyValueStore.decode`): never crashes, and the values
/// of a usable file encode to a file that decodes to the same values.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard case .values(let values) = FileKeyValueStore.decode(Data(bytes: start, count: count)) else { return 0 }
    guard let encoded = try? FileKeyValueStore.encode(values) else {
        fuzzRequire(false, "decoded values cannot be encoded")
        return 0
    }
    guard case .values(let again) = FileKeyValueStore.decode(encoded) else {
        fuzzRequire(false, "an encoded settings file is unusable")
        return 0
    }
    fuzzRequire(again == values, "decode(encode(values)) != values")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
