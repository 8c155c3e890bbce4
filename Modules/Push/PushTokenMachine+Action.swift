package import JoryioCore

extension PushTokenMachine {
    /// What the engine must do after a transition, in the order given.
    package enum Action: Sendable, Equatable {
        /// Store the state in the secure store (STORE-3, PUSH-31). Emitted only when it changed, and
        /// before any request that depends on it.
        case persist(State)
        /// Send the registration of `token` for `owner`. Only while registration is allowed and no
        /// unregister is in force (PUSH-6, PUSH-15), with nothing else in flight (PUSH-17).
        case sendRegister(token: String, owner: Owner)
        /// Send the unregister of `token`: a durable withdrawal, sent whatever the privacy state
        /// (DURABLE-13, OPTOUT-2), with nothing else in flight (PUSH-17).
        case sendUnregister(token: String)
        /// Unregister from remote notifications with iOS (`unregisterForRemoteNotifications()`,
        /// PUSH-15).
        case unregisterWithSystem
        /// Answer the explicit `registerPushToken` call `request` (PUSH-12). Each call is answered
        /// exactly once.
        case answer(RequestID, PushRegistrationResult)
        /// Log `message` at `level` (LOG).
        case log(LogLevel, String)
    }
}
