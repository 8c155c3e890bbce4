/// A source of the ``DeviceFacts`` a `Session Start` event carries.
///
/// The engine calls ``current()`` once per new session, on its own executor, so an implementation
/// must be cheap, non-blocking and safe to call from any thread. It must not hop to the main thread
/// synchronously: read main-thread-only values (the screen, `UIDevice`) once when it is created.
///
/// Implementations live in `JoryioPlatform` (`LinuxDeviceFactsProvider`, `AppleDeviceFactsProvider`);
/// tests use `FixedDeviceFactsProvider` from `JoryioTesting`.
///
/// > Important: A provider never reads location, and never uses a required-reason API other than
/// > UserDefaults (PRIVACY-4, STORE-10): no file timestamps, no system uptime, no disk space.
public protocol DeviceFactsProvider: Sendable {
    /// The device and environment now; values that can change while the app runs (the locale, the
    /// time zone) are read at each call.
    func current() -> DeviceFacts
}
