// Compiled into the Apple compile check only (`make check-apple`), for the macOS 14.0 SDK.
//
// `Optional.take()` came with Swift 6.0's standard library (SE-0437, Xcode 16 SDKs); the macOS 14.0
// SDK's Swift 5.9 standard library does not have it. Declared here with the same shape, so the rest
// of each expression that uses it is still type-checked.
extension Optional {
    mutating func take() -> Wrapped? {
        let value = self
        self = nil
        return value
    }
}
