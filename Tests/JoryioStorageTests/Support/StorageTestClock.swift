import Foundation
import JoryioCore

/// A ``Clock`` stopped at a fixed instant, so quarantine file names are predictable.
struct StorageTestClock: Clock {
    /// The instant, in milliseconds since 1970.
    var millis: Int64 = 1_767_225_600_123

    func now() -> Date {
        Date(timeIntervalSince1970: Double(self.millis) / 1000)
    }
}
