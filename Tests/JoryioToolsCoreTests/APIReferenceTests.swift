import Foundation
import JoryioToolsCore
import Testing

@Suite("API reference")
struct APIReferenceTests {
    private func fixtureGraphs() throws -> [SymbolGraph] {
        try ["SymbolGraphs/Sample.symbols.json", "SymbolGraphs/Sample@Swift.symbols.json"].map { file in
            try SymbolGraph(json: Data(contentsOf: URL(fileURLWithPath: Fixture.path(file))), origin: file)
        }
    }

    @Test("GAP-59: the fixture graphs render exactly the golden API.md (statics listed by kind)")
    func golden() throws {
        let markdown = APIReference(graphs: try self.fixtureGraphs()).renderMarkdown()
        try Fixture.expectMatchesGolden(markdown, "API.golden.md")
    }

    @Test("Output does not depend on the order graphs and symbols were read in")
    func deterministic() throws {
        let graphs = try self.fixtureGraphs()
        var shuffled = graphs.reversed().map { $0 }
        for index in shuffled.indices { shuffled[index].symbols.reverse() }
        #expect(APIReference(graphs: shuffled).renderMarkdown() == APIReference(graphs: graphs).renderMarkdown())
    }

    @Test("Internal symbols are left out and duplicates across graph files appear once")
    func filtering() throws {
        let reference = APIReference(graphs: try self.fixtureGraphs())
        let widget = try #require(reference.modules.first?.tables.first { $0.path == "Widget" })
        #expect(!widget.rows.contains { $0.name == "hidden()" })
        #expect(widget.rows.filter { $0.name == "name" }.count == 1)
        #expect(reference.memberNames(ofType: "Widget", inModule: "Sample").contains("send(_:to:)"))
    }

    @Test("A file that is not a symbol graph fails with its name")
    func invalidGraph() {
        let error = #expect(throws: ToolError.self) {
            _ = try SymbolGraph(json: Data("{}".utf8), origin: "broken.json")
        }
        #expect(error?.exitCode == .invalidInput)
        #expect(error?.message.hasPrefix("broken.json: not a symbol graph") == true)
    }

    @Test(
        "The first sentence of a doc comment",
        arguments: [
            ("Sends `a.b()` to the server. Then more.", "Sends `a.b()` to the server."),
            ("Use e.g. a user id. Then more.", "Use e.g. a user id."),
            ("No full stop at all", "No full stop at all"),
            ("Version 1.5 is fine. Yes.", "Version 1.5 is fine."),
            ("Done!", "Done!"),
        ]
    )
    func firstSentence(text: String, expected: String) {
        #expect(DocSummary.firstSentence(of: text) == expected)
    }

    @Test("SPEC §2.2 selectors are found only under #### 2.2.x tables, with the type prefix removed")
    func specCoverage() throws {
        let coverage = SpecCoverage(
            spec: try Fixture.text("spec-excerpt.md"),
            reference: APIReference(graphs: try self.fixtureGraphs()),
            module: "Sample",
            type: "Widget"
        )
        #expect(coverage.entries.map(\.selector) == ["send(_:to:)", "name", "receive()"])
        #expect(coverage.entries.map(\.exists) == [true, true, false])
        #expect(coverage.renderReport().hasPrefix("SPEC §2.2: 2 of 3 selectors exist on Widget.\n"))
        #expect(coverage.renderReport().contains("  2.2.2 Missing things: receive()\n"))
    }
}
