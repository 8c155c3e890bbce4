import Foundation
import JoryioPush
import JoryioTesting
import Testing

/// The permission answers (PUSH-4, PUSH-5, PUSH-11, PROV-7) and the platform fake.
@Suite struct PushAuthorizationTests {
    @Test(
        "status, enabled and the push_permission value for every OS authorization",
        arguments: [
            (PushAuthorization.notDetermined, "notDetermined", false, "not_determined"),
            (.denied, "denied", false, "denied"),
            (.authorized, "granted", true, "granted"),
            (.provisional, "granted", true, "granted"),
            (.ephemeral, "granted", true, "granted"),
        ]
    )
    func answers(authorization: PushAuthorization, status: String, enabled: Bool, attribute: String) {
        #expect(authorization.status == status)
        #expect(authorization.isEnabled == enabled)
        #expect(authorization.attributeValue == attribute)
    }

    @Test("every authorization is covered")
    func exhaustive() {
        #expect(PushAuthorization.allCases.count == 5)
    }

    @Test("the fake records what was asked, and a quiet request grants provisionally (PROV-7)")
    func fake() async {
        let platform = FakePushPlatform()
        #expect(await platform.requestAuthorization(provisional: true))
        #expect(await platform.authorizationStatus() == .provisional)
        #expect(await platform.requestAuthorization(provisional: false))
        #expect(await platform.authorizationStatus() == .authorized)
        platform.registerForRemoteNotifications()
        platform.setBadgeCount(0)
        #expect(
            platform.calls == [
                .requestAuthorization(provisional: true), .requestAuthorization(provisional: false),
                .registerForRemoteNotifications, .setBadgeCount(0),
            ]
        )
        let refusing = FakePushPlatform(grantsRequest: false)
        #expect(!(await refusing.requestAuthorization(provisional: false)))
        #expect(await refusing.authorizationStatus() == .notDetermined)
        #expect(await NoPushPlatform().authorizationStatus() == .notDetermined)
    }
}
