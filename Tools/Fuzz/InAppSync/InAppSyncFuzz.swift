import Foundation
import JoryioCore
import JoryioFuzzSupport
import JoryioInApp
import JoryioKit

/// Fuzzes the in-app sync answer (issue 16): bytes → `InAppSyncOutcome.classify` (HTTP 200) →
/// `InAppWire.decodeSyncAnswer`; never crashes, and every campaign kept stays within the wire's
/// bounds (decisions.md, "In-app wire format (issue 16)").
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let receivedAt = Date(timeIntervalSince1970: 1_800_000_000)
    let response = HTTPResponse(status: 200, body: Data(bytes: start, count: count))
    guard case .synced(let answer) = InAppSyncOutcome.classify(.success(response), now: receivedAt) else { return 0 }
    fuzzRequire(answer.campaigns.count <= InAppWire.maxCampaigns, "too many campaigns kept")
    fuzzRequire(Set(answer.campaigns.map(\.id)).count == answer.campaigns.count, "two campaigns with one id")
    for campaign in answer.campaigns {
        fuzzRequire(!campaign.id.isEmpty && campaign.id.unicodeScalars.count <= InAppWire.maxIdLength, "a bad id")
        let delay = campaign.message.displayDelay
        fuzzRequire(delay.isFinite && delay >= 0 && delay <= InAppWire.maxDisplayDelay, "a bad display delay")
        fuzzRequire(campaign.expiresAt.map { $0 > receivedAt } ?? true, "an expired campaign kept")
        fuzzRequire(campaign.triggers.count <= InAppWire.maxTriggers, "too many triggers")
        if let max = campaign.caps.maxImpressions { fuzzRequire(max >= 1, "a cap of no impressions") }
        switch campaign.message.content {
        case .html(let html):
            fuzzRequire(!html.isEmpty && html.utf8.count <= InAppWire.maxHTMLBytes, "an HTML body out of bounds")
        case .native(let native):
            fuzzRequire(native.buttons.count <= InAppWire.maxButtons, "too many buttons")
            for url in native.buttons.compactMap(\.url) {
                let scheme = url.scheme?.lowercased() ?? ""
                fuzzRequire(!InAppWire.refusedLinkSchemes.contains(scheme), "a refused link scheme kept")
            }
            if let image = native.imageURL {
                fuzzRequire(
                    ["http", "https"].contains(image.scheme?.lowercased() ?? ""),
                    "an image that is not http(s)"
                )
            }
        }
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
