/// Rule IDs such as `BATCH-7` or `GAP-18` cited in source files, and which of them `docs/rules.md`
/// does not list.
///
/// An ID is a family from the specification's rule index, a hyphen and a number, standing alone:
/// the character before it and the one after it are neither ASCII letters, digits, `_` nor `-`.
/// So `X-AUTH-5`, `AUTH-5x` and `AUTH-5-beta` cite nothing, and neither do `JRY-NNNN` or `HTTP-429`
/// (no number, or not a rule family).
package enum RuleCitations {
    /// The rule families of the specification's rule index (SPEC Appendix B) plus `GAP`, the open
    /// questions of SPEC §6.
    package static let specFamilies: Set<String> = [
        "PKG", "INIT", "EVT", "BATCH", "STORE", "SESS", "IDENT", "ATTR", "DURABLE", "SUB", "OPTOUT", "CONSENT",
        "WIPE", "AUTH", "PUSH", "NSE", "INAPP", "ECOM", "PRIVACY", "LOG", "MISC", "PW", "DEEPLINK", "ULINK", "IAP",
        "GEO", "RMQ", "VIDEO", "SOUND", "PROV", "GAP",
    ]

    /// One occurrence of a rule ID in a file.
    package struct Citation: Sendable, Hashable {
        /// The ID as written, such as `BATCH-7`.
        package var id: String
        /// The file's path, as the caller gave it.
        package var path: String
        /// The 1-based line number.
        package var line: Int

        /// Creates a citation.
        package init(id: String, path: String, line: Int) {
            self.id = id
            self.path = path
            self.line = line
        }

        /// `path:line`, the form compilers and editors understand.
        package var location: String { "\(self.path):\(self.line)" }
    }

    /// Every citation in `text`, in order of appearance.
    ///
    /// - Parameters:
    ///   - text: A source file's contents.
    ///   - path: The path to report for it.
    ///   - families: The ID prefixes that count as rule families.
    package static func citations(
        in text: String,
        path: String,
        families: Set<String> = specFamilies
    ) -> [Citation] {
        var found: [Citation] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for id in self.ids(inLine: line, families: families) {
                found.append(Citation(id: id, path: path, line: index + 1))
            }
        }
        return found
    }

    /// The IDs `docs/rules.md` documents: every ID in a heading line, and the ID that opens a list
    /// item (`- **BATCH-7** …`, `* BATCH-7 …`).
    ///
    /// An ID mentioned further along a list item or in a paragraph is a cross-reference and does not
    /// count, so "see AUTH-6" in one rule's line does not document AUTH-6.
    package static func documentedIDs(inRules text: String, families: Set<String> = specFamilies) -> Set<String> {
        var documented: Set<String> = []
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            if line.hasPrefix("#") {
                documented.formUnion(self.ids(inLine: line, families: families))
                continue
            }
            guard line.hasPrefix("- ") || line.hasPrefix("* ") else { continue }
            let item = line.dropFirst(2).drop { $0 == " " || $0 == "*" || $0 == "`" }
            if let first = self.ids(inLine: item, families: families).first, item.hasPrefix(first) {
                documented.insert(first)
            }
        }
        return documented
    }

    /// The first citation of each ID cited in `sources`, ordered by family, then number.
    ///
    /// - Parameters:
    ///   - sources: Files as `(path, text)`; "first" follows this order, then line order.
    ///   - families: The ID prefixes that count as rule families.
    package static func firstCitations(
        in sources: [(path: String, text: String)],
        families: Set<String> = specFamilies
    ) -> [Citation] {
        var first: [String: Citation] = [:]
        for source in sources {
            for citation in self.citations(in: source.text, path: source.path, families: families)
            where first[citation.id] == nil {
                first[citation.id] = citation
            }
        }
        return first.values.sorted { self.precedes($0.id, $1.id) }
    }

    /// The IDs cited in `sources` that `rules` (the text of `docs/rules.md`) does not document, each
    /// with its first citation, ordered by family, then number. Empty when every cited ID resolves.
    ///
    /// - Parameters:
    ///   - rules: The text of `docs/rules.md`; see ``documentedIDs(inRules:families:)``.
    ///   - sources: Files as `(path, text)`.
    ///   - families: The ID prefixes that count as rule families.
    package static func missing(
        rules: String,
        sources: [(path: String, text: String)],
        families: Set<String> = specFamilies
    ) -> [Citation] {
        let documented = self.documentedIDs(inRules: rules, families: families)
        return self.firstCitations(in: sources, families: families).filter { !documented.contains($0.id) }
    }

    // MARK: - Scanning

    /// The IDs in one line, in order.
    private static func ids(inLine line: Substring, families: Set<String>) -> [String] {
        let bytes = Array(line.utf8)
        var found: [String] = []
        var index = 0
        while index < bytes.count {
            guard isUppercase(bytes[index]), index == 0 || !isTokenByte(bytes[index - 1]) else {
                index += 1
                continue
            }
            var hyphen = index
            while hyphen < bytes.count, isUppercase(bytes[hyphen]) {
                hyphen += 1
            }
            guard (2...10).contains(hyphen - index), hyphen < bytes.count, bytes[hyphen] == UInt8(ascii: "-") else {
                index = hyphen
                continue
            }
            var end = hyphen + 1
            while end < bytes.count, isDigit(bytes[end]) {
                end += 1
            }
            let family = String(decoding: bytes[index..<hyphen], as: UTF8.self)
            if end > hyphen + 1, end == bytes.count || !isTokenByte(bytes[end]), families.contains(family) {
                found.append(String(decoding: bytes[index..<end], as: UTF8.self))
            }
            index = end
        }
        return found
    }

    private static func isUppercase(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// Bytes that continue a token: ASCII letters, digits, `_` and `-`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        isUppercase(byte) || isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// Family order, then numeric order (`BATCH-9` before `BATCH-10`).
    private static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = self.split(lhs)
        let right = self.split(rhs)
        if left.family != right.family { return left.family < right.family }
        if left.digits.count != right.digits.count { return left.digits.count < right.digits.count }
        if left.digits != right.digits { return left.digits < right.digits }
        return lhs < rhs
    }

    private static func split(_ id: String) -> (family: Substring, digits: Substring) {
        guard let hyphen = id.lastIndex(of: "-") else { return (id[...], "") }
        let digits = id[id.index(after: hyphen)...].drop { $0 == "0" }
        return (id[..<hyphen], digits)
    }
}
