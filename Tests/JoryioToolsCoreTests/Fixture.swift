import Foundation
import Testing

/// Paths of the fixture files next to this source file, and golden-file comparison.
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures"
    )

    static func path(_ relative: String) -> String {
        self.directory.appendingPathComponent(relative).path
    }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: self.path(relative), encoding: .utf8)
    }

    /// Compares `actual` with a golden file. `JORYIO_UPDATE_GOLDEN=1 swift test --filter JoryioToolsCoreTests`
    /// rewrites the golden files instead (review the diff before committing).
    static func expectMatchesGolden(
        _ actual: String,
        _ relative: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        if ProcessInfo.processInfo.environment["JORYIO_UPDATE_GOLDEN"] == "1" {
            try actual.write(toFile: self.path(relative), atomically: true, encoding: .utf8)
            return
        }
        let expected = try self.text(relative)
        #expect(
            actual == expected,
            "output differs from Fixtures/\(relative); if the change is intended, rerun with JORYIO_UPDATE_GOLDEN=1",
            sourceLocation: sourceLocation
        )
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "joryio-tools-tests-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
