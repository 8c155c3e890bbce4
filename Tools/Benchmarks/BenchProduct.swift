import Foundation
import Joryio
import JoryioCore
import JoryioInApp

/// Which product's features the benchmark's SDK instances run: `--product analytics` (the default,
/// the figures of earlier sessions) or `--product joryio`, every feature of the `Joryio` product with
/// in-app messaging listening to each event, its sync answered with ``campaignCount`` event-triggered
/// campaigns that the bench event never matches, so each `track()` pays the engine-side name decode
/// and trigger match and nothing is shown. Chosen once per process through `JORYIO_BENCH_PRODUCT`, so
/// the memory benchmark's child processes run the same product.
enum BenchProduct: String, CaseIterable {
    case analytics, joryio

    static let environmentKey = "JORYIO_BENCH_PRODUCT"
    static let campaignCount = 20

    static var current: BenchProduct {
        ProcessInfo.processInfo.environment[environmentKey].flatMap(BenchProduct.init(rawValue:)) ?? .analytics
    }

    /// The features of an instance of this product.
    var catalog: FeatureCatalog {
        switch self {
        case .analytics: .analytics
        case .joryio: .joryio(push: NoPushPlatform(), inApp: NoInAppPlatform())
        }
    }

    /// `transport`, with the in-app sync answered for the `Joryio` product.
    func transport(_ transport: any Transport) -> any Transport {
        self == .joryio ? InAppSyncAnsweringTransport(inner: transport) : transport
    }

    /// After `initialize()`: the campaigns are in place (none for `analytics`).
    func check(_ joryio: Joryio) -> Bool {
        switch self {
        case .analytics: true
        case .joryio: joryio.feature(InAppFeature.self)?.campaigns.count == Self.campaignCount
        }
    }
}

/// Answers `POST /v1/in-app/sync` at once with ``BenchProduct/campaignCount`` campaigns triggered by
/// events named `Bench Trigger <n>`; every other request goes to the inner transport.
final class InAppSyncAnsweringTransport: Transport {
    private let inner: any Transport

    init(inner: any Transport) {
        self.inner = inner
    }

    static let answer: Data = {
        let campaigns = (0..<BenchProduct.campaignCount).map { index in
            #"{"id":"bench-\#(index)","type":"modal","deliveryToken":"tok-\#(index)","#
                + #""content":{"native":{"headline":"Offer \#(index)"}},"#
                + #""triggers":[{"type":"event","name":"Bench Trigger \#(index)"}]}"#
        }
        return Data(#"{"success":true,"campaigns":[\#(campaigns.joined(separator: ","))]}"#.utf8)
    }()

    func send(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPResponse, TransportError>) -> Void) {
        guard request.url.path.hasSuffix("/v1/in-app/sync") else {
            self.inner.send(request, completion: completion)
            return
        }
        completion(
            .success(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.answer))
        )
    }
}
