import Foundation
import Joryio
import JoryioCore
import JoryioTesting

/// 8. In-app: a campaign the sandbox serves reaches the app's own callback when the event that
/// triggers it is tracked (Linux has no screen for the built-in renderer), and the app's reports
/// carry the campaign's delivery token, which the sandbox verifies.
func inAppDemo(sandbox: SandboxServer, sdkKey: String) throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-demo-inapp-\(UUIDGenerator().next())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = JoryioConfig(flushInterval: 1, logLevel: .warning, storage: .sqlite(directory: directory))
    try sandbox.configureInApp(requireDeliveryToken: true)
    try sandbox.setInAppCampaign([
        "id": "welcome-offer",
        "type": "modal",
        "content": [
            "native": [
                "headline": "10 % off your first order",
                "text": "Today only, on everything in your cart.",
                "buttons": [["id": "claim", "label": "Claim it", "url": "myapp://offer/welcome"]],
            ]
        ],
        "triggers": [["type": "event", "name": "Checkout Started"]],
    ])

    say("\n8. in-app: the sandbox serves a campaign triggered by \"Checkout Started\" and requires delivery tokens")
    let app = Joryio()
    let delivered = Locked<[String]>([])
    app.setInAppMessageCallback { message in
        delivered.withLock { $0.append("\(message.id) (\(message.type.rawValue))") }
    }
    app.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    app.identify("user-inapp")
    // The campaigns arrive with the launch's and the identify's syncs; wait for them to be in place.
    let synced = Locked(false)
    Task {
        await app.syncInAppCampaigns()
        synced.withLock { $0 = true }
    }
    _ = try waitFor("the campaigns are synced") { synced.value ? true : nil }
    app.track("Product Viewed", properties: ["sku": "sku-1"])
    app.track("Checkout Started", properties: ["total": 42.5])
    let message = try waitFor("the campaign reaches the app's callback") { delivered.value.first }
    say("   \"Checkout Started\" tracked: the app's callback received \(message); \"Product Viewed\" triggered nothing")

    say("   the app shows it, the person taps \"Claim it\": displayed, then clicked, reported by the app")
    app.trackInAppImpression(campaignId: "welcome-offer", action: "displayed")
    app.trackInAppImpression(campaignId: "welcome-offer", action: "clicked", elementId: "claim")
    app.trackInAppImpression(campaignId: "welcome-offer", action: "shown")  // not an action: logged, dropped
    let counts = try waitFor("the sandbox accepts both reports") { () -> [String: Int]? in
        let impressions = (try? sandbox.inAppReports(campaignId: "welcome-offer"))?.impressions["welcome-offer"]
        return impressions?["displayed"] == 1 && impressions?["clicked"] == 1 ? impressions : nil
    }
    say(
        "   the sandbox verified each report's delivery token: \(counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))"
    )
    say("   (open the sandbox page to see the campaign's live preview under the SDK's CSP)")
    app.applicationWillTerminate(waitingAtMost: 5)
    app.relinquishStorage()
}
