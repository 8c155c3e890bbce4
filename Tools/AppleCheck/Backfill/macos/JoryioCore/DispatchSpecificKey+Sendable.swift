// Compiled into the Apple compile check only (`make check-apple`), for the macOS 14.0 SDK.
//
// `DispatchSpecificKey: Sendable where T: Sendable` came with the Swift 6 Dispatch overlay (Xcode 16:
// the iOS 18 and macOS 15 SDKs declare it in Dispatch.swiftinterface). The macOS 14.0 SDK's overlay
// (Swift 5.9) does not, so `SerialQueueScheduler`'s stored key is not Sendable there. Declared here
// as the newer SDK does.
internal import Dispatch

extension DispatchSpecificKey: @retroactive @unchecked Sendable where T: Sendable {}
