import Foundation
import JoryioCore
import JoryioDelivery
import Testing

@Suite struct AttributeWireTests {
    private let time = Date(timeIntervalSince1970: 1_767_225_600.5)
    private let endpoint = URL(string: "https://api.test.joryio.com/v1/attributes") ?? URL(fileURLWithPath: "/")

    private func builder() -> AttributeRequestBuilder {
        AttributeRequestBuilder(endpoint: self.endpoint, sdkKey: "jry_sdk_ios_k", userAgent: "ua", timeout: 7) {
            Data("GZ".utf8) + $0
        }
    }

    private func write(
        _ id: String,
        _ key: String,
        _ operation: AttributeWrite.Operation,
        user: String? = "u1"
    ) -> AttributeWrite {
        AttributeWrite(id: id, key: key, operation: operation, userId: user, anonymousId: "a1", timestamp: self.time)
    }

    @Test("the body is exactly the wire-v2 shape; integral deltas are integers")
    func exactBody() throws {
        let batch = AttributeBatch(
            idempotencyKey: "idem-1",
            writes: [
                self.write("w1", "plan", .set("pro")),
                self.write("w2", "visits", .increment(2)),
                self.write("w3", "score", .increment(-0.5)),
                self.write("w4", "nickname", .unset),
                self.write("w5", "tags", .set(["a": [1, 2.0]])),
            ]
        )
        let request = self.builder().request(for: batch, sentAt: Date(timeIntervalSince1970: 1_767_225_601))
        let body = String(decoding: try #require(request.body), as: UTF8.self)
        let ts = "2026-01-01T00:00:00.500Z"
        #expect(
            body == #"{"sentAt":"2026-01-01T00:00:01.000Z","userId":"u1","anonymousId":"a1","operations":["#
                + #"{"id":"w1","op":"set","key":"plan","value":"pro","timestamp":"\#(ts)"},"#
                + #"{"id":"w2","op":"increment","key":"visits","by":2,"timestamp":"\#(ts)"},"#
                + #"{"id":"w3","op":"increment","key":"score","by":-0.5,"timestamp":"\#(ts)"},"#
                + #"{"id":"w4","op":"unset","key":"nickname","timestamp":"\#(ts)"},"#
                + #"{"id":"w5","op":"set","key":"tags","value":{"a":[1,2.0]},"timestamp":"\#(ts)"}]}"#
        )
        #expect((try? JSONSerialization.jsonObject(with: try #require(request.body))) != nil)
    }

    @Test("method, URL, headers (Idempotency-Key), no userId for an anonymous identity")
    func headers() throws {
        let request = self.builder().request(
            for: AttributeBatch(idempotencyKey: "idem-9", writes: [self.write("w1", "a", .unset, user: nil)]),
            sentAt: self.time
        )
        #expect(request.method == "POST")
        #expect(request.url == self.endpoint)
        #expect(request.timeout == 7)
        #expect(request.header("Idempotency-Key") == "idem-9")
        #expect(request.header("X-Joryio-Sdk-Key") == "jry_sdk_ios_k")
        #expect(request.header("User-Agent") == "ua")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Content-Encoding") == nil)
        let data = try #require(request.body)
        let body = try #require(JSONValue.parse(data))
        #expect(body.objectValue?.keys.sorted() == ["anonymousId", "operations", "sentAt"])
    }

    @Test("bodies of 1024 bytes or more are gzipped, smaller ones are not")
    func gzip() throws {
        let envelope = AttributeRequestBuilder.envelopeSize(userId: "u1", anonymousId: "a1")
        let empty = AttributeRequestBuilder.operationSize(self.write("w1", "k", .set("")))
        func request(size: Int) -> HTTPRequest {
            let value = String(repeating: "x", count: size - envelope - empty)
            return self.builder().request(
                for: AttributeBatch(idempotencyKey: "k", writes: [self.write("w1", "k", .set(.string(value)))]),
                sentAt: self.time
            )
        }
        #expect(request(size: 1023).body?.count == 1023)
        #expect(request(size: 1023).header("Content-Encoding") == nil)
        let compressed = request(size: 1024)
        #expect(compressed.header("Content-Encoding") == "gzip")
        #expect(compressed.body?.prefix(2) == Data("GZ".utf8))
        #expect(compressed.body?.count == 1026)
    }

