internal import JoryioCore

extension Locked {
    /// Runs `body` with exclusive access to the value and passes its ``StorageError`` through typed.
    ///
    /// `Locked.withLock(_:)` is `rethrows`, which erases a typed error to `any Error`; this bridge keeps
    /// the storage layer's `throws(StorageError)` seams exact without a cast.
    func withLockThrowing<T>(_ body: (inout Value) throws(StorageError) -> T) throws(StorageError) -> T {
        try self.withLock { value in
            Result { () throws(StorageError) -> T in try body(&value) }
        }.get()
    }
}
