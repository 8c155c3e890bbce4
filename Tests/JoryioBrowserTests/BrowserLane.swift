import Foundation
import JoryioBrowser
import JoryioUI
import Testing

/// What the browser lane shares: the browser (`nil` when none is installed: the suites are then
/// skipped with ``skipReason``), the fixtures of Tests/JoryioUITests/Fixtures, and the checks every
/// hostile document must pass.
enum BrowserLane {
    static let browser = HeadlessChromium.locate()
    static var available: Bool { browser != nil }
    static let skipReason: Comment =
        "no Chromium found (make deps-browser installs Debian's chromium; JORYIO_CHROMIUM names another)"

    static func probe() throws -> BrowserProbe {
        BrowserProbe(browser: try #require(browser, skipReason))
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("JoryioUITests/Fixtures")

    /// The fixture `folder/name`, the bridge's placeholder replaced by its exact text.
    static func fixture(_ folder: String, _ name: String) throws -> InAppHTMLDocument {
        let markup = try String(contentsOf: fixtures.appendingPathComponent("\(folder)/\(name)"), encoding: .utf8)
        return InAppHTMLDocument(authorHTML: HostileMarkup.withBridge(markup))
    }

    /// Every `.html` name in `folder`.
    static func fixtureNames(_ folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent(folder).path))
        return (names ?? []).filter { $0.hasSuffix(".html") }.sorted()
    }

    /// What holds for any document, whatever its author wrote: none of the author's code ran, nothing
    /// was posted on load, the page did not navigate, the bridge is intact and still answers a tap,
    /// and every attack the shim tried after load failed with a violation reported.
    static func expectContained(_ result: BrowserProbe.Result, _ name: String, probeStep: Int) {
        #expect(result.title != "ran", "\(name): an author script ran")
        #expect(result.onLoad.isEmpty, "\(name): the bridge posted on load: \(result.onLoad)")
        #expect(
            result.location.hasPrefix("file://") && result.location.hasSuffix("/page.html"),
            "\(name): navigated to \(result.location)"
        )
        #expect(result.bridgeIntact, "\(name): window.joryioBridge was replaced or loosened")
        #expect(result.errors.isEmpty, "\(name): \(result.errors)")
        if result.steps.indices.contains(probeStep) {
            #expect(
                result.steps[probeStep] == [.click(elementId: "probe", url: nil)],
                "\(name): the probe tap: \(result.steps[probeStep])"
            )
        } else {
            Issue.record("\(name): the probe step did not run")
        }
        for attack in BrowserProbe.attackNames {
            #expect(result.attacks[attack] == false, "\(name): the \(attack) attack took effect")
        }
        let attackViolations: [BrowserProbe.Violation] = [
            .init(directive: "script-src-elem", blocked: "inline"),
            .init(directive: "script-src-attr", blocked: "inline"),
            .init(directive: "script-src", blocked: "eval"),
            .init(directive: "connect-src", blocked: "https://evil.example/probe"),
            .init(directive: "img-src", blocked: "https://evil.example/probe.png"),
        ]
        for violation in attackViolations {
            #expect(result.violations.contains(violation), "\(name): no report of \(violation): \(result.violations)")
        }
        #expect(
            result.violations.contains { $0.directive == "frame-src" && $0.blocked.hasPrefix("https://evil.example") },
            "\(name)"
        )
    }
}
