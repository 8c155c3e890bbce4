package import Foundation
package import JoryioCore

/// Builds the `POST /v1/attributes` request for a batch (wire-v2, "POST /v1/attributes").
///
/// The body is `{"sentAt":…,"userId":…,"anonymousId":…,"operations":[…]}`; each operation is
/// `{"id","op","key","value"|"by","timestamp"}` in that order. `userId` is left out for an
/// anonymous identity. Increments with an integral delta are written as JSON integers.
package struct AttributeRequestBuilder: Sendable {
    /// `apiHost` + `/v1/attributes`.
    package var endpoint: URL
    /// The SDK key sent in `X-Joryio-Sdk-Key`.
    package var sdkKey: String
    /// `User-Agent` value.
    package var userAgent: String
    /// The per-request timeout.
    package var timeout: TimeInterval
    /// Bodies of at least this many bytes are gzip-encoded.
    package var gzipThreshold: Int = 1024
    /// Compresses a body; `nil` when compression failed (the body is then sent as is).
    package var gzip: @Sendable (Data) -> Data?

    /// Creates a builder.
    package init(
        endpoint: URL,
        sdkKey: String,
        userAgent: String,
        timeout: TimeInterval,
        gzip: @escaping @Sendable (Data) -> Data?
    ) {
        self.endpoint = endpoint
        self.sdkKey = sdkKey
        self.userAgent = userAgent
        self.timeout = timeout
        self.gzip = gzip
    }

    /// The request carrying `batch`, sent at `sentAt`.
    package func request(for batch: AttributeBatch, sentAt: Date) -> HTTPRequest {
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/json"),
            ("X-Joryio-Sdk-Key", self.sdkKey),
            ("User-Agent", self.userAgent),
            ("Idempotency-Key", batch.idempotencyKey),
        ]
        var wire = Data(Self.body(for: batch.writes, sentAt: sentAt))
        if wire.count >= self.gzipThreshold, let compressed = self.gzip(wire) {
            wire = compressed
            headers.append(("Content-Encoding", "gzip"))
        }
        return HTTPRequest(method: "POST", url: self.endpoint, headers: headers, body: wire, timeout: self.timeout)
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
