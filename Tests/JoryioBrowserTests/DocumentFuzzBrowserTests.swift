import Foundation
import JoryioBrowser
import JoryioTesting
import JoryioUI
import Testing

/// Document-builder fuzz (issue 17): random hostile author markup never produces a document whose
/// policy is weakened or whose bridge can be shadowed. Every generated document is checked as text;
/// a sample of them is loaded in the browser and must pass every containment check.
struct DocumentFuzzTests {
    static let textCases = 3_000
    static let browserSeeds: [UInt64] = [1, 2, 3, 4, 5, 6]

    static func markup(seed: UInt64) -> String {
        var generator = SplitMix64(seed: seed)
        return HostileMarkup.random(using: &generator)
    }

    /// As text: the SDK's head comes first and whole, then the author's markup with no live pragma,
    /// then the SDK's tail; whatever the author wrote comes after the only policy the head holds.
    @Test func randomMarkupNeverReachesTheHead() {
        var pragmas = 0
        for seed in 0..<UInt64(Self.textCases) {
            let markup = Self.markup(seed: seed)
            let document = InAppHTMLDocument(authorHTML: markup)
            let html = document.html
            #expect(html.hasPrefix(InAppHTMLDocument.prefix), "seed \(seed)")
            #expect(html.hasSuffix(InAppHTMLDocument.suffix), "seed \(seed)")
            let body = html.dropFirst(InAppHTMLDocument.prefix.count).dropLast(InAppHTMLDocument.suffix.count)
                .lowercased()
            let live =
                body.components(separatedBy: "http-equiv").count
                - body.components(separatedBy: "data-jry-http-equiv").count
            #expect(live == 0, "seed \(seed): a live http-equiv in \(markup)")
            #expect(
                document.bodyMarkup.replacingOccurrences(
                    of: "data-jry-http-equiv",
                    with: "http-equiv",
                    options: .caseInsensitive
                )
                .lowercased() == markup.lowercased(),
                "seed \(seed): the builder changed more than pragmas"
            )
            if markup.range(of: "http-equiv", options: .caseInsensitive) != nil { pragmas += 1 }
        }
        // The generator does reach the case the rewrite exists for.
        #expect(pragmas > Self.textCases / 10)
    }

    @Test(.enabled(if: BrowserLane.available, BrowserLane.skipReason), arguments: browserSeeds)
    func randomMarkupIsContainedInTheBrowser(seed: UInt64) throws {
        let markup = Self.markup(seed: seed)
        let result = try BrowserLane.probe().run(
            InAppHTMLDocument(authorHTML: markup),
            steps: [.probeButton(id: "probe"), .bridgeClose]
        )
        BrowserLane.expectContained(result, "seed \(seed): \(markup)", probeStep: 0)
        #expect(result.steps.dropFirst().first == [.dismiss], "seed \(seed)")
    }
}
