import Foundation
import Joryio
import JoryioCore
import JoryioTesting

/// 7. Push: a device token registered for the person, a receipt and a click by `trackingId`, and an
/// `unregisterPush()` that survives a relaunch.
func pushDemo(sandbox: SandboxServer, sdkKey: String) throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("joryio-demo-push-\(UUIDGenerator().next())", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let config = JoryioConfig(flushInterval: 1, logLevel: .warning, storage: .sqlite(directory: directory))
    // What APNs hands `application(_:didRegisterForRemoteNotificationsWithDeviceToken:)`: 32 bytes.
    let deviceToken = Data((0..<32).map { UInt8(($0 * 37 + 11) & 0xff) })

    say("\n7. push: iOS hands the app its device token before initialize(); the app forwards it")
    let app = Joryio()
    app.didRegisterForRemoteNotifications(deviceToken: deviceToken)
    app.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    app.identify("user-push")
    let token = try waitFor("the token is registered for user-push") { () -> String? in
        guard let hex = app.getDeviceToken() else { return nil }
        return pushTokens(sandbox, userId: "user-push").contains(hex) ? hex : nil
    }
    say("   getDeviceToken() = \(token.prefix(16))…; the sandbox lists it on user-push's profile")

    // An app with its own push stack hands the token over and gets one answer.
    let answer = Locked<String?>(nil)
    app.registerPushToken(token) { result in
        answer.withLock { $0 = "success: \(result.success), retryable: \(result.isRetryable)" }
    }
    app.registerPushToken("fcm:APA91bHun4MxP5egoKMwt2KZFBaFUH") { result in
        say("   registerPushToken(an FCM token) answered at once: \(result.message ?? "")")
    }
    let registered = try waitFor("registerPushToken answers") { answer.value }
    say("   registerPushToken(the APNs token) answered once: \(registered)")

    say("   a Joryio push arrives in the background (didReceiveRemoteNotification), then is tapped")
    let payload: [AnyHashable: Any] = [
        "aps": ["alert": ["title": "Back in stock", "body": "Your size is available"], "sound": "chime.caf"],
        "joryio": ["trackingId": "trk_demo_1", "url": "myapp://product/42"],
    ]
    let completion = Locked<String?>(nil)
    app.didReceiveRemoteNotification(payload) { result in completion.withLock { $0 = "\(result)" } }
    let fetchResult = try waitFor("the completion handler is called") { completion.value }
    say("   completion handler called once: \(fetchResult)")
    app.trackPushClick(trackingId: "trk_demo_1")  // the app handles taps itself here
    let reports = try waitFor("the receipt and the click arrive") { () -> (Int, Int)? in
        guard let reports = try? sandbox.pushReports(trackingId: "trk_demo_1"),
            !reports.receipts.isEmpty, !reports.clicks.isEmpty
        else { return nil }
        return (reports.receipts.count, reports.clicks.count)
    }
    say("   the sandbox recorded \(reports.0) receipt and \(reports.1) click for trk_demo_1")

    say("   the person turns notifications off in the app: unregisterPush()")
    app.unregisterPush()
    _ = try waitFor("the token is unregistered") { () -> Bool? in
        (try? sandbox.pushUnregistered())?.contains(token) == true ? true : nil
    }
    say(
        "   unregistered on the server; user-push's profile holds \(pushTokens(sandbox, userId: "user-push").count) tokens"
    )

    app.applicationWillTerminate(waitingAtMost: 5)
    app.relinquishStorage()
    let relaunched = Joryio()
    relaunched.initialize(sdkKey: sdkKey, apiHost: sandbox.apiHost.absoluteString, config: config)
    relaunched.didRegisterForRemoteNotifications(deviceToken: deviceToken)
    relaunched.flush()
    Thread.sleep(forTimeInterval: 1.5)  // a demo may wait on real time; tests never do
    let after = pushTokens(sandbox, userId: "user-push")
    say(
        "   after a relaunch iOS hands the token again: kept on the device (getDeviceToken() "
            + "\(relaunched.getDeviceToken() == nil ? "nil" : "set")), registered tokens: \(after.count)"
    )
    guard after.isEmpty else { throw DemoError("unregisterPush() must survive the relaunch") }
    relaunched.applicationWillTerminate(waitingAtMost: 5)
    relaunched.relinquishStorage()
}

/// The tokens the sandbox holds for `userId`.
func pushTokens(_ sandbox: SandboxServer, userId: String) -> [String] {
    let profile = (try? sandbox.profile(userId: userId)) ?? nil
    return ((profile?["pushTokens"] as? [[String: Any]]) ?? []).compactMap { $0["token"] as? String }
}

/// Polls `value` every 50 ms for up to 30 s until it is not `nil`, running the main run loop
/// meanwhile, so what the SDK delivers on the main thread (the in-app callback, INAPP-49) can run.
func waitFor<Value>(_ what: String, _ value: () -> Value?) throws -> Value {
    let deadline = Date().addingTimeInterval(30)
    while true {
        if let found = value() { return found }
        guard Date() < deadline else { throw DemoError("timed out waiting until \(what)") }
        RunLoop.main.run(until: Date().addingTimeInterval(0.05))
    }
}
