package import Foundation
package import JoryioCore

/// The stored form of an ``AttributeQueue``: one secure-store item of compact JSON (ATTR-14).
///
/// ```json
/// {"batches":[{"idempotencyKey":"k1","writes":[W,…]}],"format":1,"waiting":[W,…]}
/// ```
///
/// where each `W` is `{"anonymousId":…,"id":…,"key":…,"op":"set"|"increment"|"unset",
/// "timestamp":"788918400.1234567","userId":…}` plus `"value"` (set) or `"by":"2.0"` (increment);
/// `userId` is absent for an anonymous identity. Keys are sorted by the compact encoder.
///
/// The timestamp (seconds since Foundation's reference date, 2001-01-01T00:00:00Z, which is what
/// `Date` holds, so it converts back bit for bit) and the increment delta are stored as the text of Swift's
/// shortest round-trip form, not as JSON numbers: Foundation's JSON parser on Linux can read a
/// 17-digit double back one ulp off, and the resent request must carry the same operations.
/// Doubles nested in a set value go through that parser; a one-ulp drift there is harmless
/// (the server deduplicates by idempotency key and operation id). The first batch is the request that was in flight (or retried next): after a restart
/// it is sent again first, with the same key and the same writes.
package enum AttributeWriteCodec {
    /// The format this SDK writes; a newer one is refused with ``StorageError/Code/schema``.
    package static let formatVersion: Int64 = 1

    /// The compact JSON of `queue`.
    package static func encode(_ queue: AttributeQueue) -> Data {
        let batches = queue.batches.map { batch -> JSONValue in
            ["idempotencyKey": .string(batch.idempotencyKey), "writes": .array(batch.writes.map(Self.json))]
        }
        let root: JSONValue = [
            "format": .int(Self.formatVersion),
            "batches": .array(batches),
            "waiting": .array(queue.waiting.map(Self.json)),
        ]
        return root.encoded()
    }

    /// Decodes a stored queue; any malformed part makes the whole item unreadable.
    ///
    /// - Throws: ``StorageError`` `.corrupt` for data that is not this format, `.schema` for a
    ///   newer format.
    package static func decode(_ data: Data) throws(StorageError) -> AttributeQueue {
        guard let root = JSONValue.parse(data), root.objectValue != nil else {
            throw StorageError(.corrupt, "stored attribute writes are not a JSON object")
        }
        guard let format = root["format"]?.intValue else {
            throw StorageError(.corrupt, "stored attribute writes have no format version")
        }
        guard format <= Self.formatVersion, format >= 1 else {
            throw StorageError(
                .schema,
                "stored attribute writes have format \(format); this SDK reads \(Self.formatVersion)"
            )
        }
        guard let storedBatches = root["batches"]?.arrayValue, let storedWaiting = root["waiting"]?.arrayValue else {
            throw StorageError(.corrupt, "stored attribute writes lack batches or waiting")
        }
        var batches: [AttributeBatch] = []
        for stored in storedBatches {
            guard let key = stored["idempotencyKey"]?.stringValue, !key.isEmpty,
                let writes = stored["writes"]?.arrayValue, !writes.isEmpty
            else {
                throw StorageError(.corrupt, "a stored attribute batch is malformed")
            }
            batches.append(AttributeBatch(idempotencyKey: key, writes: try Self.writes(writes)))
        }
        return AttributeQueue(batches: batches, waiting: try Self.writes(storedWaiting))
    }

    /// The stored form of one write.
    package static func json(_ write: AttributeWrite) -> JSONValue {
        var members: [String: JSONValue] = [
            "id": .string(write.id),
            "key": .string(write.key),
            "anonymousId": .string(write.anonymousId),
            "timestamp": .string(write.timestamp.timeIntervalSinceReferenceDate.description),
        ]
        if let userId = write.userId { members["userId"] = .string(userId) }
        switch write.operation {
        case .set(let value):
            members["op"] = "set"
            members["value"] = value
        case .increment(let delta):
            members["op"] = "increment"
            members["by"] = .string(delta.description)
        case .unset:
            members["op"] = "unset"
        }
        return .object(members)
    }

    /// The write stored as `json`, or `nil` when it is malformed.
    package static func write(from json: JSONValue) -> AttributeWrite? {
        guard let id = json["id"]?.stringValue, let key = json["key"]?.stringValue,
            let anonymousId = json["anonymousId"]?.stringValue,
            let seconds = json["timestamp"]?.stringValue.flatMap(Double.init), seconds.isFinite
        else { return nil }
        let userId: String?
        switch json["userId"] {
        case nil: userId = nil
        case .string(let value)?: userId = value
        default: return nil
        }
        let operation: AttributeWrite.Operation
        switch json["op"]?.stringValue {
        case "set"?:
            guard let value = json["value"], !value.isNull else { return nil }
            operation = .set(value)
        case "increment"?:
            guard let delta = json["by"]?.stringValue.flatMap(Double.init), delta.isFinite else { return nil }
            operation = .increment(delta)
        case "unset"?:
            operation = .unset
        default:
            return nil
        }
        return AttributeWrite(
            id: id,
            key: key,
            operation: operation,
            userId: userId,
            anonymousId: anonymousId,
            timestamp: Date(timeIntervalSinceReferenceDate: seconds)
        )
    }

    private static func writes(_ stored: [JSONValue]) throws(StorageError) -> [AttributeWrite] {
        var writes: [AttributeWrite] = []
        writes.reserveCapacity(stored.count)
        for element in stored {
            guard let write = Self.write(from: element) else {
                throw StorageError(.corrupt, "a stored attribute write is malformed")
            }
            writes.append(write)
        }
        return writes
    }
}
