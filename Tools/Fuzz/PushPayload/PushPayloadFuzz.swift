import Foundation
import JoryioCore
import JoryioFuzzSupport
import JoryioPush

/// Fuzzes the push payload path (issue 14): bytes → `PushPayload(json:)` → `PushDecision.decide`
/// in every arrival, never crashes, and keeps its promises: a foreign payload is only forwarded, a
/// click comes before its link, a followed link has an allowed scheme, and a named sound has an
/// allowed extension.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let payload = PushPayload(json: Data(bytes: start, count: count))
    let arrivals: [PushArrival] = [
        .willPresent, .remoteNotification, .response(action: .open), .response(action: .dismiss),
    ]
    for arrival in arrivals {
        let decision = PushDecision.decide(
            payload,
            PushContext(arrival: arrival, appIsActive: false, hasLinkHook: true)
        )
        if !decision.isJoryio {
            fuzzRequire(decision.actions == [.forwardToApp], "a foreign payload was not just forwarded")
        }
        var clicked = false
        for action in decision.actions {
            switch action {
            case .reportClick(let trackingId):
                clicked = true
                fuzzRequire(!trackingId.isEmpty && trackingId.count <= 128, "a click with an invalid tracking id")
            case .followLink(let plan):
                fuzzRequire(clicked || payload?.trackingId == nil, "a link before its click")
                fuzzRequire(!PushLink.refusedSchemes.contains(plan.link.scheme), "a refused scheme was followed")
            default:
                break
            }
        }
        if case .named(let name) = decision.sound {
            let lowered = name.lowercased()
            fuzzRequire(
                PushSound.allowedExtensions.contains(where: lowered.hasSuffix),
                "a sound without an allowed extension"
            )
        }
    }
    return 0
}

@main
enum Main {
    static func main() { FuzzMain.run(fuzzOne) }
}
