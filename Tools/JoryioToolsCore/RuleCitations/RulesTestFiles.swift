internal import Foundation

/// What `docs/rules.md` says about tests, checked against the repository (issue 26): every
/// `…Tests.swift` file a line cites exists, and no line still calls Apple code "reviewed by eye"
/// (it is compiled by `make check-apple` now; such a line says what was reviewed).
package enum RulesTestFiles {
    /// A problem on one line of `docs/rules.md`.
    package struct Problem: Sendable, Equatable {
        /// The 1-based line.
        package var line: Int
        /// What is wrong.
        package var message: String
    }

    /// The problems of `rules` given the test files that exist (file names, such as
    /// `AuthTests.swift`).
    package static func problems(rules: String, existing: Set<String>) -> [Problem] {
        var problems: [Problem] = []
        for (index, line) in rules.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for name in self.citedTestFiles(in: line) where !existing.contains(name) {
                problems.append(
                    Problem(line: index + 1, message: "cites \(name), which is not a test file under Tests/")
                )
            }
            if line.contains("reviewed by eye") {
                problems.append(
                    Problem(
                        line: index + 1,
                        message:
                            "says 'reviewed by eye': Apple code is compiled by make check-apple; write "
                            + "'compiled by `make check-apple`, behaviour reviewed: <what>', or cite a test"
                    )
                )
            }
        }
        return problems
    }

    /// The `…Tests.swift` names in `line`, in order (a name is letters, digits and `+`).
    static func citedTestFiles(in line: Substring) -> [String] {
        var names: [String] = []
        let suffix = "Tests.swift"
        var rest = line[...]
        while let range = rest.range(of: suffix) {
            var start = range.lowerBound
            while start > rest.startIndex {
                let before = rest.index(before: start)
                let character = rest[before]
                guard character.isLetter || character.isNumber || character == "+" else { break }
                start = before
            }
            let end = range.upperBound
            let followedByName = end < rest.endIndex && (rest[end].isLetter || rest[end].isNumber)
            if start < range.lowerBound, !followedByName { names.append(String(rest[start..<end])) }
            rest = rest[end...]
        }
        return names
    }
}
