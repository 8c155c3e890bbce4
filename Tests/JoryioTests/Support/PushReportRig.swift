import Foundation
import Joryio
import JoryioCore
import JoryioPush
import JoryioTesting

/// A fake server for push receipts and clicks: answers each `/v1/push/receipt` and
/// `/v1/push/click` request with the next scripted answer (then with ``fallback``), every other
/// request with `200 {"success":true}`, and records them all. Completions run inside `send`.
final class PushReportServer: Transport {
    private struct State {
        var requests: [HTTPRequest] = []
        var script: [Result<HTTPResponse, TransportError>] = []
        var fallback: Result<HTTPResponse, TransportError> = .success(.ok)
    }

    private let state = Locked(State())

    /// No answer at all: the network is down.
    static let offline: Result<HTTPResponse, TransportError> = .failure(TransportError(.cannotConnect, "offline"))

    /// Answers the next push reports with `answers`, in order.
    func script(_ answers: Result<HTTPResponse, TransportError>...) {
        self.state.withLock { $0.script += answers }
    }

    /// What push reports are answered once the script is used up.
    var fallback: Result<HTTPResponse, TransportError> {
        get { self.state.withLock { $0.fallback } }
        set { self.state.withLock { $0.fallback = newValue } }
    }

    /// Every request, oldest first.
    var requests: [HTTPRequest] { self.state.withLock { $0.requests } }

    /// The push reports sent, oldest first.
    var reports: [HTTPRequest] { self.requests.filter(\.isPushReport) }

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        let answer = self.state.withLock { state -> Result<HTTPResponse, TransportError> in
            state.requests.append(request)
            guard request.isPushReport else { return .success(.ok) }
            return state.script.isEmpty ? state.fallback : state.script.removeFirst()
        }
        completion(answer)
    }
}

extension HTTPRequest {
    /// Whether this is a push receipt or click.
    var isPushReport: Bool {
        self.url.path.hasSuffix("/v1/push/receipt") || self.url.path.hasSuffix("/v1/push/click")
    }

    /// `receipt` or `click`, from the path.
    var reportKind: String? {
        guard self.isPushReport else { return nil }
        return self.url.path.hasSuffix("/receipt") ? "receipt" : "click"
    }

    /// A string field of the JSON body.
    func field(_ name: String) -> String? {
        self.json?[name]?.stringValue
    }
}

extension [HTTPRequest] {
    /// `kind:trackingId` of each report, in order.
    var reportSummary: [String] {
        self.compactMap { request in request.reportKind.map { "\($0):\(request.field("trackingId") ?? "-")" } }
    }
}

extension TestSDK {
    /// An SDK of the `Joryio` product (push included) over `server`.
    static func withPush(
        _ server: PushReportServer,
        storage: JoryioConfig.Storage = .inMemory,
        identifiers: SequentialIdentifierGenerator = SequentialIdentifierGenerator()
    ) -> TestSDK {
        TestSDK(
            transport: server,
            storage: storage,
            identifiers: identifiers,
            features: .joryio(push: FakePushPlatform())
        )
    }

    /// The reports waiting in the receipts-and-clicks feature (empty before `initialize()`).
    var pendingReports: [PushReport] {
        self.joryio.feature(PushReportsFeature.self)?.pending ?? []
    }
}
