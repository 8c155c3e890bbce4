import Foundation
import JoryioCore
import JoryioDelivery
import JoryioStorage
import JoryioTesting
import Testing

/// A kind declared outside Delivery, the way a Push or E-commerce module would declare its own.
extension DurableWrite.Kind {
    fileprivate static func cartAbandoned(cartId: String) -> Self {
        Self(
            name: "cart abandoned",
            method: "PUT",
            path: "v1/carts/abandoned",
            fields: ["cartId": .string(cartId), "items": [1, 2]],
            replacement: .init(key: "cart|\(cartId)", scope: .person),
            isWithdrawal: false,
            responseRules: [404: .reject, 409: .afterEvents]
        )
    }
}

/// Kinds as open data: today's kinds, a kind from another module, and the stored format of the
/// previous version.
@Suite struct DurableKindTests {
    /// One payload per kind, exactly as the previous version stored them (format version 1).
    private static let version1: [(payload: String, kind: DurableWrite.Kind)] = [
        (
            #"{"anonymousId":"anon-1","id":"w1","kind":"identify","timestamp":1767225600250,"userId":"u1","v":1}"#,
            .identify
        ),
        (
            #"{"anonymousId":"anon-1","id":"w1","kind":"alias","label":"crm","name":"C-1","timestamp":1767225600250,"userId":"u1","v":1}"#,
            .alias(label: "crm", name: "C-1")
        ),
        (
            #"{"anonymousId":"anon-1","channel":"email","id":"w1","kind":"subscription","status":"unsubscribed","timestamp":1767225600250,"userId":"u1","v":1}"#,
            .subscription(channel: "email", status: "unsubscribed")
        ),
        (
            #"{"anonymousId":"anon-1","channel":"sms","groupId":"g1","id":"w1","join":true,"kind":"subscriptionGroup","timestamp":1767225600250,"userId":"u1","v":1}"#,
            .subscriptionGroup(channel: "sms", groupId: "g1", join: true)
        ),
        (
            #"{"anonymousId":"anon-1","id":"w1","kind":"optOut","optedOut":false,"timestamp":1767225600250,"userId":"u1","v":1}"#,
            .optOutRecord(optedOut: false)
        ),
        (
            #"{"anonymousId":"anon-1","id":"w1","kind":"pushUnregister","timestamp":1767225600250,"token":"t0k","userId":"u1","v":1}"#,
            .pushUnregister(token: "t0k")
        ),
    ]

