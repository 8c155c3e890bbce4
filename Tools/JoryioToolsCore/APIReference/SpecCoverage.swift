/// Which members of SPEC §2.2's tables ("every public member of `Joryio.shared`") exist in code.
package struct SpecCoverage: Sendable, Equatable {
    /// One selector from the specification.
    package struct Entry: Sendable, Equatable {
        /// The `#### 2.2.x` heading it is listed under.
        package var section: String
        /// The selector without a `Joryio.` prefix, such as `track(_:properties:)`.
        package var selector: String
        /// Whether a member with exactly that name exists on the type.
        package var exists: Bool
    }

    /// The selectors in specification order.
    package var entries: [Entry]
    /// The type the selectors were looked up on.
    package var type: String

    /// Compares the selectors of the spec's `#### 2.2.x` tables with the members of `type` in
    /// `module`, or in every module when `module` is `nil` (the facade's class is declared in
    /// `JoryioKit` and extended by the products' modules).
    package init(spec: String, reference: APIReference, module: String? = nil, type: String = "Joryio") {
        let members = reference.memberNames(ofType: type, inModule: module)
        self.type = type
        self.entries = Self.selectors(inSpec: spec, typePrefix: type + ".").map {
            Entry(section: $0.section, selector: $0.selector, exists: members.contains($0.selector))
        }
    }

    /// The backticked selectors in the first column of every table under a `#### 2.2.x` heading.
    package static func selectors(inSpec spec: String, typePrefix: String) -> [(section: String, selector: String)] {
        var section: String?
        var found: [(section: String, selector: String)] = []
        for rawLine in spec.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.trimmingWhitespace
            if line.hasPrefix("#") {
                let heading = line.drop { $0 == "#" }.trimmingWhitespace
                section = line.hasPrefix("#### 2.2.") ? String(heading) : nil
                continue
            }
            guard let section, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 1 else { continue }
            let first = cells[1].trimmingWhitespace
            guard first.count > 2, first.hasPrefix("`"), first.hasSuffix("`") else { continue }
            var selector = String(first.dropFirst().dropLast())
            if selector.hasPrefix(typePrefix) {
                selector.removeFirst(typePrefix.count)
            }
            found.append((section, selector))
        }
        return found
    }

    /// A plain-text report: a summary line, then the missing and the present selectors by section.
    package func renderReport() -> String {
        let missing = self.entries.filter { !$0.exists }
        let present = self.entries.filter(\.exists)
        var lines = ["SPEC §2.2: \(present.count) of \(self.entries.count) selectors exist on \(self.type)."]
        lines.append("")
        lines.append("Missing (\(missing.count)):")
        lines += missing.map { "  \($0.section): \($0.selector)" }
        lines.append("")
        lines.append("Present (\(present.count)):")
        lines += present.map { "  \($0.section): \($0.selector)" }
        return lines.joined(separator: "\n") + "\n"
    }
}
