import JoryioToolsCore
import Testing

/// `make check-rules` scans this file too, so the examples use made-up families (`DEMO`, `WIDGET`)
/// passed as `families:`; an ID of a real family is only ever assembled at run time.
@Suite("Rule IDs cited in code resolve in docs/rules.md")
struct RuleCitationsTests {
    private let families: Set<String> = ["DEMO", "WIDGET"]

    private func ids(_ text: String) -> [String] {
        RuleCitations.citations(in: text, path: "File.swift", families: self.families).map(\.id)
    }

    @Test("An ID cited in a source but not listed in rules.md is reported at its first citation")
    func missingID() {
        let rules = """
            # Rules

            ## DEMO

            - **DEMO-1** The first demo rule. Tests: none yet.
            """
        let sources: [(path: String, text: String)] = [
            ("Modules/A.swift", "/// Does it (DEMO-1).\nlet a = 1\n// WIDGET-12 and DEMO-2\n"),
            ("Tests/B.swift", "// DEMO-2 again\n// WIDGET-12 again\n"),
        ]
        let missing = RuleCitations.missing(rules: rules, sources: sources, families: self.families)
        #expect(
            missing == [
                .init(id: "DEMO-2", path: "Modules/A.swift", line: 3),
                .init(id: "WIDGET-12", path: "Modules/A.swift", line: 3),
            ]
        )
        #expect(missing.map(\.location) == ["Modules/A.swift:3", "Modules/A.swift:3"])
    }

    @Test("Nothing is missing when every cited ID has a line")
    func allListed() {
        let rules = "- **DEMO-1** One.\n- **DEMO-2** Two.\n"
        let sources: [(path: String, text: String)] = [("A.swift", "DEMO-1, DEMO-2, DEMO-1")]
        #expect(RuleCitations.missing(rules: rules, sources: sources, families: self.families).isEmpty)
    }

    @Test(
        "IDs inside longer tokens, other prefixes and templates are not citations",
        arguments: [
            "docs/proposals/JRY-NNNN-template.md", "JRY-0001", "HTTP-429", "X-DEMO-5", "DEMO-5x", "DEMO-5_b",
            "DEMO-5-beta", "xDEMO-5", "1DEMO-5", "_DEMO-5", "demo-5", "Demo-5", "DEMO-", "DEMO-x", "DEMO5",
            "UTF-8", "ISO-8601", "SOMEDEMO-5", "NOTAFAMILYATALL-5",
        ]
    )
    func notCitations(text: String) {
        let families = self.families.union(RuleCitations.specFamilies)
        #expect(RuleCitations.citations(in: text, path: "F", families: families).isEmpty, "\(text)")
    }

    @Test(
        "IDs delimited by punctuation, spaces or non-ASCII characters are citations",
        arguments: [
            ("DEMO-5", ["DEMO-5"]), ("(DEMO-5)", ["DEMO-5"]), ("DEMO-5.", ["DEMO-5"]), ("**DEMO-5**", ["DEMO-5"]),
            ("`DEMO-5`", ["DEMO-5"]), ("DEMO-10/11", ["DEMO-10"]), ("DEMO-3…WIDGET-4", ["DEMO-3", "WIDGET-4"]),
            ("\"DEMO-7\":", ["DEMO-7"]), ("DEMO-1, -2", ["DEMO-1"]), ("x DEMO-1 DEMO-1", ["DEMO-1", "DEMO-1"]),
            ("DEMO-5\r", ["DEMO-5"]),
        ]
    )
    func citations(text: String, expected: [String]) {
        #expect(self.ids(text) == expected, "\(text)")
    }

    @Test("Line numbers count from 1, empty lines included")
    func lineNumbers() {
        let found = RuleCitations.citations(in: "\n\nDEMO-3\n\nWIDGET-1", path: "P.py", families: self.families)
        #expect(found.map(\.location) == ["P.py:3", "P.py:5"])
    }

    @Test("rules.md documents the IDs that open list items and every ID in headings, not cross-references")
    func documentedIDs() {
        let rules = """
            # Rule IDs (see DEMO-90 in the spec)

            A paragraph naming DEMO-91 documents nothing.

            ## WIDGET-7 and WIDGET-8: a heading

            - **DEMO-1** Lead of the line; a later DEMO-92 is a cross-reference.
              - **DEMO-2** A nested item.
            * DEMO-3 Another list style.
            - `DEMO-4` Backticked.
            - See DEMO-93: not the lead.
            -DEMO-94 is not a list item.
            - **DEMO-10** Numbers are whole: this is not DEMO-1.
            """
        #expect(
            RuleCitations.documentedIDs(inRules: rules, families: self.families)
                == ["DEMO-90", "WIDGET-7", "WIDGET-8", "DEMO-1", "DEMO-2", "DEMO-3", "DEMO-4", "DEMO-10"]
        )
    }

    @Test("Cited IDs are listed once, at their first citation, by family and then numerically")
    func firstCitations() {
        let sources: [(path: String, text: String)] = [
            ("A.swift", "WIDGET-2 DEMO-10\nDEMO-9"),
            ("B.swift", "DEMO-9 DEMO-1 WIDGET-2"),
        ]
        let first = RuleCitations.firstCitations(in: sources, families: self.families)
        #expect(first.map(\.id) == ["DEMO-1", "DEMO-9", "DEMO-10", "WIDGET-2"])
        #expect(first.map(\.location) == ["B.swift:1", "A.swift:2", "A.swift:1", "A.swift:1"])
    }

    @Test("By default the families are the spec's rule index and GAP")
    func specFamilies() {
        let expected: Set<String> = [
            "PKG", "INIT", "EVT", "BATCH", "STORE", "SESS", "IDENT", "ATTR", "DURABLE", "SUB", "OPTOUT", "CONSENT",
            "WIPE", "AUTH", "PUSH", "NSE", "INAPP", "ECOM", "PRIVACY", "LOG", "MISC", "PW", "DEEPLINK", "ULINK",
            "IAP", "GEO", "RMQ", "VIDEO", "SOUND", "PROV", "GAP",
        ]
        #expect(RuleCitations.specFamilies == expected)
        let batch = ["BATCH", "7"].joined(separator: "-")
        let sources: [(path: String, text: String)] = [("A.swift", "// \(batch), DEMO-1")]
        #expect(RuleCitations.missing(rules: "", sources: sources).map(\.id) == [batch])
        #expect(RuleCitations.missing(rules: "- **\(batch)** Listed.", sources: sources).isEmpty)
    }
}

/// `check-rules`' view of the tests `docs/rules.md` cites (issue 26).
@Suite("docs/rules.md cites test files that exist")
struct RulesTestFilesTests {
    @Test("A cited …Tests.swift must exist; a line may not say 'reviewed by eye'")
    func problems() {
        let rules = """
            - **A-1** one. Tests: AuthTests.swift, GoneTests.swift.
            - **A-2** two. Tests: none (Apple adapter, reviewed by eye: X.swift).
            - **A-3** three. Tests: InAppFeatureTests.swift (`hooksRunOnMain`), test_inapp.py, MyTestsHelper.swift.
            """
        let found = RulesTestFiles.problems(rules: rules, existing: ["AuthTests.swift", "InAppFeatureTests.swift"])
        #expect(found.map(\.line) == [1, 2])
        #expect(found[0].message.contains("GoneTests.swift"))
        #expect(found[1].message.contains("reviewed by eye"))
        #expect(
            RulesTestFiles.problems(rules: rules, existing: ["AuthTests.swift", "GoneTests.swift"]).map(\.line) == [
                2, 3,
            ]
        )
    }
}