    @Test("writes stored by the previous version decode to today's kinds and are sent exactly as new ones")
    func version1Payloads() throws {
        let builder = DurableRequestBuilder(
            apiHost: URL(string: "https://api.test.joryio.com") ?? URL(fileURLWithPath: "/"),
            sdkKey: "k",
            userAgent: "ua",
            timeout: 7
        )
        let sentAt = Date(timeIntervalSince1970: 1_767_225_660)
        for (payload, kind) in Self.version1 {
            let decoded = try #require(DurableWriteCodec.decode(Data(payload.utf8)), "\(payload)")
            let made = write("w1", kind, user: "u1")
            #expect(decoded == made)
            #expect(
                builder.request(for: decoded, userId: "u1", anonymousId: "anon-1", sentAt: sentAt)
                    == builder.request(for: made, userId: "u1", anonymousId: "anon-1", sentAt: sentAt)
            )
            // Stored again in today's format, it reads back the same.
            #expect(DurableWriteCodec.decode(DurableWriteCodec.encode(decoded)) == made)
        }
    }

    @Test("a store written by the previous version is loaded and sent in order")
    func version1Store() throws {
        let store = InMemoryQueueStore()
        try store.append([
            Data(
                #"{"anonymousId":"anon-1","id":"old1","kind":"identify","timestamp":1767225600250,"userId":"u1","v":1}"#
                    .utf8
            ),
            Data(
                #"{"anonymousId":"anon-1","channel":"email","id":"old2","kind":"subscription","status":"subscribed","timestamp":1767225600250,"userId":"u1","v":1}"#
                    .utf8
            ),
        ])
        let rig = DurableRig(store: store)
        rig.drain()
        #expect(rig.sentIds == ["old1", "old2"])
        #expect(rig.paths == ["/v1/identify", "/v1/subscriptions"])
        #expect(DurableRig.body(rig.transport.requests[1])["status"] == "subscribed")
        #expect(try store.count() == 0)
    }

    @Test("a kind from another module: its method, path, fields and replacement, stored whole")
    func foreignKind() throws {
        let kind = DurableWrite.Kind.cartAbandoned(cartId: "c9")
        let made = write("w1", kind, user: "u1")
        #expect(DurableWriteCodec.decode(DurableWriteCodec.encode(made)) == made)
        let request = DurableRequestBuilder(
            apiHost: URL(string: "https://api.test.joryio.com") ?? URL(fileURLWithPath: "/"),
            sdkKey: "k",
            userAgent: "ua",
            timeout: 7
        ).request(for: made, userId: "u1", anonymousId: nil, sentAt: Date(timeIntervalSince1970: 1_767_225_660))
        #expect(request.method == "PUT")
        #expect(request.url.path == "/v1/carts/abandoned")
        #expect(
            String(decoding: request.body ?? Data(), as: UTF8.self)
                == #"{"cartId":"c9","items":[1,2],"sentAt":"2026-01-01T00:01:00.000Z","timestamp":"2026-01-01T00:00:00.250Z","userId":"u1","writeId":"w1"}"#
        )
        #expect(made.replacementKey == write("w2", .cartAbandoned(cartId: "c9"), user: "u1").replacementKey)
        #expect(made.replacementKey != write("w2", .cartAbandoned(cartId: "c9"), user: "u2").replacementKey)
    }

    @Test("a kind's response rules override the channel's table for its statuses only")
    func responseRules() {
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let cart = write("w1", .cartAbandoned(cartId: "c9"))
        func classify(_ status: Int, _ target: DurableWrite = cart) -> DurableOutcome {
            DurableOutcome.classify(.success(.json(status, "")), for: target, now: now)
        }
        #expect(classify(404) == .rejected(status: 404))
        #expect(classify(409) == .profileNotFound(retryAfter: nil))
        #expect(classify(400) == .rejected(status: 400))
        #expect(classify(503) == .retry(.http(status: 503, body: nil), retryAfter: nil))
        #expect(classify(409, write("w2", .identify)) == .rejected(status: 409))
        #expect(classify(404, write("w2", .identify)) == .retry(.http(status: 404, body: nil), retryAfter: nil))
    }

    @Test("the channel sends a foreign kind and applies its rule: a 404 drops it")
    func foreignKindThroughTheChannel() throws {
        let rig = DurableRig()
        rig.channel.enqueue(write("w1", .cartAbandoned(cartId: "c9"), user: "u1"))
        rig.channel.enqueue(write("w2", .cartAbandoned(cartId: "c9"), user: "u1"))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w2"], "w1 is on the wire, so w2 does not replace it")
        rig.channel.enqueue(write("w3", .cartAbandoned(cartId: "c9"), user: "u1"))
        #expect(rig.channel.pending.map(\.id) == ["w1", "w3"])
        rig.answer(.json(404, ""))
        #expect(rig.messages(.error) == ["cart abandoned write rejected by the server (HTTP 404); dropped"])
        rig.drain()
        #expect(rig.sentIds == ["w1", "w3"])
        #expect(rig.transport.requests.allSatisfy { $0.method == "PUT" })
        #expect(try rig.storedIds().isEmpty)
    }

    @Test("DURABLE-4: replacement scopes: everyone, the same person, the same person and anonymous id")
    func replacementScopes() {
        let unregister = write("a", .pushUnregister(token: "t"), user: "u1")
        #expect(
            unregister.replacementKey == write("b", .pushUnregister(token: "t"), user: "u2", anon: "x").replacementKey
        )
        let optOut = write("a", .optOutRecord(optedOut: true), user: nil, anon: "anon-1")
        #expect(optOut.replacementKey == write("b", .optOutRecord(optedOut: false), user: nil).replacementKey)
        #expect(
            optOut.replacementKey
                != write("b", .optOutRecord(optedOut: false), user: nil, anon: "anon-2").replacementKey
        )
        let identify = write("a", .identify, user: "u1", anon: "anon-1")
        #expect(identify.replacementKey == write("b", .identify, user: "u1", anon: "anon-1").replacementKey)
        #expect(identify.replacementKey != write("b", .identify, user: "u1", anon: "anon-2").replacementKey)
        #expect(
            write("a", .subscription(channel: "email", status: "subscribed")).replacementKey
                == write("b", .subscription(channel: "email", status: "unsubscribed")).replacementKey
        )
        #expect(
            write("a", .subscription(channel: "email", status: "subscribed")).replacementKey
                != write("b", .subscriptionGroup(channel: "email", groupId: "g", join: true)).replacementKey
        )
    }

    @Test("version-2 records whose kind does not read are not decoded")
    func version2Rejects() {
        let good = String(decoding: DurableWriteCodec.encode(write("w1", .cartAbandoned(cartId: "c9"))), as: UTF8.self)
        #expect(DurableWriteCodec.decode(Data(good.utf8)) != nil)
        let broken = [
            good.replacingOccurrences(of: #""scope":"person""#, with: #""scope":"planet""#),
            good.replacingOccurrences(of: #""afterEvents""#, with: #""sometime""#),
            good.replacingOccurrences(of: #""409":"#, with: #""nine":"#),
            good.replacingOccurrences(of: #""method":"PUT","#, with: ""),
            good.replacingOccurrences(of: #""withdrawal":false"#, with: #""withdrawal":"no""#),
        ]
        for text in broken {
            #expect(text != good)
            #expect(DurableWriteCodec.decode(Data(text.utf8)) == nil, "\(text)")
        }
    }
}
