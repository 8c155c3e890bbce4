/// Finds the required-reason APIs (``RequiredReasonAPIs``) that Swift sources use on Apple platforms.
///
/// Comments and string literals are skipped, and so are `#if` branches that cannot be compiled for
/// an Apple platform: `os(Linux)`, `canImport(Glibc)` and the like (``AppleTruth``). The scan works
/// line by line with no parser, so it misses what it cannot see as an identifier (a use inside a
/// string interpolation) and flags what merely shares a name (a local called `stat`): the second is
/// what the allow-list (``Allowance``) is for.
package enum RequiredReasonScanner {
    /// One identifier of Apple's list in code that compiles for an Apple platform.
    package struct Use: Sendable, Hashable {
        /// The identifier, such as `lstat`.
        package var api: String
        /// Its category's manifest key.
        package var category: String
        /// The file's path, as the caller gave it.
        package var path: String
        /// The 1-based line number.
        package var line: Int

        /// Creates a use.
        package init(api: String, category: String, path: String, line: Int) {
            self.api = api
            self.category = category
            self.path = path
            self.line = line
        }

        /// `path:line`.
        package var location: String { "\(self.path):\(self.line)" }
    }

    /// An allow-list line: `PATH API: REASON`, a use that needs no declaration, and why.
    package struct Allowance: Sendable, Hashable {
        /// The file, relative to the repository root.
        package var path: String
        /// The identifier allowed in that file.
        package var api: String
        /// Why it needs no declaration (never empty).
        package var reason: String
        /// The allow-list line it came from.
        package var line: Int

        /// Creates an allowance.
        package init(path: String, api: String, reason: String, line: Int) {
            self.path = path
            self.api = api
            self.reason = reason
            self.line = line
        }
    }

    /// Whether a compilation condition can hold when compiling for an Apple platform.
    package enum AppleTruth: Sendable, Equatable {
        /// Always true on Apple platforms (`canImport(Darwin)`, `!os(Linux)`).
        case yes
        /// Never true on Apple platforms (`os(Linux)`, `canImport(Glibc)`).
        case no
        /// True on some Apple platform or configuration (`os(iOS)`, `canImport(UIKit)`, `DEBUG`).
        case maybe
    }

    /// Operating systems of `os(...)` that are Apple platforms.
    package static let appleSystems: Set<String> = ["iOS", "macOS", "tvOS", "watchOS", "visionOS", "xrOS", "OSX"]

    /// Modules that `canImport(...)` never finds on an Apple platform: the other platforms' C
    /// libraries, swift-corelibs-foundation's split modules, and the package's libcurl wrapper (a
    /// dependency only on Linux and Android in Package.swift).
    package static let nonAppleModules: Set<String> = [
        "Glibc", "Musl", "Android", "Bionic", "WinSDK", "ucrt", "WASILibc", "CRT", "FoundationNetworking",
        "FoundationXML", "CJoryioCurl",
    ]

    /// Modules every Apple platform has.
    package static let appleModules: Set<String> = ["Darwin", "Foundation", "ObjectiveC", "Dispatch", "CoreFoundation"]

    // MARK: - Scanning

    /// The uses in one Swift file, in line order.
    package static func uses(in text: String, path: String) -> [Use] {
        var found: [Use] = []
        var lexer = Lexer()
        var branches: [Branch] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = lexer.code(of: rawLine)
            let trimmed = code.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("#") {
                self.directive(trimmed, branches: &branches)
                continue
            }
            guard branches.allSatisfy(\.reachable) else { continue }
            for identifier in self.identifiers(in: code) {
                if let category = RequiredReasonAPIs.categoryByIdentifier[identifier] {
                    found.append(Use(api: identifier, category: category.manifestKey, path: path, line: index + 1))
                }
            }
        }
        return found
    }

    /// Whether `condition` (the text after `#if` or `#elseif`) can hold on an Apple platform.
    package static func appleTruth(of condition: some StringProtocol) -> AppleTruth {
        var parser = ConditionParser(Array(condition.utf8))
        return parser.expression()
    }

    // MARK: - Checking

    /// The uses that are neither in a category `declared` lists nor allowed by `allowances`.
    package static func undeclared(_ uses: [Use], declared: Set<String>, allowances: [Allowance]) -> [Use] {
        let allowed = Set(allowances.map { "\($0.path)\u{0}\($0.api)" })
        return uses.filter { !declared.contains($0.category) && !allowed.contains("\($0.path)\u{0}\($0.api)") }
    }

    /// The allowances no use matches: stale lines to delete.
    package static func unused(_ allowances: [Allowance], uses: [Use]) -> [Allowance] {
        let used = Set(uses.map { "\($0.path)\u{0}\($0.api)" })
        return allowances.filter { !used.contains("\($0.path)\u{0}\($0.api)") }
    }

    /// Parses an allow-list: one `PATH API: REASON` per line; blank lines and `#` comments skipped.
    ///
    /// - Throws: ``ToolError`` (invalid input) for a line without a path, an API of Apple's list or
    ///   a reason, naming the line.
    package static func allowances(in text: String, origin: String) throws(ToolError) -> [Allowance] {
        var found: [Allowance] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            let location = "\(origin):\(index + 1)"
            let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2, let colon = parts[1].firstIndex(of: ":") else {
                throw ToolError(.invalidInput, "\(location): expected 'PATH API: REASON'")
            }
            let api = String(parts[1][..<colon].trimmingWhitespace)
            let reason = String(parts[1][parts[1].index(after: colon)...].trimmingWhitespace)
            guard RequiredReasonAPIs.categoryByIdentifier[api] != nil else {
                throw ToolError(.invalidInput, "\(location): '\(api)' is not on Apple's required-reason API list")
            }
            guard !reason.isEmpty else {
                throw ToolError(.invalidInput, "\(location): the allowance of \(api) gives no reason")
            }
            found.append(Allowance(path: parts[0], api: api, reason: reason, line: index + 1))
        }
        return found
    }

    // MARK: - Conditional compilation

    /// One open `#if` block: whether the current branch compiles for Apple, and whether an earlier
    /// branch certainly did (so the rest cannot).
    private struct Branch {
        var reachable: Bool
        var taken: Bool
    }

    private static func directive(_ line: Substring, branches: inout [Branch]) {
        let words = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        let keyword = words.first.map(String.init) ?? ""
        let condition = words.count > 1 ? words[1] : ""
        switch keyword {
        case "#if":
            let truth = self.appleTruth(of: condition)
            branches.append(Branch(reachable: truth != .no, taken: truth == .yes))
        case "#elseif":
            guard var branch = branches.popLast() else { return }
            let truth = self.appleTruth(of: condition)
            branch.reachable = !branch.taken && truth != .no
            branch.taken = branch.taken || truth == .yes
            branches.append(branch)
        case "#else":
            guard var branch = branches.popLast() else { return }
            branch.reachable = !branch.taken
            branch.taken = true
            branches.append(branch)
        case "#endif":
            _ = branches.popLast()
        default:
            break
        }
    }

    /// A recursive-descent reader of `#if` conditions: `||`, `&&`, `!`, parentheses and atoms.
    private struct ConditionParser {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        mutating func expression() -> AppleTruth {
            var value = self.conjunction()
            while self.consume("||") {
                let rhs = self.conjunction()
                value = value == .yes || rhs == .yes ? .yes : (value == .no && rhs == .no ? .no : .maybe)
            }
            return value
        }

        mutating func conjunction() -> AppleTruth {
            var value = self.unary()
            while self.consume("&&") {
                let rhs = self.unary()
                value = value == .no || rhs == .no ? .no : (value == .yes && rhs == .yes ? .yes : .maybe)
            }
            return value
        }

        mutating func unary() -> AppleTruth {
            if self.consume("!") {
                switch self.unary() {
                case .yes: return .no
                case .no: return .yes
                case .maybe: return .maybe
                }
            }
            if self.consume("(") {
                let value = self.expression()
                _ = self.consume(")")
                return value
            }
            return self.atom()
        }

        mutating func atom() -> AppleTruth {
            self.skipSpaces()
            let start = self.index
            while self.index < self.bytes.count, RequiredReasonScanner.isIdentifierByte(self.bytes[self.index]) {
                self.index += 1
            }
            let name = String(decoding: self.bytes[start..<self.index], as: UTF8.self)
            guard !name.isEmpty else {
                self.index = self.bytes.count
                return .maybe
            }
            var argument = ""
            if self.consume("(") {
                let open = self.index
                while self.index < self.bytes.count, self.bytes[self.index] != UInt8(ascii: ")") {
                    self.index += 1
                }
                argument = String(String(decoding: self.bytes[open..<self.index], as: UTF8.self).trimmingWhitespace)
                _ = self.consume(")")
            }
            switch name {
            case "true": return .yes
            case "false": return .no
            case "os": return RequiredReasonScanner.appleSystems.contains(argument) ? .maybe : .no
            case "canImport":
                let module = String((argument.split(separator: ",").first ?? "").trimmingWhitespace)
                if RequiredReasonScanner.nonAppleModules.contains(module) { return .no }
                return RequiredReasonScanner.appleModules.contains(module) ? .yes : .maybe
            default: return .maybe
            }
        }

        mutating func consume(_ token: String) -> Bool {
            self.skipSpaces()
            let expected = Array(token.utf8)
            guard self.index + expected.count <= self.bytes.count,
                Array(self.bytes[self.index..<self.index + expected.count]) == expected
            else { return false }
            self.index += expected.count
            return true
        }

        mutating func skipSpaces() {
            while self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: " ") {
                self.index += 1
            }
        }
    }

    // MARK: - Lexing

    /// Strips comments and string literal contents, carrying block comments and multi-line strings
    /// over line ends.
    private struct Lexer {
        var commentDepth = 0
        var inMultilineString = false

        mutating func code(of line: Substring) -> String {
            let bytes = Array(line.utf8)
            var kept: [UInt8] = []
            var index = 0
            func at(_ offset: Int, _ text: String) -> Bool {
                let expected = Array(text.utf8)
                return offset + expected.count <= bytes.count
                    && Array(bytes[offset..<offset + expected.count]) == expected
            }
            while index < bytes.count {
                if self.commentDepth > 0 {
                    if at(index, "/*") {
                        self.commentDepth += 1
                        index += 2
                    } else if at(index, "*/") {
                        self.commentDepth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } else if self.inMultilineString {
                    if at(index, "\"\"\"") {
                        self.inMultilineString = false
                        kept.append(UInt8(ascii: " "))
                        index += 3
                    } else {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                } else if at(index, "//") {
                    break
                } else if at(index, "/*") {
                    self.commentDepth = 1
                    index += 2
                } else if at(index, "\"\"\"") {
                    self.inMultilineString = true
                    index += 3
                } else if bytes[index] == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                    index += 1
                    kept.append(UInt8(ascii: " "))
                } else {
                    kept.append(bytes[index])
                    index += 1
                }
            }
            return String(decoding: kept, as: UTF8.self)
        }
    }

    /// The identifiers in a line of code; a token starting with a digit (a number) is none.
    private static func identifiers(in code: String) -> [String] {
        var found: [String] = []
        var current: [UInt8] = []
        for byte in code.utf8 {
            if self.isIdentifierByte(byte) {
                current.append(byte)
            } else if !current.isEmpty {
                found.append(String(decoding: current, as: UTF8.self))
                current = []
            }
        }
        if !current.isEmpty { found.append(String(decoding: current, as: UTF8.self)) }
        return found.filter { !self.isDigit($0.utf8.first ?? 0) }
    }

    static func isIdentifierByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || self.isDigit(byte) || byte == UInt8(ascii: "_")
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
