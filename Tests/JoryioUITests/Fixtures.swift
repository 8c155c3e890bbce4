import Foundation
import JoryioUI

/// The HTML fixtures under `Fixtures/` (hostile and wired author markup), shared with the
/// browser lane (Tests/JoryioBrowserTests).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "Fixtures"
    )

    /// Every `.html` file under `folder`, by name, with the `JORYIO_BRIDGE_SOURCE` placeholder
    /// replaced by the bridge's exact text (Fixtures/README.md).
    static func html(in folder: String) throws -> [(name: String, markup: String)] {
        let url = self.directory.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".html") }
        return try names.sorted().map { name in
            let markup = try String(contentsOf: url.appendingPathComponent(name), encoding: .utf8)
            return (name, markup.replacingOccurrences(of: "JORYIO_BRIDGE_SOURCE", with: InAppBridgeScript.source))
        }
    }
}
