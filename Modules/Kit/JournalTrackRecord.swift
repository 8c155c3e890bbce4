internal import Foundation

/// The body of one journal record: a `track()` call as the caller's thread checked it.
///
/// Layout (little-endian): format version (1 byte, 1), the call's time as the bit pattern of a
/// `Double` of seconds since 1970 (8), the name's UTF-8 length (2), the name, then the properties'
/// canonical JSON to the end. A body of another version, or one that does not add up, is refused.
enum JournalTrackRecord {
    static let version: UInt8 = 1
    private static let fixedSize = 11

    /// The decoded call.
    struct Call {
        var name: String
        var timestamp: Date
        var properties: [UInt8]
    }

    /// The body's size for `name` (UTF-8) and `properties`.
    static func size(name: String, properties: [UInt8]) -> Int {
        Self.fixedSize + name.utf8.count + properties.count
    }

    /// Writes the body into `buffer`, which is exactly ``size(name:properties:)`` bytes.
    static func write(name: String, timestamp: Date, properties: [UInt8], into buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        base.storeBytes(of: Self.version, as: UInt8.self)
        let seconds = timestamp.timeIntervalSince1970.bitPattern.littleEndian
        base.storeBytes(of: seconds, toByteOffset: 1, as: UInt64.self)
        var name = name
        name.withUTF8 { utf8 in
            let length = UInt16(truncatingIfNeeded: utf8.count).littleEndian
            base.storeBytes(of: length, toByteOffset: 9, as: UInt16.self)
            if let start = utf8.baseAddress { (base + 11).copyMemory(from: start, byteCount: utf8.count) }
            properties.withUnsafeBytes { bytes in
                if let start = bytes.baseAddress {
                    (base + 11 + utf8.count).copyMemory(from: start, byteCount: bytes.count)
                }
            }
        }
    }

    /// The call in `body`, or `nil` when it is not a version-1 body that adds up.
    static func decode(_ body: UnsafeRawBufferPointer) -> Call? {
        guard body.count >= Self.fixedSize, body[0] == Self.version else { return nil }
        let bits = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        let length = Int(UInt16(littleEndian: body.loadUnaligned(fromByteOffset: 9, as: UInt16.self)))
        guard body.count - Self.fixedSize >= length else { return nil }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { return nil }
        let name = String(decoding: body[Self.fixedSize..<Self.fixedSize + length], as: UTF8.self)
        let properties = Array(body[(Self.fixedSize + length)...])
        return Call(name: name, timestamp: Date(timeIntervalSince1970: seconds), properties: properties)
    }
}
