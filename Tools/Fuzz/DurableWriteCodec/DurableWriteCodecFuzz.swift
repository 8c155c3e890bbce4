import Foundation
import JoryioDelivery
import JoryioFuzzSupport

/// Fuzzes the stored durable-write record (`DurableWriteCodec.decode`): never crashes, and a
/// decoded write encodes to a record that decodes to the same write and encodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let write = DurableWriteCodec.decode(Data(bytes: start, count: count)) else { return 0 }
    let encoded = DurableWriteCodec.encode(write)
    let again = DurableWriteCodec.decode(encoded)
    fuzzRequire(again == write, "decode(encode(write)) != write")
    fuzzRequire(again.map(DurableWriteCodec.encode) == encoded, "encode is not stable")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
