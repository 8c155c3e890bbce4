import Foundation
import JoryioBrowser
import JoryioKit
import JoryioToolsCore
import JoryioUI
import Testing

/// `joryio-tools preview-campaign` (issue 17, item 5): which campaigns a file holds, the pages they are
/// pictured as (the SDK's document and policy), file names a campaign id cannot escape, the manifest
/// check CI runs without a browser, and real PNGs from the browser.
struct CampaignPreviewTests {
    static let native =
        #"{"id":"n1","type":"banner","content":{"native":{"headline":"<b>Hi</b>","buttons":[{"id":"go","label":"Go","url":"myapp://go"}]}}}"#
    static let html =
        #"{"id":"h1","type":"modal","content":{"html":"<h1>Sale</h1><script>document.title='ran'</script>"}}"#

    @Test func aFileHoldsOneCampaignAListOrASyncAnswer() throws {
        for text in [
            Self.native, "[\(Self.native), \(Self.html)]", #"{"campaigns": [\#(Self.native), \#(Self.html)]}"#,
        ] {
            let messages = try CampaignPreview.campaigns(from: Data(text.utf8)).get()
            #expect(messages.first?.id == "n1")
        }
        #expect(
            try CampaignPreview.campaigns(from: Data("[\(Self.native), \(Self.html)]".utf8)).get().map(\.id) == [
                "n1", "h1",
            ]
        )
    }

    @Test(arguments: [
        "", "nope", "[]", #"{"campaigns": []}"#, #"{"id":"x","type":"modal"}"#,
        #"{"id":"x","type":"sideways","content":{"html":"<p>"}}"#,
    ])
    func aFileWithoutAValidCampaignIsRefused(text: String) {
        #expect(throws: PreviewError.self) { try CampaignPreview.campaigns(from: Data(text.utf8)).get() }
    }

    @Test func pagesUseTheSDKsDocumentAndDifferByScheme() throws {
        let messages = try CampaignPreview.campaigns(from: Data("[\(Self.native), \(Self.html)]".utf8)).get()
        let light = CampaignPreview.page(for: messages[0], appearance: InAppAppearance(colorScheme: .light))
        let dark = CampaignPreview.page(for: messages[0], appearance: InAppAppearance(colorScheme: .dark))
        #expect(light.hasPrefix(InAppHTMLDocument.prefix))
        #expect(light != dark)
        #expect(light.contains("&lt;b&gt;Hi&lt;/b&gt;") && !light.contains("<b>Hi</b>"))
        // An HTML campaign is its real document, escaped into the srcdoc of a frame on a page that runs nothing.
        let page = CampaignPreview.page(for: messages[1], appearance: InAppAppearance(colorScheme: .light))
        let document = InAppHTMLDocument(authorHTML: "<h1>Sale</h1><script>document.title='ran'</script>").html
        let escaped = document.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
            of: "\"",
            with: "&quot;"
        )
        .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        .replacingOccurrences(of: "'", with: "&#39;")
        #expect(page.contains("srcdoc=\"\(escaped)\""))
        #expect(page.components(separatedBy: "<script").count == 1)
    }

    @Test(arguments: [
        ("modal", "modal"), ("../../etc/passwd", "_._.._etc_passwd"), ("a/b\\c", "a_b_c"), ("ünï", "_n_"),
        (".hidden", "_hidden"),
    ])
    func fileNamesCannotEscapeTheFolder(id: String, stem: String) throws {
        let json =
            #"{"id":"\#(id.replacingOccurrences(of: "\\", with: "\\\\"))","type":"modal","content":{"html":"<p>x</p>"}}"#
        let message = try #require(try CampaignPreview.campaigns(from: Data(json.utf8)).get().first)
        #expect(CampaignPreview.fileStem(message) == stem)
        #expect(CampaignPreview.fileName(message, .dark, naming: .docc, scale: 2) == stem + "~dark@2x.png")
        #expect(CampaignPreview.fileName(message, .light, naming: .plain, scale: 2) == stem + "-light.png")
    }

    /// The check CI runs: the checked-in previews match their manifest, and a changed page or a
    /// replaced PNG fails it.
    @Test func theManifestCheckCatchesAStalePageOrAReplacedPicture() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let arguments = [
            "preview-campaign", root.appendingPathComponent("docs/previews/campaigns.json").path, "--docc", "--out",
            root.appendingPathComponent("Modules/Joryio/Joryio.docc/Resources").path, "--check-manifest",
        ]
        let manifest = root.appendingPathComponent("docs/previews/manifest.json")
        let good = PreviewCommand.run(arguments + [manifest.path])
        #expect(good.exitCode == 0, "\(good.standardError)")

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("previews-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(contentsOf: manifest, encoding: .utf8)
        let firstPage = try #require(text.range(of: #""page" : ""#))
        var stale = text
        stale.replaceSubrange(firstPage.upperBound..<text.index(firstPage.upperBound, offsetBy: 4), with: "0000")
        let staleManifest = scratch.appendingPathComponent("stale.json")
        try stale.write(to: staleManifest, atomically: true, encoding: .utf8)
        let failed = PreviewCommand.run(arguments + [staleManifest.path])
        #expect(failed.exitCode == 1)
        #expect(failed.standardError.contains("its page changed since it was rendered"))

        let images = scratch.appendingPathComponent("images")
        try FileManager.default.copyItem(
            at: root.appendingPathComponent("Modules/Joryio/Joryio.docc/Resources"),
            to: images
        )
        try Data("not the rendered picture".utf8).write(to: images.appendingPathComponent("inapp-modal@2x.png"))
        var replaced = arguments
        replaced[4] = images.path
        let swapped = PreviewCommand.run(replaced + [manifest.path])
        #expect(swapped.exitCode == 1)
        #expect(swapped.standardError.contains("inapp-modal@2x.png: the PNG"))
    }

    /// Real pictures: a PNG per campaign and scheme at the phone's size times the scale, and the dark
    /// one is not the light one.
    @Test(.enabled(if: BrowserLane.available, BrowserLane.skipReason))
    func theBrowserWritesAPictureForEachScheme() throws {
        let browser = try #require(BrowserLane.browser)
        let messages = try CampaignPreview.campaigns(from: Data("[\(Self.native), \(Self.html)]".utf8)).get()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("previews-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let pictures = try CampaignPreview.render(messages, to: folder, browser: browser, scale: 1)
        #expect(
            pictures.map(\.png.lastPathComponent) == ["n1-light.png", "n1-dark.png", "h1-light.png", "h1-dark.png"]
        )
        for picture in pictures {
            let data = try Data(contentsOf: picture.png)
            #expect(data.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
            let width = data[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = data[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect((width, height) == (390, 844))
        }
        #expect(try Data(contentsOf: pictures[0].png) != Data(contentsOf: pictures[1].png))
        #expect(try Data(contentsOf: pictures[2].png) != Data(contentsOf: pictures[3].png))
    }
}