    @Test("the stored form: compact JSON with a format version, sorted keys")
    func storedForm() throws {
        let queue = AttributeQueue(
            batches: [AttributeBatch(idempotencyKey: "k1", writes: [self.write("w1", "visits", .increment(2))])],
            waiting: [self.write("w2", "n", .unset, user: nil)]
        )
        let text = String(decoding: AttributeWriteCodec.encode(queue), as: UTF8.self)
        #expect(
            text
                == #"{"batches":[{"idempotencyKey":"k1","writes":[{"anonymousId":"a1","by":"2.0","id":"w1","key":"visits","op":"increment","timestamp":"788918400.5","userId":"u1"}]}],"#
                + #""format":1,"waiting":[{"anonymousId":"a1","id":"w2","key":"n","op":"unset","timestamp":"788918400.5"}]}"#
        )
        #expect(try AttributeWriteCodec.decode(AttributeWriteCodec.encode(queue)) == queue)
    }

    @Test("decoding refuses malformed and newer data with a storage error code")
    func decodeErrors() {
        func code(_ text: String) -> StorageError.Code? {
            do {
                _ = try AttributeWriteCodec.decode(Data(text.utf8))
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code("[]") == .corrupt)
        #expect(code(#"{"format":3,"batches":[],"waiting":[]}"#) == .schema)
        #expect(
            code(
                #"{"format":1,"batches":[],"waiting":[{"id":"w","key":"k","anonymousId":"a","timestamp":"1","op":"set","value":null}]}"#
            ) == .corrupt
        )
        #expect(
            code(
                #"{"format":1,"batches":[],"waiting":[{"id":"w","key":"k","anonymousId":"a","timestamp":"1","op":"increment","by":2}]}"#
            ) == .corrupt
        )
        #expect(
            code(
                #"{"format":1,"batches":[],"waiting":[{"id":"w","key":"k","anonymousId":"a","timestamp":"1","op":"unset","userId":5}]}"#
            ) == .corrupt
        )
        #expect(code(#"{"format":1,"batches":[{"idempotencyKey":"k","writes":[]}],"waiting":[]}"#) == .corrupt)
        #expect(
            code(
                #"{"format":1,"batches":[],"waiting":[{"id":"w","key":"k","anonymousId":"a","timestamp":"1","op":"unset"}]}"#
            ) == nil
        )
    }

    @Test("responses map to outcomes as in the wire-v2 handling summary")
    func outcomes() {
        let now = self.time
        func classify(_ status: Int, _ body: String = "", _ headers: [String: String] = [:]) -> AttributeOutcome {
            AttributeOutcome.classify(
                .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8))),
                count: 2,
                now: now
            )
        }
        #expect(classify(200, #"{"success":true,"applied":2}"#) == .confirmed)
        #expect(classify(200, #"{"success":true,"replayed":true}"#) == .confirmed)
        #expect(
            classify(200, #"{"success":false,"error":"x"}"#)
                == .retry(.server(message: "x"), retryAfter: nil, sameKey: false)
        )
        #expect(classify(400) == .split(status: 400))
        #expect(classify(413) == .split(status: 413))
        #expect(classify(422) == .split(status: 422))
        #expect(classify(402) == .stop)
        #expect(classify(403) == .forbidden)
        #expect(
            classify(429, "", ["Retry-After": "7"])
                == .retry(.http(status: 429, body: nil), retryAfter: 7, sameKey: true)
        )
        for status in [404, 405, 500, 503] {
            #expect(classify(status) == .retry(.http(status: status, body: nil), retryAfter: nil, sameKey: true))
        }
        #expect(
            AttributeOutcome.classify(.failure(TransportError(.timeout, "t")), count: 2, now: now)
                == .retry(.timeout, retryAfter: nil, sameKey: true)
        )
        if case .retry(.network, nil, true) = AttributeOutcome.classify(
            .failure(TransportError(.connectionLost, "x")),
            count: 2,
            now: now
        ) {
        } else {
            Issue.record("a dropped connection is a network error retried with the same key")
        }
    }
}
