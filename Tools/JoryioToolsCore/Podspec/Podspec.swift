/// A podspec read with line rules, enough to compare it with the package: no Ruby is evaluated.
///
/// Understood: `Pod::Spec.new do |s|`, `s.subspec 'Name' do |ss|` blocks closed by `end`, and
/// `VAR.attribute = 'value', 'value'` or `VAR.attribute 'value'` where the values are single- or
/// double-quoted strings, continued on the next lines while a line ends with `,`, `[` or `{` (hashes
/// such as `resource_bundles = { 'Name' => ['path'] }` give every quoted string, name first).
/// Repeated attributes (`dependency`) accumulate. `#` starts a comment outside quotes.
package struct Podspec: Sendable, Equatable {
    /// One block's attributes: name (`source_files`, `ios.deployment_target`) to quoted values.
    package typealias Attributes = [String: [String]]

    /// A `subspec` block.
    package struct Subspec: Sendable, Equatable {
        /// Its name, such as `Core`.
        package var name: String
        /// Its attributes.
        package var attributes: Attributes
    }

    /// The spec's own attributes.
    package var attributes: Attributes = [:]
    /// The subspecs, in file order.
    package var subspecs: [Subspec] = []

    /// Parses `text`.
    package init(text: String) {
        var stack: [Int?] = []  // per open block: the subspec index, or nil for another block
        var pending: (key: String, subspec: Int?)? = nil
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let (code, strings) = Self.lex(rawLine)
            let trimmed = String(code.trimmingWhitespace)
            if let open = pending {
                self.add(strings, to: open.key, subspec: open.subspec)
                if !Self.continues(trimmed) { pending = nil }
                continue
            }
            let current = stack.compactMap { $0 }.last
            if trimmed == "end" {
                _ = stack.popLast()
                continue
            }
            if trimmed.hasSuffix("|"), trimmed.contains(" do |") {
                if trimmed.contains(".subspec "), let name = strings.first {
                    self.subspecs.append(Subspec(name: name, attributes: [:]))
                    stack.append(self.subspecs.count - 1)
                } else {
                    stack.append(nil)
                }
                continue
            }
            guard let dot = trimmed.firstIndex(of: "."), !trimmed.hasPrefix("Pod::") else { continue }
            let afterVariable = trimmed[trimmed.index(after: dot)...]
            let keyEnd = afterVariable.firstIndex { $0 == " " || $0 == "=" || $0 == "(" } ?? afterVariable.endIndex
            let key = String(afterVariable[..<keyEnd])
            guard !key.isEmpty else { continue }
            self.add(strings, to: key, subspec: current)
            if Self.continues(trimmed) { pending = (key, current) }
        }
    }

    /// The subspec called `name`.
    package func subspec(_ name: String) -> Subspec? {
        self.subspecs.first { $0.name == name }
    }

    private mutating func add(_ values: [String], to key: String, subspec: Int?) {
        if let subspec {
            self.subspecs[subspec].attributes[key, default: []] += values
        } else {
            self.attributes[key, default: []] += values
        }
    }

    private static func continues(_ line: String) -> Bool {
        line.hasSuffix(",") || line.hasSuffix("[") || line.hasSuffix("{") || line.hasSuffix("=>")
    }

    /// A line without its comment and quoted strings, and the quoted strings.
    private static func lex(_ line: Substring) -> (code: String, strings: [String]) {
        var code = ""
        var strings: [String] = []
        var quote: Character? = nil
        var current = ""
        for character in line {
            if let open = quote {
                if character == open {
                    strings.append(current)
                    current = ""
                    quote = nil
                    code.append("_")
                } else {
                    current.append(character)
                }
            } else if character == "'" || character == "\"" {
                quote = character
            } else if character == "#" {
                break
            } else {
                code.append(character)
            }
        }
        return (code, strings)
    }
}
