import Foundation
import JoryioDelivery
import JoryioFuzzSupport

/// Fuzzes the stored attribute queue (`AttributeWriteCodec.decode`): never crashes, and a decoded
/// queue encodes to a record that decodes to the same queue and encodes to the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let queue = try? AttributeWriteCodec.decode(Data(bytes: start, count: count)) else { return 0 }
    let encoded = AttributeWriteCodec.encode(queue)
    let again = try? AttributeWriteCodec.decode(encoded)
    fuzzRequire(again == queue, "decode(encode(queue)) != queue")
    fuzzRequire(again.map(AttributeWriteCodec.encode) == encoded, "encode is not stable")
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
