import Foundation
import JoryioCore
import JoryioDelivery
import Testing

/// The answer skeleton every channel's table is built on.
@Suite struct ResponseTableTests {
    /// An outcome that records which class of answer the skeleton chose.
    private enum Seen: Equatable {
        case accepted(JSONValue, TimeInterval?)
        case refused(JoryioTransportError, TimeInterval?)
        case unconfirmed(JoryioTransportError, TimeInterval?)
        case retry(JoryioTransportError, TimeInterval?)
        case rule(Int, JoryioTransportError, TimeInterval?)
    }

    private let now = Date(timeIntervalSince1970: 1_767_225_600)
    private let table = ResponseTable<Seen>(
        accepted: { .accepted($0, $1) },
        refused: { .refused($0, $1) },
        unconfirmed: { .unconfirmed($0, $1) },
        retry: { .retry($0, $1) }
    )
    .on(409, 418) { .rule($0, $1, $2) }

    private func classify(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> Seen {
        self.table.classify(
            .success(HTTPResponse(status: status, headers: headers, body: Data(body.utf8))),
            now: self.now
        )
    }

    @Test("2xx: only 200 with success:true is accepted, 200 with success:false refused, anything else unconfirmed")
    func twoHundreds() {
        #expect(
            self.classify(200, #"{"success":true}"#, headers: ["Retry-After": "3"]) == .accepted(["success": true], 3)
        )
        #expect(self.classify(200, #"{"success":false,"error":"e"}"#) == .refused(.server(message: "e"), nil))
        #expect(self.classify(200, "[]") == .unconfirmed(.notJoryioResponse, nil))
        #expect(
            self.classify(200, "[]")
                == .unconfirmed(.server(message: "HTTP 200 with a body that is not a JSON object"), nil)
        )
        #expect(
            self.classify(204, #"{"success":true}"#, headers: ["Retry-After": "2"])
                == .unconfirmed(.server(message: "HTTP 204 is not an answer of the Joryio API"), 2)
        )
        #expect(
            self.classify(206, #"{"success":false}"#)
                == .unconfirmed(.server(message: "HTTP 206 is not an answer of the Joryio API"), nil)
        )
        for body in [#"{"x":1}"#, #"{"success":"true"}"#, #"{"success":0}"#, #"{"success":null}"#] {
            #expect(
                self.classify(200, body) == .unconfirmed(.server(message: #"HTTP 200 without "success": true"#), nil),
                "\(body)"
            )
        }
    }

    @Test("listed statuses take their rule; others retry with the body cut to 512 bytes; no answer retries")
    func statuses() {
        #expect(self.classify(409, "dup") == .rule(409, .http(status: 409, body: "dup"), nil))
        #expect(self.classify(418, "", headers: ["Retry-After": "2"]) == .rule(418, .http(status: 418, body: nil), 2))
        let long = String(repeating: "y", count: 600)
        #expect(
            self.classify(503, long)
                == .retry(.http(status: 503, body: String(repeating: "y", count: 512)), nil)
        )
        #expect(
            self.table.classify(.failure(TransportError(.timeout, "t")), now: self.now)
                == .retry(.timeout, nil)
        )
    }

    @Test("a later rule for the same status replaces the earlier one")
    func override() {
        let table = self.table.on(409) { status, _, _ in .rule(status, .timeout, nil) }
        #expect(
            table.classify(.success(HTTPResponse(status: 409, headers: [:], body: Data())), now: self.now)
                == .rule(409, .timeout, nil)
        )
        #expect(self.classify(409) == .rule(409, .http(status: 409, body: nil), nil))
    }
}
