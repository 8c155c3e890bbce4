import Foundation
import Joryio

// The README's usage sample, verbatim: if a documented call changes, this stops compiling. It is
// compiled, not run (it would start the SDK against the real API host).
func readmeUsage(jwtFromYourBackend: String) {
    Joryio.shared.initialize(
        sdkKey: "jry_sdk_ios_YOUR_SDK_KEY",
        apiHost: "https://api-eu1.joryio.com/api",
        config: JoryioConfig(batchSize: 50, flushInterval: 5)
    )
    Joryio.shared.track("Product Viewed", properties: ["product_id": "abc123", "price": 99.99])
    Joryio.shared.trackScreen("Checkout")
    Joryio.shared.setSdkAuthenticationToken(jwtFromYourBackend)  // optional: per-user JWT (SDK auth)
    Joryio.shared.identify("user-42")  // later events carry the user id
    Joryio.shared.setAttributes(["plan": "pro", "seats": 3])  // durable until the server confirms
    Joryio.shared.incrementAttribute("logins")  // sent as a delta, applied once
    Joryio.shared.addAlias("loyalty_id", name: "L-12345")  // label first, then the value
    Joryio.shared.setSubscription(channel: "email", status: "subscribed")
    Joryio.shared.updateConsent(.granted)  // from your consent banner: .pending holds, .denied deletes
    Joryio.shared.optOut()  // persisted; Joryio.shared.isUserOptedOut() == true
    Joryio.shared.reset()  // logout: new anonymous id and session
    Joryio.shared.flush()  // e.g. before a command-line tool exits
}

// The README's push sample, verbatim.
func readmePush(
    deviceToken: Data,
    apnsHexToken: String,
    trackingId: String,
    log: @escaping @Sendable (String) -> Void
)
    async
{
    Joryio.shared.didRegisterForRemoteNotifications(deviceToken: deviceToken)  // registered per person
    let granted = await Joryio.shared.requestPushPermission()  // also cancels an earlier unregisterPush()
    Joryio.shared.registerPushToken(apnsHexToken) { result in  // own push stack: answered exactly once
        if !result.success && !result.isRetryable { log(result.message ?? "") }
    }
    Joryio.shared.reportPushDelivered(trackingId)  // only if the app handles notifications itself
    Joryio.shared.trackPushClick(trackingId: trackingId)
    Joryio.shared.unregisterPush()  // remembered across launches
    _ = granted
}

// The README's e-commerce sample, verbatim.
func readmeEcommerce() {
    let ecommerce = Joryio.shared.ecommerce(config: EcommerceConfig(currency: "USD"))
    ecommerce.productViewed(productId: "SKU123", name: "Blue Shirt", price: 29.99)
    ecommerce.purchase(
        order: EcommerceOrder(
            orderId: "ORD-1001",
            items: [EcommerceCartItem(productId: "SKU123", name: "Blue Shirt", price: 29.99, quantity: 2)],
            value: 59.98
        )
    )  // Order Completed: orderId, total, currency, items
}

// The README's in-app sample, verbatim.
func readmeInApp(message: InAppMessage, showMyMessageView: @escaping @MainActor @Sendable (InAppMessage) -> Void) {
    Joryio.shared.setInAppMessageCallback(
        { message in
            showMyMessageView(message)  // on the main thread
        },
        capabilities: ["content.native"]
    )
    Joryio.shared.trackInAppImpression(campaignId: message.id, action: "displayed")  // after 1 s on screen
    Joryio.shared.trackInAppImpression(campaignId: message.id, action: "dismissed")  // whenever it leaves
}

// The types the public API mentions come with `import Joryio` and can be named.
let level: LogLevel = .debug
let consent: TrackingConsent = .pending
let storage: JoryioConfig.Storage = .inMemory
let sink: any LogSink = NoOpLogSink()
let value: JSONValue = .string("x")
let error: JoryioTransportError? = Joryio.shared.lastTransportError
let pushResult: PushRegistrationResult? = nil

// `import Joryio` must not bring the SDK's generic seams into the app's namespace: Swift's own
// `Clock` is used unqualified here, which would be ambiguous if `JoryioCore.Clock` came along.
func measure<C: Clock>(on clock: C) -> C.Instant { clock.now }
_ = measure(on: ContinuousClock())

print("docs-examples: OK (\(level), \(consent), \(value), \(error == nil))")
_ = (storage, sink, pushResult)
