package import Foundation
internal import JoryioCore

/// The body of one journal record: a `track()` call as the caller's thread checked and encoded it,
/// so the engine only adds ids and copies bytes.
///
/// Layout (little-endian): format version (1 byte, 1); the call's time as the bit pattern of a
/// `Double` of seconds since 1970 (8); the name's length as a JSON string literal (2); that
/// literal; the timestamp's 24-byte wire text; then the properties' canonical JSON to the end. A
/// body of another version, or one that does not add up, is refused.
package struct JournalTrackRecord {
    static let version: UInt8 = 1
    private static let fixedSize = 11
    private static let timestampSize = 24

    /// The call's time.
    package var timestamp: Date
    /// The name as a JSON string literal, quotes included.
    package var name: UnsafeRawBufferPointer
    /// `timestamp`'s wire text, without quotes.
    package var timestampText: UnsafeRawBufferPointer
    /// The properties' canonical JSON.
    package var properties: UnsafeRawBufferPointer

    /// The name as a string (for log lines and plugins).
    package var nameString: String {
        guard case .string(let name)? = JSONValue.parse(Data(self.name)) else { return "" }
        return name
    }

    /// What the caller writes: the encoded parts and the body's size.
    struct Draft {
        var timestamp: Date
        var name: [UInt8]
        var properties: [UInt8]

        init(name: String, timestamp: Date, properties: [UInt8]) {
            self.timestamp = timestamp
            var literal: [UInt8] = []
            literal.reserveCapacity(name.utf8.count + 8)
            JSONValue.encode(string: name, into: &literal)
            self.name = literal
            self.properties = properties
        }

        var size: Int {
            JournalTrackRecord.fixedSize + self.name.count + JSONTimestamp.byteCount + self.properties.count
        }

        /// Writes the body into `buffer`, which is exactly ``size`` bytes.
        func write(into buffer: UnsafeMutableRawBufferPointer) {
            guard let base = buffer.baseAddress else { return }
            base.storeBytes(of: JournalTrackRecord.version, as: UInt8.self)
            base.storeBytes(
                of: self.timestamp.timeIntervalSince1970.bitPattern.littleEndian,
                toByteOffset: 1,
                as: UInt64.self
            )
            base.storeBytes(
                of: UInt16(truncatingIfNeeded: self.name.count).littleEndian,
                toByteOffset: 9,
                as: UInt16.self
            )
            var offset = JournalTrackRecord.fixedSize
            func put(_ part: [UInt8]) {
                part.withUnsafeBytes { bytes in
                    if let start = bytes.baseAddress { (base + offset).copyMemory(from: start, byteCount: bytes.count) }
                }
                offset += part.count
            }
            put(self.name)
            // The timestamp's wire text, written in place (no string per call).
            JSONTimestamp.write(
                self.timestamp,
                into: UnsafeMutableRawBufferPointer(start: base + offset, count: JSONTimestamp.byteCount)
            )
            offset += JSONTimestamp.byteCount
            put(self.properties)
        }
    }

    /// The call in `body` (pointing into it), or `nil` when it is not a version-1 body that adds up.
    package init?(_ body: UnsafeRawBufferPointer) {
        guard body.count >= Self.fixedSize, body[0] == Self.version else { return nil }
        let bits = UInt64(littleEndian: body.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
        let length = Int(UInt16(littleEndian: body.loadUnaligned(fromByteOffset: 9, as: UInt16.self)))
        guard length >= 2, body.count - Self.fixedSize >= length + Self.timestampSize else { return nil }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { return nil }
        self.timestamp = Date(timeIntervalSince1970: seconds)
        let nameEnd = Self.fixedSize + length
        self.name = UnsafeRawBufferPointer(rebasing: body[Self.fixedSize..<nameEnd])
        self.timestampText = UnsafeRawBufferPointer(rebasing: body[nameEnd..<nameEnd + Self.timestampSize])
        self.properties = UnsafeRawBufferPointer(rebasing: body[(nameEnd + Self.timestampSize)...])
    }
}
