internal import Foundation
internal import JoryioKit
package import JoryioToolsCore
internal import JoryioUI

/// The `joryio-tools` commands that need JoryioUI (issue 17): `preview-campaign` and `inapp-document`,
/// added to ``JoryioToolsCommand`` by `main.swift` (``commands``).
package enum PreviewCommand {
    /// The commands defined here, for ``JoryioToolsCommand/run(_:linkedFacts:productFacts:more:)``.
    package static let commands: [JoryioToolsCommand.Command] = [
        JoryioToolsCommand.Command(name: "preview-campaign", usage: previewUsage) { arguments throws(ToolError) in
            try preview(arguments)
        },
        JoryioToolsCommand.Command(name: "inapp-document", usage: documentUsage) { arguments throws(ToolError) in
            try document(arguments)
        },
    ]

    /// `preview-campaign` help.
    package static let previewUsage = """
        USAGE: joryio-tools preview-campaign CAMPAIGN.json --out DIR [--scale N] [--docc] [--manifest FILE]
               joryio-tools preview-campaign CAMPAIGN.json --out DIR [--scale N] [--docc] --check-manifest FILE

        Renders each campaign in CAMPAIGN.json (one campaign object as a sync answer carries it, an array
        of them, or a whole sync answer) to DIR/<id>-light.png and DIR/<id>-dark.png: 390 × 844 points at
        N device pixels per point (default 2), in headless Chromium (make deps-browser installs it;
        JORYIO_CHROMIUM names another). HTML campaigns go through the SDK's document and CSP; native
        ones through an HTML rendering of their view model under the same document.

        OPTIONS:
          --out DIR               Where the PNGs go.
          --scale N               Device pixels per point, 1 … 3.
          --docc                  Name the PNGs as DocC image variants: <id>@Nx.png, <id>~dark@Nx.png.
          --manifest FILE         Also write FILE: each PNG with the SHA-256 of the page it was taken of
                                  and of its own bytes.
          --check-manifest FILE   Render nothing: fail unless every page still hashes as FILE says and
                                  every PNG in DIR is the one FILE names (what CI runs; no browser).
          --help                  Show this help.

        """

    /// `inapp-document` help.
    package static let documentUsage = """
        USAGE: joryio-tools inapp-document --output FILE

        Writes the HTML in-app message document's parts as JSON (prefix, suffix, policy, the renamed
        pragma) for the sandbox's live previews, which wrap campaigns exactly as the SDK does.

        """

    /// Runs `arguments` (the command first) as `joryio-tools` does.
    package static func run(_ arguments: [String]) -> CommandOutput {
        JoryioToolsCommand.run(arguments, linkedFacts: [], more: self.commands)
    }

    private static func document(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(arguments, valued: ["output"], flags: ["help"])
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: documentUsage, standardError: "")
        }
        guard let output = try parsed.single("output") else { throw ToolError(.usage, "--output is required") }
        try Files.write(self.documentJSON(), to: output)
        return CommandOutput(exitCode: 0, standardOutput: "Wrote \(output)\n", standardError: "")
    }

    /// The document's parts as the sandbox reads them.
    package static func documentJSON() -> String {
        let parts: [String: String] = [
            "prefix": InAppHTMLDocument.prefix, "suffix": InAppHTMLDocument.suffix,
            "contentSecurityPolicy": InAppHTMLDocument.contentSecurityPolicy,
            "neutralizedPragma": InAppHTMLDocument.neutralizedPragma,
        ]
        let data =
            (try? JSONSerialization.data(withJSONObject: parts, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    private static func preview(_ arguments: [String]) throws(ToolError) -> CommandOutput {
        let parsed = try Arguments(
            arguments,
            valued: ["out", "scale", "manifest", "check-manifest"],
            flags: ["help", "docc"]
        )
        if parsed.flags.contains("help") {
            return CommandOutput(exitCode: 0, standardOutput: previewUsage, standardError: "")
        }
        guard parsed.positional.count == 1, let input = parsed.positional.first else {
            throw ToolError(.usage, "name one campaign file")
        }
        guard let out = try parsed.single("out") else { throw ToolError(.usage, "--out is required") }
        let scaleText = try parsed.single("scale") ?? "2"
        guard let scale = Int(scaleText), (1...3).contains(scale) else {
            throw ToolError(.usage, "--scale must be 1, 2 or 3")
        }
        let data = try Files.read(input)
        let messages: [InAppMessage]
        switch CampaignPreview.campaigns(from: data) {
        case .success(let value): messages = value
        case .failure(let problem): throw ToolError(.invalidInput, "\(input): \(problem)")
        }
        let folder = URL(fileURLWithPath: out, isDirectory: true)
        let naming: CampaignPreview.Naming = parsed.flags.contains("docc") ? .docc : .plain
        if let manifest = try parsed.single("check-manifest") {
            return try self.check(messages, folder: folder, manifest: manifest, naming: naming, scale: scale)
        }
        guard let browser = HeadlessChromium.locate() else {
            throw ToolError(.noInput, "no Chromium found: run 'make deps-browser' or set JORYIO_CHROMIUM")
        }
        let pictures: [CampaignPreview.Picture]
        do {
            pictures = try CampaignPreview.render(messages, to: folder, browser: browser, scale: scale, naming: naming)
        } catch {
            throw ToolError(.cannotWrite, "rendering failed: \(error)")
        }
        if let manifest = try parsed.single("manifest") {
            let entries = try pictures.map { picture throws(ToolError) in
                ManifestEntry(
                    png: picture.png.lastPathComponent,
                    page: Self.sha256(Data(picture.page.utf8)),
                    image: try Self.sha256(of: picture.png)
                )
            }
            try Files.write(Self.manifestJSON(entries), to: manifest)
        }
        let written = pictures.map { "Wrote \($0.png.path)\n" }.joined()
        return CommandOutput(exitCode: 0, standardOutput: written, standardError: "")
    }

    struct ManifestEntry: Codable, Equatable {
        var png: String
        var page: String
        var image: String
    }

    private static func manifestJSON(_ entries: [ManifestEntry]) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(entries)) ?? Data()) + Data("\n".utf8)
    }

    private static func check(
        _ messages: [InAppMessage],
        folder: URL,
        manifest: String,
        naming: CampaignPreview.Naming,
        scale: Int
    ) throws(ToolError) -> CommandOutput {
        let entries: [ManifestEntry]
        do {
            entries = try JSONDecoder().decode(
                [ManifestEntry].self,
                from: Data(contentsOf: URL(fileURLWithPath: manifest))
            )
        } catch {
            throw ToolError(.noInput, "cannot read the manifest \(manifest)")
        }
        var problems: [String] = []
        var expected: [String: String] = [:]
        for message in messages {
            for scheme in CampaignPreview.schemes {
                let page = CampaignPreview.page(for: message, appearance: InAppAppearance(colorScheme: scheme))
                expected[CampaignPreview.fileName(message, scheme, naming: naming, scale: scale)] = Self.sha256(
                    Data(page.utf8)
                )
            }
        }
        if Set(expected.keys) != Set(entries.map(\.png)) {
            problems.append(
                "the manifest lists \(entries.map(\.png).sorted()), the campaigns make \(expected.keys.sorted())"
            )
        }
        for entry in entries {
            if let page = expected[entry.png], page != entry.page {
                problems.append("\(entry.png): its page changed since it was rendered")
            }
            let image = try? Self.sha256(of: folder.appendingPathComponent(entry.png))
            if image != entry.image {
                problems.append("\(entry.png): the PNG in \(folder.path) is not the one rendered")
            }
        }
        guard problems.isEmpty else {
            throw ToolError(
                .checkFailed,
                problems.joined(separator: "\n") + "\nrun 'make generate-previews' and commit the result"
            )
        }
        return CommandOutput(
            exitCode: 0,
            standardOutput: "The \(entries.count) previews are up to date.\n",
            standardError: ""
        )
    }

    private static func sha256(_ data: Data) -> String {
        InAppSHA256.digest(Array(data)).map { String(format: "%02x", $0) }.joined()
    }

    private static func sha256(of file: URL) throws(ToolError) -> String {
        do { return Self.sha256(try Data(contentsOf: file)) } catch {
            throw ToolError(.noInput, "cannot read \(file.path)")
        }
    }
}
