import Foundation
import JoryioBrowser
import JoryioUI
import Testing

/// The policy itself in the browser (INAPP-24, GAP-43): on a document with harmless markup, code run
/// after load (the shim, standing in for anything that got a foothold) can neither run inserted or
/// evaluated code nor load anything remote, and each attempt is reported; the bridge is installed
/// and frozen, and the document's own images (`data:`) and inline styles work.
@Suite(.enabled(if: BrowserLane.available, BrowserLane.skipReason))
struct PolicyBrowserTests {
    @Test func attacksAfterLoadFailAndAreReported() throws {
        let markup = """
            <style>h1 { color: rgb(1, 2, 3); }</style><h1 id="h">Sale</h1>
            <img id="pixel" src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==">
            """
        let result = try BrowserLane.probe().run(
            InAppHTMLDocument(authorHTML: markup),
            steps: [.probeButton(id: "probe")]
        )
        BrowserLane.expectContained(result, "benign", probeStep: 0)
        // Nothing the author wrote was refused: every report is one of the attacks'.
        let attackBlocked: Set<String> = [
            "inline", "eval", "https://evil.example/probe", "https://evil.example/probe.png", "https://evil.example",
        ]
        #expect(result.violations.allSatisfy { attackBlocked.contains($0.blocked) }, "\(result.violations)")
    }
}
