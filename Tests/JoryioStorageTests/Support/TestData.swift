import Foundation
import JoryioCore

/// Payloads `prefix-0`, `prefix-1`, … as UTF-8 data.
func payloads(_ count: Int, prefix: String = "event", from start: Int = 0) -> [Data] {
    (start..<(start + count)).map { Data("\(prefix)-\($0)".utf8) }
}

/// Test data of exactly `count` bytes.
func bytes(_ count: Int, _ value: UInt8 = 0x61) -> Data {
    Data(repeating: value, count: count)
}

/// Every record of `store`, oldest first.
func allRecords(_ store: any QueueStore) throws -> [QueueRecord] {
    try store.peek(limit: .max, maxBytes: .max)
}
