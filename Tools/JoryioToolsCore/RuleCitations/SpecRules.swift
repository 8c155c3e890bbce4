/// The rules the specification defines (`check-rules` asks `docs/rules.md` for a line for each): every
/// rule of the spec is meant to be resolvable in the repository, with the tests that pin it (or the
/// reason none can run here).
///
/// A rule is **defined** by a list item of the spec that opens with its ID in bold, with a title
/// or alone: `- **BATCH-7** Text …` or `- **GAP-n Title.** …`; the family must be one of
/// ``RuleCitations/specFamilies``. Indented items count too.
package enum SpecRules {
    /// The families whose every rule needs a line in `docs/rules.md`: all but `GAP`, whose open
    /// questions are answered in `docs/decisions.md` (``GapDecisions``).
    package static let ruleFamilies = RuleCitations.specFamilies.subtracting(["GAP"])

    /// One rule the spec defines.
    package struct Item: Sendable, Hashable {
        /// The ID, such as `BATCH-7`.
        package var id: String
        /// The 1-based line of the spec that defines it.
        package var line: Int

        /// Creates an item.
        package init(id: String, line: Int) {
            self.id = id
            self.line = line
        }
    }

    /// The rules of `families` that `spec` defines, in order; one defined twice is listed at its
    /// first line.
    package static func defined(
        inSpec spec: String,
        families: Set<String> = RuleCitations.specFamilies
    ) -> [Item] {
        var found: [Item] = []
        var seen: Set<String> = []
        for (index, rawLine) in spec.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            let opening = "- **"
            guard line.hasPrefix(opening) else { continue }
            let rest = line.dropFirst(opening.count)
            let family = rest.prefix { $0.isASCII && $0.isUppercase }
            guard families.contains(String(family)), rest.dropFirst(family.count).first == "-" else { continue }
            let number = rest.dropFirst(family.count + 1)
            let digits = number.prefix { $0.isASCII && $0.isNumber }
            let after = number.dropFirst(digits.count).first
            guard !digits.isEmpty, after == nil || after == " " || after == "*" else { continue }
            let id = "\(family)-\(digits)"
            if seen.insert(id).inserted {
                found.append(Item(id: id, line: index + 1))
            }
        }
        return found
    }
}
