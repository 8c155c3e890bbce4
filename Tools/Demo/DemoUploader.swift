import Foundation
import JoryioCore
import JoryioStorage
import JoryioTransport

/// A minimal uploader over the queue store and transport (the real one, with backoff, splitting
/// and consent, is the event-delivery issue): peek a batch, gzip it, send it, delete what the
/// server accepted, keep everything on failure and honour `Retry-After`.
struct DemoUploader {
    let queue: any QueueStore
    let transport: any Transport
    let endpoint: URL
    let sdkKey: String

    func drain() throws {
        while try self.queue.count() > 0 {
            let records = try self.queue.peek(limit: 50, maxBytes: 900_000)
            var body = Array(#"{"sentAt":"#.utf8)
            JSONValue.encode(string: JSONTimestamp.string(from: Date()), into: &body)
            body += Array(#","batch":["#.utf8)
            for (index, record) in records.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                body += record.payload
            }
            body += Array("]}".utf8)
            var headers: [(name: String, value: String)] = [
                ("Content-Type", "application/json"), ("X-Joryio-Sdk-Key", self.sdkKey),
            ]
            var wire = Data(body)
            if wire.count >= 1024 {
                wire = try Gzip.compress(wire)
                headers.append(("Content-Encoding", "gzip"))
            }
            let request = HTTPRequest(method: "POST", url: self.endpoint, headers: headers, body: wire, timeout: 10)
            switch self.send(request) {
            case .success(let response) where (200..<300).contains(response.status):
                let failed = Set(JSONValue.parse(response.body)?["failedIndices"]?.arrayValue?.compactMap(\.intValue) ?? [])
                let delivered = records.enumerated().filter { !failed.contains(Int64($0.offset)) }.map(\.element.id)
                try self.queue.remove(ids: delivered)
                print("   sent \(records.count) events (\(body.count) B, \(wire.count) B on the wire) -> \(response.status); queue: \(try self.queue.count())")
            case .success(let response):
                let wait = response.retryAfter(now: Date()) ?? 1
                print("   sent \(records.count) events -> \(response.status); all kept, retrying in \(wait) s (Retry-After)")
                Thread.sleep(forTimeInterval: wait)
            case .failure(let error):
                print("   network failure (\(error)); all kept, retrying in 1 s")
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    private func send(_ request: HTTPRequest) -> Result<HTTPResponse, TransportError> {
        let outcome = Locked<Result<HTTPResponse, TransportError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        self.transport.send(request) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.value ?? .failure(TransportError(.other, "no completion"))
    }
}
