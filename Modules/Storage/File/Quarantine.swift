internal import Foundation
internal import JoryioCore

/// Moves a damaged store file aside instead of deleting it, so it can still be inspected.
enum Quarantine {
    /// Renames `url` and each existing sibling `url + suffix` to `<name><suffix>.<reason>-<millis>`.
    ///
    /// `millis` comes from `clock`. When a file with that name already exists (two quarantines in the
    /// same millisecond), `-1`, `-2`, … is appended, so nothing is ever overwritten.
    ///
    /// - Returns: The new location of `url`.
    /// - Throws: ``StorageError`` when a rename fails.
    @discardableResult
    static func moveAside(
        _ url: URL,
        companionSuffixes: [String] = [],
        reason: String,
        clock: any Clock
    ) throws(StorageError) -> URL {
        let millis = Int64((clock.now().timeIntervalSince1970 * 1000).rounded(.down))
        let sources = ([""] + companionSuffixes).map { url.path + $0 }
            .filter { FileManager.default.fileExists(atPath: $0) }
        var stamp = "\(reason)-\(millis)"
        var attempt = 0
        while sources.contains(where: { FileManager.default.fileExists(atPath: "\($0).\(stamp)") }) {
            attempt += 1
            stamp = "\(reason)-\(millis)-\(attempt)"
        }
        for source in sources {
            try FileSystem.renameItem(URL(fileURLWithPath: source), to: URL(fileURLWithPath: "\(source).\(stamp)"))
        }
        return URL(fileURLWithPath: "\(url.path).\(stamp)")
    }
}
