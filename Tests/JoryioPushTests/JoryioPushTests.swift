import JoryioPush
import Testing

@Suite struct JoryioPushModuleTests {
    @Test("the push_permission attribute's name")
    func permissionAttribute() {
        #expect(JoryioPush.permissionAttribute == "push_permission")
    }
}
