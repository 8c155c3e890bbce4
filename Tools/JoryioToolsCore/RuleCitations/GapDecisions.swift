/// The open questions of the specification (`GAP-n`, SPEC §6) and which of them `docs/decisions.md`
/// does not name: the project rule is that every decision the spec leaves open is recorded there
/// with its GAP id.
///
/// A GAP is **defined** by a list item of the spec that opens with it in bold, with its title or
/// alone: `- **GAP-n Title.** …` or `- **GAP-n** Text …`. It is **named** by `docs/decisions.md`
/// when the ID appears anywhere in it, as a standalone token (the rules of ``RuleCitations``): a
/// heading, a bullet's lead-in or a sentence all count, since a decision may answer several GAPs.
package enum GapDecisions {
    /// One GAP the spec defines.
    package struct Gap: Sendable, Hashable {
        /// The ID: `GAP-` and the number.
        package var id: String
        /// The 1-based line of the spec that defines it.
        package var line: Int

        /// Creates a GAP.
        package init(id: String, line: Int) {
            self.id = id
            self.line = line
        }
    }

    /// The GAPs `spec` defines, in order; a GAP defined twice is listed at its first line.
    package static func defined(inSpec spec: String) -> [Gap] {
        var found: [Gap] = []
        var seen: Set<String> = []
        for (index, rawLine) in spec.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.drop { $0 == " " || $0 == "\t" }
            let opening = "- **GAP-"
            guard line.hasPrefix(opening) else { continue }
            let rest = line.dropFirst(opening.count)
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            let after = rest.dropFirst(digits.count).first
            guard !digits.isEmpty, after == nil || after == " " || after == "*" else { continue }
            let id = "GAP-" + digits
            if seen.insert(id).inserted {
                found.append(Gap(id: id, line: index + 1))
            }
        }
        return found
    }

    /// The GAP IDs `decisions` names anywhere.
    package static func named(inDecisions decisions: String) -> Set<String> {
        Set(RuleCitations.citations(in: decisions, path: "", families: ["GAP"]).map(\.id))
    }

    /// The GAPs `spec` defines that `decisions` never names, in the spec's order. Empty when every
    /// one is named.
    package static func missing(spec: String, decisions: String) -> [Gap] {
        let named = self.named(inDecisions: decisions)
        return self.defined(inSpec: spec).filter { !named.contains($0.id) }
    }
}
