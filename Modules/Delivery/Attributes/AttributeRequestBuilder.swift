package import Foundation
package import JoryioCore

/// Builds the `POST /v1/attributes` request for a batch (wire-v2, "POST /v1/attributes").
///
/// The body is `{"sentAt":…,"userId":…,"anonymousId":…,"operations":[…]}`; each operation is
/// `{"id","op","key","value"|"by","timestamp"}` in that order. `userId` is left out for an
/// anonymous identity. Increments with an integral delta are written as JSON integers.
package struct AttributeRequestBuilder: Sendable {
    /// The shared part of every request: `apiHost` + `/v1/attributes`, the key, the
    /// `User-Agent`, the timeout and gzip.
    package var post: JSONPost

    /// Creates a builder.
    package init(
        endpoint: URL,
        sdkKey: String,
        userAgent: String,
        timeout: TimeInterval,
        gzip: @escaping @Sendable (Data) -> Data?
    ) {
        self.post = JSONPost(endpoint: endpoint, sdkKey: sdkKey, userAgent: userAgent, timeout: timeout, gzip: gzip)
    }

    /// The request carrying `batch`, sent at `sentAt`.
    package func request(for batch: AttributeBatch, sentAt: Date) -> HTTPRequest {
        self.post.request(
            body: Self.body(for: batch.writes, sentAt: sentAt),
            extraHeaders: [("Idempotency-Key", batch.idempotencyKey)]
        )
    }

    /// The uncompressed body for `writes` (all of one identity: the first write's is used).
    package static func body(for writes: [AttributeWrite], sentAt: Date) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(256)
        Self.appendPrefix(
            userId: writes.first?.userId,
            anonymousId: writes.first?.anonymousId ?? "",
            sentAt: sentAt,
            into: &body
        )
        for (index, write) in writes.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            Self.appendOperation(write, into: &body)
        }
        body += Self.suffix
        return body
    }

    /// The size of the body around the operations for an identity (`sentAt` always takes 24
    /// characters for years 0…9999).
    package static func envelopeSize(userId: String?, anonymousId: String) -> Int {
        var bytes: [UInt8] = []
        Self.appendPrefix(
            userId: userId,
            anonymousId: anonymousId,
            sentAt: Date(timeIntervalSince1970: 0),
            into: &bytes
        )
        return bytes.count + Self.suffix.count
    }

    /// The size of one encoded operation.
    package static func operationSize(_ write: AttributeWrite) -> Int {
        var bytes: [UInt8] = []
        Self.appendOperation(write, into: &bytes)
        return bytes.count
    }

    /// Appends `{"id":…,"op":…,"key":…,"value"|"by":…,"timestamp":…}`.
    package static func appendOperation(_ write: AttributeWrite, into bytes: inout [UInt8]) {
        bytes += Self.idKey
        JSONValue.encode(string: write.id, into: &bytes)
        switch write.operation {
        case .set: bytes += Self.opSet
        case .increment: bytes += Self.opIncrement
        case .unset: bytes += Self.opUnset
        }
        JSONValue.encode(string: write.key, into: &bytes)
        switch write.operation {
        case .set(let value):
            bytes += Self.valueKey
            value.encode(into: &bytes)
        case .increment(let delta):
            bytes += Self.byKey
            Self.number(delta).encode(into: &bytes)
        case .unset:
            break
        }
        bytes += Self.timestampKey
        JSONValue.encode(string: JSONTimestamp.string(from: write.timestamp), into: &bytes)
        bytes.append(UInt8(ascii: "}"))
    }

    /// An integral delta as an integer (`2`, not `2.0`), anything else as a double.
    package static func number(_ value: Double) -> JSONValue {
        if let integer = Int64(exactly: value) { return .int(integer) }
        return .double(value)
    }

    private static func appendPrefix(userId: String?, anonymousId: String, sentAt: Date, into bytes: inout [UInt8]) {
        bytes += Self.prefix
        JSONValue.encode(string: JSONTimestamp.string(from: sentAt), into: &bytes)
        if let userId {
            bytes += Self.userIdKey
            JSONValue.encode(string: userId, into: &bytes)
        }
        bytes += Self.anonymousIdKey
        JSONValue.encode(string: anonymousId, into: &bytes)
        bytes += Self.operationsKey
    }

    private static let prefix = Array(#"{"sentAt":"#.utf8)
    private static let userIdKey = Array(#","userId":"#.utf8)
    private static let anonymousIdKey = Array(#","anonymousId":"#.utf8)
    private static let operationsKey = Array(#","operations":["#.utf8)
    private static let suffix = Array("]}".utf8)
    private static let idKey = Array(#"{"id":"#.utf8)
    private static let opSet = Array(#","op":"set","key":"#.utf8)
    private static let opIncrement = Array(#","op":"increment","key":"#.utf8)
    private static let opUnset = Array(#","op":"unset","key":"#.utf8)
    private static let valueKey = Array(#","value":"#.utf8)
    private static let byKey = Array(#","by":"#.utf8)
    private static let timestampKey = Array(#","timestamp":"#.utf8)
}
